/**
 * Go's reference-time layouts ("Mon Jan 2 15:04:05 MST 2006") for the `time` module: formatting
 * and parsing with Go's chunking, defaults and error messages, following Go 1.19's
 * src/time/format.go (golang/go, tag go1.19): nextStdChunk, Time.AppendFormat and parse.
 *
 * Times are passed as Unix nanoseconds (bigint) plus a Location (time-zone.ts).
 */
import { civilFromDays, daysFromCivil, daysIn, isLeap } from './time-civil.ts';
import { type Location, UTC, fixedZone } from './time-zone.ts';

/** Go's std layout element codes (format.go's stdLongMonth...). */
const Std = {
  None: 0,
  LongMonth: 1,
  Month: 2,
  NumMonth: 3,
  ZeroMonth: 4,
  LongWeekDay: 5,
  WeekDay: 6,
  Day: 7,
  UnderDay: 8,
  ZeroDay: 9,
  UnderYearDay: 10,
  ZeroYearDay: 11,
  Hour: 12,
  Hour12: 13,
  ZeroHour12: 14,
  Minute: 15,
  ZeroMinute: 16,
  Second: 17,
  ZeroSecond: 18,
  LongYear: 19,
  Year: 20,
  PM: 21,
  Pm: 22,
  TZ: 23,
  ISO8601TZ: 24,
  ISO8601SecondsTZ: 25,
  ISO8601ShortTZ: 26,
  ISO8601ColonTZ: 27,
  ISO8601ColonSecondsTZ: 28,
  NumTZ: 29,
  NumSecondsTz: 30,
  NumShortTZ: 31,
  NumColonTZ: 32,
  NumColonSecondsTZ: 33,
  FracSecond0: 34,
  FracSecond9: 35,
} as const;
type Std = (typeof Std)[keyof typeof Std];

interface Chunk {
  prefix: string;
  std: Std;
  /** The layout text of the std element. */
  text: string;
  suffix: string;
  /** Fractional seconds: digit count and separator. */
  digits: number;
  sep: string;
}

const ZERO_X = [Std.ZeroMonth, Std.ZeroDay, Std.ZeroHour12, Std.ZeroMinute, Std.ZeroSecond, Std.Year];
const TZ_FORMS: [string, Std, Std][] = [
  ['070000', Std.NumSecondsTz, Std.ISO8601SecondsTZ],
  ['07:00:00', Std.NumColonSecondsTZ, Std.ISO8601ColonSecondsTZ],
  ['0700', Std.NumTZ, Std.ISO8601TZ],
  ['07:00', Std.NumColonTZ, Std.ISO8601ColonTZ],
  ['07', Std.NumShortTZ, Std.ISO8601ShortTZ],
];

const isDigitAt = (s: string, i: number): boolean => i < s.length && s[i] >= '0' && s[i] <= '9';
const startsLower = (s: string): boolean => s.length > 0 && s[0] >= 'a' && s[0] <= 'z';

/** Go's nextStdChunk: the text before the first std element, the element, and the rest. */
function nextStdChunk(layout: string): Chunk {
  const at = (i: number, std: Std, len: number, digits = 0, sep = ''): Chunk => ({
    prefix: layout.slice(0, i),
    std,
    text: layout.slice(i, i + len),
    suffix: layout.slice(i + len),
    digits,
    sep,
  });
  for (let i = 0; i < layout.length; i++) {
    const rest = layout.slice(i);
    switch (layout[i]) {
      case 'J':
        if (rest.startsWith('Jan')) {
          if (rest.startsWith('January')) return at(i, Std.LongMonth, 7);
          if (!startsLower(rest.slice(3))) return at(i, Std.Month, 3);
        }
        break;
      case 'M':
        if (rest.startsWith('Mon')) {
          if (rest.startsWith('Monday')) return at(i, Std.LongWeekDay, 6);
          if (!startsLower(rest.slice(3))) return at(i, Std.WeekDay, 3);
        }
        if (rest.startsWith('MST')) return at(i, Std.TZ, 3);
        break;
      case '0':
        if (rest.length >= 2 && rest[1] >= '1' && rest[1] <= '6') return at(i, ZERO_X[rest.charCodeAt(1) - 49], 2);
        if (rest.startsWith('002')) return at(i, Std.ZeroYearDay, 3);
        break;
      case '1':
        if (rest[1] === '5') return at(i, Std.Hour, 2);
        return at(i, Std.NumMonth, 1);
      case '2':
        if (rest.startsWith('2006')) return at(i, Std.LongYear, 4);
        return at(i, Std.Day, 1);
      case '_':
        if (rest[1] === '2') {
          if (rest.startsWith('_2006')) return at(i + 1, Std.LongYear, 4);
          return at(i, Std.UnderDay, 2);
        }
        if (rest.startsWith('__2')) return at(i, Std.UnderYearDay, 3);
        break;
      case '3':
        return at(i, Std.Hour12, 1);
      case '4':
        return at(i, Std.Minute, 1);
      case '5':
        return at(i, Std.Second, 1);
      case 'P':
        if (rest[1] === 'M') return at(i, Std.PM, 2);
        break;
      case 'p':
        if (rest[1] === 'm') return at(i, Std.Pm, 2);
        break;
      case '-':
      case 'Z':
        for (const [form, num, iso] of TZ_FORMS) {
          if (rest.startsWith(form, 1)) return at(i, layout[i] === '-' ? num : iso, form.length + 1);
        }
        break;
      case '.':
      case ',':
        if (rest[1] === '0' || rest[1] === '9') {
          const ch = rest[1];
          let j = i + 1;
          while (j < layout.length && layout[j] === ch) j++;
          if (!isDigitAt(layout, j)) {
            return at(i, ch === '0' ? Std.FracSecond0 : Std.FracSecond9, j - i, j - (i + 1), layout[i]);
          }
        }
        break;
    }
  }
  return { prefix: layout, std: Std.None, text: '', suffix: '', digits: 0, sep: '' };
}

const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const SHORT_DAYS = LONG_DAYS.map((d) => d.slice(0, 3));
const LONG_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const SHORT_MONTHS = LONG_MONTHS.map((m) => m.slice(0, 3));

/** Go's appendInt: decimal with a sign and zero padding to `width` digits. */
function pad(n: number, width: number): string {
  const s = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? '-' + s : s;
}

/** Broken-down local fields of an instant in a location. */
export interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  nanosecond: number;
  weekday: number;
  yearDay: number;
  offset: number;
  abbr: string;
}

const NS = 1000000000n;

export function fieldsOf(unixNano: bigint, loc: Location): Fields {
  let sec = unixNano / NS;
  let nano = unixNano % NS;
  if (nano < 0n) {
    nano += NS;
    sec -= 1n;
  }
  const unixSec = Number(sec);
  const { offset, abbr } = loc.lookup(unixSec);
  const local = unixSec + offset;
  const days = Math.floor(local / 86400);
  const sod = local - days * 86400;
  const c = civilFromDays(days);
  return {
    ...c,
    hour: Math.floor(sod / 3600),
    minute: Math.floor((sod % 3600) / 60),
    second: sod % 60,
    nanosecond: Number(nano),
    offset,
    abbr,
  };
}

/** Go's Time.Format(layout). */
export function formatTime(unixNano: bigint, loc: Location, layout: string): string {
  const f = fieldsOf(unixNano, loc);
  let out = '';
  while (layout !== '') {
    const c = nextStdChunk(layout);
    out += c.prefix;
    if (c.std === Std.None) break;
    layout = c.suffix;
    out += formatStd(f, c);
  }
  return out;
}

function formatStd(f: Fields, c: Chunk): string {
  const hr12 = f.hour % 12 === 0 ? 12 : f.hour % 12;
  switch (c.std) {
    case Std.Year:
      return pad(Math.abs(f.year % 100), 2);
    case Std.LongYear:
      return pad(f.year, 4);
    case Std.Month:
      return SHORT_MONTHS[f.month - 1];
    case Std.LongMonth:
      return LONG_MONTHS[f.month - 1];
    case Std.NumMonth:
      return pad(f.month, 0);
    case Std.ZeroMonth:
      return pad(f.month, 2);
    case Std.WeekDay:
      return SHORT_DAYS[f.weekday];
    case Std.LongWeekDay:
      return LONG_DAYS[f.weekday];
    case Std.Day:
      return pad(f.day, 0);
    case Std.UnderDay:
      return (f.day < 10 ? ' ' : '') + pad(f.day, 0);
    case Std.ZeroDay:
      return pad(f.day, 2);
    case Std.UnderYearDay:
      return (f.yearDay < 100 ? ' ' : '') + (f.yearDay < 10 ? ' ' : '') + pad(f.yearDay, 0);
    case Std.ZeroYearDay:
      return pad(f.yearDay, 3);
    case Std.Hour:
      return pad(f.hour, 2);
    case Std.Hour12:
      return pad(hr12, 0);
    case Std.ZeroHour12:
      return pad(hr12, 2);
    case Std.Minute:
      return pad(f.minute, 0);
    case Std.ZeroMinute:
      return pad(f.minute, 2);
    case Std.Second:
      return pad(f.second, 0);
    case Std.ZeroSecond:
      return pad(f.second, 2);
    case Std.PM:
      return f.hour >= 12 ? 'PM' : 'AM';
    case Std.Pm:
      return f.hour >= 12 ? 'pm' : 'am';
    case Std.TZ: {
      if (f.abbr !== '') return f.abbr;
      const zone = Math.trunc(f.offset / 60);
      const a = Math.abs(zone);
      return (zone < 0 ? '-' : '+') + pad(Math.floor(a / 60), 2) + pad(a % 60, 2);
    }
    case Std.FracSecond0:
    case Std.FracSecond9:
      return formatNano(f.nanosecond, c);
    default:
      return formatOffset(f.offset, c.std);
  }
}

function formatOffset(offset: number, std: Std): string {
  const iso: Std[] = [
    Std.ISO8601TZ,
    Std.ISO8601SecondsTZ,
    Std.ISO8601ShortTZ,
    Std.ISO8601ColonTZ,
    Std.ISO8601ColonSecondsTZ,
  ];
  if (offset === 0 && iso.includes(std)) return 'Z';
  const colon = (
    [Std.ISO8601ColonTZ, Std.NumColonTZ, Std.ISO8601ColonSecondsTZ, Std.NumColonSecondsTZ] as Std[]
  ).includes(std);
  const short = std === Std.NumShortTZ || std === Std.ISO8601ShortTZ;
  const seconds = (
    [Std.ISO8601SecondsTZ, Std.NumSecondsTz, Std.NumColonSecondsTZ, Std.ISO8601ColonSecondsTZ] as Std[]
  ).includes(std);
  const zone = Math.trunc(offset / 60);
  const a = Math.abs(zone);
  let s = (zone < 0 ? '-' : '+') + pad(Math.floor(a / 60), 2);
  if (colon) s += ':';
  if (!short) s += pad(a % 60, 2);
  if (seconds) s += (colon ? ':' : '') + pad(Math.abs(offset) % 60, 2);
  return s;
}

function formatNano(nano: number, c: Chunk): string {
  const trim = c.std === Std.FracSecond9;
  if (trim && (c.digits === 0 || nano === 0)) return '';
  let s = pad(nano, 9).slice(0, Math.min(9, c.digits));
  if (trim) s = s.replace(/0+$/, '');
  return trim && s === '' ? '' : c.sep + s;
}

/** Go's quote() in error messages. */
function quote(s: string): string {
  return '"' + s.replace(/[\\"]/g, (ch) => '\\' + ch) + '"';
}

/** A Go *time.ParseError's message. */
export class TimeParseError extends Error {}

function parseError(
  layout: string,
  value: string,
  layoutElem: string,
  valueElem: string,
  message: string,
): TimeParseError {
  if (message === '') {
    return new TimeParseError(
      `parsing time ${quote(value)} as ${quote(layout)}: cannot parse ${quote(valueElem)} as ${quote(layoutElem)}`,
    );
  }
  return new TimeParseError(`parsing time ${quote(value)}${message}`);
}

const BAD = Symbol('bad');
type Bad = typeof BAD;

function cutspace(s: string): string {
  let i = 0;
  while (i < s.length && s[i] === ' ') i++;
  return s.slice(i);
}

/** Go's skip: consume `prefix` from `value`, with runs of spaces matching runs of spaces. */
function skip(value: string, prefix: string): string | Bad {
  while (prefix.length > 0) {
    if (prefix[0] === ' ') {
      if (value.length > 0 && value[0] !== ' ') return BAD;
      prefix = cutspace(prefix);
      value = cutspace(value);
      continue;
    }
    if (value.length === 0 || value[0] !== prefix[0]) return BAD;
    prefix = prefix.slice(1);
    value = value.slice(1);
  }
  return value;
}

function getnum(s: string, fixed: boolean): [number, string] | Bad {
  if (!isDigitAt(s, 0)) return BAD;
  if (!isDigitAt(s, 1)) return fixed ? BAD : [Number(s[0]), s.slice(1)];
  return [Number(s.slice(0, 2)), s.slice(2)];
}

function getnum3(s: string, fixed: boolean): [number, string] | Bad {
  let i = 0;
  while (i < 3 && isDigitAt(s, i)) i++;
  if (i === 0 || (fixed && i !== 3)) return BAD;
  return [Number(s.slice(0, i)), s.slice(i)];
}

function lookupName(tab: string[], val: string): [number, string] | Bad {
  for (let i = 0; i < tab.length; i++) {
    const v = tab[i];
    if (val.length >= v.length && val.slice(0, v.length).toLowerCase() === v.toLowerCase())
      return [i, val.slice(v.length)];
  }
  return BAD;
}

/** Go's atoi: an optional sign and decimal digits, nothing else. */
function atoi(s: string): number | Bad {
  return /^[+-]?[0-9]+$/.test(s) ? Number(s) : BAD;
}

function parseSignedOffset(value: string): number {
  const m = /^[+-]([0-9]+)/.exec(value);
  if (m === null || Number(m[1]) > 12) return 0;
  return m[0].length;
}

/** Go's parseTimeZone: the length of a zone abbreviation at the start of value, or 0. */
function parseTimeZone(value: string): number {
  if (value.length < 3) return 0;
  if (value.startsWith('ChST') || value.startsWith('MeST')) return 4;
  if (value.startsWith('GMT')) return value.length === 3 ? 3 : 3 + parseSignedOffset(value.slice(3));
  if (value[0] === '+' || value[0] === '-') return parseSignedOffset(value);
  let n = 0;
  while (n < 6 && n < value.length && value[n] >= 'A' && value[n] <= 'Z') n++;
  if (n === 5 && value[4] === 'T') return 5;
  if (n === 4 && (value[3] === 'T' || value.startsWith('WITA'))) return 4;
  if (n === 3) return 3;
  return 0;
}

/** Go's parseNanoseconds: `.ddd` with nbytes including the separator. */
function parseNanoseconds(value: string, nbytes: number): number | Bad {
  if (value[0] !== '.' && value[0] !== ',') return BAD;
  if (nbytes > 10) nbytes = 10;
  const ns = atoi(value.slice(1, nbytes));
  if (ns === BAD) return BAD;
  return ns * 10 ** (10 - nbytes);
}

/** Go's Date(...) in a location: local civil fields to Unix nanoseconds. */
export function dateToUnixNano(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  nano: bigint,
  loc: Location,
): bigint {
  let unix = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
  const off = loc.lookup(unix).offset;
  if (off !== 0) {
    const again = loc.lookup(unix - off).offset;
    unix -= again;
  }
  return BigInt(unix) * NS + nano;
}

export interface Parsed {
  unixNano: bigint;
  loc: Location;
}

/** Go's time.ParseInLocation(layout, value, local); throws TimeParseError. */
export function parseTime(layout: string, value: string, local: Location): Parsed {
  const alayout = layout;
  const avalue = value;
  let amSet = false;
  let pmSet = false;
  let year = 0;
  let month = -1;
  let day = -1;
  let yday = -1;
  let hour = 0;
  let min = 0;
  let sec = 0;
  let nsec = 0;
  let z: Location | undefined;
  let zoneOffset = -1;
  let zoneName = '';
  for (;;) {
    const c = nextStdChunk(layout);
    const skipped = skip(value, c.prefix);
    if (skipped === BAD) throw parseError(alayout, avalue, c.prefix, value, '');
    value = skipped;
    if (c.std === Std.None) {
      if (value.length !== 0) throw parseError(alayout, avalue, '', value, ': extra text: ' + quote(value));
      break;
    }
    layout = c.suffix;
    let rangeErr = '';
    let bad = false;
    const num = (r: [number, string] | Bad): number => {
      if (r === BAD) {
        bad = true;
        return 0;
      }
      value = r[1];
      return r[0];
    };
    switch (c.std) {
      case Std.Year: {
        if (value.length < 2) {
          bad = true;
          break;
        }
        const y = atoi(value.slice(0, 2));
        value = value.slice(2);
        if (y === BAD) bad = true;
        else year = y >= 69 ? y + 1900 : y + 2000;
        break;
      }
      case Std.LongYear: {
        if (value.length < 4 || !isDigitAt(value, 0)) {
          bad = true;
          break;
        }
        const y = atoi(value.slice(0, 4));
        value = value.slice(4);
        if (y === BAD) bad = true;
        else year = y;
        break;
      }
      case Std.Month:
        month = num(lookupName(SHORT_MONTHS, value)) + 1;
        break;
      case Std.LongMonth:
        month = num(lookupName(LONG_MONTHS, value)) + 1;
        break;
      case Std.NumMonth:
      case Std.ZeroMonth:
        month = num(getnum(value, c.std === Std.ZeroMonth));
        if (!bad && (month <= 0 || month > 12)) rangeErr = 'month';
        break;
      case Std.WeekDay:
        num(lookupName(SHORT_DAYS, value));
        break;
      case Std.LongWeekDay:
        num(lookupName(LONG_DAYS, value));
        break;
      case Std.Day:
      case Std.UnderDay:
      case Std.ZeroDay:
        if (c.std === Std.UnderDay && value[0] === ' ') value = value.slice(1);
        day = num(getnum(value, c.std === Std.ZeroDay));
        break;
      case Std.UnderYearDay:
      case Std.ZeroYearDay:
        for (let i = 0; i < 2; i++) if (c.std === Std.UnderYearDay && value[0] === ' ') value = value.slice(1);
        yday = num(getnum3(value, c.std === Std.ZeroYearDay));
        break;
      case Std.Hour:
        hour = num(getnum(value, false));
        if (hour < 0 || hour >= 24) rangeErr = 'hour';
        break;
      case Std.Hour12:
      case Std.ZeroHour12:
        hour = num(getnum(value, c.std === Std.ZeroHour12));
        if (hour < 0 || hour > 12) rangeErr = 'hour';
        break;
      case Std.Minute:
      case Std.ZeroMinute:
        min = num(getnum(value, c.std === Std.ZeroMinute));
        if (min < 0 || min >= 60) rangeErr = 'minute';
        break;
      case Std.Second:
      case Std.ZeroSecond: {
        sec = num(getnum(value, c.std === Std.ZeroSecond));
        if (sec < 0 || sec >= 60) {
          rangeErr = 'second';
          break;
        }
        if (bad) break;
        if (value.length >= 2 && (value[0] === '.' || value[0] === ',') && isDigitAt(value, 1)) {
          const next = nextStdChunk(layout).std;
          if (next === Std.FracSecond0 || next === Std.FracSecond9) break;
          let n = 2;
          while (n < value.length && isDigitAt(value, n)) n++;
          const ns = parseNanoseconds(value, n);
          if (ns === BAD) bad = true;
          else nsec = ns;
          value = value.slice(n);
        }
        break;
      }
      case Std.PM:
      case Std.Pm: {
        if (value.length < 2) {
          bad = true;
          break;
        }
        const p = value.slice(0, 2);
        value = value.slice(2);
        const [pm, am] = c.std === Std.PM ? ['PM', 'AM'] : ['pm', 'am'];
        if (p === pm) pmSet = true;
        else if (p === am) amSet = true;
        else bad = true;
        break;
      }
      case Std.TZ: {
        if (value.startsWith('UTC')) {
          z = UTC;
          value = value.slice(3);
          break;
        }
        const n = parseTimeZone(value);
        if (n === 0) {
          bad = true;
          break;
        }
        zoneName = value.slice(0, n);
        value = value.slice(n);
        break;
      }
      case Std.FracSecond0: {
        const ndigit = 1 + c.digits;
        if (value.length < ndigit) {
          bad = true;
          break;
        }
        const ns = parseNanoseconds(value, ndigit);
        if (ns === BAD) bad = true;
        else nsec = ns;
        value = value.slice(ndigit);
        break;
      }
      case Std.FracSecond9: {
        if (value.length < 2 || (value[0] !== '.' && value[0] !== ',') || !isDigitAt(value, 1)) break;
        let i = 0;
        while (i + 1 < value.length && isDigitAt(value, i + 1)) i++;
        const ns = parseNanoseconds(value, 1 + i);
        if (ns === BAD) bad = true;
        else nsec = ns;
        value = value.slice(1 + i);
        break;
      }
      default: {
        const r = parseOffset(c.std, value);
        if (r === BAD) bad = true;
        else if (r[0] === BAD) {
          bad = true;
          value = r[1];
        } else if (r[0] === 'Z') {
          z = UTC;
          value = r[1];
        } else {
          zoneOffset = r[0];
          value = r[1];
        }
      }
    }
    if (rangeErr !== '') throw parseError(alayout, avalue, c.text, value, ': ' + rangeErr + ' out of range');
    if (bad) throw parseError(alayout, avalue, c.text, value, '');
  }
  if (pmSet && hour < 12) hour += 12;
  else if (amSet && hour === 12) hour = 0;

  if (yday >= 0) {
    let d = 0;
    let m = 0;
    if (isLeap(year)) {
      if (yday === 31 + 29) {
        m = 2;
        d = 29;
      } else if (yday > 31 + 29) yday--;
    }
    if (yday < 1 || yday > 365) throw parseError(alayout, avalue, '', value, ': day-of-year out of range');
    if (m === 0) {
      m = Math.floor((yday - 1) / 31) + 1;
      if (DAYS_BEFORE[m] < yday) m++;
      d = yday - DAYS_BEFORE[m - 1];
    }
    if (month >= 0 && month !== m) throw parseError(alayout, avalue, '', value, ': day-of-year does not match month');
    month = m;
    if (day >= 0 && day !== d) throw parseError(alayout, avalue, '', value, ': day-of-year does not match day');
    day = d;
  } else {
    if (month < 0) month = 1;
    if (day < 0) day = 1;
  }
  if (day < 1 || day > daysIn(month, year)) throw parseError(alayout, avalue, '', value, ': day out of range');

  const ns = BigInt(nsec);
  if (z !== undefined) return { unixNano: dateToUnixNano(year, month, day, hour, min, sec, ns, z), loc: z };
  if (zoneOffset !== -1) {
    const t = dateToUnixNano(year, month, day, hour, min, sec, ns, UTC) - BigInt(zoneOffset) * NS;
    const here = local.lookup(Number(floorDiv(t, NS)));
    if (here.offset === zoneOffset && (zoneName === '' || here.abbr === zoneName)) return { unixNano: t, loc: local };
    return { unixNano: t, loc: fixedZone(zoneName, zoneOffset) };
  }
  if (zoneName !== '') {
    const t = dateToUnixNano(year, month, day, hour, min, sec, ns, UTC);
    const offset = local.lookupName(zoneName, Number(floorDiv(t, NS)));
    if (offset !== undefined) return { unixNano: t - BigInt(offset) * NS, loc: local };
    let guess = 0;
    if (zoneName.length > 3 && zoneName.startsWith('GMT')) {
      const o = atoi(zoneName.slice(3));
      guess = o === BAD ? 0 : o * 3600;
    }
    // Go records the guessed offset without moving the instant.
    return { unixNano: t, loc: fixedZone(zoneName, guess) };
  }
  return { unixNano: dateToUnixNano(year, month, day, hour, min, sec, ns, local), loc: local };
}

const DAYS_BEFORE = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365];

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}

/**
 * The numeric zone forms: ['Z', rest] for a literal Z where allowed, else [offset seconds, rest];
 * BAD alone when too short, [BAD, rest] when the digits are bad (Go has consumed them then).
 */
function parseOffset(std: Std, value: string): ['Z' | number | Bad, string] | Bad {
  if ((std === Std.ISO8601TZ || std === Std.ISO8601ShortTZ || std === Std.ISO8601ColonTZ) && value[0] === 'Z') {
    return ['Z', value.slice(1)];
  }
  let sign: string, hh: string, mm: string, ss: string;
  if (std === Std.ISO8601ColonTZ || std === Std.NumColonTZ) {
    if (value.length < 6 || value[3] !== ':') return BAD;
    [sign, hh, mm, ss, value] = [value[0], value.slice(1, 3), value.slice(4, 6), '00', value.slice(6)];
  } else if (std === Std.NumShortTZ || std === Std.ISO8601ShortTZ) {
    if (value.length < 3) return BAD;
    [sign, hh, mm, ss, value] = [value[0], value.slice(1, 3), '00', '00', value.slice(3)];
  } else if (std === Std.ISO8601ColonSecondsTZ || std === Std.NumColonSecondsTZ) {
    if (value.length < 9 || value[3] !== ':' || value[6] !== ':') return BAD;
    [sign, hh, mm, ss, value] = [value[0], value.slice(1, 3), value.slice(4, 6), value.slice(7, 9), value.slice(9)];
  } else if (std === Std.ISO8601SecondsTZ || std === Std.NumSecondsTz) {
    if (value.length < 7) return BAD;
    [sign, hh, mm, ss, value] = [value[0], value.slice(1, 3), value.slice(3, 5), value.slice(5, 7), value.slice(7)];
  } else {
    if (value.length < 5) return BAD;
    [sign, hh, mm, ss, value] = [value[0], value.slice(1, 3), value.slice(3, 5), '00', value.slice(5)];
  }
  const h = getnum(hh, true);
  const m = getnum(mm, true);
  const s = getnum(ss, true);
  if (h === BAD || m === BAD || s === BAD) return [BAD, value];
  const off = (h[0] * 60 + m[0]) * 60 + s[0];
  if (sign === '+') return [off, value];
  if (sign === '-') return [-off, value];
  return [BAD, value];
}
