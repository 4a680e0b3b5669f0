/**
 * Line diffs (Myers' O(ND) algorithm) and unified-diff text, for showing what a render changed:
 * the CLI's `--diff` and the playground's per-file diffs. Pure and browser-safe.
 */
export type DiffOp = { op: 'equal' | 'delete' | 'insert'; line: string };

export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The shortest edit script turning `a` into `b`, as a sequence of line operations. */
export function diffLines(a: readonly string[], b: readonly string[]): DiffOp[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x: number;
      if (k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1])) x = v[offset + k + 1]!;
      else x = v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  // Walk the trace backwards to recover the path.
  const ops: DiffOp[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d];
    const k = x - y;
    let prevK: number;
    if (k === -d || (k !== d && vd[offset + k - 1] < vd[offset + k + 1])) prevK = k + 1;
    else prevK = k - 1;
    const prevX = d === 0 ? 0 : vd[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ op: 'equal', line: a[x - 1] });
      x--;
      y--;
    }
    if (d > 0) {
      if (x === prevX) ops.push({ op: 'insert', line: b[y - 1] });
      else ops.push({ op: 'delete', line: a[x - 1] });
    }
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  ops: DiffOp[];
}

/** Groups an edit script into hunks with `context` unchanged lines around each change. */
export function hunks(ops: readonly DiffOp[], context = 3): Hunk[] {
  const out: Hunk[] = [];
  let oldLine = 1;
  let newLine = 1;
  let cur: Hunk | undefined;
  let trailing = 0;
  for (let i = 0; i < ops.length; i++) {
    const o = ops[i];
    if (o.op === 'equal') {
      if (cur) {
        // Does another change follow within 2*context lines? Then keep the hunk open.
        let next = i;
        while (next < ops.length && ops[next].op === 'equal' && next - i < 2 * context) next++;
        if (trailing < context || (next < ops.length && ops[next].op !== 'equal')) {
          cur.ops.push(o);
          cur.oldLines++;
          cur.newLines++;
          trailing++;
        } else {
          out.push(cur);
          cur = undefined;
        }
      }
      oldLine++;
      newLine++;
      continue;
    }
    if (!cur) {
      const before: DiffOp[] = [];
      for (let j = i - 1; j >= 0 && before.length < context && ops[j].op === 'equal'; j--) before.unshift(ops[j]);
      cur = {
        oldStart: oldLine - before.length,
        oldLines: before.length,
        newStart: newLine - before.length,
        newLines: before.length,
        ops: [...before],
      };
    }
    trailing = 0;
    cur.ops.push(o);
    if (o.op === 'delete') {
      cur.oldLines++;
      oldLine++;
    } else {
      cur.newLines++;
      newLine++;
    }
  }
  if (cur) out.push(cur);
  return out;
}

/**
 * Lines for diffing: a last line without its newline differs from the same text with one (as in
 * `diff -u`), so it carries a trailing `\n` as a mark (no split line can contain one).
 */
function diffableLines(text: string): string[] {
  const lines = splitLines(text);
  if (text !== '' && !text.endsWith('\n')) lines[lines.length - 1] += '\n';
  return lines;
}

/**
 * A unified diff of one file, git style: `--- a/<path>` / `+++ b/<path>`; `/dev/null` for a file
 * that is created or deleted (`before`/`after` undefined). Empty string when nothing changed. A
 * missing final newline shows as `diff -u` shows it: `\ No newline at end of file`.
 */
export function unifiedDiff(path: string, before: string | undefined, after: string | undefined, context = 3): string {
  if (before === after) return '';
  const hs = hunks(diffLines(diffableLines(before ?? ''), diffableLines(after ?? '')), context);
  if (hs.length === 0) return '';
  const range = (start: number, len: number): string =>
    len === 1 ? `${start}` : `${len === 0 ? start - 1 : start},${len}`;
  const lines = [
    `--- ${before === undefined ? '/dev/null' : `a/${path}`}`,
    `+++ ${after === undefined ? '/dev/null' : `b/${path}`}`,
  ];
  for (const h of hs) {
    lines.push(`@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@`);
    for (const o of h.ops) {
      const mark = o.op === 'equal' ? ' ' : o.op === 'delete' ? '-' : '+';
      if (o.line.endsWith('\n')) lines.push(mark + o.line.slice(0, -1), '\\ No newline at end of file');
      else lines.push(mark + o.line);
    }
  }
  return lines.join('\n') + '\n';
}
