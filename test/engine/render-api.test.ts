// The engine API on an in-memory filesystem with in-process (objects) functions: ordering,
// atomic failure, validators on copies, deadlines, toBytesRunner, eval from text, -o DIR and
// hostile inputs. The functions below are real objects runners, not mocks of the engine.
import { describe, expect, test } from 'vitest';
import {
  MemoryFs,
  NotFoundError,
  createEngine,
  toBytesRunner,
  type EngineEvent,
  type FunctionRuntime,
  type ObjectsRunner,
} from 'krmfn';

type Fn = ObjectsRunner['run'];

/** A runtime serving in-test functions by image name. */
function runtimeOf(fns: Record<string, Fn>, asBytes = false): FunctionRuntime {
  return {
    name: 'test',
    async resolve(spec) {
      const fn = spec.image ? fns[spec.image] : undefined;
      if (!fn) throw new NotFoundError(spec.image ?? spec.exec ?? '');
      const runner: ObjectsRunner = { kind: 'objects', run: fn };
      return asBytes ? toBytesRunner(runner) : runner;
    },
  };
}

const label: Fn = async (list) => {
  for (const o of list.items) if (o.kind !== 'Kptfile') o.setLabel('team', 'a');
  list.results.push({ message: `labelled ${list.items.length}`, severity: 'info' });
  return { output: list, stderr: '', exitCode: 0 };
};
const fail: Fn = async (list) => ({ output: list, stderr: 'no way\n', exitCode: 2 });
const meddle: Fn = async (list) => {
  for (const o of list.items) o.setAnnotation('validator', 'was-here');
  return { output: list, stderr: '', exitCode: 0 };
};
const hang: Fn = () => new Promise(() => undefined);

const KPTFILE = (mutators: string[], validators: string[] = []): string =>
  `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: app\npipeline:\n  mutators:\n${mutators.map((m) => `  - image: ${m}\n`).join('')}` +
  (validators.length ? `  validators:\n${validators.map((m) => `  - image: ${m}\n`).join('')}` : '');

const CM = '# keep me\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c # inline\ndata:\n  a: "1"\n';

function pkg(kptfile: string, extra: Record<string, string> = {}): MemoryFs {
  return new MemoryFs({ '/w/app/Kptfile': kptfile, '/w/app/cm.yaml': CM, ...extra });
}

const engineWith = (fns: Record<string, Fn>, asBytes = false) =>
  createEngine({ runtimes: [runtimeOf(fns, asBytes)], kptVersion: '1.0.0-beta.56' });

describe('render with objects runners', () => {
  test('edits keep comments; events and results in order', async () => {
    const fs = pkg(KPTFILE(['ex.com/label']));
    const events: EngineEvent[] = [];
    const out = await engineWith({ 'ex.com/label': label }).render({
      fs,
      root: '/w/app',
      onEvent: (e) => events.push(e),
      resultsDir: '/w/results',
    });
    expect(out.failure).toBeUndefined();
    expect(fs.snapshot('/w/app')['/w/app/cm.yaml']).toBe(
      '# keep me\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c # inline\n  labels:\n    team: a\ndata:\n  a: "1"\n',
    );
    expect(events.map((e) => e.type)).toEqual(['package-start', 'function-start', 'function-end', 'package-end']);
    expect(out.results.items).toEqual([
      { image: 'ex.com/label', exitCode: 0, results: [{ message: 'labelled 2', severity: 'info' }] },
    ]);
    expect(out.written).toEqual(['/w/app/cm.yaml']);
    expect(fs.snapshot('/w/results')['/w/results/results.yaml']).toContain('message: labelled 2');
  });

  test('changes: each changed file before and after, also read after the write and in JSON', async () => {
    const fs = pkg(KPTFILE(['ex.com/label']), {
      '/w/app/gone.yaml': 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n',
    });
    const drop: Fn = async (list, context) => {
      list.items = list.items.filter((o) => o.kind !== 'Secret');
      return label(list, context);
    };
    const out = await engineWith({ 'ex.com/label': drop }).render({ fs, root: '/w/app' });
    expect(out.ok).toBe(true);
    const expected = [
      { path: '/w/app/cm.yaml', before: CM, after: fs.snapshot('/w/app')['/w/app/cm.yaml'] },
      { path: '/w/app/gone.yaml', before: 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n', after: undefined },
    ];
    expect(expected[0].after).toContain('team: a');
    expect(out.changes).toEqual(expected);
    expect(JSON.parse(JSON.stringify(out)).changes).toEqual([
      expected[0],
      { path: '/w/app/gone.yaml', before: expected[1].before },
    ]);
    out.changes = [];
    expect(out.changes).toEqual([]);
  });

  test('the same through toBytesRunner (serialize, parse, restore) gives the same bytes', async () => {
    const a = pkg(KPTFILE(['ex.com/label']));
    const b = pkg(KPTFILE(['ex.com/label']));
    await engineWith({ 'ex.com/label': label }).render({ fs: a, root: '/w/app' });
    await engineWith({ 'ex.com/label': label }, true).render({ fs: b, root: '/w/app' });
    expect(b.snapshot()['/w/app/cm.yaml']).toContain('team: a');
    expect(b.snapshot()['/w/app/cm.yaml']).toBe(a.snapshot()['/w/app/cm.yaml']);
  });

  test('a failing function leaves every file untouched; results still written', async () => {
    const fs = pkg(KPTFILE(['ex.com/label', 'ex.com/fail']));
    const before = fs.snapshot('/w/app');
    const out = await engineWith({ 'ex.com/label': label, 'ex.com/fail': fail }).render({
      fs,
      root: '/w/app',
      resultsDir: '/w/r',
    });
    expect(out.ok).toBe(false);
    expect(out.failure?.style).toBe('none');
    expect(fs.snapshot('/w/app')).toEqual(before);
    expect(out.results.exitCode).toBe(1);
    expect(out.results.items.map((i) => i.exitCode)).toEqual([0, 2]);
    expect(fs.snapshot('/w/r')['/w/r/results.yaml']).toContain('stderr: |\n      no way\n');
  });

  test('validators run on copies: their edits are discarded', async () => {
    const fs = pkg(KPTFILE([], ['ex.com/meddle']));
    const before = fs.snapshot('/w/app');
    const out = await engineWith({ 'ex.com/meddle': meddle }).render({ fs, root: '/w/app' });
    expect(out.ok).toBe(true);
    expect(out.functionsRun).toBe(1);
    expect(fs.snapshot('/w/app')).toEqual(before);
  });

  test('a function past its deadline fails with a timeout and writes nothing', async () => {
    const fs = pkg(KPTFILE(['ex.com/label', 'ex.com/hang']));
    const before = fs.snapshot('/w/app');
    const out = await engineWith({ 'ex.com/label': label, 'ex.com/hang': hang }).render({
      fs,
      root: '/w/app',
      limits: { timeoutMs: 50 },
    });
    expect(out.failure?.error.code).toBe('timeout');
    expect(out.failure?.error.message).toMatch(/"ex.com\/hang" did not finish within 50ms/);
    expect(fs.snapshot('/w/app')).toEqual(before);
  });

  test('-o DIR writes the layout into a new directory and refuses an existing one', async () => {
    const fs = pkg(KPTFILE(['ex.com/label']), {
      '/w/app/sub/Kptfile': 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: sub\n',
    });
    const e = engineWith({ 'ex.com/label': label });
    const before = fs.snapshot('/w/app');
    const out = await e.render({ fs, root: '/w/app', output: { kind: 'dir', dir: '/w/out' } });
    expect(out.ok).toBe(true);
    expect(Object.keys(fs.snapshot('/w/out'))).toEqual(['/w/out/Kptfile', '/w/out/cm.yaml', '/w/out/sub/Kptfile']);
    expect(fs.snapshot('/w/app')).toEqual(before);
    const again = await e.render({ fs, root: '/w/app', output: { kind: 'dir', dir: '/w/out' } });
    expect(again.failure?.error.message).toBe(
      'directory "/w/out" already exists, please delete the directory and retry',
    );
    expect(again.failure?.style).toBe('plain');
  });

  test('a path that is a directory fails before anything is written', async () => {
    const moveToDir: Fn = async (list) => {
      for (const o of list.items)
        if (o.kind === 'ConfigMap') {
          o.setAnnotation('config.kubernetes.io/path', 'sub');
          o.setAnnotation('internal.config.kubernetes.io/path', 'sub');
        }
      return { output: list, stderr: '', exitCode: 0 };
    };
    const fs = pkg(KPTFILE(['ex.com/move']), { '/w/app/sub/x.txt': 'not yaml' });
    const before = fs.snapshot('/w/app');
    const out = await engineWith({ 'ex.com/move': moveToDir }).render({ fs, root: '/w/app' });
    expect(out.failure?.error.message).toBe(
      'failed to save resources: config.kubernetes.io/path cannot be a directory: sub',
    );
    expect(fs.snapshot('/w/app')).toEqual(before);
  });
});

describe('eval through the API', () => {
  test('from text to a ResourceList; the function sees the function-input ConfigMap', async () => {
    let seen: unknown;
    const spy: Fn = async (list) => {
      seen = list.functionConfig?.toJS();
      return label(list, undefined as never);
    };
    const out = await engineWith({ 'ex.com/spy': spy }).eval({
      fs: new MemoryFs(),
      source: { text: CM },
      function: { image: 'ex.com/spy' },
      args: { data: [['k', 'v']] },
    });
    expect(out.ok).toBe(true);
    expect(seen).toEqual({
      metadata: { name: 'function-input' },
      data: { k: 'v' },
      kind: 'ConfigMap',
      apiVersion: 'v1',
    });
    expect(out.stdout).toMatch(/^apiVersion: config.kubernetes.io\/v1\nkind: ResourceList\nitems:\n/);
    expect(out.stdout).toContain('team: a');
  });
});

describe('hostile inputs end in clear errors', () => {
  const render = (files: Record<string, string>, limits = {}) =>
    engineWith({}).render({
      fs: new MemoryFs({ '/p/Kptfile': 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: p\n', ...files }),
      root: '/p',
      limits,
    });

  test('billion laughs', async () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++)
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill('*' + String.fromCharCode(96 + i))
          .join(',')}]`,
      );
    const bomb = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\ndata:\n${lines.map((l) => '  ' + l).join('\n')}\n`;
    const out = await render({ '/p/bomb.yaml': bomb }, { maxAliases: 100 });
    expect(out.ok).toBe(false);
    expect(out.failure?.error.code).toMatch(/alias|limit/);
  });

  test('10,000-deep nesting', async () => {
    const deep = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\ndata: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`;
    const out = await render({ '/p/deep.yaml': deep });
    expect(out.ok).toBe(false);
    expect(out.failure?.error.code).toMatch(/depth|limit/);
    expect(out.failure?.error.message).toMatch(/deep/);
  });

  test('a 50 MB file over the input limit', async () => {
    const big =
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  k: ' + 'x'.repeat(50 * 1024 * 1024) + '\n';
    const out = await render({ '/p/big.yaml': big }, { maxInputBytes: 10 * 1024 * 1024 });
    expect(out.failure?.error.code).toBe('yaml-size-limit');
    expect(out.failure?.error.message).toBe(
      '/p/big.yaml: file is 52428865 bytes, more than the limit of 10485760 bytes',
    );
  });
});
