/**
 * apply-replacements per tag: v0.1.1 (kustomize api v0.10.1, kyaml v0.13.6 `Lookup` /
 * `LookupCreate`) against v0.1.2 (api v0.19.0, kyaml v0.19.0 `PathMatcher` for targets). Expected
 * outputs derived by reading kubernetes-sigs/kustomize api/filters/replacement/replacement.go,
 * kyaml/yaml/fns.go and kyaml/yaml/match.go at those tags (builtins/docs/apply-replacements.md,
 * "Behaviour per tag"); our own data.
 */
import { describe, expect, it } from 'vitest';
import { runBuiltin } from '../run-builtin.ts';

const IMG = 'ghcr.io/kptdev/krm-functions-catalog/apply-replacements';
const TAGS = ['v0.1.1', 'v0.1.2'] as const;

const ITEMS = `apiVersion: v1
kind: ConfigMap
metadata:
  name: src
data:
  count: "5"
  word: hello
  blank: ""
  nothing:
  regions: eu.west
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  template:
    metadata:
      labels: {}
    spec:
      nodeSelector:
      containers:
      - name: app
        image: "placeholder" # img
      - name: app-sidecar
        image: side:1
      - name: other
        image: other:1
`;

const cfg = (source: string, target: string): string =>
  `apiVersion: fn.kpt.dev/v1alpha1\nkind: ApplyReplacements\nmetadata:\n  name: r\nreplacements:\n- source: ${source}\n  targets:\n  - ${target}\n`;

async function run(tag: string, source: string, target: string) {
  return runBuiltin(`${IMG}:${tag}`, ITEMS, cfg(source, target));
}

const WORD = '{kind: ConfigMap, name: src, fieldPath: data.word}';
const COUNT = '{kind: ConfigMap, name: src, fieldPath: data.count}';
const DEPLOY = (paths: string, options = '') => `{select: {kind: Deployment}, fieldPaths: [${paths}]${options}}`;
const CM = (paths: string, options = '') => `{select: {kind: ConfigMap}, fieldPaths: [${paths}]${options}}`;

describe('apply-replacements: kustomize api v0.10.1 (v0.1.1) vs v0.19.0 (v0.1.2)', () => {
  it('[name=v] is an exact match in v0.1.1 and an unanchored Go regexp in v0.1.2', async () => {
    const target = DEPLOY("'spec.template.spec.containers.[name=app].image'");
    const old = await run('v0.1.1', WORD, target);
    expect(old.exitCode).toBe(0);
    expect(old.output).toContain(
      '- name: app\n        image: hello # img\n      - name: app-sidecar\n        image: side:1\n',
    );
    const now = await run('v0.1.2', WORD, target);
    expect(now.exitCode).toBe(0);
    // The scalar target keeps its double quotes (and comment); `app-sidecar` matches `app` too.
    expect(now.output).toContain(
      '- name: app\n        image: "hello" # img\n      - name: app-sidecar\n        image: hello\n      - name: other\n        image: other:1\n',
    );
  });

  it('a scalar target takes the source node in v0.1.1 and only its text in v0.1.2', async () => {
    const intoInt = [
      await run('v0.1.1', COUNT, DEPLOY('spec.replicas')),
      await run('v0.1.2', COUNT, DEPLOY('spec.replicas')),
    ];
    expect(intoInt[0].output).toContain('  replicas: "5"\n');
    expect(intoInt[1].output).toContain('  replicas: 5\n');
    const replicas = '{kind: Deployment, name: web, fieldPath: spec.replicas}';
    const intoStr = [await run('v0.1.1', replicas, CM('data.word')), await run('v0.1.2', replicas, CM('data.word'))];
    expect(intoStr[0].output).toContain('  word: 1\n');
    expect(intoStr[1].output).toContain('  word: "1"\n');
    // A null target keeps its !!null tag in v0.1.2, which go-yaml then writes explicitly.
    const intoNull = [await run('v0.1.1', WORD, CM('data.nothing')), await run('v0.1.2', WORD, CM('data.nothing'))];
    expect(intoNull[0].output).toContain('  nothing: hello\n');
    expect(intoNull[1].output).toContain('  nothing: !!null hello\n');
  });

  it('create: v0.1.1 copies the source node, v0.1.2 writes an untagged scalar', async () => {
    const target = DEPLOY('spec.template.metadata.annotations.count', ', options: {create: true}');
    const old = await run('v0.1.1', COUNT, target);
    expect(old.output).toContain('    metadata:\n      labels: {}\n      annotations:\n        count: "5"\n');
    const now = await run('v0.1.2', COUNT, target);
    expect(now.output).toContain('    metadata:\n      labels: {}\n      annotations:\n        count: 5\n');
  });

  it('create under a null field changes nothing and is no error (every tag)', async () => {
    for (const tag of TAGS) {
      const r = await run(tag, WORD, DEPLOY('spec.template.spec.nodeSelector.zone', ', options: {create: true}'));
      expect(r.exitCode, tag).toBe(0);
      expect(r.output, tag).toContain('      nodeSelector:\n      containers:\n');
    }
  });

  it('an index past the end is skipped by v0.1.1 and an error in v0.1.2', async () => {
    const target = DEPLOY('spec.template.spec.containers.5.image');
    const old = await run('v0.1.1', WORD, target);
    expect(old.exitCode).toBe(0);
    expect(old.results).toEqual([]);
    const now = await run('v0.1.2', WORD, target);
    expect(now.exitCode).toBe(1);
    expect(now.results.map((x) => x.message)).toEqual([
      'unable to find field "spec.template.spec.containers.5.image" in replacement target: index 5 specified but only 3 elements found',
    ]);
    const idx = await run('v0.1.2', WORD, DEPLOY('spec.template.spec.containers.2.image'));
    expect(idx.items[1].get('spec.template.spec.containers[2].image')).toBe('hello');
  });

  it('`*` on a list: a field name on a sequence (error) in v0.1.1, every element in v0.1.2', async () => {
    const target = DEPLOY("'spec.template.spec.containers.*.image'");
    const old = await run('v0.1.1', WORD, target);
    expect(old.exitCode).toBe(1);
    expect(old.results[0].message).toBe(
      'wrong Node Kind for spec.template.spec.containers expected: MappingNode was SequenceNode: value: {- name: app\n  image: "placeholder" # img\n- name: app-sidecar\n  image: side:1\n- name: other\n  image: other:1}',
    );
    const now = await run('v0.1.2', WORD, target);
    expect(now.exitCode).toBe(0);
    expect(now.items[1].get('spec.template.spec.containers')).toEqual([
      { name: 'app', image: 'hello' },
      { name: 'app-sidecar', image: 'hello' },
      { name: 'other', image: 'hello' },
    ]);
  });

  it('v0.1.2 path errors: `*` on a mapping, `[*]`, a bad regexp, `*` in the source', async () => {
    const onMap = await run('v0.1.2', WORD, CM("'data.*'"));
    expect(onMap.results[0].message).toBe(
      'unable to find field "data.*" in replacement target: wrong node kind: expected SequenceNode but got MappingNode: node contents:\ncount: "5"\nword: hello\nblank: ""\nnothing:\nregions: eu.west\n',
    );
    const bracketStar = await run('v0.1.2', WORD, DEPLOY("'spec.template.spec.containers.[*].image'"));
    expect(bracketStar.results[0].message).toBe(
      'unable to find field "spec.template.spec.containers.[*].image" in replacement target: list path element must contain fieldName=fieldValue for element to match',
    );
    const badRe = await run('v0.1.2', WORD, DEPLOY("'spec.template.spec.containers.[name=(].image'"));
    expect(badRe.results[0].message).toBe(
      'unable to find field "spec.template.spec.containers.[name=(].image" in replacement target: error parsing regexp: missing closing ): `(`',
    );
    const oldRe = await run('v0.1.1', WORD, DEPLOY("'spec.template.spec.containers.[name=(].image'"));
    expect(oldRe.exitCode).toBe(0);
    const star = '{kind: ConfigMap, name: src, fieldPath: "data.*"}';
    const oldStar = await run('v0.1.1', star, CM('data.word'));
    expect(oldStar.results[0].message).toBe(
      'fieldPath `data.*` is missing for replacement source ConfigMap.[noVer].[noGrp]/src.[noNs]',
    );
    const newStar = await run('v0.1.2', star, CM('data.word'));
    expect(newStar.results[0].message).toBe(
      'error looking up replacement source: wildcard is not supported in PathGetter',
    );
  });

  it('sources: "" is a value, {} is missing, a field below a scalar is a kind error (every tag)', async () => {
    for (const tag of TAGS) {
      const blank = await run(tag, '{kind: ConfigMap, fieldPath: data.blank}', CM('data.word'));
      expect(blank.exitCode, tag).toBe(0);
      expect(blank.output, tag).toContain('  word: ""\n');
      const empty = await run(tag, '{kind: Deployment, fieldPath: spec.template.metadata.labels}', CM('data.word'));
      expect(empty.results[0].message, tag).toBe(
        'fieldPath `spec.template.metadata.labels` is missing for replacement source Deployment.[noVer].[noGrp]/[noName].[noNs]',
      );
    }
    const below = '{kind: ConfigMap, fieldPath: data.word.x}';
    expect((await run('v0.1.1', below, CM('data.blank'))).results[0].message).toBe(
      'wrong Node Kind for data.word expected: MappingNode was ScalarNode: value: {hello}',
    );
    expect((await run('v0.1.2', below, CM('data.blank'))).results[0].message).toBe(
      'error looking up replacement source: wrong node kind: expected MappingNode but got ScalarNode: node contents:\nhello\n',
    );
  });

  it('paths split as kustomize splits them: `list[k=v]` is one field name, `[a.b]` one key', async () => {
    const glued = DEPLOY("'spec.template.spec.containers[name=other].image'");
    expect((await run('v0.1.1', WORD, glued)).items[1].get('spec.template.spec.containers[2].image')).toBe('other:1');
    expect((await run('v0.1.2', WORD, glued)).results[0].message).toBe(
      'unable to find field "spec.template.spec.containers[name=other].image" in replacement target',
    );
    for (const tag of TAGS) {
      const r = await run(tag, WORD, DEPLOY("'metadata.annotations.[example.com/word]'", ', options: {create: true}'));
      expect(r.items[1].get(['metadata', 'annotations', 'example.com/word']), tag).toBe('hello');
      const dotted = await run(
        tag,
        '{kind: ConfigMap, fieldPath: data.regions, options: {delimiter: ., index: 1}}',
        CM('data.word'),
      );
      expect(dotted.output, tag).toContain('  word: west\n');
    }
  });

  it('create before an index: v0.1.1 makes a mapping (then a kind error), v0.1.2 a list', async () => {
    const target = DEPLOY('spec.template.spec.tolerations.0.key', ', options: {create: true}');
    const old = await run('v0.1.1', WORD, target);
    expect(old.results[0].message).toBe(
      'wrong Node Kind for spec.template.spec.tolerations expected: SequenceNode was MappingNode: value: {{}}',
    );
    const now = await run('v0.1.2', WORD, target);
    expect(now.exitCode).toBe(0);
    expect(now.items[1].get('spec.template.spec.tolerations')).toEqual([{ key: 'hello' }]);
  });

  it('a negative index: an error in v0.1.1, a field name on a list (kind error) in v0.1.2', async () => {
    const target = DEPLOY('spec.template.spec.containers.-1.image');
    expect((await run('v0.1.1', WORD, target)).results[0].message).toBe('array index -1 cannot be negative');
    expect((await run('v0.1.2', WORD, target)).results[0].message).toBe(
      'unable to find field "spec.template.spec.containers.-1.image" in replacement target: wrong node kind: expected MappingNode but got SequenceNode: node contents:\n- name: app\n  image: "placeholder" # img\n- name: app-sidecar\n  image: side:1\n- name: other\n  image: other:1\n',
    );
  });

  it('a mapping source into a scalar target: the mapping in v0.1.1, an empty text in v0.1.2', async () => {
    const source = '{kind: Deployment, fieldPath: spec.template.metadata}';
    expect((await run('v0.1.1', source, CM('data.word'))).items[0].get('data.word')).toEqual({ labels: {} });
    expect((await run('v0.1.2', source, CM('data.word'))).output).toContain('  word: ""\n');
  });

  it('targets: [] is not nil: nothing happens (every tag)', async () => {
    for (const tag of TAGS) {
      const r = await runBuiltin(
        `${IMG}:${tag}`,
        ITEMS,
        `apiVersion: fn.kpt.dev/v1alpha1\nkind: ApplyReplacements\nmetadata:\n  name: r\nreplacements:\n- source: ${WORD}\n  targets: []\n`,
      );
      expect(r.exitCode, tag).toBe(0);
    }
  });
});

describe('apply-replacements config: v0.1.0 has no empty-config check', () => {
  it('absent config: a recovered nil dereference in v0.1.0, "missing" from v0.1.1', async () => {
    const old = await runBuiltin(`${IMG}:v0.1.0`, ITEMS);
    expect(old.exitCode).toBe(1);
    expect(old.results.map((x) => x.message)).toEqual([
      'runtime error: invalid memory address or nil pointer dereference',
    ]);
    for (const tag of TAGS) {
      const r = await runBuiltin(`${IMG}:${tag}`, ITEMS);
      expect(
        r.results.map((x) => x.message),
        tag,
      ).toEqual(['FunctionConfig is missing. Expect `ApplyReplacements`']);
    }
  });

  it('a config without kind is not empty: the kind message at every tag', async () => {
    for (const tag of ['v0.1.0', ...TAGS]) {
      const r = await runBuiltin(`${IMG}:${tag}`, ITEMS, 'metadata:\n  name: r\n');
      expect(
        r.results.map((x) => x.message),
        tag,
      ).toEqual([
        'received functionConfig of kind  and apiVersion , only functionConfig of kind ApplyReplacements and apiVersion fn.kpt.dev/v1alpha1 is supported',
      ]);
    }
  });
});
