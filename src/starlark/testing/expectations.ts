/**
 * `### "regexp"` expectations of one chunk (docs/starlark.md, "Test files"). A line containing `###` expects an
 * error on that line; the rest of the line, trimmed, must be one Go string literal holding an RE2
 * pattern. Recognised anywhere on the line, even inside a Starlark string.
 */
import { unquoteGoString } from './go-string.ts';
import { compileRe2 } from './re2.ts';

export interface Expectation {
  /** 1-based file line. */
  line: number;
  /** The unquoted RE2 pattern, as written. */
  pattern: string;
  regexp: RegExp;
}

/** A problem with the test file itself (exit code 2 in the `test` command). */
export class TestHarnessError extends Error {
  readonly file: string;
  readonly line: number;
  constructor(file: string, line: number, message: string) {
    super(`${file}:${line}: ${message}`);
    this.name = 'TestHarnessError';
    this.file = file;
    this.line = line;
  }
}

/** Expectations keyed by 1-based file line. Throws `TestHarnessError` on a bad literal or regexp. */
export function parseExpectations(file: string, chunkText: string, startLine: number): Map<number, Expectation> {
  const out = new Map<number, Expectation>();
  const lines = chunkText.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const at = lines[i].indexOf('###');
    if (at < 0) continue;
    const line = startLine + i;
    const rest = lines[i].slice(at + 3).trim();
    const pattern = unquoteGoString(rest);
    if (pattern === null) throw new TestHarnessError(file, line, `not a quoted regexp: ${rest}`);
    const re = compileRe2(pattern);
    if (!re.ok) throw new TestHarnessError(file, line, re.error);
    out.set(line, { line, pattern, regexp: re.regexp });
  }
  return out;
}
