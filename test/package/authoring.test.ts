/**
 * A function author's first hour, the real way: krmfn is packed with `npm pack` and installed from
 * that tarball (never from a registry; its own dependencies install as usual), its `krmfn init`
 * scaffolds a project, and the project's `npm install`, `npm test`, `npm run typecheck` and
 * `npm run build` pass; the built function then runs as an `exec:` function under `krmfn render`
 * and, where a `kpt` binary is on PATH, under the real kpt with the same result.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const NPM_ENV = {
  ...process.env,
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

let work = '';
let krmfnBin = '';
let project = '';

function run(cmd: string, args: string[], cwd: string): { code: number; out: string } {
  const r = spawnSync(cmd, args, { cwd, env: NPM_ENV, encoding: 'utf8', timeout: 300_000 });
  return { code: r.status ?? -1, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

function hasKpt(): boolean {
  return spawnSync('kpt', ['version'], { encoding: 'utf8' }).status === 0;
}

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'types', 'sdk', 'index.d.ts'))) {
    execFileSync(process.execPath, ['scripts/build.mjs', '--types'], { cwd: ROOT, stdio: 'ignore' });
  }
  work = mkdtempSync(join(tmpdir(), 'krmfn-author-'));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
      cwd: ROOT,
      encoding: 'utf8',
      env: NPM_ENV,
    }),
  ) as { filename: string }[];
  const tool = join(work, 'tool');
  mkdirSync(tool);
  writeFileSync(join(tool, 'package.json'), JSON.stringify({ name: 'tool', private: true }));
  const install = run('npm', ['install', '--ignore-scripts', join(work, packed[0].filename)], tool);
  if (install.code !== 0) throw new Error(`npm install of the krmfn tarball failed:\n${install.out}`);
  krmfnBin = join(tool, 'node_modules', '.bin', 'krmfn');
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
}, 120_000);

describe('krmfn init → install → test → typecheck → build, from a packed tarball', () => {
  it('scaffolds a project that depends on the installed krmfn through a file: spec', () => {
    const r = run(krmfnBin, ['init', 'set-team'], work);
    expect(r.code, r.out).toBe(0);
    project = join(work, 'set-team');
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    expect(pkg.devDependencies.krmfn).toBe('file:../tool/node_modules/krmfn');
    expect(r.out).toContain('npm run typecheck');
  });

  it('installs, passes its tests and type-checks', () => {
    const install = run('npm', ['install'], project);
    expect(install.code, install.out).toBe(0);
    const test = run('npm', ['test'], project);
    expect(test.code, test.out).toBe(0);
    expect(test.out).toContain('ok    basic');
    const typecheck = run('npm', ['run', 'typecheck'], project);
    expect(typecheck.code, typecheck.out).toBe(0);
  }, 600_000);

  it('fails its typecheck on a type error (the declarations are real)', () => {
    const fn = join(project, 'src', 'fn.ts');
    const original = readFileSync(fn, 'utf8');
    writeFileSync(fn, original.replace('ctx.config.value)', 'ctx.config.valeu)'));
    try {
      const typecheck = run('npm', ['run', 'typecheck'], project);
      expect(typecheck.code).not.toBe(0);
      expect(typecheck.out).toMatch(/valeu/);
    } finally {
      writeFileSync(fn, original);
    }
  }, 300_000);

  it('builds an exec function that krmfn render (and kpt, when present) runs the same way', () => {
    const build = run('npm', ['run', 'build'], project);
    expect(build.code, build.out).toBe(0);
    const fnFile = join(project, 'dist', 'fn.mjs');
    expect(existsSync(fnFile)).toBe(true);

    const makePackage = (dir: string): void => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'Kptfile'),
        `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: app\npipeline:\n  mutators:\n    - exec: node ${fnFile}\n      configPath: team.yaml\n`,
      );
      writeFileSync(
        join(dir, 'team.yaml'),
        'apiVersion: fn.kpt.dev/v1alpha1\nkind: SetTeam\nmetadata:\n  name: team\n  annotations:\n    config.kubernetes.io/local-config: "true"\nvalue: payments\n',
      );
      writeFileSync(
        join(dir, 'cm.yaml'),
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app # the app\ndata:\n  k: v\n',
      );
    };
    const viaKrmfn = join(work, 'pkg-krmfn');
    makePackage(viaKrmfn);
    const render = run(krmfnBin, ['render', viaKrmfn, '--allow-exec'], work);
    expect(render.code, render.out).toBe(0);
    const cm = readFileSync(join(viaKrmfn, 'cm.yaml'), 'utf8');
    expect(cm).toContain('example.com/managed-by: payments');
    expect(cm).toContain('name: app # the app');

    if (hasKpt()) {
      const viaKpt = join(work, 'pkg-kpt');
      makePackage(viaKpt);
      const kpt = run('kpt', ['fn', 'render', viaKpt, '--allow-exec'], work);
      expect(kpt.code, kpt.out).toBe(0);
      for (const f of ['Kptfile', 'team.yaml', 'cm.yaml']) {
        expect(readFileSync(join(viaKrmfn, f), 'utf8'), f).toBe(readFileSync(join(viaKpt, f), 'utf8'));
      }
    }
  }, 300_000);
});
