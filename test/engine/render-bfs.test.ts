// kpt 1.0.0-beta.67's top-down hydration (`kpt.dev/bfs-rendering: "true"` on the root Kptfile),
// expected behaviour read from kptdev/kpt pkg/lib/kptops/render_executor.go at v1.0.0-beta.67
// (`hydrateBfsOrder` and the functions it calls; no beta.67 binary runs here): packages run
// breadth-first, each on itself plus its descendants (pre-order), a parent's edits reach its
// subpackages' inputs and files, a subpackage never sees its parent or siblings. Without the
// annotation, or at beta.56, rendering stays depth-first.
import { describe, expect, test } from 'vitest';
import { MemoryFs, NotFoundError, createEngine, type FunctionRuntime, type RunOutcome } from 'krmfn';

const KPTFILE = (name: string, annotations = ''): string =>
  `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\n${annotations}pipeline:\n  mutators:\n  - image: ex.com/record\n`;
const BFS = '  annotations:\n    kpt.dev/bfs-rendering: "True"\n';
const CM = (name: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;

function tree(rootAnnotations: string): Record<string, string> {
  return {
    '/w/app/Kptfile': KPTFILE('app', rootAnnotations),
    '/w/app/cm.yaml': CM('root'),
    '/w/app/b/Kptfile': KPTFILE('b'),
    '/w/app/b/cm.yaml': CM('b'),
    '/w/app/a/Kptfile': KPTFILE('a'),
    '/w/app/a/cm.yaml': CM('a'),
    '/w/app/a/x/Kptfile': KPTFILE('x'),
    '/w/app/a/x/cm.yaml': CM('x'),
  };
}

interface Run {
  outcome: RunOutcome;
  /** Per pipeline run, in order: the ConfigMaps it saw (Kptfiles are items too), with their `call` label. */
  seen: string[];
  files: Record<string, string>;
}

/** `ex.com/record` notes what it sees, then labels every item with the call's number. */
async function render(
  files: Record<string, string>,
  kptVersion?: '1.0.0-beta.56' | '1.0.0-beta.67',
  cwd?: string,
): Promise<Run> {
  const seen: string[] = [];
  const runtime: FunctionRuntime = {
    name: 'test',
    async resolve(spec) {
      if (spec.image?.replace(/:latest$/, '') === 'ex.com/fail')
        return { kind: 'objects', run: async (list) => ({ output: list, stderr: 'no\n', exitCode: 1 }) };
      if (spec.image?.replace(/:latest$/, '') !== 'ex.com/record') throw new NotFoundError(spec.image ?? '');
      return {
        kind: 'objects',
        async run(list) {
          const call = seen.length + 1;
          const configMaps = list.items.filter((o) => o.kind === 'ConfigMap');
          seen.push(configMaps.map((o) => `${o.name}${o.getLabel('call') ? `@${o.getLabel('call')}` : ''}`).join(' '));
          for (const o of list.items) o.setLabel('call', String(call));
          return { output: list, stderr: '', exitCode: 0 };
        },
      };
    },
  };
  const fs = new MemoryFs(files);
  const outcome = await createEngine({ runtimes: [runtime] }).render({
    fs,
    root: '/w/app',
    ...(kptVersion ? { kptVersion } : {}),
    ...(cwd ? { cwd } : {}),
  });
  return { outcome, seen, files: { ...fs.snapshot('/w') } };
}

describe('render with kpt.dev/bfs-rendering (1.0.0-beta.67)', () => {
  test('top-down: each package sees itself and its descendants, after its parents edited them', async () => {
    const r = await render(tree(BFS), '1.0.0-beta.67');
    expect(r.outcome.failure?.error.message).toBeUndefined();
    expect(r.seen).toEqual(['root a x b', 'a@1 x@1', 'b@1', 'x@2']);
    expect(r.files['/w/app/cm.yaml']).toContain('call: "1"');
    expect(r.files['/w/app/a/cm.yaml']).toContain('call: "2"');
    expect(r.files['/w/app/b/cm.yaml']).toContain('call: "3"');
    expect(r.files['/w/app/a/x/cm.yaml']).toContain('call: "4"');
  });

  test('without the annotation, and at 1.0.0-beta.56 with it, rendering stays depth-first', async () => {
    const dfs67 = await render(tree(''), '1.0.0-beta.67');
    expect(dfs67.seen).toEqual(['x', 'a x@1', 'b', 'root a@2 x@2 b@3']);
    const dfs56 = await render(tree(BFS), '1.0.0-beta.56');
    expect(dfs56.seen).toEqual(['x', 'x@1 a', 'b', 'x@2 a@2 b@3 root']);
  });

  test("a failing subpackage's error is wrapped with the root package in the Kptfile condition", async () => {
    const files = {
      ...tree(BFS),
      '/w/app/b/Kptfile': tree(BFS)['/w/app/b/Kptfile'].replace('ex.com/record', 'ex.com/fail'),
    };
    const bfs = await render(files, '1.0.0-beta.67', '/w');
    expect(bfs.outcome.ok).toBe(false);
    expect(bfs.files['/w/app/Kptfile']).toContain(
      '      message: |-\n        pkg.render: pkg app:\n        \tpipeline.run: pkg app/b: already handled error\n',
    );
    const dfs = await render({ ...files, '/w/app/Kptfile': KPTFILE('app') }, '1.0.0-beta.67', '/w');
    expect(dfs.files['/w/app/Kptfile']).toContain(
      '      message: |-\n        pkg.render: pkg app/b:\n        \tpipeline.run: already handled error\n',
    );
  });
});
