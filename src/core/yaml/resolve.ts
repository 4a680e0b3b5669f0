/**
 * go-yaml v3's implicit resolver for plain scalars (docs/yaml-output.md, "Scalars"). It decides only
 * which tag a plain scalar's text reads as; the parser uses it to tag plain scalars and the
 * emitter to decide whether a `!!str` value must be quoted or a tag can be left out.
 */

const TABLE: ReadonlyMap<string, string> = new Map([
  ['true', '!!bool'],
  ['True', '!!bool'],
  ['TRUE', '!!bool'],
  ['false', '!!bool'],
  ['False', '!!bool'],
  ['FALSE', '!!bool'],
  ['', '!!null'],
  ['~', '!!null'],
  ['null', '!!null'],
  ['Null', '!!null'],
  ['NULL', '!!null'],
  ['.nan', '!!float'],
  ['.NaN', '!!float'],
  ['.NAN', '!!float'],
  ['.inf', '!!float'],
  ['.Inf', '!!float'],
  ['.INF', '!!float'],
  ['+.inf', '!!float'],
  ['+.Inf', '!!float'],
  ['+.INF', '!!float'],
  ['-.inf', '!!float'],
  ['-.Inf', '!!float'],
  ['-.INF', '!!float'],
]);

/** First characters for which go-yaml consults the table at all. */
const LOOKUP_FIRST = 'yYnNtTfFoO~';

const YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
/** Go's ParseFloat syntax for a decimal literal starting with `.` (underscores between digits). */
const DOT_FLOAT = /^\.[0-9](_?[0-9])*([eE][-+]?[0-9](_?[0-9])*)?$/;
const TIMESTAMP_PREFIX = /^[0-9]{4}-/;
const DATE = /^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})$/;
const DATE_TIME =
  /^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:[Tt]| +)([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})?$/;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

export function resolvePlainTag(value: string): string {
  if (value === '') return '!!null';
  const c = value.charCodeAt(0);
  // Most keys and values start with a letter that never resolves to anything but a string.
  if (((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) && !LOOKUP_FIRST.includes(value[0])) return '!!str';
  const fixed = TABLE.get(value);
  if (c === 0x2e /* . */) {
    if (fixed) return fixed;
    return DOT_FLOAT.test(value) ? '!!float' : '!!str';
  }
  if (c === 0x2b || c === 0x2d || (c >= 0x30 && c <= 0x39)) {
    if (fixed) return fixed;
    const shape = numericShape(value);
    if (shape === SHAPE_STRING) return '!!str';
    if (shape === SHAPE_DECIMAL) return '!!int';
    if (TIMESTAMP_PREFIX.test(value) && isTimestamp(value)) return '!!timestamp';
    const plain = value.includes('_') ? value.replace(/_/g, '') : value;
    if (isGoInt(plain)) return '!!int';
    if (YAML_FLOAT.test(plain) && Number.isFinite(Number(plain))) return '!!float';
    return '!!str';
  }
  if (LOOKUP_FIRST.includes(value[0]) && fixed) return fixed;
  return '!!str';
}

const SHAPE_OTHER = 0;
/** Holds a character no int, float or timestamp can contain (`500m`, `128Mi`, `v1`): a string. */
const SHAPE_STRING = 1;
/** 1 to 17 decimal digits without a leading zero: an int of any Go width, no regular expression needed. */
const SHAPE_DECIMAL = 2;

/**
 * A quick look at a value starting with a digit or sign before the regular expressions: the
 * characters ints (hex, octal, binary, `_`), floats and timestamps (`T`, `Z`, `:`, space) can hold
 * are [0-9a-fA-F xXoO +-._: tTzZ]; any other makes the value a string.
 */
function numericShape(value: string): number {
  const n = value.length;
  let decimal = n < 18 && value.charCodeAt(0) !== 0x30;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) continue;
    decimal = false;
    const lower = c | 0x20;
    if ((lower >= 0x61 && lower <= 0x66) || lower === 0x78 || lower === 0x6f || lower === 0x74 || lower === 0x7a)
      continue;
    if (c === 0x2b || c === 0x2d || c === 0x2e || c === 0x5f || c === 0x3a || c === 0x20) continue;
    return SHAPE_STRING;
  }
  return decimal ? SHAPE_DECIMAL : SHAPE_OTHER;
}

/** strconv.ParseInt(s, 0, 64) or ParseUint(s, 0, 64) succeeds. */
function isGoInt(s: string): boolean {
  let body = s;
  let neg = false;
  if (body[0] === '+' || body[0] === '-') {
    neg = body[0] === '-';
    body = body.slice(1);
  }
  let digits: string;
  let prefix: string;
  if (/^0[xX][0-9a-fA-F]+$/.test(body)) {
    prefix = '0x';
    digits = body.slice(2);
  } else if (/^0[oO][0-7]+$/.test(body)) {
    prefix = '0o';
    digits = body.slice(2);
  } else if (/^0[bB][01]+$/.test(body)) {
    prefix = '0b';
    digits = body.slice(2);
  } else if (/^0[0-7]*$/.test(body)) {
    prefix = '0o';
    digits = body.length > 1 ? body.slice(1) : '0';
  } else if (/^[1-9][0-9]*$/.test(body)) {
    prefix = '';
    digits = body;
  } else return false;
  if (digits.length < 18 && prefix === '') return true;
  let n = BigInt(prefix + digits);
  if (neg) n = -n;
  return (n >= INT64_MIN && n <= INT64_MAX) || (!neg && s[0] !== '+' && n <= UINT64_MAX);
}

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** One of go-yaml's timestamp layouts parses the text (date only, or date and time). */
function isTimestamp(s: string): boolean {
  const m = DATE.exec(s) ?? DATE_TIME.exec(s);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return false;
  if (m.length > 4 && m[4] !== undefined) {
    if (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 59) return false;
    // The space-separated layout has no zone.
    if (m[8] !== undefined && !/[Tt]/.test(s.slice(10, 11))) return false;
  }
  return true;
}
