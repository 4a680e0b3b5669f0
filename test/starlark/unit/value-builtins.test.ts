// Runs value-builtins.cases: every universe builtin, method and library module member (json, math, time) through the
// real evaluator (evalExpr), comparing the repr of the result or the error message.
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { evalExpr } from '../../../src/starlark/index.ts';
import { JSON_MODULE } from '../../../src/starlark/lib/json.ts';
import { MATH_MODULE } from '../../../src/starlark/lib/math.ts';
import { createTimeModule } from '../../../src/starlark/lib/time.ts';
import { STRUCT_BUILTINS } from '../../../src/starlark/lib/universe.ts';
import { repr } from '../../../src/starlark/value/ops.ts';
import { toHostString } from '../../../src/starlark/value/string.ts';

interface Case {
  line: number;
  expr: string;
  want: string;
  isError: boolean;
}

function load(): Map<string, Case[]> {
  const text = readFileSync(new URL('./value-builtins.cases', import.meta.url), 'utf8');
  const groups = new Map<string, Case[]>();
  let group = 'misc';
  text.split('\n').forEach((raw, i) => {
    if (raw.startsWith('## ')) {
      group = raw.slice(3).trim();
      return;
    }
    if (raw.trim() === '' || raw.startsWith('#')) return;
    const m = /^(.*?) (=>|!!) (.*)$/.exec(raw);
    if (m === null) throw new Error(`value-builtins.cases:${i + 1}: malformed case`);
    const list = groups.get(group) ?? [];
    list.push({ line: i + 1, expr: m[1], want: m[3], isError: m[2] === '!!' });
    groups.set(group, list);
  });
  return groups;
}

// The injected clock is fixed, so time.now() is deterministic.
const predeclared = {
  json: JSON_MODULE,
  math: MATH_MODULE,
  time: createTimeModule({ now: () => 1_700_000_000_000 }),
  ...STRUCT_BUILTINS,
};

for (const [group, cases] of load()) {
  describe(group, () => {
    test.each(cases.map((c) => [`${c.line}: ${c.expr}`, c] as const))('%s', (_name, c) => {
      let got: string;
      let failed = false;
      try {
        got = toHostString(
          repr(evalExpr({ filename: 'case.star', source: c.expr, predeclared, dialect: { set: true } })),
        );
      } catch (e) {
        failed = true;
        got = toHostString((e as Error).message);
      }
      if (c.isError) {
        expect(failed, `expected an error, got ${got}`).toBe(true);
        expect(got).toMatch(new RegExp(c.want));
      } else {
        expect(failed ? `error: ${got}` : got).toBe(c.want);
      }
    });
  });
}
