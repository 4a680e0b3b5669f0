/**
 * The host's table of JS values referenced from Go (Go `js/wasm` port, docs/wasm.md, "Go `js/wasm` (kpt's alpha ABI)"). A reference
 * is 8 bytes read as a float64: a plain non-zero number is itself, all-zero bits are `undefined`,
 * and everything else is a NaN-boxed id (`0x7FF80000 | typeFlag` in the high word, the id in the
 * low word) into this table. Ids are reference-counted; ids 0–6 are predefined and never freed.
 */
const NAN_HEAD = 0x7ff80000;

export class ValueTable {
  private values: unknown[];
  private counts: number[];
  private readonly ids = new Map<unknown, number>();
  private readonly free: number[] = [];

  /** `global` becomes id 5 and `glue` id 6. */
  constructor(global: object, glue: object) {
    this.values = [NaN, 0, null, true, false, global, glue];
    this.counts = this.values.map(() => Infinity);
    this.ids.set(0, 1);
    this.ids.set(null, 2);
    this.ids.set(true, 3);
    this.ids.set(false, 4);
    this.ids.set(global, 5);
    this.ids.set(glue, 6);
  }

  load(view: DataView, addr: number): unknown {
    const f = view.getFloat64(addr, true);
    if (f === 0) return undefined;
    if (!Number.isNaN(f)) return f;
    return this.values[view.getUint32(addr, true)];
  }

  store(view: DataView, addr: number, v: unknown): void {
    if (typeof v === 'number' && v !== 0) {
      if (Number.isNaN(v)) {
        view.setUint32(addr + 4, NAN_HEAD, true);
        view.setUint32(addr, 0, true);
      } else {
        view.setFloat64(addr, v, true);
      }
      return;
    }
    if (v === undefined) {
      view.setFloat64(addr, 0, true);
      return;
    }
    let id = this.ids.get(v);
    if (id === undefined) {
      id = this.free.pop() ?? this.values.length;
      this.values[id] = v;
      this.counts[id] = 0;
      this.ids.set(v, id);
    }
    this.counts[id]++;
    view.setUint32(addr + 4, NAN_HEAD | typeFlag(v), true);
    view.setUint32(addr, id, true);
  }

  /** Go dropped one reference to `id`; the slot is recycled at zero. */
  finalize(id: number): void {
    const n = this.counts[id];
    if (n === undefined || n === Infinity) return;
    if (n <= 1) {
      this.ids.delete(this.values[id]);
      this.values[id] = undefined;
      this.counts[id] = 0;
      this.free.push(id);
    } else {
      this.counts[id] = n - 1;
    }
  }

  /** Drops every value (after the program exited). */
  clear(): void {
    this.values = [];
    this.counts = [];
    this.ids.clear();
  }

  /** Live (non-predefined) references, for leak checks. */
  get liveCount(): number {
    let n = 0;
    for (let i = 7; i < this.counts.length; i++) if (this.counts[i] > 0) n++;
    return n;
  }
}

function typeFlag(v: unknown): number {
  switch (typeof v) {
    case 'object':
      return v === null ? 0 : 1;
    case 'string':
      return 2;
    case 'symbol':
      return 3;
    case 'function':
      return 4;
    default:
      return 0;
  }
}
