/**
 * The one FieldSpec walker (sdk/field-spec.ts) against kustomize's fieldspec filter
 * (kubernetes-sigs/kustomize api/filters/fieldspec/fieldspec.go at api/v0.7.1, api/v0.8.11,
 * api/v0.11.0 over kyaml Lookup/LookupCreate): each row is an object, one FieldSpec and the
 * object after `SetEntry("team", "a")` (a labels-style edit, mappings created) or the error.
 */
import { describe, expect, it } from 'vitest';
import {
  FieldSpecError,
  isYaml11NonString,
  matchesGvk,
  parseFieldSpecs,
  parseObject,
  setMapEntry,
  splitFieldSpecPath,
  walkFieldSpec,
  type FieldSpec,
} from 'krmfn/sdk';
import { emitYamlDocument } from '../../src/core/yaml/index.ts';

const STS = 'apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db\n';

interface Row {
  name: string;
  input: string;
  spec: FieldSpec;
  output?: string;
  error?: string;
}

const rows: Row[] = [
  {
    name: '`x[]` never creates a missing list, even with create',
    input: `${STS}spec:\n  replicas: 1\n`,
    spec: { path: 'spec/volumeClaimTemplates[]/metadata/labels', create: true },
    output: `${STS}spec:\n  replicas: 1\n`,
  },
  {
    name: '`x[]` walks existing items and creates mappings inside each',
    input: `${STS}spec:\n  volumeClaimTemplates:\n  - metadata:\n      name: d1\n  - spec: {}\n`,
    spec: { path: 'spec/volumeClaimTemplates[]/metadata/labels', create: true },
    output: `${STS}spec:\n  volumeClaimTemplates:\n  - metadata:\n      name: d1\n      labels:\n        team: a\n  - spec: {}\n    metadata:\n      labels:\n        team: a\n`,
  },
  {
    name: 'a null `x[]` becomes an empty list (the kind hint), nothing below it is created',
    input: `${STS}spec:\n  volumeClaimTemplates:\n`,
    spec: { path: 'spec/volumeClaimTemplates[]/metadata/labels', create: true },
    output: `${STS}spec:\n  volumeClaimTemplates: []\n`,
  },
  {
    name: 'missing intermediates are created as mappings with create',
    input: STS,
    spec: { path: 'spec/template/metadata/labels', create: true },
    output: `${STS}spec:\n  template:\n    metadata:\n      labels:\n        team: a\n`,
  },
  {
    name: 'nothing is created without create',
    input: STS,
    spec: { path: 'spec/selector/matchLabels' },
    output: STS,
  },
  {
    name: 'a null intermediate becomes a mapping with create',
    input: `${STS}spec:\n  template:\n`,
    spec: { path: 'spec/template/metadata/labels', create: true },
    output: `${STS}spec:\n  template:\n    metadata:\n      labels:\n        team: a\n`,
  },
  {
    name: 'a null intermediate ends the walk without create',
    input: `${STS}spec:\n  selector:\n`,
    spec: { path: 'spec/selector/matchLabels' },
    output: `${STS}spec:\n  selector:\n`,
  },
  {
    name: 'a list met without `[]` is walked item by item',
    input: `${STS}spec:\n  rules:\n  - from:\n    - sel: {}\n    - other: 1\n`,
    spec: { path: 'spec/rules/from/sel' },
    output: `${STS}spec:\n  rules:\n  - from:\n    - sel: {team: a}\n    - other: 1\n`,
  },
  {
    name: '`\\/` keeps a slash inside a key',
    input: `${STS}spec:\n  a/b:\n    c: {}\n`,
    spec: { path: 'spec/a\\/b/c' },
    output: `${STS}spec:\n  a/b:\n    c: {team: a}\n`,
  },
  {
    name: 'a scalar before the end of the path is an error',
    input: `${STS}spec: 3\n`,
    spec: { path: 'spec/template/metadata/labels', create: true },
    error: 'expected sequence or mapping node',
  },
  {
    name: 'an empty segment that is reached is an error',
    input: STS,
    spec: { path: 'metadata//labels', create: true },
    error: 'cannot set or create an empty field name',
  },
  {
    name: 'a GVK mismatch skips the object, even for a bad path',
    input: STS,
    spec: { kind: 'Deployment', path: 'metadata//labels', create: true },
    output: STS,
  },
];

describe('walkFieldSpec (kustomize fieldspec filter semantics)', () => {
  for (const row of rows) {
    it(row.name, () => {
      const obj = parseObject(row.input);
      const run = (): void =>
        walkFieldSpec(obj, row.spec, (path) => setMapEntry(obj, path, 'team', 'a'), { createKind: 'mapping' });
      if (row.error !== undefined) {
        expect(run).toThrow(FieldSpecError);
        expect(run).toThrow(row.error);
        return;
      }
      run();
      expect(emitYamlDocument(obj.doc, 'compact')).toBe(row.output);
    });
  }

  it('with a scalar creation kind, a missing last field is left for the visitor', () => {
    const obj = parseObject('apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n');
    const seen: string[] = [];
    walkFieldSpec(obj, { path: 'metadata/namespace', create: true }, (p) => seen.push(p.join('.')), {
      createKind: 'scalar',
    });
    expect(seen).toEqual(['metadata.namespace']);
    expect(obj.has('metadata.namespace')).toBe(false);
  });

  it('without a creation kind nothing is created, whatever the spec says', () => {
    const obj = parseObject(STS);
    const seen: string[] = [];
    walkFieldSpec(obj, { path: 'spec/template', create: true }, (p) => seen.push(p.join('.')));
    expect(seen).toEqual([]);
  });
});

describe('FieldSpec helpers', () => {
  it('splits like kustomize PathSplitter: escapes kept together, empty parts kept', () => {
    expect(splitFieldSpecPath('a/b\\/c/d')).toEqual(['a', 'b/c', 'd']);
    expect(splitFieldSpecPath('/a/')).toEqual(['', 'a', '']);
  });

  it('matches GVKs with the group split at the first slash (resid.ParseGroupVersion)', () => {
    const obj = parseObject('apiVersion: a.io/v1/x\nkind: K\nmetadata:\n  name: n\n');
    expect(matchesGvk(obj, { group: 'a.io', version: 'v1/x' })).toBe(true);
    expect(matchesGvk(obj, { kind: 'Other' })).toBe(false);
    expect(matchesGvk(parseObject('apiVersion: v1\nkind: K\n'), { group: '', version: 'v1' })).toBe(true);
  });

  it('reads FieldSpecs from config data as Go decoding would', () => {
    expect(
      parseFieldSpecs([
        { path: 'a/b', kind: 'K', create: true },
        { kind: 'NoPath' },
        { path: 'c', create: 'yes', group: 3 },
        'junk',
      ]),
    ).toEqual([{ path: 'a/b', kind: 'K', create: true }, { path: 'c' }]);
  });

  it('tells which texts YAML 1.1 reads as non-strings (kyaml IsValueNonString)', () => {
    for (const t of ['yes', 'off', '~', 'null', '123', '0755', '1:20', '1.5', '.inf', '[a]', '{a: b}', 'a: b', '- x'])
      expect(isYaml11NonString(t), t).toBe(true);
    for (const t of ['', 'hello', '2001-12-14', 'a:b', 'multi\nline', 'v1.2.3'])
      expect(isYaml11NonString(t), t).toBe(false);
  });
});
