/**
 * The `time` module (starlark-go lib/time), with the clock injected by the host. Time zones are
 * named through the host's tz database (time-zone.ts); layouts follow Go (time-layout.ts). Durations are
 * int nanoseconds (bigint).
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
import { fromHostString, toHostString } from '../value/string.ts';
import { unpack, wantString } from './args.ts';
import { TimeParseError, dateToUnixNano, fieldsOf, formatTime, parseTime } from './time-layout.ts';
import { type Location, UTC, loadLocation } from './time-zone.ts';

const NS = {
  ns: 1n,
  us: 1000n,
  µs: 1000n,
  μs: 1000n,
  ms: 1000000n,
  s: 1000000000n,
  m: 60000000000n,
  h: 3600000000000n,
} as const;

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
    out.push(this.str());
  }
  /** Starlark strings hold UTF-8 bytes: "µs" is two of them. */
  str(): string {
    return fromHostString(formatDuration(this.ns));
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
  truth(): boolean {
    return this.ns !== 0n;
  }
  compareSameType(op: string, other: Value): boolean {
    return cmp(op, this.ns, (other as Duration).ns);
  }
  binaryOp(op: string, y: Value, side: 'left' | 'right'): Value | undefined {
    const yi = typeof y === 'number' ? BigInt(y) : typeof y === 'bigint' ? y : undefined;
    const zero = (): never => fail('time.duration division by zero');
    if (y instanceof Duration) {
      const [a, b] = side === 'left' ? [this.ns, y.ns] : [y.ns, this.ns];
      switch (op) {
        case '+':
          return new Duration(a + b);
        case '-':
          return new Duration(a - b);
        case '/':
          if (b === 0n) zero();
          return new Float(Number(a) / Number(b));
        case '//':
          if (b === 0n) zero();
          return normBig(a / b);
      }
      return undefined;
    }
    if (op === '/' && (yi !== undefined || y instanceof Float)) {
      if (side === 'right') fail('unsupported operation');
      if (yi !== undefined) {
        if (yi === 0n) zero();
        return new Duration(this.ns / yi);
      }
      const f = (y as Float).value;
      if (f === 0) zero();
      return new Duration(BigInt(Math.trunc(Number(this.ns) / f)));
    }
    if (yi !== undefined && op === '*') return new Duration(this.ns * yi);
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
  const re = /^([0-9]*)(?:\.([0-9]*))?(ns|us|µs|μs|ms|s|m|h)/;
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

/** An instant in a location (Go's time.Time). */
export class Time {
  readonly starlarkType = 'time.time';
  readonly unixNano: bigint;
  readonly loc: Location;
  constructor(unixNano: bigint, loc: Location = UTC) {
    this.unixNano = unixNano;
    this.loc = loc;
  }
  hashKey(): string {
    return '\u0105t' + this.unixNano;
  }
  str(): string {
    return formatTime(this.unixNano, this.loc, '2006-01-02 15:04:05.999999999 -0700 MST');
  }
  repr(out: string[]): void {
    out.push(this.str());
  }
  /** Go's Time.IsZero is false: January 1, year 1, 00:00:00 UTC is falsy. */
  truth(): boolean {
    return this.unixNano !== ZERO_TIME_NANO;
  }
  attr(name: string): Value | undefined {
    switch (name) {
      case 'year':
      case 'month':
      case 'day':
      case 'hour':
      case 'minute':
      case 'second':
      case 'nanosecond':
        return fieldsOf(this.unixNano, this.loc)[name];
      case 'unix':
        return normBig(floorDiv(this.unixNano, NS.s));
      case 'unix_nano':
        return normBig(this.unixNano);
      case 'in_location':
        return new Builtin(
          'in_location',
          (thread, args, kwargs) => {
            const { values, labels } = unpack('in_location', args, kwargs, ['location'], thread.release);
            return new Time(this.unixNano, location('in_location', wantString('in_location', labels[0], values[0]!)));
          },
          this,
        );
      case 'format':
        return new Builtin(
          'format',
          (thread, args, kwargs) => {
            const { values, labels } = unpack('format', args, kwargs, ['layout'], thread.release);
            const layout = wantString('format', labels[0], values[0]!);
            if (layout.length > MAX_LAYOUT) failIn('format', `layout longer than ${MAX_LAYOUT} bytes`);
            return formatTime(this.unixNano, this.loc, layout);
          },
          this,
        );
    }
    return undefined;
  }
  attrNames(): string[] {
    return [
      'day',
      'format',
      'hour',
      'in_location',
      'minute',
      'month',
      'nanosecond',
      'second',
      'unix',
      'unix_nano',
      'year',
    ];
  }
  compareSameType(op: string, other: Value): boolean {
    return cmp(op, this.unixNano, (other as Time).unixNano);
  }
  binaryOp(op: string, y: Value, side: 'left' | 'right'): Value | undefined {
    if (y instanceof Duration) {
      if (op === '+') return new Time(this.unixNano + y.ns, this.loc);
      if (op === '-' && side === 'left') return new Time(this.unixNano - y.ns, this.loc);
    }
    if (y instanceof Time && op === '-') {
      return new Duration(side === 'left' ? this.unixNano - y.unixNano : y.unixNano - this.unixNano);
    }
    return undefined;
  }
}

/** 0001-01-01T00:00:00Z, Go's zero Time. */
const ZERO_TIME_NANO = -62135596800n * NS.s;
/** Layouts and parsed strings are bounded so one call stays cheap. */
const MAX_LAYOUT = 4096;

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}

/** Go's time.LoadLocation, failing as Go does for an unknown name. */
function location(fn: string, name: string): Location {
  const loc = loadLocation(name);
  if (loc === undefined) failIn(fn, `unknown time zone ${name}`);
  return loc;
}

const RFC3339_LAYOUT = '2006-01-02T15:04:05Z07:00';

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
        return loadLocation(wantString('is_valid_timezone', labels[0], values[0]!)) !== undefined;
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
        return new Duration(parseDuration(toHostString(wantString('parse_duration', labels[0], d))));
      }),
      parse_time: new Builtin('parse_time', (thread, args, kwargs) => {
        const { values, labels } = unpack('parse_time', args, kwargs, ['x', 'format?', 'location?'], thread.release);
        const x = wantString('parse_time', labels[0], values[0]!);
        const layout = values[1] === undefined ? RFC3339_LAYOUT : wantString('parse_time', labels[1], values[1]);
        const loc =
          values[2] === undefined ? UTC : location('parse_time', wantString('parse_time', labels[2], values[2]));
        if (layout.length > MAX_LAYOUT || x.length > MAX_LAYOUT)
          failIn('parse_time', `argument longer than ${MAX_LAYOUT} bytes`);
        try {
          const t = parseTime(layout, x, loc);
          return new Time(t.unixNano, t.loc);
        } catch (e) {
          if (e instanceof TimeParseError) return failIn('parse_time', e.message);
          throw e;
        }
      }),
      time: new Builtin('time', (thread, args, kwargs) => {
        const p = ['year?', 'month?', 'day?', 'hour?', 'minute?', 'second?', 'nanosecond?', 'location?'];
        const { values, labels } = unpack('time', args, kwargs, p, thread.release);
        if (args.length > 0) failIn('time', 'unexpected positional arguments');
        const n = (i: number): number => Number(intArg('time', labels[i], values[i], 0));
        const loc = values[7] === undefined ? UTC : location('time', wantString('time', labels[7], values[7]));
        const nano = intArg('time', labels[6], values[6], 0);
        return new Time(dateToUnixNano(n(0), n(1), n(2), n(3), n(4), n(5), nano, loc), loc);
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
