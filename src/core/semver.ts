/**
 * Semantic versions and constraints as kpt v1.0.0-beta.67 reads `function.tag` (kptdev/kpt
 * pkg/fn/runtime/tag_resolution.go at v1.0.0-beta.67, which uses github.com/Masterminds/semver/v3):
 *
 * - `parseSemver` accepts what Masterminds' `NewVersion` accepts: an optional `v`, one to three
 *   numeric parts, an optional `-prerelease` and `+metadata` (missing parts are 0).
 * - `parseConstraint` accepts its constraint language: `||` alternatives of comma- or
 *   space-separated terms; operators `=`, `!=`, `>`, `<`, `>=`, `<=`, `~`, `~>`, `^`; hyphen
 *   ranges `1.2 - 1.4.5`; wildcards `x`, `X`, `*` and missing parts. A version with a prerelease
 *   satisfies a constraint only when a term of it names a prerelease.
 * - `highestSatisfying` picks the greatest version (by semver precedence) a constraint admits.
 * Pure. Returns undefined for what does not parse.
 */
export interface Semver {
  major: number;
  minor: number;
  patch: number;
  prerelease: string;
  /** The text as written (kpt puts it in the resolved image). */
  original: string;
}

const VERSION_RE =
  /^v?(0|[1-9]\d*)(?:\.(0|[1-9]\d*))?(?:\.(0|[1-9]\d*))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

export function parseSemver(text: string): Semver | undefined {
  const m = VERSION_RE.exec(text);
  if (!m) return undefined;
  return {
    major: Number(m[1]),
    minor: Number(m[2] ?? 0),
    patch: Number(m[3] ?? 0),
    prerelease: m[4] ?? '',
    original: text,
  };
}

function comparePrerelease(a: string, b: string): number {
  if (a === b) return 0;
  if (!a) return 1;
  if (!b) return -1;
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny && Number(x) !== Number(y)) return Number(x) - Number(y);
    if (nx !== ny) return nx ? -1 : 1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

export function compareSemver(a: Semver, b: Semver): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch || comparePrerelease(a.prerelease, b.prerelease);
}

type Test = (v: Semver) => boolean;
interface Term {
  test: Test;
  prerelease: boolean;
}

const PART = '(?:0|[1-9]\\d*|[xX*])';
const PARTIAL_RE = new RegExp(
  `^v?(${PART})(?:\\.(${PART}))?(?:\\.(${PART}))?(?:-([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?(?:\\+[0-9A-Za-z.-]+)?$`,
);

/** A constraint's version: numbers, with `undefined` for wildcard or missing parts. */
interface Partial {
  major: number | undefined;
  minor: number | undefined;
  patch: number | undefined;
  prerelease: string;
}

function parsePartial(text: string): Partial | undefined {
  const m = PARTIAL_RE.exec(text);
  if (!m) return undefined;
  const num = (s: string | undefined): number | undefined =>
    s === undefined || /^[xX*]$/.test(s) ? undefined : Number(s);
  const major = num(m[1]);
  let minor = major === undefined ? undefined : num(m[2]);
  const patch = minor === undefined ? undefined : num(m[3]);
  if (major === undefined) minor = undefined;
  return { major, minor, patch, prerelease: m[4] ?? '' };
}

function floor(p: Partial): Semver {
  return { major: p.major ?? 0, minor: p.minor ?? 0, patch: p.patch ?? 0, prerelease: p.prerelease, original: '' };
}

const cmp = (v: Semver, p: Partial): number => compareSemver(v, floor(p));

/** The first version above every version `p` covers (for `1.2` → 1.3.0; for `1` → 2.0.0). */
function ceiling(p: Partial): Semver | undefined {
  if (p.major === undefined) return undefined;
  if (p.minor === undefined) return { major: p.major + 1, minor: 0, patch: 0, prerelease: '', original: '' };
  if (p.patch === undefined) return { major: p.major, minor: p.minor + 1, patch: 0, prerelease: '', original: '' };
  return undefined;
}

function covers(v: Semver, p: Partial): boolean {
  const top = ceiling(p);
  if (p.major === undefined) return true;
  if (!top) return cmp(v, p) === 0;
  return cmp(v, p) >= 0 && compareSemver(v, top) < 0;
}

function termTest(op: string, p: Partial): Test | undefined {
  switch (op) {
    case '':
    case '=':
      return (v) => covers(v, p);
    case '!=':
      return (v) => !covers(v, p);
    case '>': {
      const top = ceiling(p);
      if (p.major === undefined) return () => false;
      return top ? (v) => compareSemver(v, top) >= 0 : (v) => cmp(v, p) > 0;
    }
    case '>=':
      return (v) => cmp(v, p) >= 0;
    case '<':
      return (v) => cmp(v, p) < 0;
    case '<=': {
      const top = ceiling(p);
      if (p.major === undefined) return () => true;
      return top ? (v) => compareSemver(v, top) < 0 : (v) => cmp(v, p) <= 0;
    }
    case '~':
    case '~>': {
      if (p.major === undefined) return () => true;
      const top: Semver =
        p.minor === undefined
          ? { ...floor(p), major: p.major + 1, minor: 0, patch: 0, prerelease: '' }
          : { ...floor(p), minor: p.minor + 1, patch: 0, prerelease: '' };
      return (v) => cmp(v, p) >= 0 && compareSemver(v, top) < 0;
    }
    case '^': {
      if (p.major === undefined) return () => true;
      let top: Semver;
      if (p.major > 0 || p.minor === undefined)
        top = { ...floor(p), major: p.major + 1, minor: 0, patch: 0, prerelease: '' };
      else if (p.minor > 0 || p.patch === undefined)
        top = { ...floor(p), minor: p.minor + 1, patch: 0, prerelease: '' };
      else top = { ...floor(p), patch: p.patch + 1, prerelease: '' };
      return (v) => cmp(v, p) >= 0 && compareSemver(v, top) < 0;
    }
  }
  return undefined;
}

const OP_RE = /^(!=|>=|<=|=>|=<|~>|>|<|=|~|\^)?\s*(\S+)$/;

function parseTerm(text: string): Term | undefined {
  const m = OP_RE.exec(text);
  if (!m) return undefined;
  const op = m[1] === '=>' ? '>=' : m[1] === '=<' ? '<=' : (m[1] ?? '');
  const p = parsePartial(m[2]);
  if (!p) return undefined;
  const test = termTest(op, p);
  return test ? { test, prerelease: p.prerelease !== '' } : undefined;
}

export interface Constraint {
  check(v: Semver): boolean;
}

export function parseConstraint(text: string): Constraint | undefined {
  const alternatives: Term[][] = [];
  for (const alt of text.split('||')) {
    const s = alt.trim();
    if (!s) return undefined;
    const terms: Term[] = [];
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(s);
    if (hyphen) {
      const lo = parseTerm(`>=${hyphen[1]}`);
      const hi = parseTerm(`<=${hyphen[2]}`);
      if (!lo || !hi) return undefined;
      terms.push(lo, hi);
    } else {
      // Operators may be separated from their version by spaces (`>= 1.2`).
      const tokens = s
        .replace(/(!=|>=|<=|=>|=<|~>|>|<|=|~|\^)\s+/g, '$1')
        .split(/[\s,]+/)
        .filter(Boolean);
      for (const tok of tokens) {
        const t = parseTerm(tok);
        if (!t) return undefined;
        terms.push(t);
      }
    }
    if (!terms.length) return undefined;
    alternatives.push(terms);
  }
  return {
    check: (v) =>
      alternatives.some((terms) => (!v.prerelease || terms.some((t) => t.prerelease)) && terms.every((t) => t.test(v))),
  };
}

/** The greatest of `tags` (parsed as versions; others ignored) that `constraint` admits, as written. */
export function highestSatisfying(tags: readonly string[], constraint: Constraint): string | undefined {
  let best: Semver | undefined;
  for (const tag of tags) {
    if (tag.startsWith('sha256-') || tag.includes('-git-')) continue;
    const v = parseSemver(tag);
    if (v && constraint.check(v) && (!best || compareSemver(v, best) > 0)) best = v;
  }
  return best?.original;
}
