/**
 * apply-replacements' typed config decoding (every tag: replacements.go `Config` calls the fn SDK's
 * `KubeObject.As`, which marshals the config to JSON with sorted keys and unmarshals it into
 * `replacements.Replacements`). The expected `json:` messages were printed by Go 1.19's
 * encoding/json on the same JSON into mirrors of kustomize's types (api/types/replacement.go and
 * selector.go at api/v0.10.1), in a program outside the repository.
 */
import { describe, expect, it } from 'vitest';
import { goJsonTypeError } from '../../../builtins/lib/go-json-decode.ts';
import { runBuiltin } from '../run-builtin.ts';

const PREFIX =
  'unable to convert functionConfig to replacements:\nunable to convert object to *replacements.Replacements with error: ';
const SOURCE = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: src\ndata:\n  v: x\n';
const config = (body: string): string =>
  `apiVersion: fn.kpt.dev/v1alpha1\nkind: ApplyReplacements\nmetadata:\n  name: r\nreplacements:\n${body}`;

const CASES: [string, string][] = [
  ['  a: 1\n', 'object into Go struct field Replacements.replacements of type []types.Replacement'],
  [
    '  - source:\n      fieldPath: 1\n',
    'number into Go struct field SourceSelector.replacements.source.fieldPath of type string',
  ],
  [
    '  - source:\n      kind: true\n',
    'bool into Go struct field SourceSelector.replacements.source.kind of type string',
  ],
  [
    '  - source:\n      options:\n        index: "2"\n',
    'string into Go struct field FieldOptions.replacements.source.options.index of type int',
  ],
  [
    '  - source:\n      options:\n        create: "yes"\n',
    'string into Go struct field FieldOptions.replacements.source.options.create of type bool',
  ],
  [
    '  - targets:\n      - fieldPaths: a.b\n',
    'string into Go struct field TargetSelector.replacements.targets.fieldPaths of type []string',
  ],
  [
    '  - targets:\n      - fieldPaths: [1]\n',
    'number into Go struct field TargetSelector.replacements.targets.fieldPaths of type string',
  ],
  [
    '  - targets:\n      - select:\n          name: 5\n',
    'number into Go struct field Selector.replacements.targets.select.name of type string',
  ],
  [
    '  - targets:\n      - reject:\n          - labelSelector: 5\n',
    'number into Go struct field Selector.replacements.targets.reject.labelSelector of type string',
  ],
  ['  - x\n', 'string into Go struct field Replacements.replacements of type types.Replacement'],
  ['  - source: x\n', 'string into Go struct field Replacement.replacements.source of type types.SourceSelector'],
  [
    '  - source:\n      kind: 2\n      fieldPath: 1\n',
    'number into Go struct field SourceSelector.replacements.source.fieldPath of type string',
  ],
  [
    '  - source:\n      options:\n        index: 1.5\n',
    'number 1.5 into Go struct field FieldOptions.replacements.source.options.index of type int',
  ],
];

describe('apply-replacements: typed config errors', () => {
  it.each(CASES)('%j', async (body, want) => {
    for (const tag of ['v0.1.0', 'v0.1.1', 'v0.1.2']) {
      const r = await runBuiltin(
        `ghcr.io/kptdev/krm-functions-catalog/apply-replacements:${tag}`,
        SOURCE,
        config(body),
      );
      expect(r.exitCode, tag).toBe(1);
      expect(
        r.results.map((x) => x.message),
        tag,
      ).toEqual([`${PREFIX}json: cannot unmarshal ${want}`]);
    }
  });

  it('unknown fields and case-insensitive names decode as in Go', () => {
    const root = { kind: 'struct', name: 'p.T', fields: { fieldPath: { kind: 'string' } } } as const;
    expect(goJsonTypeError({ other: 1, FIELDPATH: 'a' }, root)).toBeUndefined();
    expect(goJsonTypeError({ FieldPath: 2 }, root)).toBe(
      'json: cannot unmarshal number into Go struct field T.fieldPath of type string',
    );
  });
});
