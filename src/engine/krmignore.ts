/**
 * `.krmignore` matching with kyaml's semantics: kyaml (kubernetes-sigs/kustomize
 * `kyaml/kio/ignorefilesmatcher.go`, tag kyaml/v0.15.0) hands the file to
 * monochromegane/go-gitignore at commit 205db1a8cc00 (the versions kpt v1.0.0-beta.56's go.mod
 * pins), which is not git's gitignore:
 *
 * - each line is trimmed of spaces; empty lines and lines starting with `#` are skipped; `\#`
 *   starts a pattern with `#`; reading stops at a line of 64 KiB or more (bufio.Scanner's limit,
 *   whose error go-gitignore never checks);
 * - `!pattern` lines are "accept" patterns: a path any accept pattern matches is never ignored,
 *   whatever the order of the lines (no last-match-wins);
 * - a pattern starting with `/` is compared with the whole path (at the same depth: `/a` never
 *   covers `a/b`, the walk skips an ignored directory instead); any other pattern is compared with
 *   the last N components of the path, N being the pattern's component count (`a/b` matches
 *   `x/a/b`; `**` is just two `*`); a trailing `/` restricts the pattern to directories;
 * - patterns with `*`, `?` or `[` use Go's `filepath.Match` (src/core/glob.ts; a malformed pattern
 *   such as `[` matches nothing, `[z-a]` is an empty range), others compare literally.
 *
 * Paths given to `ignores` are slash paths relative to the package root (the directory holding the
 * `.krmignore`); the caller skips the contents of an ignored directory, as kyaml's walk does.
 */
import { KrmfnError } from '../core/errors.ts';
import { matchFilepath } from '../core/glob.ts';

export interface IgnoreMatcher {
  ignores(relPath: string, isDir: boolean): boolean;
}

export const NO_IGNORES: IgnoreMatcher = { ignores: () => false };

interface Pattern {
  /** Starts with `/`: compared with the path prefix of the same depth. */
  absolute: boolean;
  dirOnly: boolean;
  /** Component count: how much of the path the pattern is compared with. */
  depth: number;
  /** The pattern without leading and trailing `/`. */
  text: string;
  glob: boolean;
}

/** bufio.Scanner's default maximum token size (bufio.MaxScanTokenSize). */
const MAX_LINE_BYTES = 64 * 1024;
const utf8 = new TextEncoder();

function trimChar(s: string, ch: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && s[start] === ch) start++;
  while (end > start && s[end - 1] === ch) end--;
  return s.slice(start, end);
}

function newPattern(text: string): Pattern {
  const trimmed = trimChar(text, '/');
  return {
    absolute: text.startsWith('/'),
    dirOnly: text.endsWith('/'),
    depth: trimmed.split('/').length,
    text: trimmed,
    glob: /[*?[]/.test(text),
  };
}

/** go-gitignore's `cutN`: the path up to and including its n-th `/` (all of it when it has fewer). */
function cutN(path: string, n: number): { part: string; isLast: boolean } {
  let count = 0;
  let i = 0;
  for (; i < path.length - 1; i++) {
    if (path[i] === '/' && ++count >= n) return { part: path.slice(0, i + 1), isLast: false };
  }
  return { part: path.slice(0, i + 1), isLast: true };
}

/** go-gitignore's `cutLastN`: the path after its n-th `/` from the end (all of it when fewer). */
function cutLastN(path: string, n: number): { part: string; isLast: boolean } {
  let count = 0;
  for (let i = path.length - 1; i >= 0; i--) {
    if (path[i] === '/' && ++count >= n) return { part: path.slice(i + 1), isLast: false };
  }
  return { part: path, isLast: true };
}

function patternMatches(p: Pattern, part: string, isDir: boolean): boolean {
  if (p.dirOnly && !isDir) return false;
  return p.glob ? matchFilepath(p.text, part).matched : p.text === part;
}

/** go-gitignore's depth-indexed scan of one pattern list (absolute ascending, relative descending). */
function anyMatches(patterns: readonly Pattern[], path: string, isDir: boolean): boolean {
  if (patterns.length === 0) return false;
  for (let depth = 1; ; depth++) {
    const atDepth = patterns.filter((p) => p.depth === depth);
    const { part, isLast } = cutN(path, depth);
    const absoluteIsDir = isLast ? isDir : false;
    for (const p of atDepth) if (p.absolute && patternMatches(p, part, absoluteIsDir)) return true;
    if (isLast) break;
  }
  for (let depth = 1; ; depth++) {
    const { part, isLast } = cutLastN(path, depth);
    for (const p of patterns) if (!p.absolute && p.depth === depth && patternMatches(p, part, isDir)) return true;
    if (isLast) break;
  }
  return false;
}

/**
 * Parses `.krmignore` text. `file` names it in errors: a lone `!` line makes go-gitignore index
 * an empty pattern and panic (kpt crashes); here it is a clear error naming the line.
 */
export function parseKrmignore(text: string, file = '.krmignore'): IgnoreMatcher {
  const ignore: Pattern[] = [];
  const accept: Pattern[] = [];
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    let raw = lines[n];
    if (n === lines.length - 1 && raw === '') break;
    if (utf8.encode(raw).length >= MAX_LINE_BYTES) break;
    if (raw.endsWith('\r')) raw = raw.slice(0, -1);
    let line = trimChar(raw, ' ');
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('\\#')) line = line.slice(1);
    if (line.startsWith('!')) {
      line = line.slice(1);
      if (line === '') {
        throw new KrmfnError({
          code: 'package-io',
          message: `${file}:${n + 1}: "!" without a pattern (kpt's ignore-file reader cannot index an empty pattern)`,
          file,
          line: n + 1,
        });
      }
      accept.push(newPattern(line));
    } else ignore.push(newPattern(line));
  }
  if (ignore.length === 0) return NO_IGNORES;
  return {
    ignores(relPath: string, isDir: boolean): boolean {
      if (anyMatches(accept, relPath, isDir)) return false;
      return anyMatches(ignore, relPath, isDir);
    },
  };
}
