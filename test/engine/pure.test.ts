// Table-driven tests of the engine's pure pieces: shlex splitting, Kptfile static
// validation texts, image references, selectors, paths, the runtime chain and deadlines.
import { describe, expect, test } from 'vitest';
import {
  KubeObject,
  NotFoundError,
  createRuntimeChain,
  runWithDeadline,
  splitCommandLine,
  isValidImageReference,
  resolveImageName,
} from 'krmfn';
import type { FunctionRuntime } from 'krmfn';
import { validateFunctionStatic, checkKptfileVersion, goQuote } from '../../src/core/kptfile.ts';
import { select } from '../../src/engine/selectors.ts';
import { clean, relative } from '../../src/engine/paths.ts';
import { functionDir, defaultPath, krmProblem } from '../../src/engine/invariants.ts';

describe('splitCommandLine (google/shlex rules)', () => {
  const cases: [string, string[]][] = [
    ["sed -e 's/foo/bar/'", ['sed', '-e', 's/foo/bar/']],
    ['node fns/krm.mjs annotate a "b c"', ['node', 'fns/krm.mjs', 'annotate', 'a', 'b c']],
    ['a\\ b c', ['a b', 'c']],
    ['  spaced   out  ', ['spaced', 'out']],
    ['x "say \\"hi\\""', ['x', 'say "hi"']],
    ["x 'no \\escape'", ['x', 'no \\escape']],
    ['cmd # comment', ['cmd']],
    ['', []],
  ];
  for (const [line, want] of cases) test(JSON.stringify(line), () => expect(splitCommandLine(line)).toEqual(want));
  test('unterminated quote is an error', () =>
    expect(() => splitCommandLine("a 'b")).toThrow(/unterminated single quote/));
});

describe('Kptfile static validation (kpt texts)', () => {
  const cases: [Record<string, unknown>, string | undefined][] = [
    [{ image: 'gcr.io/kpt-fn/set-namespace:v0.4.1' }, undefined],
    [
      {},
      'Kptfile is invalid:\nField: `pipeline.mutators[0]`\nReason: must specify a functon (`image` or `exec`) to execute\n',
    ],
    [
      { image: 'a', exec: 'b' },
      'Kptfile is invalid:\nField: `pipeline.mutators[0]`\nReason: must not specify both `image` and `exec` at the same time\n',
    ],
    [
      { image: 'gcr.io/kpt-fn/Bad:v1' },
      'Kptfile is invalid:\nField: `pipeline.mutators[0].image`\nValue: "gcr.io/kpt-fn/Bad:v1"\nReason: function name "gcr.io/kpt-fn/Bad:v1" is invalid\n',
    ],
    [
      { exec: 'x', configMap: { a: 'b' }, configPath: 'c.yaml' },
      'Kptfile is invalid:\nField: `pipeline.mutators[0]`\nReason: functionConfig must not specify both `configMap` and `configPath` at the same time\n',
    ],
    [
      { exec: 'x', configPath: ' ' },
      'Kptfile is invalid:\nField: `pipeline.mutators[0].configPath`\nValue: " "\nReason: path must not be empty\n',
    ],
    [
      { exec: 'x', configPath: '/etc/x.yaml' },
      'Kptfile is invalid:\nField: `pipeline.mutators[0].configPath`\nValue: "/etc/x.yaml"\nReason: path must be relative\n',
    ],
    [
      { exec: 'x', configPath: 'a/../../x.yaml' },
      'Kptfile is invalid:\nField: `pipeline.mutators[0].configPath`\nValue: "a/../../x.yaml"\nReason: path must not be outside the package\n',
    ],
  ];
  for (const [fn, want] of cases)
    test(JSON.stringify(fn), () => expect(validateFunctionStatic(fn, 'pipeline.mutators[0]')).toBe(want));

  test('version messages', () => {
    expect(checkKptfileVersion('kpt.dev/v1', 'Kptfile', '/p')).toBeUndefined();
    expect(checkKptfileVersion('kpt.dev/v1alpha1', 'Kptfile', '/p')).toBe(
      'Kptfile at "/p" has an old version ("v1alpha1") of the Kptfile schema.\nPlease update the package to the latest format by following https://kpt.dev/installation/migration.',
    );
    expect(checkKptfileVersion('example.com/v9', 'Kptfile', '/p')).toBe(
      'Kptfile at "/p" has an unknown resource type ("example.com/v9, Kind=Kptfile").',
    );
    expect(checkKptfileVersion('v1', 'ConfigMap', '/p')).toBe(
      'Kptfile at "/p" has an unknown resource type ("/v1, Kind=ConfigMap").',
    );
  });
});

describe('image references', () => {
  const valid = [
    'gcr.io/kpt-fn/set-namespace:v0.4.1',
    'set-labels',
    'localhost:5000/a/b:latest',
    'ghcr.io/x/y@sha256:' + 'a'.repeat(64),
  ];
  const invalid = ['upper/Case', 'a::b', 'gcr.io/kpt-fn/x:', ' spaced'];
  for (const v of valid) test(`valid ${v}`, () => expect(isValidImageReference(v)).toBe(true));
  for (const v of invalid) test(`invalid ${v}`, () => expect(isValidImageReference(v)).toBe(false));
  test('short names get the beta.56 prefix only', () => {
    expect(resolveImageName('set-namespace:v0.4')).toBe('gcr.io/kpt-fn/set-namespace:v0.4');
    expect(resolveImageName('example.com/x')).toBe('example.com/x');
  });
});

describe('goQuote', () => {
  const cases: [string, string][] = [
    ['plain', '"plain"'],
    ['a "q"\\', '"a \\"q\\"\\\\"'],
    ['tab\tnl\n', '"tab\\tnl\\n"'],
    ['\u0001', '"\\x01"'],
    ['héllo ✓', '"héllo ✓"'],
  ];
  for (const [s, want] of cases) test(JSON.stringify(s), () => expect(goQuote(s)).toBe(want));
});

describe('selectors', () => {
  const objs = [
    KubeObject.fromJS({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a', namespace: 'x', labels: { app: 'web' } },
    }),
    KubeObject.fromJS({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'a', annotations: { team: 'core' } },
    }),
    KubeObject.fromJS({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'b' } }),
  ];
  const names = (l: KubeObject[]): string[] => l.map((o) => `${o.kind}/${o.name}`);
  test('no selectors selects all', () => expect(select(objs)).toHaveLength(3));
  test('any-of selectors', () =>
    expect(names(select(objs, [{ kind: 'Service' }, { namespace: 'x' }]))).toEqual(['ConfigMap/a', 'Service/b']));
  test('fields within a selector are all-of', () =>
    expect(names(select(objs, [{ kind: 'ConfigMap', name: 'b' }]))).toEqual([]));
  test('labels and annotations are subset matches', () => {
    expect(names(select(objs, [{ labels: { app: 'web' } }]))).toEqual(['ConfigMap/a']);
    expect(names(select(objs, [{ annotations: { team: 'core' } }]))).toEqual(['Deployment/a']);
  });
  test('exclusions drop matches; empty exclusions are ignored', () => {
    expect(names(select(objs, [], [{ name: 'a' }]))).toEqual(['Service/b']);
    expect(select(objs, [], [{}])).toHaveLength(3);
  });
  test('an item matching two selectors is selected twice (kpt quirk)', () => {
    expect(names(select(objs, [{ name: 'b' }, { kind: 'Service' }]))).toEqual(['Service/b', 'Service/b']);
  });
});

describe('paths, default paths, KRM check', () => {
  test('clean and relative', () => {
    expect(clean('a/./b/../c//d')).toBe('a/c/d');
    expect(clean('a/../../x.yaml')).toBe('../x.yaml');
    expect(relative('/r/app', '/r/app/sub/x')).toBe('sub/x');
    expect(relative('/r', '/r')).toBe('.');
  });
  test('functionDir lifts functions/', () => {
    expect(functionDir(undefined)).toBe('');
    expect(functionDir('conf.yaml')).toBe('');
    expect(functionDir('fns/conf.yaml')).toBe('fns');
    expect(functionDir('functions/conf.yaml')).toBe('');
    expect(functionDir('a/functions/conf.yaml')).toBe('a');
  });
  test('defaultPath', () => {
    expect(defaultPath(KubeObject.fromJS({ kind: 'ConfigMap', metadata: { name: 'gen' } }), '')).toBe(
      'configmap_gen.yaml',
    );
    expect(
      defaultPath(KubeObject.fromJS({ kind: 'ConfigMap', metadata: { name: 'gen', namespace: 'team-a' } }), 'fns'),
    ).toBe('fns/team-a/configmap_gen.yaml');
    expect(defaultPath(KubeObject.fromJS({}), '')).toBe('_.yaml');
  });
  test('krmProblem messages', () => {
    expect(krmProblem(KubeObject.fromJS({ kind: 'X', metadata: { name: 'a' } }))).toBe(
      'resource must have `apiVersion`',
    );
    expect(krmProblem(KubeObject.fromJS({ apiVersion: 'v1', metadata: { name: 'a' } }))).toBe(
      'resource must have `kind`',
    );
    expect(krmProblem(KubeObject.fromJS({ apiVersion: 'v1', kind: 'X' }))).toBe('resource must have `metadata.name`');
    expect(krmProblem(KubeObject.fromJS({ data: 1 }))).toBe('resource must have `apiVersion`, `kind`, and `name`');
    expect(krmProblem(KubeObject.fromJS({ kind: 'Kustomization' }))).toBeUndefined();
  });
});

describe('runtime chain', () => {
  const rt = (name: string, behaviour: 'found' | 'missing' | 'broken'): FunctionRuntime => ({
    name,
    async resolve(spec) {
      if (behaviour === 'missing') throw new NotFoundError(spec.image ?? '');
      if (behaviour === 'broken') throw new Error(`${name} broke`);
      return { kind: 'bytes', run: async () => ({ stdout: new TextEncoder().encode(name), stderr: '', exitCode: 0 }) };
    },
  });
  const ctx = {
    displayName: 'img',
    packagePath: '/',
    cwd: '/',
    allowExec: false,
    allowWasm: false,
    allowNetwork: false,
    limits: {} as never,
  };
  test('falls through on not-found only', async () => {
    const r = await createRuntimeChain([rt('a', 'missing'), rt('b', 'found')]).resolve({ image: 'img' }, ctx);
    expect(r.kind).toBe('bytes');
    await expect(
      createRuntimeChain([rt('a', 'broken'), rt('b', 'found')]).resolve({ image: 'img' }, ctx),
    ).rejects.toThrow('a broke');
  });
  test('nobody takes it: a clear not-found error naming the image and the runtimes', async () => {
    await expect(createRuntimeChain([rt('a', 'missing')]).resolve({ image: 'img' }, ctx)).rejects.toMatchObject({
      code: 'function-not-found',
      message: expect.stringMatching(/"img" is not built into krmfn.*tried: a/),
    });
  });
});

describe('deadlines', () => {
  test('a runner that ignores the signal is abandoned at the deadline', async () => {
    const never = new Promise<never>(() => undefined);
    await expect(runWithDeadline('slow', 30, undefined, () => never)).rejects.toMatchObject({ code: 'timeout' });
  });
  test('the runner sees the signal abort', async () => {
    let aborted = false;
    await runWithDeadline(
      'slow',
      20,
      undefined,
      (signal) =>
        new Promise((_, rej) =>
          signal.addEventListener('abort', () => {
            aborted = true;
            rej(signal.reason as Error);
          }),
        ),
    ).catch(() => undefined);
    expect(aborted).toBe(true);
  });
  test('fast runners resolve', async () =>
    expect(await runWithDeadline('fast', 1000, undefined, async () => 42)).toBe(42));
});
