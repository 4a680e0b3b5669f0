/**
 * Recursive-descent (LL(1)) parser for the whole Starlark grammar. Stops at the first error,
 * throwing `StarlarkSyntaxError` (code `starlark-syntax`) with starlark-go's message and position
 * (errors about the lookahead token are reported just after it, as starlark-go does).
 *
 * `parseFile(filename, source)` parses a module; `parseExpr` a single expression (REPL).
 */
import { Scanner } from './scanner.ts';
import { describeToken, RESERVED } from './tokens.ts';
import type { Pos, TokenKind } from './tokens.ts';
import type {
  Arg,
  DictEntry,
  Expr,
  File,
  ForClause,
  FunctionNode,
  Ident,
  IfClause,
  IfStmt,
  Literal,
  LoadStmt,
  Param,
  Stmt,
} from './ast.ts';

/** Binary operator precedence level, low to high, or -1 (`not` is level 2, handled as a prefix). */
function precedence(k: TokenKind): number {
  switch (k) {
    case 'or':
      return 0;
    case 'and':
      return 1;
    case 'not':
      return 2;
    case '==':
    case '!=':
    case '<':
    case '>':
    case '<=':
    case '>=':
    case 'in':
    case 'not in':
      return 3;
    case '|':
      return 4;
    case '^':
      return 5;
    case '&':
      return 6;
    case '<<':
    case '>>':
      return 7;
    case '-':
    case '+':
      return 8;
    case '*':
    case '%':
    case '/':
    case '//':
      return 9;
    default:
      return -1;
  }
}
const NOT_LEVEL = 2;
const CMP_LEVEL = 3;

const ASSIGN_OPS: ReadonlySet<string> = new Set([
  '=',
  '+=',
  '-=',
  '*=',
  '/=',
  '//=',
  '%=',
  '&=',
  '|=',
  '^=',
  '<<=',
  '>>=',
]);

function terminatesExprList(k: TokenKind): boolean {
  return k === 'eof' || k === 'newline' || k === '=' || k === '}' || k === ']' || k === ')' || k === ';';
}

const HEAD_PARSE: Required<ParseOptions> = { primaryErrorAtTokenStart: true, reservedWordTokens: true };

class Parser {
  /** The scanner; its fields describe the lookahead token. */
  private readonly sc: Scanner;
  /** Kind of the lookahead; may be rewritten to 'not in'. */
  private k: TokenKind;

  private readonly opts: Required<ParseOptions>;

  constructor(file: string, src: string, opts: Required<ParseOptions> = HEAD_PARSE) {
    this.opts = opts;
    this.sc = new Scanner(file, src);
    this.sc.advance();
    this.k = this.sc.kind;
  }

  /** The lookahead as errors name it (google/starlark-go syntax/scan.go Token.GoString). */
  private describeLookahead(): string {
    const k = this.tk();
    if (k === 'illegal' && this.opts.reservedWordTokens && RESERVED.has(this.sc.raw)) return this.sc.raw;
    return describeToken(k);
  }

  /** Start position of the lookahead (a fresh object, for the AST). */
  private curPos(): Pos {
    return { line: this.sc.line, col: this.sc.col };
  }

  /** Advances without recording a position. */
  private skip(): void {
    this.sc.advance();
    this.k = this.sc.kind;
  }

  /** Advances; returns the position of the token just consumed. */
  /** The lookahead kind (a method, so TypeScript does not narrow it across `next()`). */
  private tk(): TokenKind {
    return this.k;
  }

  private next(): Pos {
    const p = this.curPos();
    this.sc.advance();
    this.k = this.sc.kind;
    return p;
  }

  private fail(pos: Pos, msg: string): never {
    return this.sc.error(pos, msg);
  }

  /** Error about the lookahead, at the scanner position (just after it). */
  private failHere(msg: string): never {
    return this.sc.error({ line: this.sc.endLine, col: this.sc.endCol }, msg);
  }

  /** Consumes the lookahead, which must be `k`, without recording its position. */
  private expect(k: TokenKind): void {
    if (this.k !== k) this.failHere(`got ${this.describeLookahead()}, want ${describeToken(k)}`);
    this.skip();
  }

  private consume(k: TokenKind): Pos {
    if (this.tk() !== k) this.failHere(`got ${this.describeLookahead()}, want ${describeToken(k)}`);
    return this.next();
  }

  parseFile(): File {
    const stmts: Stmt[] = [];
    while (this.tk() !== 'eof') {
      if (this.tk() === 'newline') {
        this.skip();
        continue;
      }
      this.parseStmt(stmts);
    }
    return { path: this.sc.file, stmts };
  }

  parseExprOnly(): Expr {
    const x = this.parseTest();
    if (this.tk() === 'newline') this.next();
    if (this.tk() !== 'eof') this.failHere(`got ${this.describeLookahead()} after expression, want EOF`);
    return x;
  }

  private parseStmt(out: Stmt[]): void {
    switch (this.tk()) {
      case 'def':
        out.push(this.parseDef());
        return;
      case 'if':
        out.push(this.parseIf());
        return;
      case 'for': {
        const pos = this.next();
        const vars = this.parseLoopVariables();
        this.expect('in');
        const x = this.parseExpr(false);
        this.expect(':');
        out.push({ k: 'for', pos, vars, x, body: this.parseSuite() });
        return;
      }
      case 'while': {
        const pos = this.next();
        const cond = this.parseTest();
        this.expect(':');
        out.push({ k: 'while', pos, cond, body: this.parseSuite() });
        return;
      }
      default:
        this.parseSimpleStmt(out);
    }
  }

  private parseDef(): Stmt {
    const pos = this.next();
    const name = this.parseIdent();
    this.expect('(');
    const params = this.parseParams();
    this.expect(')');
    this.expect(':');
    const body = this.parseSuite();
    const fn: FunctionNode = { pos, name: name.name, params, body };
    return { k: 'def', pos, name, fn };
  }

  private parseIf(): Stmt {
    const pos = this.next();
    const cond = this.parseTest();
    this.expect(':');
    const head: IfStmt = { k: 'if', pos, cond, then: this.parseSuite(), else_: [] };
    let tail = head;
    while (this.tk() === 'elif') {
      const p = this.next();
      const c = this.parseTest();
      this.expect(':');
      const elif: IfStmt = { k: 'if', pos: p, cond: c, then: this.parseSuite(), else_: [] };
      tail.else_ = [elif];
      tail = elif;
    }
    if (this.tk() === 'else') {
      this.skip();
      this.expect(':');
      tail.else_ = this.parseSuite();
    }
    return head;
  }

  private parseLoopVariables(): Expr {
    const v = this.parsePrimaryWithSuffix();
    if (this.tk() !== ',') return v;
    const elems: Expr[] = [v];
    while (this.tk() === ',') {
      this.skip();
      if (terminatesExprList(this.tk())) break;
      elems.push(this.parsePrimaryWithSuffix());
    }
    return { k: 'tuple', pos: v.pos, elems, parens: false };
  }

  private parseSimpleStmt(out: Stmt[]): void {
    for (;;) {
      out.push(this.parseSmallStmt());
      if (this.tk() !== ';') break;
      this.skip();
      if (this.tk() === 'newline' || this.tk() === 'eof') break;
    }
    if (this.tk() !== 'eof') this.expect('newline');
  }

  private parseSmallStmt(): Stmt {
    switch (this.tk()) {
      case 'return': {
        const pos = this.next();
        let x: Expr | null = null;
        if (this.tk() !== 'eof' && this.tk() !== 'newline' && this.tk() !== ';') x = this.parseExpr(false);
        return { k: 'return', pos, x };
      }
      case 'break':
      case 'continue':
      case 'pass': {
        const k = this.tk() as 'break' | 'continue' | 'pass';
        const pos = this.next();
        return { k, pos };
      }
      case 'load':
        return this.parseLoad();
    }
    const x = this.parseExpr(false);
    if (ASSIGN_OPS.has(this.tk())) {
      const op = this.tk();
      const pos = this.next();
      const rhs = this.parseExpr(false);
      return { k: 'assign', pos, op, lhs: x, rhs };
    }
    return { k: 'expr', pos: x.pos, x };
  }

  private parseLoad(): LoadStmt {
    const pos = this.next();
    const lparen = this.consume('(');
    if (this.tk() !== 'string') this.failHere('first operand of load statement must be a string literal');
    const modulePos = this.curPos();
    const module = this.sc.value as string;
    this.skip();
    const to: Ident[] = [];
    const from: { name: string; pos: Pos }[] = [];
    while (this.tk() !== ')' && this.tk() !== 'eof') {
      this.expect(',');
      if (this.tk() === ')') break;
      if (this.tk() === 'string') {
        const p = { line: this.sc.line, col: this.sc.col + 1 };
        const name = this.sc.value as string;
        this.skip();
        to.push({ k: 'ident', pos: p, name });
        from.push({ name, pos: p });
      } else if (this.tk() === 'ident') {
        const id = this.parseIdent();
        to.push(id);
        if (this.tk() !== '=') {
          this.failHere(`load operand must be "${id.name}" or ${id.name}="originalname" (want '=' after ${id.name})`);
        }
        this.expect('=');
        if (this.tk() !== 'string')
          this.failHere(`original name of loaded symbol must be quoted: ${id.name}="originalname"`);
        const p = { line: this.sc.line, col: this.sc.col + 1 };
        from.push({ name: this.sc.value as string, pos: p });
        this.skip();
      } else {
        this.failHere(`load operand must be "name" or localname="name" (got ${this.describeLookahead()})`);
      }
    }
    this.expect(')');
    if (to.length === 0) this.fail(lparen, 'load statement must import at least 1 symbol');
    return { k: 'load', pos, module, modulePos, to, from };
  }

  private parseSuite(): Stmt[] {
    if (this.tk() === 'newline') {
      this.skip();
      this.expect('indent');
      const stmts: Stmt[] = [];
      while (this.tk() !== 'outdent' && this.tk() !== 'eof') this.parseStmt(stmts);
      this.expect('outdent');
      return stmts;
    }
    const stmts: Stmt[] = [];
    this.parseSimpleStmt(stmts);
    return stmts;
  }

  private parseIdent(): Ident {
    if (this.tk() !== 'ident') this.failHere('not an identifier');
    const id: Ident = { k: 'ident', pos: this.curPos(), name: this.sc.raw };
    this.skip();
    return id;
  }

  private parseParams(): Param[] {
    const params: Param[] = [];
    while (this.tk() !== ')' && this.tk() !== ':' && this.tk() !== 'eof') {
      if (params.length > 0) this.expect(',');
      // A trailing comma is allowed after any parameter, `*args` and `**kwargs` included
      // (google/starlark-go syntax/parse.go parseParams, since 2020-03).
      if (this.tk() === ')') break;
      if (this.tk() === '*' || this.tk() === '**') {
        const op = this.tk();
        const pos = this.next();
        let name: Ident | null = null;
        if (op === '**' || this.tk() === 'ident') name = this.parseIdent();
        params.push({ kind: op === '*' ? 'star' : 'starstar', pos, name, dflt: null });
        continue;
      }
      const name = this.parseIdent();
      if (this.tk() === '=') {
        this.skip();
        const dflt = this.parseTest();
        params.push({ kind: 'default', pos: name.pos, name, dflt });
        continue;
      }
      params.push({ kind: 'plain', pos: name.pos, name, dflt: null });
    }
    return params;
  }

  /** expr = test {',' test} — an unparenthesized tuple when there is a comma. */
  private parseExpr(inParens: boolean): Expr {
    const x = this.parseTest();
    if (this.tk() !== ',') return x;
    const elems = this.parseExprs([x], inParens);
    return { k: 'tuple', pos: x.pos, elems, parens: inParens };
  }

  private parseExprs(elems: Expr[], allowTrailingComma: boolean): Expr[] {
    while (this.tk() === ',') {
      const pos = this.next();
      if (terminatesExprList(this.tk())) {
        if (!allowTrailingComma) this.fail(pos, 'unparenthesized tuple with trailing comma');
        break;
      }
      elems.push(this.parseTest());
    }
    return elems;
  }

  private parseTest(): Expr {
    if (this.tk() === 'lambda') return this.parseLambda(true);
    const x = this.parseTestPrec(0);
    if (this.tk() === 'if') {
      const ifpos = this.next();
      const cond = this.parseTestPrec(0);
      if (this.tk() !== 'else') this.fail(ifpos, 'conditional expression without else clause');
      this.skip();
      const f = this.parseTest();
      return { k: 'cond', pos: ifpos, cond, t: x, f };
    }
    return x;
  }

  private parseTestNoCond(): Expr {
    if (this.tk() === 'lambda') return this.parseLambda(false);
    return this.parseTestPrec(0);
  }

  private parseLambda(allowCond: boolean): Expr {
    const pos = this.next();
    let params: Param[] = [];
    if (this.tk() !== ':') params = this.parseParams();
    this.expect(':');
    const body = allowCond ? this.parseTest() : this.parseTestNoCond();
    const fn: FunctionNode = { pos, name: 'lambda', params, body: [{ k: 'return', pos: body.pos, x: body }] };
    return { k: 'lambda', pos, fn };
  }

  /**
   * Precedence climbing in one function (operators of level >= `prec`). `not` is a prefix at its
   * own level; comparisons do not associate with each other.
   */
  private parseTestPrec(prec: number): Expr {
    let x: Expr;
    if (this.tk() === 'not' && prec <= NOT_LEVEL) {
      const pos = this.next();
      const operand = this.parseTestPrec(NOT_LEVEL);
      x = { k: 'unary', pos, op: 'not', x: operand };
    } else {
      x = this.parsePrimaryWithSuffix();
    }
    let prevCmp = false;
    for (;;) {
      if (this.tk() === 'not') {
        this.skip();
        if (this.tk() !== 'in') this.failHere(`got ${this.describeLookahead()}, want in`);
        this.k = 'not in';
      }
      const opprec = precedence(this.tk());
      if (opprec < prec || opprec === NOT_LEVEL) return x;
      if (opprec === CMP_LEVEL && prevCmp) {
        const prevOp = x.k === 'binary' ? x.op : '?';
        this.failHere(`${prevOp} does not associate with ${this.tk()} (use parens)`);
      }
      prevCmp = opprec === CMP_LEVEL;
      const op = this.tk();
      const pos = this.next();
      const y = this.parseTestPrec(opprec + 1);
      x = { k: 'binary', pos, op, x, y };
    }
  }

  private parsePrimaryWithSuffix(): Expr {
    let x = this.parsePrimary();
    for (;;) {
      switch (this.tk()) {
        case '.': {
          const pos = this.next();
          const id = this.parseIdent();
          x = { k: 'dot', pos, x, name: id.name, namePos: id.pos };
          break;
        }
        case '[':
          x = this.parseSliceSuffix(x);
          break;
        case '(':
          x = this.parseCallSuffix(x);
          break;
        default:
          return x;
      }
    }
  }

  private parseSliceSuffix(x: Expr): Expr {
    const pos = this.next();
    let lo: Expr | null = null;
    let hi: Expr | null = null;
    let step: Expr | null = null;
    if (this.tk() !== ':') {
      const y = this.parseExpr(false);
      if (this.tk() === ']') {
        this.skip();
        return { k: 'index', pos, x, y };
      }
      lo = y;
    }
    if (this.tk() === ':') {
      this.skip();
      if (this.tk() !== ':' && this.tk() !== ']') hi = this.parseTest();
    }
    if (this.tk() === ':') {
      this.skip();
      if (this.tk() !== ']') step = this.parseTest();
    }
    this.expect(']');
    return { k: 'slice', pos, x, lo, hi, step };
  }

  private parseCallSuffix(fn: Expr): Expr {
    const pos = this.consume('(');
    const args: Arg[] = [];
    if (this.tk() === ')') {
      this.skip();
      return { k: 'call', pos, fn, args };
    }
    // A trailing comma is allowed after any argument, `*args` and `**kwargs` included (every pinned
    // google/starlark-go has syntax/parse.go parseArgs from 2020-03-05, #263).
    while (this.tk() !== ')' && this.tk() !== 'eof') {
      if (args.length > 0) this.expect(',');
      if (this.tk() === ')') break;
      if (this.tk() === '*' || this.tk() === '**') {
        const kind = this.tk() === '*' ? 'star' : 'starstar';
        const p = this.next();
        args.push({ kind, pos: p, name: null, value: this.parseTest() });
        continue;
      }
      const x = this.parseTest();
      if (this.tk() === '=') {
        if (x.k !== 'ident') this.failHere('keyword argument must have form name=expr');
        this.skip();
        args.push({ kind: 'named', pos: x.pos, name: x.name, value: this.parseTest() });
        continue;
      }
      args.push({ kind: 'pos', pos: x.pos, name: null, value: x });
    }
    this.expect(')');
    return { k: 'call', pos, fn, args };
  }

  private parsePrimary(): Expr {
    const sc = this.sc;
    switch (this.tk()) {
      case 'ident':
        return this.parseIdent();
      case 'int':
      case 'float':
      case 'string':
      case 'bytes': {
        const lit: Literal = {
          k: 'lit',
          pos: this.curPos(),
          type: sc.kind as Literal['type'],
          value: sc.value!,
          raw: sc.raw,
        };
        this.skip();
        return lit;
      }
      case '[':
        return this.parseList();
      case '{':
        return this.parseDict();
      case '(': {
        const pos = this.next();
        if (this.tk() === ')') {
          this.skip();
          return { k: 'tuple', pos, elems: [], parens: true };
        }
        const e = this.parseExpr(true);
        this.expect(')');
        return { k: 'paren', pos, x: e };
      }
      case '-':
      case '+':
      case '~': {
        const op = this.tk() as '-' | '+' | '~';
        const pos = this.next();
        const x = this.parsePrimaryWithSuffix();
        return { k: 'unary', pos, op, x };
      }
    }
    // At the token's start, not after it: a NEWLINE token belongs to the line it ends
    // (google/starlark-go syntax/parse.go parsePrimary, since 2024-03-29, #533).
    const msg = `got ${this.describeLookahead()}, want primary expression`;
    return this.opts.primaryErrorAtTokenStart ? this.fail(this.curPos(), msg) : this.failHere(msg);
  }

  private parseList(): Expr {
    const pos = this.next();
    if (this.tk() === ']') {
      this.skip();
      return { k: 'list', pos, elems: [] };
    }
    const x = this.parseTest();
    if (this.tk() === 'for') return this.parseComprehension(pos, x, ']');
    let elems = [x];
    if (this.tk() === ',') elems = this.parseExprs(elems, true);
    this.expect(']');
    return { k: 'list', pos, elems };
  }

  private parseDict(): Expr {
    const pos = this.next();
    if (this.tk() === '}') {
      this.skip();
      return { k: 'dict', pos, entries: [] };
    }
    const e = this.parseDictEntry();
    if (this.tk() === 'for') return this.parseComprehension(pos, e, '}');
    const entries = [e];
    while (this.tk() === ',') {
      this.skip();
      if (this.tk() === '}') break;
      entries.push(this.parseDictEntry());
    }
    this.expect('}');
    return { k: 'dict', pos, entries };
  }

  private parseDictEntry(): DictEntry {
    const key = this.parseTest();
    const pos = this.consume(':');
    const value = this.parseTest();
    return { key, value, pos };
  }

  private parseComprehension(pos: Pos, body: Expr | DictEntry, end: ']' | '}'): Expr {
    const clauses: (ForClause | IfClause)[] = [];
    while (this.tk() !== end) {
      if (this.tk() === 'for') {
        const p = this.next();
        const vars = this.parseLoopVariables();
        this.expect('in');
        const x = this.parseTestPrec(0);
        clauses.push({ k: 'for', pos: p, vars, x });
      } else if (this.tk() === 'if') {
        const p = this.next();
        clauses.push({ k: 'if', pos: p, cond: this.parseTestNoCond() });
      } else {
        this.failHere(`got ${this.describeLookahead()}, want '${end}', for, or if`);
      }
    }
    this.skip();
    return { k: 'comp', pos, curly: end === '}', body, clauses };
  }
}

/** Parses a whole file. Throws `StarlarkSyntaxError` on the first error. */
/** What differs between google/starlark-go releases in the parser (src/starlark/release.ts). */
export interface ParseOptions {
  /**
   * `want primary expression` at the start of the offending token (HEAD, since 2024-03-29) or,
   * as before, at the scanner position after it. Default: true.
   */
  primaryErrorAtTokenStart?: boolean;
  /**
   * A reserved word is named in errors (`got class, want …`; HEAD, since 2025-05-30) or, as
   * before, described as `illegal token`. Default: true.
   */
  reservedWordTokens?: boolean;
}

export function parseFile(filename: string, source: string, opts: ParseOptions = {}): File {
  return new Parser(filename, source, {
    primaryErrorAtTokenStart: opts.primaryErrorAtTokenStart ?? true,
    reservedWordTokens: opts.reservedWordTokens ?? true,
  }).parseFile();
}

/** Parses a single expression (optionally followed by a newline). */
export function parseExpr(filename: string, source: string): Expr {
  return new Parser(filename, source).parseExprOnly();
}
