import { describe, expect, it } from 'vitest';
import { diffLines, splitLines, unifiedDiff } from '../../src/core/diff.ts';

function apply(a: string[], ops: ReturnType<typeof diffLines>): string[] {
  const out: string[] = [];
  let i = 0;
  for (const o of ops) {
    if (o.op === 'equal') {
      expect(a[i]).toBe(o.line);
      out.push(o.line);
      i++;
    } else if (o.op === 'delete') {
      expect(a[i]).toBe(o.line);
      i++;
    } else out.push(o.line);
  }
  expect(i).toBe(a.length);
  return out;
}

describe('line diff', () => {
  it('produces an edit script that turns a into b, for random inputs', () => {
    let seed = 7;
    const rnd = (n: number): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
    for (let t = 0; t < 300; t++) {
      const a = Array.from({ length: rnd(12) }, () => 'abcd'[rnd(4)]);
      const b = Array.from({ length: rnd(12) }, () => 'abcd'[rnd(4)]);
      const ops = diffLines(a, b);
      expect(apply(a, ops)).toEqual(b);
      // Minimal: never more edits than replacing everything, and exactly 0 for equal inputs.
      const edits = ops.filter((o) => o.op !== 'equal').length;
      expect(edits).toBeLessThanOrEqual(a.length + b.length);
      if (a.join() === b.join()) expect(edits).toBe(0);
    }
  });

  it('writes git-style unified diffs', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const after = 'a\nb\nc\nD\ne\nf\ng\nh\ni\n';
    expect(unifiedDiff('x.yaml', before, after, 1)).toBe(
      ['--- a/x.yaml', '+++ b/x.yaml', '@@ -3,3 +3,3 @@', ' c', '-d', '+D', ' e', '@@ -8 +8,2 @@', ' h', '+i', ''].join(
        '\n',
      ),
    );
    expect(unifiedDiff('new.yaml', undefined, 'k: v\n')).toBe('--- /dev/null\n+++ b/new.yaml\n@@ -0,0 +1 @@\n+k: v\n');
    expect(unifiedDiff('gone.yaml', 'k: v\n', undefined)).toBe(
      '--- a/gone.yaml\n+++ /dev/null\n@@ -1 +0,0 @@\n-k: v\n',
    );
    expect(unifiedDiff('same.yaml', 'k\n', 'k\n')).toBe('');
    expect(splitLines('a\nb')).toEqual(['a', 'b']);
  });
});
