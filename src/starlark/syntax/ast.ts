/**
 * The Starlark syntax tree. Plain objects discriminated by `k`. Positions are the operation's
 * position as starlark-go reports it: the operator of a binary expression, `(` of a call, `[` of
 * an index or slice, `.` of an attribute, the `for` keyword of a loop or comprehension clause.
 *
 * The resolver fills in `Ident.b` (the binding) and the `FunctionNode` scope fields; nothing else
 * is mutated after parsing.
 */
import type { Pos } from './tokens.ts';

export type { Pos };

/**
 * What the resolver attaches to the tree (an identifier's binding, a function's scope), opaque to
 * the syntax layer so that it does not depend on the resolver: google/starlark-go
 * syntax/syntax.go types Ident.Binding and DefStmt.Function as interface{} for the same reason.
 * src/starlark/resolve/binding.ts reads the slots back with their types.
 */
export type ResolverSlot = unknown;

export interface Ident {
  k: 'ident';
  pos: Pos;
  /** Binary (UTF-8) name. */
  name: string;
  /** Set by the resolver (a `Binding`: read it with `bindingOf`). */
  b?: ResolverSlot;
}

export interface Literal {
  k: 'lit';
  pos: Pos;
  type: 'int' | 'float' | 'string' | 'bytes';
  value: number | bigint | string;
  raw: string;
}

export interface ListExpr {
  k: 'list';
  pos: Pos;
  elems: Expr[];
}
export interface TupleExpr {
  k: 'tuple';
  pos: Pos;
  elems: Expr[];
  parens: boolean;
}
export interface DictEntry {
  key: Expr;
  value: Expr;
  pos: Pos;
}
export interface DictExpr {
  k: 'dict';
  pos: Pos;
  entries: DictEntry[];
}
export interface ParenExpr {
  k: 'paren';
  pos: Pos;
  x: Expr;
}
export interface UnaryExpr {
  k: 'unary';
  pos: Pos;
  op: '-' | '+' | '~' | 'not';
  x: Expr;
}
export interface BinaryExpr {
  k: 'binary';
  pos: Pos;
  op: string;
  x: Expr;
  y: Expr;
}
export interface CondExpr {
  k: 'cond';
  pos: Pos;
  cond: Expr;
  t: Expr;
  f: Expr;
}
export interface DotExpr {
  k: 'dot';
  pos: Pos;
  x: Expr;
  name: string;
  namePos: Pos;
}
export interface IndexExpr {
  k: 'index';
  pos: Pos;
  x: Expr;
  y: Expr;
}
export interface SliceExpr {
  k: 'slice';
  pos: Pos;
  x: Expr;
  lo: Expr | null;
  hi: Expr | null;
  step: Expr | null;
}

export type ArgKind = 'pos' | 'named' | 'star' | 'starstar';
export interface Arg {
  kind: ArgKind;
  pos: Pos;
  name: string | null;
  value: Expr;
}
export interface CallExpr {
  k: 'call';
  pos: Pos;
  fn: Expr;
  args: Arg[];
}

export interface LambdaExpr {
  k: 'lambda';
  pos: Pos;
  fn: FunctionNode;
}

export interface ForClause {
  k: 'for';
  pos: Pos;
  vars: Expr;
  x: Expr;
}
export interface IfClause {
  k: 'if';
  pos: Pos;
  cond: Expr;
}
export interface Comprehension {
  k: 'comp';
  pos: Pos;
  curly: boolean;
  /** For a dict comprehension, a `DictEntry`-shaped body. */
  body: Expr | DictEntry;
  clauses: (ForClause | IfClause)[];
}

export type Expr =
  | Ident
  | Literal
  | ListExpr
  | TupleExpr
  | DictExpr
  | ParenExpr
  | UnaryExpr
  | BinaryExpr
  | CondExpr
  | DotExpr
  | IndexExpr
  | SliceExpr
  | CallExpr
  | LambdaExpr
  | Comprehension;

export type ParamKind = 'plain' | 'default' | 'star' | 'starstar';
export interface Param {
  kind: ParamKind;
  pos: Pos;
  /** null only for a bare `*`. */
  name: Ident | null;
  dflt: Expr | null;
}

export interface FunctionNode {
  pos: Pos;
  /** Binary name; `lambda` for lambdas. */
  name: string;
  params: Param[];
  body: Stmt[];
  /** Filled by the resolver (a `FunctionScope`: read it with `scopeOf`). */
  scope?: ResolverSlot;
}

export interface ExprStmt {
  k: 'expr';
  pos: Pos;
  x: Expr;
}
export interface AssignStmt {
  k: 'assign';
  pos: Pos;
  op: string;
  lhs: Expr;
  rhs: Expr;
}
export interface DefStmt {
  k: 'def';
  pos: Pos;
  name: Ident;
  fn: FunctionNode;
}
export interface IfStmt {
  k: 'if';
  pos: Pos;
  cond: Expr;
  then: Stmt[];
  else_: Stmt[];
}
export interface ForStmt {
  k: 'for';
  pos: Pos;
  vars: Expr;
  x: Expr;
  body: Stmt[];
}
export interface WhileStmt {
  k: 'while';
  pos: Pos;
  cond: Expr;
  body: Stmt[];
}
export interface ReturnStmt {
  k: 'return';
  pos: Pos;
  x: Expr | null;
}
export interface BranchStmt {
  k: 'break' | 'continue' | 'pass';
  pos: Pos;
}
export interface LoadStmt {
  k: 'load';
  pos: Pos;
  /** Binary module name. */
  module: string;
  modulePos: Pos;
  /** Local names bound. */
  to: Ident[];
  /** Names in the loaded module (binary), with their positions. */
  from: { name: string; pos: Pos }[];
}

export type Stmt = ExprStmt | AssignStmt | DefStmt | IfStmt | ForStmt | WhileStmt | ReturnStmt | BranchStmt | LoadStmt;

export interface File {
  path: string;
  stmts: Stmt[];
  /** Filled by the resolver: the module's top-level code as a `FunctionScope` (see `scopeOf`). */
  scope?: ResolverSlot;
}
