/**
 * The `time` module (starlark-go lib/time), with the clock injected by the host. Time zones are
 * limited to UTC and fixed offsets (no tz database offline). Durations are int nanoseconds (bigint).
 *
 * Members: from_timestamp is_valid_timezone now parse_duration parse_time time, and the duration
 * constants nanosecond microsecond millisecond second minute hour.
 */
import type { Value } from '../value/contract.ts';
import { Builtin } from '../value/builtin.ts';
import { Float } from '../value/float.ts';
import { Module } from '../value/struct.ts';
import { fail, failIn } from '../value/errors.ts';
import { normBig } from '../value/int.ts';
import { typeNameOf } from '../value/repr.ts';
import { unpack, wantString } from './args.ts';

const NS = { ns: 1n, us: 1000n, µs: 1000n, ms: 1000000n, s: 1000000000n, m: 60000000000n, h: 3600000000000n } as const;

/** A span of time in nanoseconds. */
export class Duration {
  readonly starlarkType = 'time.duration';
  readonly ns: bigint;
  constructor(ns: bigint) {
    this.ns = ns;
  }
  hashKey(): string {
    return '\u0105d' + this.ns;
  }
  repr(out: string[]): void {
    out.push(formatDuration(this.ns));
  }
  str(): string {
    return formatDuration(this.ns);
  }
  attr(name: string): Value | undefined {
    const n = Number(this.ns);
    switch (name) {
      case 'hours':
        return new Float(n / 3.6e12);
      case 'minutes':
        return new Float(n / 6e10);
      case 'seconds':
        return new Float(n / 1e9);
      case 'milliseconds':
        return normBig(this.ns / 1000000n);
      case 'microseconds':
        return normBig(this.ns / 1000n);
      case 'nanoseconds':
        return normBig(this.ns);
    }
    return undefined;
  }
  attrNames(): string[] {
    return ['hours', 'microseconds', 'milliseconds', 'minutes', 'nanoseconds', 'seconds'];
  }
  compareSameType(op: string, other: Value): boolean {
    return cmp(op, this.ns, (other as Duration).ns);
  }
  binaryOp(op: string, y: Value, side: 'left' | 'right'): Value | undefined {
    const yi = typeof y === 'number' ? BigInt(y) : typeof y === 'bigint' ? y : undefined;
    if (y instanceof Duration) {
      const [a, b] = side === 'left' ? [this.ns, y.ns] : [y.ns, this.ns];
      switch (op) {
        case '+':
          return new Duration(a + b);
        case '-':
          return new Duration(a - b);
        case '/':
          if (b === 0n) fail('division by zero');
          return new Float(Number(a) / Number(b));
        case '//':
          if (b === 0n) fail('division by zero');
          return normBig(a / b);
      }
      return undefined;
    }
    if (yi !== undefined) {
      if (op === '*') return new Duration(this.ns * yi);
      if (side === 'left' && (op === '/' || op === '//')) {
        if (yi === 0n) fail('division by zero');
        return new Duration(this.ns / yi);
      }
    }
    return undefined;
  }
}

function cmp(op: string, a: bigint, b: bigint): boolean {
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    default:
      return a >= b;
  }
}

/** Go's Duration.String(): `1h2m3.5s`, `1.5ms`, `0s`. */
export function formatDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  let u = neg ? -ns : ns;
  let out: string;
  const frac = (v: bigint, unit: bigint, digits: number): string => {
    const whole = v / unit,
      rem = v % unit;
    if (rem === 0n) return whole.toString();
    return whole + '.' + rem.toString().padStart(digits, '0').replace(/0+$/, '');
  };
  if (u < NS.us) out = u + 'ns';
  else if (u < NS.ms) out = frac(u, NS.us, 3) + 'µs';
  else if (u < NS.s) out = frac(u, NS.ms, 6) + 'ms';
  else {
    const h = u / NS.h;
    u -= h * NS.h;
    const m = u / NS.m;
    u -= m * NS.m;
    out = (h > 0n ? h + 'h' : '') + (h > 0n || m > 0n ? m + 'm' : '') + frac(u, NS.s, 9) + 's';
  }
  return (neg ? '-' : '') + out;
}

/** Go's time.ParseDuration. */
export function parseDuration(s: string): bigint {
  const orig = s;
  const bad = (): never => fail(`time: invalid duration "${orig}"`);
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') bad();
  let total = 0n;
  const re = /^([0-9]*)(?:\.([0-9]*))?(ns|us|µs|ms|s|m|h)/;
  while (s.length > 0) {
    const m = re.exec(s);
    if (m === null || (m[1] === '' && (m[2] === undefined || m[2] === ''))) return bad();
    const unit = NS[m[3] as keyof typeof NS];
    total += BigInt(m[1] || '0') * unit;
    if (m[2]) {
      const scale = 10n ** BigInt(m[2].length);
      total += (BigInt(m[2]) * unit) / scale;
    }
    s = s.slice(m[0].length);
  }
  return neg ? -total : total;
}

/** An instant with a fixed UTC offset (seconds east of UTC). */
export class Time {
  readonly starlarkType = 'time.time';
  readonly unixNano: bigint;
  readonly offset: number;
  constructor(unixNano: bigint, offset = 0) {
    this.unixNano = unixNano;
    this.offset = offset;
  }
  private parts(): { d: Date; nano: number } {
    const local = this.unixNano + BigInt(this.offset) * NS.s;
    let ms = local / NS.ms;
    let nano = Number(local % NS.s);
    if (nano < 0) {
      nano += 1e9;
    }
    if (local < 0n && local % NS.ms !== 0n) ms -= 1n;
    return { d: new Date(Number(ms)), nano };
  }
  hashKey(): string {
    return '\u0105t' + this.unixNano;
  }
  str(): string {
    const { d, nano } = this.parts();
    const p = (n: number, w = 2): string => String(n).padStart(w, '0');
    let s = `${p(d.getUTCFullYear(), 4)}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
    if (nano !== 0) s += '.' + String(nano).padStart(9, '0').replace(/0+$/, '');
    const off = this.offset;
    const a = Math.abs(off);
    s += ` ${off < 0 ? '-' : '+'}${p(Math.floor(a / 3600))}${p(Math.floor((a % 3600) / 60))}`;
    s += off === 0 ? ' UTC' : '';
    return s;
  }
  repr(out: string[]): void {
    out.push(this.str());
  }
  attr(name: string): Value | undefined {
    const { d, nano } = this.parts();
    switch (name) {
      case 'year':
        return d.getUTCFullYear();
      case 'month':
        return d.getUTCMonth() + 1;
      case 'day':
        return d.getUTCDate();
      case 'hour':
        return d.getUTCHours();
      case 'minute':
        return d.getUTCMinutes();
      case 'second':
        return d.getUTCSeconds();
      case 'nanosecond':
        return nano;
      case 'unix':
        return normBig(floorDiv(this.unixNano, NS.s));
      case 'unix_nano':
        return normBig(this.unixNano);
      case 'in_location':
        return new Builtin(
          'in_location',
          (thread, args, kwargs) => {
            const { values, labels } = unpack('in_location', args, kwargs, ['location'], thread.release);
            return new Time(this.unixNano, zoneOffset('in_location', wantString('in_location', labels[0], values[0]!)));
          },
          this,
        );
    }
    return undefined;
  }
  attrNames(): string[] {
    return ['day', 'hour', 'in_location', 'minute', 'month', 'nanosecond', 'second', 'unix', 'unix_nano', 'year'];
  }
  compareSameType(op: string, other: Value): boolean {
    return cmp(op, this.unixNano, (other as Time).unixNano);
  }
  binaryOp(op: string, y: Value, side: 'left' | 'right'): Value | undefined {
    if (y instanceof Duration) {
      if (op === '+') return new Time(this.unixNano + y.ns, this.offset);
      if (op === '-' && side === 'left') return new Time(this.unixNano - y.ns, this.offset);
    }
    if (y instanceof Time && op === '-') {
      return new Duration(side === 'left' ? this.unixNano - y.unixNano : y.unixNano - this.unixNano);
    }
    return undefined;
  }
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}

/** Offset in seconds for "UTC", "" , "Z" or a fixed "+hh:mm"/"-hhmm" zone; else an error. */
function zoneOffset(fn: string, loc: string): number {
  const off = tryZone(loc);
  if (off === undefined) failIn(fn, `unknown time zone ${loc}`);
  return off;
}

function tryZone(loc: string): number | undefined {
  if (loc === '' || loc === 'UTC' || loc === 'Z' || loc === 'Etc/UTC' || loc === 'GMT') return 0;
  const m = /^(?:UTC|GMT)?([+-])(\d{2}):?(\d{2})$/.exec(loc);
  if (m === null) return undefined;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60);
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

function parseRFC3339(s: string): Time {
  const m = RFC3339.exec(s);
  if (m === null) fail(`parsing time "${s}" as "2006-01-02T15:04:05Z07:00": cannot parse`);
  const [, y, mo, d, h, mi, se, frac, zone] = m;
  const off = tryZone(zone)!;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(se));
  const nano = BigInt((frac ?? '').padEnd(9, '0') || '0');
  return new Time(BigInt(ms) * NS.ms + nano - BigInt(off) * NS.s, off);
}

function intArg(fn: string, label: string, v: Value | undefined, dflt: number): bigint {
  if (v === undefined) return BigInt(dflt);
  if (typeof v === 'number') return BigInt(v);
  if (typeof v === 'bigint') return v;
  return failIn(fn, `for parameter ${label}: got ${typeNameOf(v)}, want int`);
}

export interface TimeModuleOptions {
  /** The clock for `time.now()`, epoch milliseconds. Without it `now()` fails. */
  now?: () => number;
}

/** Builds a `time` module bound to the host's clock. */
export function createTimeModule(opts: TimeModuleOptions = {}): Module {
  const nowFn = opts.now;
  return new Module(
    'time',
    Object.freeze({
      from_timestamp: new Builtin('from_timestamp', (thread, args, kwargs) => {
        const { values, labels } = unpack('from_timestamp', args, kwargs, ['sec', 'nsec?'], thread.release);
        const sec = intArg('from_timestamp', labels[0], values[0], 0);
        const nsec = intArg('from_timestamp', labels[1], values[1], 0);
        return new Time(sec * NS.s + nsec);
      }),
      is_valid_timezone: new Builtin('is_valid_timezone', (thread, args, kwargs) => {
        const { values, labels } = unpack('is_valid_timezone', args, kwargs, ['loc'], thread.release);
        return tryZone(wantString('is_valid_timezone', labels[0], values[0]!)) !== undefined;
      }),
      now: new Builtin('now', (thread, args, kwargs) => {
        unpack('now', args, kwargs, [], thread.release);
        if (nowFn === undefined) failIn('now', 'no clock available to this script');
        return new Time(BigInt(Math.round(nowFn() * 1000)) * 1000n);
      }),
      parse_duration: new Builtin('parse_duration', (thread, args, kwargs) => {
        const { values, labels } = unpack('parse_duration', args, kwargs, ['d'], thread.release);
        const d = values[0]!;
        if (d instanceof Duration) return d;
        return new Duration(parseDuration(wantString('parse_duration', labels[0], d)));
      }),
      parse_time: new Builtin('parse_time', (thread, args, kwargs) => {
        const { values, labels } = unpack('parse_time', args, kwargs, ['x', 'format?', 'location?'], thread.release);
        const x = wantString('parse_time', labels[0], values[0]!);
        if (values[1] !== undefined && values[1] !== '2006-01-02T15:04:05Z07:00') {
          failIn('parse_time', 'only the RFC 3339 layout is supported');
        }
        const t = parseRFC3339(x);
        if (values[2] !== undefined)
          return new Time(t.unixNano, zoneOffset('parse_time', wantString('parse_time', labels[2], values[2])));
        return t;
      }),
      time: new Builtin('time', (thread, args, kwargs) => {
        const p = ['year?', 'month?', 'day?', 'hour?', 'minute?', 'second?', 'nanosecond?', 'location?'];
        const { values, labels } = unpack('time', args, kwargs, p, thread.release);
        const n = (i: number, d: number): number => Number(intArg('time', labels[i], values[i], d));
        const off = values[7] === undefined ? 0 : zoneOffset('time', wantString('time', labels[7], values[7]));
        const ms = Date.UTC(n(0, 1970), n(1, 1) - 1, n(2, 1), n(3, 0), n(4, 0), n(5, 0));
        return new Time(BigInt(ms) * NS.ms + BigInt(n(6, 0)) - BigInt(off) * NS.s, off);
      }),
      nanosecond: new Duration(NS.ns),
      microsecond: new Duration(NS.us),
      millisecond: new Duration(NS.ms),
      second: new Duration(NS.s),
      minute: new Duration(NS.m),
      hour: new Duration(NS.h),
    }),
  );
}
