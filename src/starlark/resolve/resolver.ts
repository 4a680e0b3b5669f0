/**
 * The resolver: binds every identifier of a parsed file to a `Binding` (local slot, cell, free
 * variable, global, file-local, predeclared or universal) and applies every static rule of the
 * dialect. It reports ALL errors at once, as a `StarlarkSyntaxError` with code `starlark-resolve`,
 * sorted by position.
 *
 * It knows nothing about values: the host passes predicates for predeclared and universal names.
 */
import { StarlarkSyntaxError } from '../errors.ts';
import type { SyntaxErrorItem } from '../errors.ts';
import type { Arg, Comprehension, DictEntry, Expr, File, FunctionNode, Ident, Param, Stmt } from '../syntax/ast.ts';
import type { Pos } from '../syntax/tokens.ts';
import type { Binding, FunctionScope } from './binding.ts';
import { bindingOf } from './binding.ts';
import { nearest } from '../spell.ts';

/** Static dialect options (all off = the strict dialect). */
export interface ResolveOptions {
  set?: boolean;
  while?: boolean;
  topLevelControl?: boolean;
  globalReassign?: boolean;
  loadBindsGlobally?: boolean;
  /**
   * `false` refuses floating point (float literals, the `float` builtin, `/`), `lambda` and
   * nested `def`, as google/starlark-go did before 2020-11-11 (floats, #313) and 2021-01-21
   * (lambda and nested def, #328). Default: allowed.
   */
  float?: boolean;
  lambda?: boolean;
  nestedDef?: boolean;
  /**
   * `false`: a function defined inside a loop counts as inside it (`break` in its body is not an
   * error), as google/starlark-go did before 2025-07-17 (#599). Default: the function starts a
   * fresh loop count.
   */
  functionsResetLoops?: boolean;
}

export interface ResolveEnv {
  isPredeclared(name: string): boolean;
  isUniversal(name: string): boolean;
}

/** The resolved module: its top-level scope plus the global and file-local slot names. */
export interface ResolvedModule {
  file: File;
  toplevel: FunctionScope;
  globals: Binding[];
  filelocals: Binding[];
}

interface Block {
  fn: FunctionState;
  parent: Block | null;
  bindings: Map<string, Binding>;
  isModule: boolean;
  /** Names starlark-go's `lookupLexical` memoizes in this block as it resolves non-local uses. */
  memo?: Set<string>;
}

/**
 * A use resolved outside its function (or, at top level, outside its comprehension): starlark-go
 * resolves these at the end of the module, memoizing each name in the blocks it passed, so its
 * errors and spelling hints depend on that order. `error` is set when the use is an error.
 */
interface NonLocalUse {
  name: string;
  block: Block;
  error?: { pos: Pos; message: string | null };
}

interface FunctionState {
  scope: FunctionScope;
  parent: FunctionState | null;
  /** The block the function was defined in (for free variable lookups). */
  defBlock: Block | null;
  freeIndex: Map<Binding, number>;
  /** Functions defined directly inside this one, in source order. */
  children: FunctionState[];
  /** Uses that leave the function, in source order (see `NonLocalUse`). */
  nonLocal: NonLocalUse[];
}

function newScope(): FunctionScope {
  return { locals: [], freevars: [], numParams: 0, numKwonly: 0, hasVarargs: false, hasKwargs: false };
}

/** starlark-go's text for an undefined name, with the nearest candidate as a hint. */
function undefinedText(name: string, candidates: readonly string[]): string {
  const hint = nearest(name, candidates);
  return hint === '' ? `undefined: ${name}` : `undefined: ${name} (did you mean ${hint}?)`;
}

/** Start position of an expression (for "can't assign" messages). */
export function exprStart(e: Expr): Pos {
  switch (e.k) {
    case 'binary':
      return exprStart(e.x);
    case 'call':
    case 'dot':
    case 'index':
    case 'slice':
      return exprStart(e.k === 'call' ? e.fn : e.x);
    case 'cond':
      return exprStart(e.t);
    case 'tuple':
      return e.parens || e.elems.length === 0 ? e.pos : exprStart(e.elems[0]);
    default:
      return e.pos;
  }
}

const TARGET_NAMES: Record<string, string> = {
  call: 'callexpr',
  lit: 'literal',
  binary: 'binaryexpr',
  slice: 'sliceexpr',
  unary: 'unaryexpr',
  cond: 'condexpr',
  dict: 'dictexpr',
  comp: 'comprehension',
  lambda: 'lambdaexpr',
};

class Resolver {
  private readonly errors: SyntaxErrorItem[] = [];
  private readonly file: string;
  private readonly opts: ResolveOptions;
  private readonly env: ResolveEnv;
  readonly globals: Binding[] = [];
  readonly filelocals: Binding[] = [];
  private readonly moduleBlock: Block;
  private readonly toplevel: FunctionState;
  /** Loop nesting in the current function (reset by def/lambda). */
  private loops = 0;
  /** Inside a def or lambda body. */
  private inFunction = false;
  /** Top-level `if`/`for`/`while` nesting, for load placement messages. */
  private topConditional = 0;
  private topLoop = 0;
  /** Top-level names bound so far in pass 2 (used only with GlobalReassign). */
  private readonly moduleBound = new Set<string>();
  /** Predeclared and universal bindings, one per name (starlark-go's resolver memoizes them too). */
  private readonly outside = new Map<string, Binding>();
  /**
   * Errors of top-level bindings found in pass 1, keyed by their identifier, reported when the
   * walk reaches the binding (starlark-go binds during its one walk; see `flushBind`).
   */
  private readonly bindErrors = new Map<Ident, SyntaxErrorItem>();
  private collecting = false;
  /** Loops enclosing the current point within its own function (see `compilerCrashes`). */
  private fnLoops = 0;
  /** `break`/`continue` that only an enclosing function's loop allows (`functionsResetLoops: false`). */
  private readonly compilerCrashes: SyntaxErrorItem[] = [];
  /** Refused universals already reported (see `refusedUniversal`). */
  private readonly refusedSeen = new Set<string>();

  constructor(file: string, opts: ResolveOptions, env: ResolveEnv) {
    this.file = file;
    this.opts = opts;
    this.env = env;
    this.toplevel = {
      scope: newScope(),
      parent: null,
      defBlock: null,
      freeIndex: new Map(),
      children: [],
      nonLocal: [],
    };
    this.moduleBlock = { fn: this.toplevel, parent: null, bindings: new Map(), isModule: true };
  }

  private err(pos: Pos, message: string): void {
    this.errors.push({ file: this.file, line: pos.line, col: pos.col, message });
  }

  private fmtPos(p: Pos): string {
    return `${this.file}:${p.line}:${p.col}`;
  }

  run(f: File): ResolvedModule {
    // Pass 1: module-level bindings in source order (so globals may be used before definition).
    this.collecting = true;
    this.collect(f.stmts, this.moduleBlock);
    this.collecting = false;
    // Pass 2: uses and nested functions.
    this.stmts(f.stmts, this.moduleBlock);
    f.scope = this.toplevel.scope;
    // starlark-go's order (resolve/resolve.go REPLChunk): the errors of the walk, then the uses
    // resolved at the end of the module, innermost functions first (resolveNonLocalUses). The
    // first error is the one its messages show.
    const pending = (fn: FunctionState): void => {
      for (const c of fn.children) pending(c);
      for (const u of fn.nonLocal) this.resolveLate(u);
    };
    pending(this.toplevel);
    if (this.errors.length > 0) throw new StarlarkSyntaxError('starlark-resolve', this.errors);
    if (this.compilerCrashes.length > 0) throw new StarlarkSyntaxError('starlark-resolve', this.compilerCrashes);
    return { file: f, toplevel: this.toplevel.scope, globals: this.globals, filelocals: this.filelocals };
  }

  // --- binding ------------------------------------------------------------------------------

  private newLocal(fn: FunctionState, name: string, pos: Pos): Binding {
    const b: Binding = { scope: 'local', index: fn.scope.locals.length, name, first: pos };
    fn.scope.locals.push(b);
    return b;
  }

  /** A binding occurrence of `id` in `block`. */
  private bind(id: Ident, block: Block): void {
    if (block.isModule) {
      const prev = block.bindings.get(id.name);
      if (prev !== undefined) {
        if (!this.opts.globalReassign) {
          const what = prev.scope === 'filelocal' ? 'local' : 'global';
          this.bindErr(id, `cannot reassign ${what} ${id.name} declared at ${this.fmtPos(prev.first!)}`);
        }
        id.b = prev;
        return;
      }
      const b: Binding = { scope: 'global', index: this.globals.length, name: id.name, first: id.pos };
      this.globals.push(b);
      block.bindings.set(id.name, b);
      id.b = b;
      return;
    }
    let b = block.bindings.get(id.name);
    if (b === undefined) {
      b = this.newLocal(block.fn, id.name, id.pos);
      block.bindings.set(id.name, b);
    }
    id.b = b;
  }

  /** A binding error: held until the walk reaches `id` when found in pass 1. */
  private bindErr(id: Ident, message: string): void {
    if (this.collecting) this.bindErrors.set(id, { file: this.file, line: id.pos.line, col: id.pos.col, message });
    else this.err(id.pos, message);
  }

  /** Reports the held binding error of `id`, if any (the walk has reached the binding). */
  private flushBind(id: Ident): void {
    const e = this.bindErrors.get(id);
    if (e === undefined) return;
    this.bindErrors.delete(id);
    this.errors.push(e);
  }

  private bindLoad(id: Ident, block: Block): void {
    if (this.opts.loadBindsGlobally) {
      this.bind(id, block);
      return;
    }
    const prev = block.bindings.get(id.name);
    if (prev !== undefined) {
      if (!this.opts.globalReassign) this.bindErr(id, `cannot reassign top-level ${id.name}`);
      id.b = prev;
      return;
    }
    const b: Binding = { scope: 'filelocal', index: this.filelocals.length, name: id.name, first: id.pos };
    this.filelocals.push(b);
    block.bindings.set(id.name, b);
    id.b = b;
  }

  /** Pass 1 over a statement list: declare every name bound in it (not in nested functions). */
  private collect(stmts: Stmt[], block: Block): void {
    for (const s of stmts) {
      switch (s.k) {
        case 'assign':
          if (s.op === '=') this.collectTargets(s.lhs, block);
          else if (s.lhs.k === 'ident') this.bind(s.lhs, block);
          else if (s.lhs.k === 'paren' && s.lhs.x.k === 'ident') this.bind(s.lhs.x, block);
          break;
        case 'def':
          this.bind(s.name, block);
          break;
        case 'for':
          this.collectTargets(s.vars, block);
          this.collect(s.body, block);
          break;
        case 'while':
          this.collect(s.body, block);
          break;
        case 'if':
          this.collect(s.then, block);
          this.collect(s.else_, block);
          break;
        case 'load':
          for (let i = 0; i < s.to.length; i++) {
            const to = s.to[i];
            const from = s.from[i];
            if (from.name === '') continue;
            if (from.name.charCodeAt(0) === 95) continue;
            this.bindLoad(to, block);
          }
          break;
        default:
          break;
      }
    }
  }

  private collectTargets(e: Expr, block: Block): void {
    switch (e.k) {
      case 'ident':
        this.bind(e, block);
        return;
      case 'paren':
        this.collectTargets(e.x, block);
        return;
      case 'tuple':
      case 'list':
        for (const x of e.elems) this.collectTargets(x, block);
        return;
      default:
        return;
    }
  }

  // --- uses ---------------------------------------------------------------------------------

  private use(id: Ident, block: Block): void {
    if (this.opts.globalReassign && block.isModule) {
      // starlark-go's legacy (Bazel/Python) rule under GlobalReassign: a use directly at top level
      // sees only the top-level names bound before it; otherwise predeclared/universal/undefined.
      if (this.moduleBound.has(id.name)) {
        id.b = this.moduleBlock.bindings.get(id.name)!;
        return;
      }
      this.useOutside(id, block);
      return;
    }
    const bound = id.b === undefined ? undefined : bindingOf(id);
    if (bound !== undefined && (bound.scope === 'global' || bound.scope === 'filelocal')) return;
    const fn = block.fn;
    for (let b: Block | null = block; b !== null; b = b.parent ?? b.fn.defBlock ?? null) {
      // Leaving a function's outermost block continues in its defining block.
      const found = b.bindings.get(id.name);
      if (found === undefined) continue;
      if (b !== block && (b.fn !== fn || b.isModule)) fn.nonLocal.push({ name: id.name, block });
      if (found.scope === 'global' || found.scope === 'filelocal' || b.fn === fn) {
        id.b = found;
        return;
      }
      // Captured from an enclosing function.
      if (found.scope === 'local') found.scope = 'cell';
      id.b = this.freeBinding(fn, found, b.fn, id.name);
      return;
    }
    if (!block.isModule) fn.nonLocal.push({ name: id.name, block });
    this.useOutside(id, block);
  }

  /** Resolves a name not bound in any block: predeclared, universal, or an error. */
  private useOutside(id: Ident, block: Block): void {
    let b = this.outside.get(id.name);
    if (b === undefined) {
      const scope = this.env.isPredeclared(id.name)
        ? 'predeclared'
        : this.env.isUniversal(id.name)
          ? 'universal'
          : null;
      if (scope !== null) {
        b = { scope, index: -1, name: id.name, first: null };
        this.outside.set(id.name, b);
      }
    }
    if (b !== undefined) {
      if (b.scope === 'universal' && id.name === 'set' && !this.opts.set) {
        this.useErr(id, block, 'this Starlark dialect does not support sets');
      }
      if (b.scope === 'universal' && id.name === 'float' && this.opts.float === false) {
        this.useErr(id, block, 'this Starlark dialect does not support floating point');
      }
      id.b = b;
      return;
    }
    id.b = { scope: 'undefined', index: -1, name: id.name, first: null };
    this.useErr(id, block, null);
  }

  /**
   * An error found resolving a use outside every block (`message` null: an undefined name, whose
   * hint is chosen late). starlark-go reports it at the end of the module, after the walk's
   * errors, except for top-level uses under GlobalReassign, which it resolves on the spot
   * (resolve/resolve.go `use`).
   */
  private useErr(id: Ident, block: Block, message: string | null): void {
    if (this.opts.globalReassign && block.isModule) {
      // Resolved on the spot, so only the top-level names bound so far are candidates.
      if (message === null) this.err(id.pos, undefinedText(id.name, [...this.moduleBound].sort()));
      else this.refusedUniversal(id.name, id.pos, message);
      return;
    }
    const last = block.fn.nonLocal[block.fn.nonLocal.length - 1];
    const error = { pos: id.pos, message };
    if (last !== undefined && last.name === id.name && last.block === block && last.error === undefined) {
      last.error = error;
    } else {
      block.fn.nonLocal.push({ name: id.name, block, error });
    }
  }

  /**
   * A refused universal (`set`, `float`) is reported at its first resolution only: starlark-go
   * caches every predeclared and universal binding after the first lookup (`useToplevel`).
   */
  private refusedUniversal(name: string, pos: Pos, message: string): void {
    if (this.refusedSeen.has(name)) return;
    this.refusedSeen.add(name);
    this.err(pos, message);
  }

  /**
   * One non-local use, resolved as starlark-go's `resolveNonLocalUses` / `lookupLexical` do at
   * the end of the module: a name bound or already memoized in a block on the way is found there
   * (so an undefined name is reported once per function), otherwise the error (if any) is
   * reported; either way the name is memoized in the blocks passed below that point.
   */
  private resolveLate(u: NonLocalUse): void {
    const chain: Block[] = [];
    for (let b: Block | null = u.block; b !== null && !b.isModule; b = b.parent ?? b.fn.defBlock ?? null) {
      if (b.bindings.has(u.name) || b.memo?.has(u.name)) {
        for (const c of chain) (c.memo ??= new Set()).add(u.name);
        return;
      }
      chain.push(b);
    }
    if (u.error !== undefined) {
      if (u.error.message === null) this.err(u.error.pos, undefinedText(u.name, this.candidates(u.block)));
      else this.refusedUniversal(u.name, u.error.pos, u.error.message);
    }
    for (const c of chain) (c.memo ??= new Set()).add(u.name);
  }

  /** The `free` binding for `outer` (owned by function `owner`) as seen from `fn`. */
  private freeBinding(fn: FunctionState, outer: Binding, owner: FunctionState, name: string): Binding {
    const parent = fn.parent!;
    const parentRef = parent === owner ? outer : this.freeBinding(parent, outer, owner, name);
    let idx = fn.freeIndex.get(outer);
    if (idx === undefined) {
      idx = fn.scope.freevars.length;
      fn.scope.freevars.push({ name, outer: parentRef });
      fn.freeIndex.set(outer, idx);
    }
    return { scope: 'free', index: idx, name, first: null };
  }

  /** Names visible from `block` (locals of enclosing blocks, globals, file-locals), sorted so
   * that ties between equally near names are broken alphabetically. */
  private candidates(block: Block): string[] {
    const names = new Set<string>();
    for (let b: Block | null = block; b !== null; b = b.parent ?? b.fn.defBlock) {
      for (const n of b.bindings.keys()) names.add(n);
      if (b.memo !== undefined) for (const n of b.memo) names.add(n);
      if (b.isModule) break;
    }
    return [...names].sort();
  }

  private stmts(stmts: Stmt[], block: Block): void {
    for (const s of stmts) this.stmt(s, block);
  }

  private stmt(s: Stmt, block: Block): void {
    const top = block.isModule;
    switch (s.k) {
      case 'expr':
        this.expr(s.x, block);
        return;
      case 'assign':
        this.expr(s.rhs, block);
        if (s.op === '=') {
          this.assignTargets(s.lhs, block);
        } else {
          let lhs = s.lhs;
          while (lhs.k === 'paren') lhs = lhs.x;
          if (lhs.k === 'tuple' || lhs.k === 'list') {
            this.err(exprStart(s.lhs), `can't use ${lhs.k} expression in augmented assignment`);
          } else if (lhs.k === 'ident') {
            this.flushBind(lhs);
            if (this.opts.globalReassign && top && !this.moduleBound.has(lhs.name)) {
              // Use before any top-level binding: undefined unless predeclared/universal (then the
              // read fails dynamically, as the global is not yet assigned).
              if (!this.env.isPredeclared(lhs.name) && !this.env.isUniversal(lhs.name)) {
                this.err(lhs.pos, `undefined: ${lhs.name}`);
              }
            } else {
              this.use(lhs, block);
            }
            if (top) this.moduleBound.add(lhs.name);
          } else {
            this.assignTargets(lhs, block);
          }
        }
        return;
      case 'def':
        if (this.inFunction && this.opts.nestedDef === false) {
          this.err(s.pos, 'this Starlark dialect does not support nested def');
        }
        this.flushBind(s.name);
        if (top) this.moduleBound.add(s.name.name);
        this.func(s.fn, block);
        return;
      case 'if':
        if (top && !this.inFunction && !this.opts.topLevelControl)
          this.err(s.pos, 'if statement not within a function');
        this.expr(s.cond, block);
        if (top) this.topConditional++;
        this.stmts(s.then, block);
        this.stmts(s.else_, block);
        if (top) this.topConditional--;
        return;
      case 'for':
        if (top && !this.opts.topLevelControl) this.err(s.pos, 'for loop not within a function');
        this.expr(s.x, block);
        this.assignTargets(s.vars, block);
        this.loops++;
        this.fnLoops++;
        if (top) this.topLoop++;
        this.stmts(s.body, block);
        if (top) this.topLoop--;
        this.loops--;
        this.fnLoops--;
        return;
      case 'while':
        if (!this.opts.while) this.err(s.pos, 'this Starlark dialect does not support while loops');
        if (top && !this.opts.topLevelControl) this.err(s.pos, 'while loop not within a function');
        this.expr(s.cond, block);
        this.loops++;
        this.fnLoops++;
        if (top) this.topLoop++;
        this.stmts(s.body, block);
        if (top) this.topLoop--;
        this.loops--;
        this.fnLoops--;
        return;
      case 'return':
        if (!this.inFunction) this.err(s.pos, 'return statement not within a function');
        if (s.x !== null) this.expr(s.x, block);
        return;
      case 'break':
      case 'continue':
        if (this.loops === 0) this.err(s.pos, `${s.k} not in a loop`);
        else if (this.fnLoops === 0) {
          // Accepted by the resolver of this release, but its compiler then crashes (an index
          // out of range, fixed by google/starlark-go #599): a script with it never runs.
          this.compilerCrashes.push({
            file: this.file,
            line: s.pos.line,
            col: s.pos.col,
            message: `${s.k} not in a loop (google/starlark-go of this release crashes compiling it)`,
          });
        }
        return;
      case 'pass':
        return;
      case 'load': {
        if (this.inFunction || !top) {
          this.err(s.pos, 'load statement within a function');
        } else if (this.topLoop > 0) {
          this.err(s.pos, 'load statement within a loop');
        } else if (this.topConditional > 0) {
          this.err(s.pos, 'load statement within a conditional');
        }
        for (const to of s.to) if (top) this.moduleBound.add(to.name);
        for (let i = 0; i < s.from.length; i++) {
          const from = s.from[i];
          if (from.name === '') this.err(from.pos, 'load: empty identifier');
          else if (from.name.charCodeAt(0) === 95) {
            this.err(from.pos, `load: names with leading underscores are not exported: ${from.name}`);
          }
          const to = s.to[i];
          if (to !== undefined) this.flushBind(to);
        }
        return;
      }
    }
  }

  private assignTargets(e: Expr, block: Block): void {
    switch (e.k) {
      case 'ident':
        // Normally bound in pass 1 (collect); bind now if not.
        this.flushBind(e);
        if (e.b === undefined) this.bind(e, block);
        if (block.isModule) this.moduleBound.add(e.name);
        return;
      case 'paren':
        this.assignTargets(e.x, block);
        return;
      case 'tuple':
      case 'list':
        for (const x of e.elems) this.assignTargets(x, block);
        return;
      case 'index':
        this.expr(e.x, block);
        this.expr(e.y, block);
        return;
      case 'dot':
        this.expr(e.x, block);
        return;
      default:
        this.err(exprStart(e), `can't assign to ${TARGET_NAMES[e.k] ?? e.k}`);
    }
  }

  private func(fn: FunctionNode, block: Block): void {
    // Defaults are evaluated in the enclosing block.
    for (const p of fn.params) if (p.dflt !== null) this.expr(p.dflt, block);
    const state: FunctionState = {
      scope: newScope(),
      parent: block.fn,
      defBlock: block,
      freeIndex: new Map(),
      children: [],
      nonLocal: [],
    };
    block.fn.children.push(state);
    const fblock: Block = { fn: state, parent: null, bindings: new Map(), isModule: false };
    this.params(fn.params, state, fblock);
    this.collect(fn.body, fblock);
    const saveLoops = this.loops;
    const saveFnLoops = this.fnLoops;
    const saveIn = this.inFunction;
    this.fnLoops = 0;
    if (this.opts.functionsResetLoops !== false) this.loops = 0;
    this.inFunction = true;
    this.stmts(fn.body, fblock);
    this.loops = saveLoops;
    this.fnLoops = saveFnLoops;
    this.inFunction = saveIn;
    fn.scope = state.scope;
  }

  private params(params: Param[], fn: FunctionState, block: Block): void {
    let star: Param | null = null;
    let starStar: Param | null = null;
    let optional = false;
    const positional: Param[] = [];
    const kwonly: Param[] = [];
    for (const p of params) {
      switch (p.kind) {
        case 'plain':
          if (starStar !== null) this.err(p.pos, `required parameter may not follow **${starStar.name!.name}`);
          else if (star === null && optional) this.err(p.pos, 'required parameter may not follow optional');
          (star === null ? positional : kwonly).push(p);
          break;
        case 'default':
          if (starStar !== null) this.err(p.pos, `optional parameter may not follow **${starStar.name!.name}`);
          optional = true;
          (star === null ? positional : kwonly).push(p);
          break;
        case 'star':
          if (starStar !== null) this.err(p.pos, `* parameter may not follow **${starStar.name!.name}`);
          else if (star !== null) this.err(p.pos, 'multiple * parameters not allowed');
          else star = p;
          break;
        case 'starstar':
          if (starStar !== null) this.err(p.pos, 'multiple ** parameters not allowed');
          else starStar = p;
          break;
      }
    }
    if (star !== null && star.name === null && kwonly.length === 0) {
      this.err(star.pos, 'bare * must be followed by keyword-only parameters');
    }
    const ordered: Param[] = [...positional, ...kwonly];
    if (star !== null && star.name !== null) ordered.push(star);
    if (starStar !== null) ordered.push(starStar);
    for (const p of ordered) {
      const id = p.name!;
      if (block.bindings.has(id.name)) {
        this.err(id.pos, `duplicate parameter: ${id.name}`);
        // Give it a slot anyway so later passes stay consistent.
        id.b = this.newLocal(fn, id.name, id.pos);
        continue;
      }
      const b = this.newLocal(fn, id.name, id.pos);
      block.bindings.set(id.name, b);
      id.b = b;
    }
    fn.scope.numParams = positional.length + kwonly.length;
    fn.scope.numKwonly = kwonly.length;
    fn.scope.hasVarargs = star !== null && star.name !== null;
    fn.scope.hasKwargs = starStar !== null;
  }

  private args(args: Arg[], block: Block): void {
    let seenNamed = false;
    let seenVarargs = false;
    let seenKwargs = false;
    let npos = 0;
    let nnamed = 0;
    const names = new Set<string>();
    for (const a of args) {
      switch (a.kind) {
        case 'pos':
          if (seenKwargs) this.err(a.pos, 'positional argument may not follow **kwargs');
          else if (seenVarargs) this.err(a.pos, 'positional argument may not follow *args');
          else if (seenNamed) this.err(a.pos, 'positional argument may not follow named');
          npos++;
          break;
        case 'named':
          if (seenKwargs) this.err(a.pos, 'keyword argument may not follow **kwargs');
          else if (seenVarargs) this.err(a.pos, 'keyword argument may not follow *args');
          if (names.has(a.name!)) this.err(a.pos, `keyword argument "${a.name}" is repeated`);
          names.add(a.name!);
          seenNamed = true;
          nnamed++;
          break;
        case 'star':
          if (seenKwargs) this.err(a.pos, '*args may not follow **kwargs');
          else if (seenVarargs) this.err(a.pos, 'multiple *args not allowed');
          seenVarargs = true;
          break;
        case 'starstar':
          if (seenKwargs) this.err(a.pos, 'multiple **kwargs not allowed');
          seenKwargs = true;
          break;
      }
      this.expr(a.value, block);
    }
    if (npos > 255) this.err(args[0].pos, `${npos} positional arguments in call, limit is 255`);
    if (nnamed > 255) this.err(args[0].pos, `${nnamed} keyword arguments in call, limit is 255`);
  }

  private expr(e: Expr, block: Block): void {
    switch (e.k) {
      case 'ident':
        this.use(e, block);
        return;
      case 'lit':
        if (e.type === 'float' && this.opts.float === false) {
          this.err(e.pos, 'this Starlark dialect does not support floating point');
        }
        return;
      case 'list':
      case 'tuple':
        for (const x of e.elems) this.expr(x, block);
        return;
      case 'dict':
        for (const en of e.entries) {
          this.expr(en.key, block);
          this.expr(en.value, block);
        }
        return;
      case 'paren':
        this.expr(e.x, block);
        return;
      case 'unary':
        this.expr(e.x, block);
        return;
      case 'binary':
        if (e.op === '/' && this.opts.float === false) {
          this.err(e.pos, 'this Starlark dialect does not support floating point (use //)');
        }
        this.expr(e.x, block);
        this.expr(e.y, block);
        return;
      case 'cond':
        this.expr(e.cond, block);
        this.expr(e.t, block);
        this.expr(e.f, block);
        return;
      case 'dot':
        this.expr(e.x, block);
        return;
      case 'index':
        this.expr(e.x, block);
        this.expr(e.y, block);
        return;
      case 'slice':
        this.expr(e.x, block);
        if (e.lo !== null) this.expr(e.lo, block);
        if (e.hi !== null) this.expr(e.hi, block);
        if (e.step !== null) this.expr(e.step, block);
        return;
      case 'call':
        this.expr(e.fn, block);
        this.args(e.args, block);
        return;
      case 'lambda':
        if (this.opts.lambda === false) this.err(e.pos, 'this Starlark dialect does not support lambda');
        this.func(e.fn, block);
        return;
      case 'comp':
        this.comp(e, block);
        return;
    }
  }

  private comp(c: Comprehension, block: Block): void {
    const first = c.clauses[0];
    if (first === undefined || first.k !== 'for') return;
    this.expr(first.x, block);
    const cb: Block = { fn: block.fn, parent: block, bindings: new Map(), isModule: false };
    for (const cl of c.clauses) if (cl.k === 'for') this.collectTargets(cl.vars, cb);
    // Loops inside a comprehension don't make break/continue legal.
    const saveLoops = this.loops;
    const saveFnLoops = this.fnLoops;
    this.loops = 0;
    this.fnLoops = 0;
    for (let i = 0; i < c.clauses.length; i++) {
      const cl = c.clauses[i];
      if (cl.k === 'for') {
        // As starlark-go's comprehension(): a later clause's variables before its operand.
        this.assignTargets(cl.vars, cb);
        if (i > 0) this.expr(cl.x, cb);
      } else {
        this.expr(cl.cond, cb);
      }
    }
    if (c.curly) {
      const en = c.body as DictEntry;
      this.expr(en.key, cb);
      this.expr(en.value, cb);
    } else {
      this.expr(c.body as Expr, cb);
    }
    this.loops = saveLoops;
    this.fnLoops = saveFnLoops;
  }
}

/** Resolves `file` in place. Throws `StarlarkSyntaxError` (code `starlark-resolve`) with every error. */
export function resolveFile(file: File, opts: ResolveOptions, env: ResolveEnv): ResolvedModule {
  return new Resolver(file.path, opts, env).run(file);
}
