// Change tracking (docs/architecture.md, "One function call"): what KubeObject.takeEdits reports
// for each kind of edit, what normalizeAfterFunction answers about a tree, and that skipping the
// normalisation of items a function left in normal form changes no byte: every pipeline below is
// rendered once with objects runners (where the engine skips) and once through toBytesRunner,
// which serialises every item and parses it back at every call (the round trip itself, nothing
// skipped), and the written files must be identical.
import { describe, expect, test } from 'vitest';
import {
  EDITS,
  KubeObject,
  MemoryFs,
  NotFoundError,
  createEngine,
  toBytesRunner,
  type FunctionRuntime,
  type ObjectsRunner,
} from 'krmfn';
import { newNode } from 'krmfn/sdk';
import { normalizeAfterFunction, parseYamlFile } from '../../src/core/yaml/index.ts';

const object = (text: string): KubeObject => new KubeObject(parseYamlFile(text).docs[0]);
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: "1"\n';

/** The object after `takeEdits` was called once (a fresh object reports unknown edits). */
function counted(): KubeObject {
  const o = object(CM);
  o.takeEdits();
  return o;
}

describe('KubeObject.takeEdits', () => {
  test('a new object reports unknown edits; taking them starts again from none', () => {
    const o = object(CM);
    expect(o.takeEdits()).toBe(EDITS.unknown);
    expect(o.takeEdits()).toBe(EDITS.none);
  });

  test('reads that hand out no node are not edits', () => {
    const o = counted();
    void [o.kind, o.name, o.namespace, o.isLocalConfig, o.getString(['data', 'a']), o.toJS(), o.labels()];
    expect(o.readNode(['data'])?.kind).toBe('mapping');
    expect(o.takeEdits()).toBe(EDITS.none);
  });

  test('handing out a node is an unknown edit', () => {
    for (const hand of [(o: KubeObject) => o.root, (o: KubeObject) => o.doc, (o: KubeObject) => o.getNode('data')]) {
      const o = counted();
      hand(o);
      expect(o.takeEdits()).toBe(EDITS.unknown);
    }
  });

  test('plain values under ordinary keys are value edits', () => {
    const o = counted();
    o.set(['data', 'a'], '2');
    o.setLabel('tier', 'web');
    o.set(['spec', 'replicas'], 3);
    o.set(['data', 'empty'], newNode('mapping', { tag: '!!map' }));
    expect(o.takeEdits()).toBe(EDITS.values);
  });

  test('value edits of annotations and identity fields say so', () => {
    const cases: [(o: KubeObject) => void, number][] = [
      [
        (o) => o.set(['metadata', 'annotations', 'x'], newNode('scalar', { value: 'y', tag: '!!str' })),
        EDITS.annotations,
      ],
      [(o) => o.setAnnotation('x', 'y'), EDITS.annotations],
      [(o) => o.set(['metadata', 'name'], 'd'), EDITS.identity],
      [(o) => o.set(['kind'], 'Secret'), EDITS.identity],
      [(o) => o.set(['apiVersion', 'nested'], 'x'), EDITS.identity],
      [(o) => o.set(['metadata', 'annotations'], null), EDITS.annotations],
      [(o) => o.set(['metadata', 'namespace'], 'ns'), 0],
    ];
    for (const [edit, bits] of cases) {
      const o = counted();
      edit(o);
      expect(o.takeEdits()).toBe(EDITS.values | bits);
    }
  });

  test('edits that can need a round trip are unknown', () => {
    const edits: ((o: KubeObject) => void)[] = [
      (o) => o.setAnnotation(`example.com/${'k'.repeat(40)}`, 'v'),
      (o) => o.set(['data', 'multi\nline'], 'v'),
      (o) => o.set(['data', 'a'], newNode('scalar', { value: 'x', tag: '!!str', style: 'folded' })),
      (o) => o.set(['data', 'a'], newNode('scalar', { value: 'x', tag: '!!str', headComment: '# h' })),
      (o) => o.set(['data'], { b: '2' }),
      (o) => o.set(['data'], 'flat'),
      (o) => o.delete(['data', 'a']),
      (o) => o.setComment(['data', 'a'], { line: 'note' }),
      (o) => o.editTree(() => undefined),
    ];
    for (const edit of edits) {
      const o = counted();
      edit(o);
      expect(o.takeEdits()).toBe(EDITS.unknown);
    }
  });

  test('a set through an alias is unknown (the anchored node is elsewhere in the tree)', () => {
    const o = object('a: &x\n  b: 1\nc: *x\n');
    o.takeEdits();
    o.set(['c', 'b'], 2);
    expect(o.takeEdits()).toBe(EDITS.unknown);
  });

  test('a later value edit does not hide an earlier unknown one', () => {
    const o = counted();
    o.getNode('data');
    o.set(['data', 'a'], '2');
    expect(o.takeEdits()).toBe(EDITS.unknown);
  });
});

describe('normalizeAfterFunction answers whether the tree had nothing to rewrite', () => {
  const clean = (text: string): boolean => normalizeAfterFunction(parseYamlFile(text).docs[0]);
  test('plain resources, line comments and key heads are clean', () => {
    expect(clean('# head\na: 1 # line\n# key head\nb:\n  c: d\n')).toBe(true);
  });
  test('folded scalars, feet, value heads and sequence items with a first-key head are not', () => {
    expect(clean('a: >\n  folded\n')).toBe(false);
    expect(clean('a:\n  b: 1\n  # foot\nc: 2\n')).toBe(false);
    expect(clean('a:\n  # value head\n  b\n')).toBe(false);
    expect(clean('a:\n- # first key head\n  b: 1\n')).toBe(false);
  });
});

type Fn = ObjectsRunner['run'];
const each =
  (edit: (o: KubeObject) => void): Fn =>
  async (list) => {
    for (const o of list.items) if (o.kind !== 'Kptfile') edit(o);
    return { output: list, stderr: '', exitCode: 0 };
  };

const FUNCTIONS: Record<string, Fn> = {
  'ex.com/noop': each(() => undefined),
  'ex.com/values': each((o) => {
    o.setLabel('tier', 'web');
    o.setAnnotation('owner', 'me');
    o.set(['data', 'a'], 'changed');
  }),
  'ex.com/values2': each((o) => o.setLabel('tier', 'db')),
  'ex.com/long-key': each((o) => o.setAnnotation(`example.com/${'long-annotation-key-'.repeat(5)}`, 'v')),
  'ex.com/foot-root': each((o) => o.editTree((root) => void (root.footComment = '# added root foot'))),
  'ex.com/foot-data': each((o) =>
    o.editTree((root) => {
      for (let i = 0; i < root.content.length; i += 2)
        if (root.content[i].value === 'data') root.content[i + 1].footComment = '# added data foot';
    }),
  ),
  'ex.com/foot-key': each((o) =>
    o.editTree((root) => {
      for (let i = 0; i < root.content.length; i += 2)
        if (root.content[i].value === 'data') root.content[i].footComment = '# added key foot';
    }),
  ),
  'ex.com/foot-value': each((o) =>
    o.editTree((root) => {
      for (let i = 0; i < root.content.length; i += 2)
        if (root.content[i].value === 'metadata') {
          const md = root.content[i + 1];
          md.content[md.content.length - 1].footComment = '# added value foot';
        }
    }),
  ),
  'ex.com/fold': each((o) =>
    o.editTree((root) => {
      for (let i = 0; i < root.content.length; i += 2)
        if (root.content[i].value === 'data') {
          const data = root.content[i + 1];
          for (let j = 1; j < data.content.length; j += 2) data.content[j].style = 'folded';
        }
    }),
  ),
};

function runtime(asBytes: boolean): FunctionRuntime {
  return {
    name: 'test',
    async resolve(spec) {
      const fn = spec.image ? FUNCTIONS[spec.image] : undefined;
      if (!fn) throw new NotFoundError(spec.image ?? '');
      const runner: ObjectsRunner = { kind: 'objects', run: fn };
      return asBytes ? toBytesRunner(runner) : runner;
    },
  };
}

const kptfile = (mutators: string[]): string =>
  `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: app\npipeline:\n  mutators:\n${mutators.map((m) => `  - image: ex.com/${m}\n`).join('')}`;

/** One resource per package: the objects path models a resource as the last item of the list. */
const RESOURCES: Record<string, string> = {
  plain: '# doc head\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c # inline\ndata:\n  a: "1"\n  b: two\n',
  folded: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: >\n    folded\n    text\n  b: x\n',
  'sequence head':
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: "1"\nitems:\n- # first key head\n  name: n\n  value: v\n',
  'doc foot': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: "1"\n# doc foot\n',
};

const PIPELINES = [
  ['noop', 'noop', 'noop'],
  ['values', 'noop', 'values2', 'noop'],
  ['values', 'long-key', 'noop', 'values2'],
  ['values', 'fold', 'noop', 'values2'],
  ['noop', 'values', 'fold', 'values2', 'noop'],
  ['foot-root', 'noop'],
  ['foot-data', 'noop'],
  ['foot-key', 'noop'],
  ['foot-value', 'noop'],
  ['noop', 'foot-root'],
];

async function rendered(resource: string, mutators: string[], asBytes: boolean): Promise<Record<string, string>> {
  const fs = new MemoryFs({ '/w/app/Kptfile': kptfile(mutators), '/w/app/cm.yaml': resource });
  const engine = createEngine({ runtimes: [runtime(asBytes)], kptVersion: '1.0.0-beta.56' });
  const out = await engine.render({ fs, root: '/w/app' });
  expect(out.failure).toBeUndefined();
  return fs.snapshot('/w/app');
}

describe('skipping normalisation changes no byte (objects runners against the round trip of toBytesRunner)', () => {
  for (const [name, resource] of Object.entries(RESOURCES)) {
    for (const mutators of PIPELINES) {
      test(`${name}: ${mutators.join(' → ')}`, async () => {
        const objects = await rendered(resource, mutators, false);
        const bytes = await rendered(resource, mutators, true);
        expect(objects).toEqual(bytes);
      });
    }
  }
});
