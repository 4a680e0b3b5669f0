/**
 * The docker reference grammar kpt checks a function's `image` against (distribution/reference's
 * `ReferenceRegexp`), matched by a hand-written linear scanner:
 *
 *   reference  := name [ ":" tag ] [ "@" digest ]
 *   name       := [ domain "/" ] path-component { "/" path-component }
 *   domain     := domain-component { "." domain-component } [ ":" [0-9]+ ]
 *   domain-component := [a-zA-Z0-9] | [a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]
 *   path-component   := [a-z0-9]+ { ( "." | "_" | "__" | "-"* ) [a-z0-9]+ }
 *   tag        := [\w][\w.-]{0,127}
 *   digest     := [A-Za-z][A-Za-z0-9]* { [-_+.] [A-Za-z][A-Za-z0-9]* } ":" [0-9a-fA-F]{32,}
 *
 * Contract: `matchesImageReference(s)` is true exactly when Go's `regexp.MatchString` of the anchored
 * pattern is (test/engine/image-reference.test.ts compares the two on generated strings).
 * Hand-written instead of compiled through src/core/go-regexp.ts because every render checks every
 * image: the bounded repetitions (`{0,127}`, `{32,}`) make the compiled program large, and compiling
 * it (plus loading the RE2 engine's Unicode tables) was the largest single cost of a small render's
 * start-up. The grammar is unambiguous where it matters: a digest follows the only `@`, and a tag is
 * the text after the last `:` when no `/` follows it (a domain's port is always followed by `/`).
 */

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isLower = (c: number): boolean => c >= 97 && c <= 122;
const isUpper = (c: number): boolean => c >= 65 && c <= 90;
const isLowerAlnum = (c: number): boolean => isLower(c) || isDigit(c);
const isAlnum = (c: number): boolean => isLowerAlnum(c) || isUpper(c);
const isWord = (c: number): boolean => isAlnum(c) || c === 95;
const isHex = (c: number): boolean => isDigit(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
const DASH = 45;
const DOT = 46;
const UNDERSCORE = 95;

/** True when `s` is a docker image reference by the grammar above. */
export function matchesImageReference(s: string): boolean {
  let rest = s;
  const at = rest.indexOf('@');
  if (at >= 0) {
    if (!isDigest(rest.slice(at + 1))) return false;
    rest = rest.slice(0, at);
  }
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    if (!isTag(rest.slice(colon + 1))) return false;
    rest = rest.slice(0, colon);
  }
  return isName(rest);
}

function isName(s: string): boolean {
  const segments = s.split('/');
  if (segments.slice(1).every(isPathComponent)) {
    if (isPathComponent(segments[0])) return true;
    return segments.length > 1 && isDomain(segments[0]);
  }
  return false;
}

function isPathComponent(s: string): boolean {
  if (s === '' || !isLowerAlnum(s.charCodeAt(0)) || !isLowerAlnum(s.charCodeAt(s.length - 1))) return false;
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (isLowerAlnum(c)) {
      i++;
      continue;
    }
    // A separator between two alphanumeric runs: ".", "_", "__" or one or more "-".
    if (c === DOT) i++;
    else if (c === UNDERSCORE) i += s.charCodeAt(i + 1) === UNDERSCORE ? 2 : 1;
    else if (c === DASH) while (s.charCodeAt(i) === DASH) i++;
    else return false;
    if (!isLowerAlnum(s.charCodeAt(i))) return false;
  }
  return true;
}

function isDomain(s: string): boolean {
  let host = s;
  const colon = s.indexOf(':');
  if (colon >= 0) {
    const port = s.slice(colon + 1);
    if (port === '' || !everyChar(port, isDigit)) return false;
    host = s.slice(0, colon);
  }
  return host.split('.').every(isDomainComponent);
}

function isDomainComponent(s: string): boolean {
  if (s === '' || !isAlnum(s.charCodeAt(0)) || !isAlnum(s.charCodeAt(s.length - 1))) return false;
  return everyChar(s, (c) => isAlnum(c) || c === DASH);
}

function isTag(s: string): boolean {
  if (s === '' || s.length > 128 || !isWord(s.charCodeAt(0))) return false;
  return everyChar(s, (c) => isWord(c) || c === DOT || c === DASH);
}

function isDigest(s: string): boolean {
  const colon = s.lastIndexOf(':');
  if (colon < 0) return false;
  const hex = s.slice(colon + 1);
  if (hex.length < 32 || !everyChar(hex, isHex)) return false;
  // The algorithm: letter-led alphanumeric parts joined by single separators from "-_+.".
  const algorithm = s.slice(0, colon);
  return algorithm
    .split(/[-_+.]/)
    .every((part) => part !== '' && isAlpha(part.charCodeAt(0)) && everyChar(part, isAlnum));
}

const isAlpha = (c: number): boolean => isLower(c) || isUpper(c);

function everyChar(s: string, test: (c: number) => boolean): boolean {
  for (let i = 0; i < s.length; i++) if (!test(s.charCodeAt(i))) return false;
  return true;
}
