/**
 * `load("encoding/csv.star", "csv")`: qri-io/starlib v0.5.0 `encoding/csv/csv.go` over Go's
 * `encoding/csv` (Go 1.17+ positions).
 *
 * `read_all(source, comma=",", comment="", lazy_quotes=False, trim_leading_space=False,
 * fields_per_record=0, skip=0)` → list of lists of strings; `\r\n` and lone `\r` read as `\n`
 * (starlib's `replacecr`); `skip` reads and drops records first (their errors ignored, as starlib
 * does). Errors are Go's `ParseError` texts (`parse error on line 1, column 4: bare " in
 * non-quoted-field`, `record on line 2: wrong number of fields`).
 *
 * `write_all(source, comma=",")` → the CSV text of a list of lists (`\n` line ends); cells are
 * formatted like Go's `%v` (`<nil>`, `true`, `1e+06`, `[a b]`).
 */
import { Builtin } from '../../value/builtin.ts';
import type { Kwargs, Thread, Value } from '../../value/contract.ts';
import { None } from '../../value/contract.ts';
import { fail, prefixed } from '../../value/errors.ts';
import { Float, formatG } from '../../value/float.ts';
import { Dict } from '../../value/hashtable.ts';
import { List, Tuple } from '../../value/list.ts';
import { Module } from '../../value/struct.ts';
import { typeNameOf } from '../../value/repr.ts';
import { decodeRuneAt } from '../../value/string.ts';
import { unpack, wantBool, wantInt, wantString } from '../args.ts';

const ERR_BARE_QUOTE = 'bare " in non-quoted-field';
const ERR_QUOTE = 'extraneous or missing " in quoted-field';

class CsvError extends Error {}

function parseError(startLine: number, line: number, column: number, err: string): CsvError {
  if (startLine !== line)
    return new CsvError(`record on line ${startLine}; parse error on line ${line}, column ${column}: ${err}`);
  return new CsvError(`parse error on line ${line}, column ${column}: ${err}`);
}

interface ReaderOptions {
  comma: string;
  comment: string;
  lazyQuotes: boolean;
  trimLeadingSpace: boolean;
  fieldsPerRecord: number;
}

const isSpaceByte = (c: string): boolean =>
  c === ' ' || c === '\t' || c === '\n' || c === '\v' || c === '\f' || c === '\r';

/** Go's `csv.Reader` over already CR-normalised binary text. */
class Reader {
  private pos = 0;
  private numLine = 0;
  private fieldsPerRecord: number;
  private readonly text: string;
  private readonly o: ReaderOptions;
  constructor(text: string, o: ReaderOptions) {
    this.text = text;
    this.o = o;
    this.fieldsPerRecord = o.fieldsPerRecord;
  }

  private readLine(): string | undefined {
    if (this.pos >= this.text.length) return undefined;
    const nl = this.text.indexOf('\n', this.pos);
    const end = nl < 0 ? this.text.length : nl + 1;
    const line = this.text.slice(this.pos, end);
    this.pos = end;
    this.numLine++;
    return line;
  }

  /** The next record, or undefined at the end. */
  read(): string[] | undefined {
    const { comma, comment } = this.o;
    let line: string | undefined;
    for (;;) {
      line = this.readLine();
      if (line === undefined) return undefined;
      if (comment !== '' && line.startsWith(comment)) continue;
      if (line === '\n') continue;
      break;
    }
    const recLine = this.numLine;
    const fields: string[] = [];
    let col = 1;
    let lineNo = this.numLine;
    const nlLen = (l: string): number => (l.endsWith('\n') ? 1 : 0);
    parse: for (;;) {
      if (this.o.trimLeadingSpace) {
        let i = 0;
        while (i < line.length && isSpaceByte(line[i])) i++;
        line = line.slice(i);
        col += i;
      }
      if (line.length === 0 || line[0] !== '"') {
        const i = line.indexOf(comma);
        const field = i >= 0 ? line.slice(0, i) : line.slice(0, line.length - nlLen(line));
        if (!this.o.lazyQuotes) {
          const j = field.indexOf('"');
          if (j >= 0) throw parseError(recLine, this.numLine, col + j, ERR_BARE_QUOTE);
        }
        fields.push(field);
        if (i >= 0) {
          line = line.slice(i + comma.length);
          col += i + comma.length;
          continue parse;
        }
        break parse;
      }
      // Quoted field.
      let field = '';
      line = line.slice(1);
      col += 1;
      for (;;) {
        const i = line.indexOf('"');
        if (i >= 0) {
          field += line.slice(0, i);
          line = line.slice(i + 1);
          col += i + 1;
          if (line.startsWith('"')) {
            field += '"';
            line = line.slice(1);
            col++;
          } else if (line.startsWith(comma)) {
            line = line.slice(comma.length);
            col += comma.length;
            fields.push(field);
            continue parse;
          } else if (nlLen(line) === line.length) {
            fields.push(field);
            break parse;
          } else if (this.o.lazyQuotes) {
            field += '"';
          } else {
            throw parseError(recLine, this.numLine, col - 1, ERR_QUOTE);
          }
        } else if (line.length > 0) {
          field += line;
          col += line.length;
          const next = this.readLine();
          line = next ?? '';
          if (line.length > 0) {
            lineNo++;
            col = 1;
          }
        } else {
          if (!this.o.lazyQuotes) throw parseError(recLine, lineNo, col, ERR_QUOTE);
          fields.push(field);
          break parse;
        }
      }
    }
    if (this.fieldsPerRecord > 0) {
      if (fields.length !== this.fieldsPerRecord)
        throw new CsvError(`record on line ${recLine}: wrong number of fields`);
    } else if (this.fieldsPerRecord === 0) {
      this.fieldsPerRecord = fields.length;
    }
    return fields;
  }
}

function singleChar(s: string, what: string): string {
  if (s.length > 1) fail(`expected ${what} param to be a single-character string`);
  return s;
}

const validDelim = (c: string): boolean => c !== '' && c !== '"' && c !== '\r' && c !== '\n' && c !== '\0';

/** Go `%v` of the value starlib's `util.Unmarshal` makes of `v` (its error for other types). */
function goValueString(v: Value): string {
  if (v === None) return '<nil>';
  switch (typeof v) {
    case 'string':
      return v;
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
    case 'bigint': {
      // util.Unmarshal's starlark.AsInt into a Go int (64-bit in the catalog's image).
      const big = BigInt(v);
      if (big < -(1n << 63n) || big >= 1n << 63n) fail(`${v} out of range (want value in signed 64-bit range)`);
      return String(v);
    }
  }
  if (v instanceof Float) {
    const x = v.value;
    if (Number.isNaN(x)) return 'NaN';
    if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
    return formatG(x);
  }
  if (v instanceof List || v instanceof Tuple) return `[${v.elems.map((e) => goValueString(e)).join(' ')}]`;
  if (v instanceof Dict) {
    // util.Unmarshal converts each value, then its key, wrapping a failure per dict level.
    const pairs = v.entries().map(([k, x]) => {
      const value = prefixed('unmarshaling starlark value', () => goValueString(x));
      return [prefixed('unmarshaling starlark key', () => goValueString(k)), value] as const;
    });
    pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return `map[${pairs.map(([k, x]) => `${k}:${x}`).join(' ')}]`;
  }
  if (typeNameOf(v) === 'set') fail("sets aren't yet supported");
  return fail(`unrecognized starlark type: ${typeNameOf(v)}`);
}

/** Go `csv.Writer.fieldNeedsQuotes`. */
function needsQuotes(field: string, comma: string): boolean {
  if (field === '') return false;
  if (field === '\\.') return true;
  if (field.includes(comma) || /["\r\n]/.test(field)) return true;
  const r = decodeRuneAt(field, 0) >> 3;
  return (
    r === 0x20 ||
    (r >= 0x09 && r <= 0x0d) ||
    r === 0x85 ||
    r === 0xa0 ||
    r === 0x1680 ||
    (r >= 0x2000 && r <= 0x200a) ||
    r === 0x2028 ||
    r === 0x2029 ||
    r === 0x202f ||
    r === 0x205f ||
    r === 0x3000
  );
}

function writeField(field: string, comma: string): string {
  if (!needsQuotes(field, comma)) return field;
  return `"${field.replace(/"/g, '""')}"`;
}

const readAll = new Builtin('read_all', (thread: Thread, args: Value[], kwargs: Kwargs) => {
  const fn = 'read_all';
  // Upstream's UnpackArgs spec, `comment` and later without `?` (see unpack in ../args.ts).
  const { values: v, labels: l } = unpack(
    fn,
    args,
    kwargs,
    ['source', 'comma?', 'comment', 'lazy_quotes', 'trim_leading_space', 'fields_per_record', 'skip'],
    thread.release,
  );
  const source = v[0]!;
  // Upstream reads only a string source; any other leaves its reader nil and the Go process
  // panics on the first read (a crash of the catalog image; here an error with the panic's text).
  if (typeof source !== 'string') fail('runtime error: invalid memory address or nil pointer dereference');
  const text = source;
  const comma = singleChar(v[1] === undefined ? '' : wantString(fn, l[1], v[1]), 'comma') || ',';
  const comment = singleChar(v[2] === undefined ? '' : wantString(fn, l[2], v[2]), 'comment');
  const opts: ReaderOptions = {
    comma,
    comment,
    lazyQuotes: v[3] === undefined ? false : wantBool(fn, l[3], v[3]),
    trimLeadingSpace: v[4] === undefined ? false : wantBool(fn, l[4], v[4]),
    fieldsPerRecord: v[5] === undefined ? 0 : wantInt(fn, l[5], v[5]),
  };
  const skip = v[6] === undefined ? 0 : wantInt(fn, l[6], v[6]);
  thread.alloc(2 * text.length);
  if (!validDelim(comma) || comma === comment || (comment !== '' && !validDelim(comment)))
    fail('csv: invalid field or comment delimiter');
  const reader = new Reader(text.replace(/\r\n?/g, '\n'), opts);
  for (let i = 0; i < skip; i++) {
    try {
      if (reader.read() === undefined) break;
    } catch (e) {
      if (!(e instanceof CsvError)) throw e;
    }
  }
  const rows: Value[] = [];
  try {
    for (let r = reader.read(); r !== undefined; r = reader.read()) rows.push(new List(r));
  } catch (e) {
    if (e instanceof CsvError) fail(e.message);
    throw e;
  }
  return new List(rows);
});

const writeAll = new Builtin('write_all', (thread: Thread, args: Value[], kwargs: Kwargs) => {
  const fn = 'write_all';
  const { values: v, labels: l } = unpack(fn, args, kwargs, ['source', 'comma?'], thread.release);
  const comma = singleChar(v[1] === undefined ? '' : wantString(fn, l[1], v[1]), 'comma') || ',';
  const source = v[0]!;
  // Upstream converts the whole source first (util.Unmarshal), so its errors come before any row's.
  goValueString(source);
  if (!(source instanceof List || source instanceof Tuple)) fail('expected value to be an array type');
  const out: string[] = [];
  let size = 0;
  source.elems.forEach((row, i) => {
    if (!(row instanceof List || row instanceof Tuple)) {
      goValueString(row);
      fail(`row ${i} is not an array type`);
    }
    const line = row.elems.map((cell) => writeField(goValueString(cell), comma)).join(comma) + '\n';
    size += line.length;
    thread.alloc(line.length);
    out.push(line);
  });
  if (!validDelim(comma)) fail('csv: invalid field or comment delimiter');
  return size === 0 ? '' : out.join('');
});

export const CSV_MODULE = new Module('csv', { read_all: readAll, write_all: writeAll });
