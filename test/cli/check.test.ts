/**
 * `krmfn check` (src/node/commands/check.ts, sdk/config-hints.ts): config hints for built-in
 * functions, from each built-in's declared config kinds and schema, printed by their own command
 * while `krmfn render` of the same package prints none and runs the functions as kpt would.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILTINS } from '../../builtins/index.ts';
import { configHints } from '../../sdk/config-hints.ts';
import { KubeObject } from '../../src/core/kube-object.ts';
import { main } from '../../src/node/cli.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function pkg(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'krmfn-check-'));
  dirs.push(dir);
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  return dir;
}

async function krmfn(argv: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  const o: Buffer[] = [];
  const e: Buffer[] = [];
  out.on('data', (c: Buffer) => o.push(c));
  err.on('data', (c: Buffer) => e.push(c));
  const code = await main({ argv, stdin: Readable.from([]), stdout: out, stderr: err, env: {}, cwd });
  return { code, stdout: Buffer.concat(o).toString(), stderr: Buffer.concat(e).toString() };
}

const kptfile = (name: string, mutators: string): string =>
  `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\npipeline:\n  mutators:\n${mutators}`;
const LOCAL = '  annotations:\n    config.kubernetes.io/local-config: "true"\n';
const DEPLOY = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n';

describe('krmfn check', () => {
  it('names unknown keys, wrong types and wrong kinds of built-in configs, in subpackages too', async () => {
    const dir = pkg({
      Kptfile: kptfile('app', '    - image: set-labels:v0.2.0\n      configPath: labels.yaml\n'),
      'labels.yaml': `apiVersion: fn.kpt.dev/v1alpha1\nkind: SetLabels\nmetadata:\n  name: l\n${LOCAL}labelvalue: x\nlables:\n  team: a\nlabels:\n  tier: 3\n`,
      'deploy.yaml': DEPLOY,
      'db/Kptfile': kptfile('db', '    - image: gcr.io/kpt-fn/set-namespace:v0.4.1\n      configPath: ns.yaml\n'),
      'db/ns.yaml': `apiVersion: fn.kpt.dev/v1alpha1\nkind: SetNamespce\nmetadata:\n  name: n\n${LOCAL}namespace: db\n`,
    });
    const r = await krmfn(['check'], dir);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      [
        'Kptfile: pipeline.mutators[0] (set-labels:v0.2.0): labels.yaml: set-labels does not read labelvalue; it reads labels, additionalLabelFields',
        'Kptfile: pipeline.mutators[0] (set-labels:v0.2.0): labels.yaml: set-labels does not read lables; did you mean "labels"?',
        'Kptfile: pipeline.mutators[0] (set-labels:v0.2.0): labels.yaml: labels.tier: must be string',
        'db/Kptfile: pipeline.mutators[0] (gcr.io/kpt-fn/set-namespace:v0.4.1): ns.yaml: set-namespace does not accept kind "SetNamespce" (it accepts ConfigMap, SetNamespace, SetNamespaceConfig); did you mean "SetNamespace"?',
        '4 problem(s) in 2 built-in function config(s)',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(1);
  });

  it('leaves render as kpt has it: the function ignores the key it does not read, and no hint is printed', async () => {
    const dir = pkg({
      Kptfile: kptfile('app', '    - image: set-labels:v0.2.0\n      configPath: labels.yaml\n'),
      'labels.yaml': `apiVersion: fn.kpt.dev/v1alpha1\nkind: SetLabels\nmetadata:\n  name: l\n${LOCAL}lables:\n  team: a\nlabels:\n  tier: web\n`,
      'deploy.yaml': DEPLOY,
    });
    const r = await krmfn(['render', '--kpt-version', '1.0.0-beta.56'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/lables|does not read|did you mean/);
    expect(r.stderr).toContain('[PASS] "gcr.io/kpt-fn/set-labels:v0.2.0"');
  });

  it("passes configs it can read, ConfigMaps (read by each function's own rules) and non-built-ins", async () => {
    const dir = pkg({
      Kptfile: kptfile(
        'app',
        '    - image: set-labels:v0.2.0\n      configPath: labels.yaml\n    - image: set-annotations:v0.1.4\n      configMap:\n        labelvalue: x\n    - image: example.com/acme/fn:v1\n      configPath: labels.yaml\n',
      ),
      'labels.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: l\n${LOCAL}data:\n  labelvalue: x\n`,
    });
    const r = await krmfn(['check'], dir);
    expect(r.stdout).toBe('checked 2 built-in function config(s): no problems\n');
    expect(r.code).toBe(0);
  });

  it('checks an inline configMap against the kinds the function accepts', async () => {
    const dir = pkg({
      Kptfile: kptfile('app', '    - image: apply-replacements:v0.1.1\n      configMap:\n        source: x\n'),
    });
    const r = await krmfn(['check'], dir);
    expect(r.stdout).toBe(
      'Kptfile: pipeline.mutators[0] (apply-replacements:v0.1.1): configMap: apply-replacements does not accept kind "ConfigMap" (it accepts ApplyReplacements)\n' +
        '1 problem(s) in 1 built-in function config(s)\n',
    );
    expect(r.code).toBe(1);
  });

  it('checks the one config eval would pass with --image and --fn-config, walking no package', async () => {
    const dir = pkg({
      'labels.yaml': 'apiVersion: fn.kpt.dev/v1alpha1\nkind: SetLabels\nmetadata:\n  name: l\nlables:\n  team: a\n',
    });
    const r = await krmfn(['check', '-i', 'set-labels:v0.2.0', '--fn-config', 'labels.yaml'], dir);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      'labels.yaml: (set-labels:v0.2.0): set-labels does not read lables; did you mean "labels"?\n' +
        '1 problem(s) in 1 built-in function config(s)\n',
    );
    expect(r.code).toBe(1);
    const alone = await krmfn(['check', '--fn-config', 'labels.yaml'], dir);
    expect(alone.stderr).toMatch(/^error: --image and --fn-config go together/);
    expect(alone.code).toBe(1);
    const missing = await krmfn(['check', '-i', 'set-labels:v0.2.0', '--fn-config', 'nope.yaml'], dir);
    expect(missing.stderr).toBe(`error: missing function config file: ${join(dir, 'nope.yaml')}\n`);
    expect(missing.code).toBe(1);
  });

  it('prints the problems as JSON with --json', async () => {
    const dir = pkg({
      Kptfile: kptfile('app', '    - image: set-labels:v0.2.0\n      configPath: labels.yaml\n'),
      'labels.yaml': `apiVersion: fn.kpt.dev/v1alpha1\nkind: SetLabels\nmetadata:\n  name: l\n${LOCAL}labels:\n  tier: 3\n`,
    });
    const r = await krmfn(['check', '--json'], dir);
    expect(JSON.parse(r.stdout)).toEqual({
      configs: 1,
      problems: [
        {
          kptfile: 'Kptfile',
          field: 'pipeline.mutators[0]',
          image: 'set-labels:v0.2.0',
          config: 'labels.yaml',
          path: 'labels.tier',
          message: 'labels.tier: must be string',
        },
      ],
    });
    expect(r.code).toBe(1);
  });

  it("reports a Kptfile it cannot read with kpt's message, exit 1", async () => {
    const dir = pkg({ 'x.yaml': DEPLOY });
    const r = await krmfn(['check'], dir);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`error: No Kptfile found at ${JSON.stringify(dir)}.\n`);
    expect(r.code).toBe(1);
  });
});

describe('configHints from every built-in schema', () => {
  const typed = BUILTINS.filter((b) => b.configKinds.some((k) => k !== 'ConfigMap' && k !== '*'));

  it('covers the built-ins that take a typed config', () => {
    expect(typed.map((b) => b.name)).toEqual(expect.arrayContaining(['set-labels', 'set-namespace', 'set-image']));
  });

  for (const b of typed) {
    const kind = b.configKinds.find((k) => k !== 'ConfigMap')!;
    const props = Object.keys(
      (typeof b.schema === 'object' ? (b.schema['properties'] as Record<string, unknown>) : undefined) ?? {},
    ).filter((p) => p.length >= 4);
    for (const p of props) {
      // Two adjacent letters swapped in the middle: a typo every declared key must be found from.
      const i = Math.floor(p.length / 2) - 1;
      const typo = p.slice(0, i) + p[i + 1] + p[i] + p.slice(i + 2);
      it(`${b.name}: ${kind}.${typo} → ${p}`, () => {
        const config = KubeObject.fromJS({
          apiVersion: 'fn.kpt.dev/v1alpha1',
          kind,
          metadata: { name: 'c' },
          [typo]: 'x',
        });
        const hints = configHints(b, config);
        expect(hints[0]).toEqual({ field: typo, message: `${b.name} does not read ${typo}; did you mean "${p}"?` });
      });
    }
  }
});
