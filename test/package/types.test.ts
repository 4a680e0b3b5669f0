/**
 * The published package, as a user installs it: `npm pack` output (not the source tree) holds the
 * built entries, a `.d.ts` for every public entry behind a `types` condition, and the docs; a
 * consumer project type-checks against it with the compiler's default strictness, and a type error
 * in the consumer is reported (the types are real, not `any`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

let work = '';
let pkgDir = '';
let files: string[] = [];

function tsc(dir: string): { code: number; out: string } {
  try {
    const out = execFileSync(process.execPath, [TSC, '-p', dir], { encoding: 'utf8' });
    return { code: 0, out };
  } catch (e) {
    const err = e as { status: number; stdout: string };
    return { code: err.status, out: err.stdout };
  }
}

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'types', 'sdk', 'index.d.ts'))) {
    execFileSync(process.execPath, ['scripts/build.mjs', '--types'], { cwd: ROOT, stdio: 'ignore' });
  }
  work = mkdtempSync(join(tmpdir(), 'krmfn-pack-'));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
      cwd: ROOT,
      encoding: 'utf8',
    }),
  ) as { filename: string; files: { path: string }[] }[];
  files = packed[0].files.map((f) => f.path);
  const consumer = join(work, 'consumer');
  pkgDir = join(consumer, 'node_modules', 'krmfn');
  mkdirSync(pkgDir, { recursive: true });
  execFileSync('tar', ['-xzf', join(work, packed[0].filename), '-C', pkgDir, '--strip-components=1']);
  // The package's own dependencies, as npm would install them beside it.
  symlinkSync(join(ROOT, 'node_modules'), join(pkgDir, 'node_modules'));
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module' }));
  writeFileSync(
    join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules', '@types')],
      },
      files: ['fn.ts'],
    }),
  );
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
}, 120_000);

const CONSUMER = (field: string): string => `
import { byKind, defineMutator } from 'krmfn/sdk';
import { runFunction } from 'krmfn/sdk/testing';
import { run } from 'krmfn/sdk/node';
import { createEngine } from 'krmfn';
import { BUILTINS } from 'krmfn/builtins';
import { execFile } from 'krmfn/starlark';
import { runWasi } from 'krmfn/wasm';
import { NodeFs } from 'krmfn/node';

const fn = defineMutator<{ team: string }>({
  name: 'set-team',
  config: { kind: 'SetTeam', schema: { type: 'object', required: ['team'], properties: { team: { type: 'string' } } } },
  run(ctx) {
    for (const d of ctx.items.where(byKind('Deployment'))) d.setLabel('team', ctx.config.${field});
  },
});
export default fn;
export const used = [runFunction, run, createEngine, BUILTINS.length, execFile, runWasi, NodeFs];
`;

describe('the packed package', () => {
  it('ships the built entries, their declarations and the docs', () => {
    for (const f of [
      'dist/index.js',
      'dist/cli.js',
      'dist/types/src/index.d.ts',
      'dist/types/sdk/index.d.ts',
      'dist/types/sdk/testing.d.ts',
      'dist/types/src/node/sdk.d.ts',
      'dist/types/builtins/index.d.ts',
      'dist/types/src/starlark/index.d.ts',
      'dist/types/wasm/index.d.ts',
      'dist/types/src/node/index.d.ts',
      'docs/architecture.md',
      'builtins/docs/set-labels.md',
      'sdk/README.md',
      'examples/hello/Kptfile',
      'examples/playground/hello/replicas.star.yaml',
    ]) {
      expect(files).toContain(f);
    }
    const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as {
      exports: Record<string, Record<string, string>>;
    };
    for (const [entry, conditions] of Object.entries(manifest.exports)) {
      expect(Object.keys(conditions)[0], entry).toBe('types');
      expect(files, entry).toContain(conditions.types.replace(/^\.\//, ''));
    }
  });

  it('type-checks a consumer of every public entry', () => {
    writeFileSync(join(work, 'consumer', 'fn.ts'), CONSUMER('team'));
    const { code, out } = tsc(join(work, 'consumer'));
    expect(out).toBe('');
    expect(code).toBe(0);
  }, 120_000);

  it('reports a type error in the consumer', () => {
    writeFileSync(join(work, 'consumer', 'fn.ts'), CONSUMER('tem'));
    const { code, out } = tsc(join(work, 'consumer'));
    expect(code).not.toBe(0);
    expect(out).toMatch(/Property 'tem' does not exist/);
  }, 120_000);
});
