/**
 * Compiles a resolved syntax tree to a tree of JS closures (no `eval`, CSP-safe). Names are
 * resolved to slots at compile time: locals are `fr.l[i]`, cells `fr.l[i].v`, free variables
 * `fr.free[i].v`, globals and file-locals index arrays owned by the module; predeclared and
 * universal names become constants. Hot operations (small-int arithmetic and comparison, string
 * concatenation, list indexing, for over lists and ranges) are inlined; everything else calls the
 * value layer's operator functions. Steps are counted per loop iteration and per call.
 *
 * A compiled module is bound to its globals; compile again to run the same source afresh.
 */
import type { Value } from '../value/contract.ts';
import { None } from '../value/contract.ts';
import { Float } from '../value/float.ts';
import { Bytes } from '../value/bytes.ts';
import { List, Tuple, EMPTY_TUPLE } from '../value/list.ts';
import { Dict } from '../value/hashtable.ts';
import { Range } from '../value/range.ts';
import { fail } from '../value/errors.ts';
import {
  getIndex,
  isIterableValue,
  iterate,
  repr,
  setField,
  setIndex,
  slice,
  toArray,
  typeName,
} from '../value/ops.ts';
import type { Comprehension, DictEntry, Expr, FunctionNode, Ident, LoadStmt, Stmt as StmtNode } from '../syntax/ast.ts';
import type { Pos } from '../syntax/tokens.ts';
import type { Binding, FunctionScope } from '../resolve/binding.ts';
import { bindingOf, scopeOf } from '../resolve/binding.ts';
import type { ResolvedModule } from '../resolve/resolver.ts';
import { nearest } from '../spell.ts';
import { binaryToHost, hostToBinary } from '../syntax/utf8.ts';
import { type Cell } from '../eval/frame.ts';
import type { Frame, Slot } from '../eval/frame.ts';
import { StarlarkFunction } from '../eval/function.ts';
import type { FuncCode, Stmt } from '../eval/function.ts';
import {
  BREAK,
  CONTINUE,
  DICT_BYTES,
  ELEM_BYTES,
  ENTRY_BYTES,
  FUNCTION_BYTES,
  LIST_BYTES,
  MAX_SAFE,
  NORMAL,
  RETURN,
  augmented,
  isTrue,
  posOf,
  unboundGlobal,
  unboundLocal,
} from './runtime.ts';
import type { Assign, Ex } from './runtime.ts';
import { binaryExpr, unaryExpr } from './operators.ts';
import { callExpr } from './calls.ts';
import { getAttr } from '../lib/attrs.ts';

export interface CompileOptions {
  file: string;
  /** Functions compiled here may recurse. */
  recursion: boolean;
  /** Binary name → value, for predeclared names. */
  predeclared: Map<string, Value>;
  /** Binary name → value, for universal names. */
  universe: Map<string, Value>;
}

export interface CompiledModule {
  /** Global slots (undefined until assigned); names in `globalNames`. */
  readonly globals: Slot[];
  readonly globalNames: readonly string[];
  readonly filelocals: Slot[];
  readonly toplevel: FuncCode;
}

class FunctionCompiler {
  readonly scope: FunctionScope;
  /** Extra hidden slots (comprehension accumulators) beyond the resolver's locals. */
  extra = 0;
  constructor(scope: FunctionScope) {
    this.scope = scope;
  }
  newSlot(): number {
    return this.scope.locals.length + this.extra++;
  }
}

export class Compiler {
  private readonly opts: CompileOptions;
  private readonly G: Slot[];
  private readonly FL: Slot[];
  private fc!: FunctionCompiler;

  constructor(opts: CompileOptions, mod: ResolvedModule) {
    this.opts = opts;
    this.G = new Array<Slot>(mod.globals.length);
    this.FL = new Array<Slot>(mod.filelocals.length);
  }

  compileModule(mod: ResolvedModule): CompiledModule {
    const code = this.compileCode('<toplevel>', mod.toplevel, mod.file.stmts);
    return {
      globals: this.G,
      globalNames: mod.globals.map((b) => b.name),
      filelocals: this.FL,
      toplevel: code,
    };
  }

  private compileCode(name: string, scope: FunctionScope, body: StmtNode[]): FuncCode {
    const saved = this.fc;
    this.fc = new FunctionCompiler(scope);
    const compiled = this.block(body);
    const fc = this.fc;
    this.fc = saved;
    const cellSlots: number[] = [];
    for (const b of scope.locals) if (b.scope === 'cell') cellSlots.push(b.index);
    const paramNames = scope.locals.slice(0, scope.numParams).map((b) => b.name);
    return {
      name,
      file: this.opts.file,
      nlocals: scope.locals.length + fc.extra,
      paramNames,
      numParams: scope.numParams,
      numKwonly: scope.numKwonly,
      hasVarargs: scope.hasVarargs,
      hasKwargs: scope.hasKwargs,
      fastArity: scope.hasVarargs || scope.hasKwargs || scope.numKwonly > 0 ? -1 : scope.numParams,
      cellSlots,
      body: compiled,
      recursion: this.opts.recursion,
      active: 0,
    };
  }

  // --- statements ---------------------------------------------------------------------------

  private block(stmts: StmtNode[]): Stmt {
    const cs = stmts.map((s) => this.stmt(s));
    switch (cs.length) {
      case 0:
        return () => NORMAL;
      case 1:
        return cs[0];
      case 2: {
        const a = cs[0],
          b = cs[1];
        return (fr) => a(fr) || b(fr);
      }
      case 3: {
        const a = cs[0],
          b = cs[1],
          c = cs[2];
        return (fr) => a(fr) || b(fr) || c(fr);
      }
      default: {
        const n = cs.length;
        return (fr) => {
          for (let i = 0; i < n; i++) {
            const c = cs[i](fr);
            if (c !== NORMAL) return c;
          }
          return NORMAL;
        };
      }
    }
  }

  private stmt(s: StmtNode): Stmt {
    switch (s.k) {
      case 'expr': {
        const x = this.expr(s.x);
        return (fr) => {
          x(fr);
          return NORMAL;
        };
      }
      case 'assign':
        return s.op === '='
          ? this.assignStmt(s.lhs, s.rhs, s.pos)
          : this.augAssign(s.lhs, s.op.slice(0, -1), s.rhs, s.pos);
      case 'def': {
        const mk = this.makeFunction(s.fn);
        const w = this.assignTo(s.name, s.pos);
        return (fr) => {
          w(fr, mk(fr));
          return NORMAL;
        };
      }
      case 'if': {
        const c = this.expr(s.cond);
        const t = this.block(s.then);
        const f = this.block(s.else_);
        return (fr) => (isTrue(c(fr)) ? t(fr) : f(fr));
      }
      case 'for':
        return this.forStmt(s.vars, s.x, s.body, s.pos);
      case 'while': {
        const c = this.expr(s.cond);
        const body = this.block(s.body);
        const p = posOf(s.pos);
        return (fr) => {
          const th = fr.th;
          while (isTrue(c(fr))) {
            if (--th.tick <= 0) {
              fr.pos = p;
              th.poll();
            }
            const r = body(fr);
            if (r !== NORMAL) {
              if (r === BREAK) break;
              if (r === RETURN) return r;
            }
          }
          return NORMAL;
        };
      }
      case 'return': {
        if (s.x === null) {
          return (fr) => {
            fr.ret = None;
            return RETURN;
          };
        }
        const x = this.expr(s.x);
        return (fr) => {
          fr.ret = x(fr);
          return RETURN;
        };
      }
      case 'break':
        return () => BREAK;
      case 'continue':
        return () => CONTINUE;
      case 'pass':
        return () => NORMAL;
      case 'load':
        return this.loadStmt(s);
    }
  }

  private assignStmt(lhs: Expr, rhs: Expr, pos: Pos): Stmt {
    const r = this.expr(rhs);
    if (lhs.k === 'ident') {
      const b = bindingOf(lhs);
      const i = b.index;
      switch (b.scope) {
        case 'local':
          return (fr) => {
            fr.l[i] = r(fr);
            return NORMAL;
          };
        case 'global': {
          const G = this.G;
          return (fr) => {
            G[i] = r(fr);
            return NORMAL;
          };
        }
      }
    }
    const w = this.assignTo(lhs, pos);
    return (fr) => {
      w(fr, r(fr));
      return NORMAL;
    };
  }

  /** A closure storing into the target `e`. */
  private assignTo(e: Expr, pos: Pos): Assign {
    switch (e.k) {
      case 'ident': {
        const b = bindingOf(e);
        const i = b.index;
        switch (b.scope) {
          case 'local':
            return (fr, v) => {
              fr.l[i] = v;
            };
          case 'cell':
            return (fr, v) => {
              (fr.l[i] as Cell).v = v;
            };
          case 'global': {
            const G = this.G;
            return (_fr, v) => {
              G[i] = v;
            };
          }
          case 'filelocal': {
            const FL = this.FL;
            return (_fr, v) => {
              FL[i] = v;
            };
          }
          default:
            throw new Error(`internal: cannot assign to ${b.scope} ${e.name}`);
        }
      }
      case 'paren':
        return this.assignTo(e.x, pos);
      case 'index': {
        const x = this.expr(e.x);
        const y = this.expr(e.y);
        const p = posOf(e.pos);
        return (fr, v) => {
          const o = x(fr);
          const k = y(fr);
          fr.pos = p;
          if (o instanceof Dict) {
            const before = o.size;
            setIndex(o, k, v);
            if (o.size > before) fr.th.alloc(ENTRY_BYTES);
            return;
          }
          setIndex(o, k, v);
        };
      }
      case 'dot': {
        const x = this.expr(e.x);
        const name = e.name;
        const p = posOf(e.pos);
        return (fr, v) => {
          const o = x(fr);
          fr.pos = p;
          setField(o, name, v);
        };
      }
      case 'tuple':
      case 'list': {
        const ts = e.elems.map((t) => this.assignTo(t, pos));
        const n = ts.length;
        const p = posOf(pos);
        return (fr, v) => {
          let elems: readonly Value[];
          if (v instanceof Tuple) elems = v.elems;
          else if (v instanceof List) elems = v.elems.slice();
          else {
            fr.pos = p;
            if (!isIterableValue(v)) fail(`got ${typeName(v)} in sequence assignment`);
            elems = toArray(v);
          }
          if (elems.length !== n) {
            fr.pos = p;
            fail(`too ${elems.length > n ? 'many' : 'few'} values to unpack (got ${elems.length}, want ${n})`);
          }
          for (let i = 0; i < n; i++) ts[i](fr, elems[i]);
        };
      }
      default:
        throw new Error(`internal: cannot assign to ${e.k}`);
    }
  }

  private augAssign(lhs: Expr, op: string, rhs: Expr, pos: Pos): Stmt {
    while (lhs.k === 'paren') lhs = lhs.x;
    const y = this.expr(rhs);
    const p = posOf(pos);
    if (lhs.k === 'ident') {
      const read = this.ident(lhs);
      const write = this.assignTo(lhs, pos);
      if (op === '+' && bindingOf(lhs).scope === 'local') {
        const i = bindingOf(lhs).index;
        return (fr) => {
          const a = read(fr);
          const b = y(fr);
          if (typeof a === 'number' && typeof b === 'number') {
            const r = a + b;
            if (r <= MAX_SAFE && r >= -MAX_SAFE) {
              fr.l[i] = r;
              return NORMAL;
            }
          }
          fr.pos = p;
          fr.l[i] = augmented(fr, op, a, b);
          return NORMAL;
        };
      }
      return (fr) => {
        const a = read(fr);
        const b = y(fr);
        fr.pos = p;
        write(fr, augmented(fr, op, a, b));
        return NORMAL;
      };
    }
    if (lhs.k === 'index') {
      const x = this.expr(lhs.x);
      const k = this.expr(lhs.y);
      const ip = posOf(lhs.pos);
      return (fr) => {
        const o = x(fr);
        const key = k(fr);
        fr.pos = ip;
        const old = getIndex(o, key);
        const b = y(fr);
        fr.pos = p;
        const nv = augmented(fr, op, old, b);
        fr.pos = ip;
        setIndex(o, key, nv);
        return NORMAL;
      };
    }
    if (lhs.k === 'dot') {
      const x = this.expr(lhs.x);
      const name = lhs.name;
      const dp = posOf(lhs.pos);
      return (fr) => {
        const o = x(fr);
        fr.pos = dp;
        const old = getAttr(o, name, fr.th.release);
        const b = y(fr);
        fr.pos = p;
        const nv = augmented(fr, op, old, b);
        fr.pos = dp;
        setField(o, name, nv);
        return NORMAL;
      };
    }
    throw new Error(`internal: augmented assignment to ${lhs.k}`);
  }

  private forStmt(vars: Expr, xe: Expr, bodyNodes: StmtNode[], pos: Pos): Stmt {
    const x = this.expr(xe);
    const body = this.block(bodyNodes);
    const p = posOf(pos);
    // Simple local target: store directly.
    let slot = -1;
    if (vars.k === 'ident' && bindingOf(vars).scope === 'local') slot = bindingOf(vars).index;
    const w = this.assignTo(vars, pos);
    return (fr) => {
      const seq = x(fr);
      const th = fr.th;
      if (seq instanceof Range && seq.big === null) {
        const n = seq.length;
        const step = seq.step;
        let v = seq.start;
        for (let i = 0; i < n; i++, v += step) {
          if (--th.tick <= 0) {
            fr.pos = p;
            th.poll();
          }
          if (slot >= 0) fr.l[slot] = v;
          else w(fr, v);
          const r = body(fr);
          if (r !== NORMAL) {
            if (r === BREAK) break;
            if (r === RETURN) return r;
          }
        }
        return NORMAL;
      }
      if (seq instanceof List) {
        const a = seq.elems;
        seq.itercount++;
        try {
          for (let i = 0; i < a.length; i++) {
            if (--th.tick <= 0) {
              fr.pos = p;
              th.poll();
            }
            if (slot >= 0) fr.l[slot] = a[i];
            else w(fr, a[i]);
            const r = body(fr);
            if (r !== NORMAL) {
              if (r === BREAK) break;
              if (r === RETURN) return r;
            }
          }
        } finally {
          seq.itercount--;
        }
        return NORMAL;
      }
      fr.pos = p;
      const it = iterate(seq);
      try {
        for (let v = it.next(); v !== undefined; v = it.next()) {
          if (--th.tick <= 0) {
            fr.pos = p;
            th.poll();
          }
          w(fr, v);
          const r = body(fr);
          if (r !== NORMAL) {
            if (r === BREAK) break;
            if (r === RETURN) return r;
          }
        }
      } finally {
        it.done();
      }
      return NORMAL;
    };
  }

  private loadStmt(s: LoadStmt): Stmt {
    const p = posOf(s.pos);
    const module = s.module;
    const hostModule = binaryToHost(module);
    const names = s.from.map((f) => ({ name: f.name, host: binaryToHost(f.name) }));
    const ws = s.to.map((t) => this.assignTo(t, s.pos));
    return (fr) => {
      fr.pos = p;
      const loader = fr.th.loader;
      if (loader === undefined) fail('load not implemented by this application');
      let members: Record<string, Value>;
      try {
        members = loader(hostModule);
      } catch (e) {
        const msg = e instanceof Error ? hostToBinary(e.message) : String(e);
        return fail(`cannot load ${module}: ${msg}`);
      }
      for (let i = 0; i < names.length; i++) {
        const n = names[i];
        const v = Object.prototype.hasOwnProperty.call(members, n.host) ? members[n.host] : undefined;
        if (v === undefined) {
          const hint = nearest(n.host, Object.keys(members));
          fail(
            `load: name ${n.name} not found in module ${module}${hint === '' ? '' : ` (did you mean ${hostToBinary(hint)}?)`}`,
          );
        }
        ws[i](fr, v);
      }
      return NORMAL;
    };
  }

  // --- functions ----------------------------------------------------------------------------

  private makeFunction(fn: FunctionNode): Ex {
    const scope = scopeOf(fn);
    // Defaults, in slot order: positional params then keyword-only.
    const positional = fn.params.filter(
      (p, i) => (p.kind === 'plain' || p.kind === 'default') && !fn.params.slice(0, i).some((q) => q.kind === 'star'),
    );
    const kwonly = fn.params.filter(
      (p, i) => (p.kind === 'plain' || p.kind === 'default') && fn.params.slice(0, i).some((q) => q.kind === 'star'),
    );
    const dflts: (Ex | null)[] = [...positional, ...kwonly].map((p) => (p.dflt !== null ? this.expr(p.dflt) : null));
    const code = this.compileCode(fn.name, scope, fn.body);
    const free = scope.freevars.map((fv) => fv.outer);
    const hasDefaults = dflts.some((d) => d !== null);
    return (fr) => {
      fr.th.alloc(FUNCTION_BYTES);
      const defaults: (Value | undefined)[] = hasDefaults
        ? dflts.map((d) => (d === null ? undefined : d(fr)))
        : dflts.map(() => undefined);
      const cells: Cell[] = free.map((b) => (b.scope === 'cell' ? (fr.l[b.index] as Cell) : fr.free[b.index]));
      return new StarlarkFunction(code, defaults, cells);
    };
  }

  // --- expressions --------------------------------------------------------------------------

  private ident(id: Ident): Ex {
    const b: Binding = bindingOf(id);
    const i = b.index;
    const name = id.name;
    const p = posOf(id.pos);
    switch (b.scope) {
      case 'local':
        return (fr) => {
          const v = fr.l[i];
          if (v === undefined) unboundLocal(fr, p, name);
          return v as Value;
        };
      case 'cell':
        return (fr) => {
          const v = (fr.l[i] as Cell).v;
          if (v === undefined) unboundLocal(fr, p, name);
          return v;
        };
      case 'free':
        return (fr) => {
          const v = fr.free[i].v;
          if (v === undefined) unboundLocal(fr, p, name);
          return v;
        };
      case 'global': {
        const G = this.G;
        return (fr) => {
          const v = G[i];
          if (v === undefined) unboundGlobal(fr, p, name);
          return v as Value;
        };
      }
      case 'filelocal': {
        const FL = this.FL;
        return (fr) => {
          const v = FL[i];
          // A load binds a local of the module's top level in starlark-go (a free variable of
          // nested functions), hence the wording (google/starlark-go starlark/interp.go).
          if (v === undefined) unboundLocal(fr, p, name);
          return v as Value;
        };
      }
      case 'predeclared':
      case 'universal': {
        const v = (b.scope === 'predeclared' ? this.opts.predeclared : this.opts.universe).get(name);
        if (v === undefined) {
          // A program resolved against a name this run did not supply.
          return (fr) => {
            fr.pos = p;
            return fail(`undefined: ${name}`);
          };
        }
        return () => v;
      }
      default:
        throw new Error(`internal: unresolved name ${name}`);
    }
  }

  private expr(e: Expr): Ex {
    switch (e.k) {
      case 'ident':
        return this.ident(e);
      case 'lit': {
        let v: Value;
        switch (e.type) {
          case 'int':
            v = e.value;
            break;
          case 'float':
            v = new Float(e.value as number);
            break;
          case 'string':
            v = e.value;
            break;
          case 'bytes':
            v = new Bytes(e.value as string);
            break;
        }
        return () => v;
      }
      case 'paren':
        return this.expr(e.x);
      case 'list': {
        const xs = e.elems.map((x) => this.expr(x));
        const n = xs.length;
        if (n === 0) {
          return (fr) => {
            fr.th.alloc(LIST_BYTES);
            return new List([]);
          };
        }
        return (fr) => {
          const a = new Array<Value>(n);
          for (let i = 0; i < n; i++) a[i] = xs[i](fr);
          fr.th.alloc(LIST_BYTES + n * ELEM_BYTES);
          return new List(a);
        };
      }
      case 'tuple': {
        const xs = e.elems.map((x) => this.expr(x));
        const n = xs.length;
        if (n === 0) return () => EMPTY_TUPLE;
        if (n === 2) {
          const a = xs[0],
            b = xs[1];
          return (fr) => new Tuple([a(fr), b(fr)]);
        }
        return (fr) => {
          const a = new Array<Value>(n);
          for (let i = 0; i < n; i++) a[i] = xs[i](fr);
          return new Tuple(a);
        };
      }
      case 'dict': {
        const ks = e.entries.map((en) => this.expr(en.key));
        const vs = e.entries.map((en) => this.expr(en.value));
        const ps = e.entries.map((en) => posOf(en.pos));
        const n = ks.length;
        return (fr) => {
          const d = new Dict();
          for (let i = 0; i < n; i++) {
            const k = ks[i](fr);
            const v = vs[i](fr);
            fr.pos = ps[i]!;
            const before = d.size;
            d.insert(k, v);
            if (d.size === before) fail(`duplicate key: ${repr(k)}`);
          }
          fr.th.alloc(DICT_BYTES + n * ENTRY_BYTES);
          return d;
        };
      }
      case 'unary':
        return unaryExpr(e.op, this.expr(e.x), posOf(e.pos));
      case 'binary':
        return binaryExpr(e.op, this.expr(e.x), this.expr(e.y), posOf(e.pos));
      case 'cond': {
        const c = this.expr(e.cond);
        const t = this.expr(e.t);
        const f = this.expr(e.f);
        return (fr) => (isTrue(c(fr)) ? t(fr) : f(fr));
      }
      case 'dot': {
        const x = this.expr(e.x);
        const name = e.name;
        const p = posOf(e.pos);
        return (fr) => {
          const o = x(fr);
          fr.pos = p;
          return getAttr(o, name, fr.th.release);
        };
      }
      case 'index': {
        const x = this.expr(e.x);
        const y = this.expr(e.y);
        const p = posOf(e.pos);
        return (fr) => {
          const o = x(fr);
          const k = y(fr);
          if (typeof k === 'number' && (o instanceof List || o instanceof Tuple)) {
            const a = o.elems;
            const i = k < 0 ? k + a.length : k;
            if (i >= 0 && i < a.length) return a[i];
          } else if (o instanceof Dict) {
            fr.pos = p;
            const v = o.lookup(k);
            if (v !== undefined) return v;
          }
          fr.pos = p;
          return getIndex(o, k);
        };
      }
      case 'slice': {
        const x = this.expr(e.x);
        const none: Ex = () => None;
        const lo = e.lo !== null ? this.expr(e.lo) : none;
        const hi = e.hi !== null ? this.expr(e.hi) : none;
        const st = e.step !== null ? this.expr(e.step) : none;
        const p = posOf(e.pos);
        return (fr) => {
          const o = x(fr);
          const a = lo(fr);
          const b = hi(fr);
          const c = st(fr);
          fr.pos = p;
          return slice(o, a, b, c);
        };
      }
      case 'call':
        return callExpr(
          this.expr(e.fn),
          e.args.map((a) => ({ kind: a.kind, name: a.name, x: this.expr(a.value) })),
          posOf(e.pos),
        );
      case 'lambda':
        return this.makeFunction(e.fn);
      case 'comp':
        return this.comprehension(e);
    }
  }

  private comprehension(c: Comprehension): Ex {
    const acc = this.fc.newSlot();
    let emit: (fr: Frame) => void;
    if (c.curly) {
      const en = c.body as DictEntry;
      const k = this.expr(en.key);
      const v = this.expr(en.value);
      const p = posOf(en.pos);
      emit = (fr) => {
        const key = k(fr);
        const val = v(fr);
        fr.pos = p;
        (fr.l[acc] as unknown as Dict).insert(key, val);
      };
    } else {
      const b = this.expr(c.body as Expr);
      emit = (fr) => {
        const a = fr.l[acc] as unknown as Value[];
        a.push(b(fr));
        if ((a.length & 63) === 0) fr.th.alloc(64 * ELEM_BYTES);
      };
    }
    let inner = emit;
    for (let i = c.clauses.length - 1; i >= 0; i--) {
      const cl = c.clauses[i];
      const next = inner;
      if (cl.k === 'if') {
        const cond = this.expr(cl.cond);
        inner = (fr) => {
          if (isTrue(cond(fr))) next(fr);
        };
      } else {
        const x = this.expr(cl.x);
        const w = this.assignTo(cl.vars, cl.pos);
        const p = posOf(cl.pos);
        inner = (fr) => {
          const seq = x(fr);
          const th = fr.th;
          if (seq instanceof Range && seq.big === null) {
            const n = seq.length;
            const step = seq.step;
            let v = seq.start;
            for (let j = 0; j < n; j++, v += step) {
              if (--th.tick <= 0) {
                fr.pos = p;
                th.poll();
              }
              w(fr, v);
              next(fr);
            }
            return;
          }
          fr.pos = p;
          const it = iterate(seq);
          try {
            for (let v = it.next(); v !== undefined; v = it.next()) {
              if (--th.tick <= 0) {
                fr.pos = p;
                th.poll();
              }
              w(fr, v);
              next(fr);
            }
          } finally {
            it.done();
          }
        };
      }
    }
    const run = inner;
    if (c.curly) {
      return (fr) => {
        fr.th.alloc(DICT_BYTES);
        const d = new Dict();
        fr.l[acc] = d;
        run(fr);
        fr.l[acc] = undefined;
        return d;
      };
    }
    return (fr) => {
      fr.th.alloc(LIST_BYTES);
      const a: Value[] = [];
      fr.l[acc] = a as unknown as Value;
      run(fr);
      fr.l[acc] = undefined;
      return new List(a);
    };
  }
}

/** Compiles a resolved module. */
export function compileModule(mod: ResolvedModule, opts: CompileOptions): CompiledModule {
  return new Compiler(opts, mod).compileModule(mod);
}
