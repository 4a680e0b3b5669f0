/**
 * The one argv parser of the CLI, for kpt/cobra-style flags: `--name value`, `--name=value`,
 * `-x value`, `-xvalue`, boolean flags (`--allow-exec`, `--allow-exec=false`), repeatable flags,
 * and everything after `--` kept apart. `-h/--help` is always accepted. Unknown flags are usage
 * errors, reported as kpt/cobra does (`unknown flag: --x`), with the nearest known flag as a hint.
 * With `singleDashLong` (starlark-go's Go flag package) `-name` is `--name`.
 */
import { nearestName } from '../core/nearest-name.ts';
import { parseGoDuration, tooLongForTimers } from '../core/duration.ts';

export interface FlagSpec {
  name: string;
  short?: string;
  kind: 'bool' | 'string' | 'list';
}

export interface ParsedArgs {
  flags: Map<string, string | boolean | string[]>;
  positional: string[];
  /** Arguments after `--`. */
  rest: string[];
}

export class UsageError extends Error {
  /** A second line for people (`Did you mean --diff?`); not part of kpt's message. */
  readonly hint: string | undefined;
  constructor(message: string, hint?: string) {
    super(message);
    this.name = 'UsageError';
    this.hint = hint;
  }
}

export const HELP_FLAG: FlagSpec = { name: 'help', short: 'h', kind: 'bool' };

export interface ParseOptions {
  /** Go's flag package: `-name` means `--name` for a flag with a long name. */
  singleDashLong?: boolean;
}

export function parseFlags(
  argv: readonly string[],
  declared: readonly FlagSpec[],
  options: ParseOptions = {},
): ParsedArgs {
  const specs = declared.some((s) => s.name === 'help') ? declared : [...declared, HELP_FLAG];
  const byName = new Map(specs.map((s) => [s.name, s]));
  const byShort = new Map(specs.filter((s) => s.short).map((s) => [s.short!, s]));
  const out: ParsedArgs = { flags: new Map(), positional: [], rest: [] };
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    if (options.singleDashLong) {
      const m = /^-([a-z][a-z-]+)(=.*)?$/.exec(a);
      if (m && byName.has(m[1])) a = `-${a}`;
      else if (m) {
        // Go's flag package's message (flag.go failf).
        const near = nearestName(m[1], byName.keys());
        throw new UsageError(
          `flag provided but not defined: -${m[1]}`,
          near !== undefined ? `Did you mean -${near}?` : undefined,
        );
      }
    }
    if (a === '--') {
      out.rest = argv.slice(i + 1);
      break;
    }
    if (a === '-' || !a.startsWith('-')) {
      out.positional.push(a);
      continue;
    }
    let name: string;
    let value: string | undefined;
    let spec: FlagSpec | undefined;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      value = eq >= 0 ? a.slice(eq + 1) : undefined;
      spec = byName.get(name);
      if (!spec) {
        const near = nearestName(name, byName.keys());
        throw new UsageError(`unknown flag: --${name}`, near !== undefined ? `Did you mean --${near}?` : undefined);
      }
    } else {
      // pflag's shorthands: `-sx` is `-s -x` while they are booleans; `-ovalue`, `-o=value`.
      let rest = a.slice(1);
      while (rest !== '') {
        const short = byShort.get(rest[0]);
        // pflag names the shorthands left to parse (flag.go parseSingleShortArg).
        if (!short) throw new UsageError(`unknown shorthand flag: '${rest[0]}' in -${rest}`);
        if (short.kind === 'bool' && rest[1] !== '=') {
          setFlag(out, short, undefined);
          rest = rest.slice(1);
          continue;
        }
        let shortValue: string | undefined =
          rest[1] === '=' ? rest.slice(2) : rest.length > 1 ? rest.slice(1) : undefined;
        if (shortValue === undefined) {
          if (i + 1 >= argv.length) throw new UsageError(`flag needs an argument: '${rest[0]}' in -${rest}`);
          shortValue = argv[++i]!;
        }
        setFlag(out, short, shortValue);
        break;
      }
      continue;
    }
    if (spec.kind !== 'bool' && value === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(`flag needs an argument: --${spec.name}`);
      value = argv[++i]!;
    }
    setFlag(out, spec, value);
  }
  return out;
}

/** Records one occurrence of a flag (a boolean's value is checked as Go's strconv.ParseBool). */
function setFlag(out: ParsedArgs, spec: FlagSpec, value: string | undefined): void {
  if (spec.kind === 'bool') {
    if (value !== undefined && !/^(true|false|1|0|t|f|TRUE|FALSE|True|False)$/.test(value)) {
      throw new UsageError(
        `invalid argument ${JSON.stringify(value)} for "${spec.short ? `-${spec.short}, ` : ''}--${spec.name}" flag: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`,
      );
    }
    out.flags.set(spec.name, value === undefined ? true : /^(true|1|t|TRUE|True)$/.test(value));
  } else if (spec.kind === 'list') {
    const prev = out.flags.get(spec.name);
    out.flags.set(spec.name, [...(Array.isArray(prev) ? prev : []), value ?? '']);
  } else out.flags.set(spec.name, value ?? '');
}

export function str(p: ParsedArgs, name: string): string | undefined {
  const v = p.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

export function bool(p: ParsedArgs, name: string, dflt = false): boolean {
  const v = p.flags.get(name);
  return typeof v === 'boolean' ? v : dflt;
}

export function list(p: ParsedArgs, name: string): string[] {
  const v = p.flags.get(name);
  return Array.isArray(v) ? v : [];
}

/** Go `time.ParseDuration` subset (`1h2m3.5s`, `500ms`), or a bare number of seconds. Milliseconds. */
export function parseDuration(s: string): number {
  const ms = parseGoDuration(s);
  if (ms === undefined)
    throw new UsageError(
      `invalid argument ${JSON.stringify(s)} for "--timeout" flag: time: invalid duration ${JSON.stringify(s)}`,
    );
  const tooLong = tooLongForTimers(ms);
  if (tooLong) throw new UsageError(`invalid argument ${JSON.stringify(s)} for "--timeout" flag: ${tooLong}`);
  return Math.max(1, Math.round(ms));
}
