/**
 * Token kinds of the Starlark scanner. Punctuation and keywords are their own source text
 * (`'+='`, `'def'`); the other kinds are lower-case words. `describeToken` renders a kind the way
 * starlark-go's parser messages do (`'**'`, `pass`, `identifier`, `end of file`).
 */
export type TokenKind =
  | 'illegal'
  | 'eof'
  | 'newline'
  | 'indent'
  | 'outdent'
  | 'ident'
  | 'int'
  | 'float'
  | 'string'
  | 'bytes'
  // punctuation
  | '+'
  | '-'
  | '*'
  | '/'
  | '//'
  | '%'
  | '&'
  | '|'
  | '^'
  | '<<'
  | '>>'
  | '~'
  | '.'
  | ','
  | '='
  | ';'
  | ':'
  | '('
  | ')'
  | '['
  | ']'
  | '{'
  | '}'
  | '<'
  | '>'
  | '>='
  | '<='
  | '=='
  | '!='
  | '+='
  | '-='
  | '*='
  | '/='
  | '//='
  | '%='
  | '&='
  | '|='
  | '^='
  | '<<='
  | '>>='
  | '**'
  // keywords
  | 'and'
  | 'break'
  | 'continue'
  | 'def'
  | 'elif'
  | 'else'
  | 'for'
  | 'if'
  | 'in'
  | 'lambda'
  | 'load'
  | 'not'
  | 'or'
  | 'pass'
  | 'return'
  | 'while'
  // synthesized by the parser for `not in`
  | 'not in';

export const KEYWORDS: ReadonlySet<string> = new Set([
  'and',
  'break',
  'continue',
  'def',
  'elif',
  'else',
  'for',
  'if',
  'in',
  'lambda',
  'load',
  'not',
  'or',
  'pass',
  'return',
  'while',
]);

/** Reserved words: scanned as `illegal` tokens. `assert` is deliberately absent. */
export const RESERVED: ReadonlySet<string> = new Set([
  'as',
  'async',
  'await',
  'class',
  'del',
  'except',
  'finally',
  'from',
  'global',
  'import',
  'is',
  'nonlocal',
  'raise',
  'try',
  'with',
  'yield',
]);

const WORDS: Partial<Record<TokenKind, string>> = {
  illegal: 'illegal token',
  eof: 'end of file',
  newline: 'newline',
  indent: 'indent',
  outdent: 'outdent',
  ident: 'identifier',
  int: 'int literal',
  float: 'float literal',
  string: 'string literal',
  bytes: 'bytes literal',
};

/** starlark-go's `%#v` rendering of a token in parser messages. */
export function describeToken(k: TokenKind): string {
  const w = WORDS[k];
  if (w !== undefined) return w;
  if (KEYWORDS.has(k) || k === 'not in') return k;
  return "'" + k + "'";
}

/** A 1-based source position; columns count code points. */
export interface Pos {
  line: number;
  col: number;
}

export interface Token {
  kind: TokenKind;
  /** Start of the token. */
  pos: Pos;
  /** Position just after the token (where starlark-go reports "got X, want Y"). */
  end: Pos;
  /** Identifier name (binary UTF-8 string), or the raw text of other tokens. */
  raw: string;
  /** Decoded value: number|bigint for int, number for float, binary string for string/bytes. */
  value: number | bigint | string | null;
}
