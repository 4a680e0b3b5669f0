/**
 * A function author's first hour, the real way: krmfn is packed with `npm pack` and installed from
 * that tarball (never from a registry; its own dependencies install as usual), its `krmfn init`
 * scaffolds a project, and the project's `npm install`, `npm test`, `npm run typecheck` and
 * `npm run build` pass; the built function then runs as an `exec:` function under `krmfn render`
 * and, where a `kpt` binary is on PATH, under the real kpt with the same result.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPackedKrmfn, run, writeExecPackage, type PackedKrmfn } from './packed-krmfn.ts';

let packed: PackedKrmfn | undefined;
let work = '';
let krmfnBin = '';
let project = '';

function hasKpt(): boolean {
  return spawnSync('kpt', ['version'], { encoding: 'utf8' }).status === 0;
}

beforeAll(() => {
  packed = installPackedKrmfn('krmfn-author-');
  work = packed.work;
  krmfnBin = packed.bin;
}, 600_000);

afterAll(() => packed?.remove(), 120_000);

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
    // ...and the browser module test/web/authored-function.test.ts runs in Chromium.
    expect(existsSync(join(project, 'dist', 'fn.browser.mjs'))).toBe(true);

    const viaKrmfn = join(work, 'pkg-krmfn');
    writeExecPackage(viaKrmfn, fnFile);
    const render = run(krmfnBin, ['render', viaKrmfn, '--allow-exec'], work);
    expect(render.code, render.out).toBe(0);
    const cm = readFileSync(join(viaKrmfn, 'cm.yaml'), 'utf8');
    expect(cm).toContain('example.com/managed-by: payments');
    expect(cm).toContain('name: app # the app');

    if (hasKpt()) {
      const viaKpt = join(work, 'pkg-kpt');
      writeExecPackage(viaKpt, fnFile);
      const kpt = run('kpt', ['fn', 'render', viaKpt, '--allow-exec'], work);
      expect(kpt.code, kpt.out).toBe(0);
      for (const f of ['Kptfile', 'team.yaml', 'cm.yaml']) {
        expect(readFileSync(join(viaKrmfn, f), 'utf8'), f).toBe(readFileSync(join(viaKpt, f), 'utf8'));
      }
    }
  }, 300_000);
});
