// apply-replacements target selectors are Go regular expressions, anchored as kustomize anchors
// them (kubernetes-sigs/kustomize api/types/selector.go at api/v0.10.1, the api v0.1.1 pins:
// `^(?:NAME)$`): Go syntax such as `(?i)` and `\z` works, and a pathological pattern on a long
// name finishes (RE2, no backtracking; src/core/go-regexp.ts) instead of hanging the function.
import { expect, test } from 'vitest';
import { runBuiltin } from '../builtins/run-builtin.ts';

const IMG = 'gcr.io/kpt-fn/apply-replacements:v0.1.1';

const configMap = (name: string): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  stage: old\n`;

const items = (names: string[]): string =>
  [`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: source\ndata:\n  stage: new\n`, ...names.map(configMap)].join(
    '---\n',
  );

const selectingName = (pattern: string): string => `apiVersion: fn.kpt.dev/v1alpha1
kind: ApplyReplacements
metadata:
  name: r
replacements:
- source: {kind: ConfigMap, name: source, fieldPath: data.stage}
  targets:
  - select: {kind: ConfigMap, name: ${JSON.stringify(pattern)}}
    fieldPaths: [data.stage]
`;

/** The names whose data.stage was replaced. */
async function replaced(names: string[], pattern: string): Promise<string[]> {
  const r = await runBuiltin(IMG, items(names), selectingName(pattern));
  expect(r.results).toEqual([]);
  expect(r.exitCode).toBe(0);
  return r.items.filter((o) => o.name !== 'source' && o.get('data.stage') === 'new').map((o) => o.name);
}

test('a target name selector takes Go syntax: (?i), \\d, \\z', async () => {
  expect(await replaced(['target-1', 'TARGET-22', 'target-x', 'other'], '(?i)target-\\d+\\z')).toEqual([
    'target-1',
    'TARGET-22',
  ]);
});

test('a target name selector is anchored at both ends', async () => {
  expect(await replaced(['web', 'web-1', 'my-web'], 'web')).toEqual(['web']);
});

test('a pathological selector on a long name finishes and matches as Go does', async () => {
  const long = 'a'.repeat(5_000);
  expect(await replaced([`${long}b`, long], '(a|a?)+')).toEqual([long]);
});
