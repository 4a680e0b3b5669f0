/**
 * Every package the shipped code imports is declared: a bare import in src/, sdk/, builtins/,
 * wasm/ or bin/ names a `dependencies` entry (or krmfn itself, in the scaffold's templates), and
 * esbuild, needed only by `krmfn build`, is an optional peer imported lazily (never statically);
 * the playground (web/src, not shipped) imports only declared packages (or its build's virtual
 * modules) too.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

const STATIC =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"./][^'"]*)['"]|(?:^|\n)\s*import\s*['"]([^'"./][^'"]*)['"]/g;
const DYNAMIC = /\bimport\(\s*['"]([^'"./][^'"]*)['"]\s*\)/g;

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function imports(dirs: string[]): { file: string; name: string; dynamic: boolean }[] {
  const files = execFileSync('git', ['ls-files', ...dirs], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(ts|mts|mjs|js)$/.test(f) && !f.endsWith('.d.ts') && !f.includes('/testdata/'));
  return files.flatMap((file) => {
    const src = readFileSync(join(ROOT, file), 'utf8');
    const found = [
      ...[...src.matchAll(STATIC)].map((m) => ({ name: m[1] ?? m[2], dynamic: false })),
      ...[...src.matchAll(DYNAMIC)].map((m) => ({ name: m[1], dynamic: true })),
    ];
    return found
      .filter((i) => !i.name.startsWith('node:') && !/^\w+:/.test(i.name))
      .map((i) => ({ file, name: packageOf(i.name), dynamic: i.dynamic }));
  });
}

test('shipped code imports only its dependencies (esbuild: an optional peer, loaded lazily)', () => {
  const found = imports(['src', 'sdk', 'builtins', 'wasm', 'bin']);
  expect(found.length).toBeGreaterThan(0);
  const undeclared = found.filter(
    (i) => i.name !== pkg.name && !(i.name in pkg.dependencies) && !(i.name in (pkg.peerDependencies ?? {})),
  );
  expect(undeclared).toEqual([]);
  for (const peer of Object.keys(pkg.peerDependencies ?? {})) {
    expect(pkg.peerDependenciesMeta?.[peer]?.optional, peer).toBe(true);
    expect(found.filter((i) => i.name === peer && !i.dynamic)).toEqual([]);
  }
});

test('the playground imports only declared packages', () => {
  const declared = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)]);
  // Virtual modules its build provides are declared in web/src/*.d.ts (`declare module 'x'`).
  for (const f of execFileSync('git', ['ls-files', 'web/src'], { cwd: ROOT, encoding: 'utf8' }).split('\n')) {
    if (!f.endsWith('.d.ts')) continue;
    for (const m of readFileSync(join(ROOT, f), 'utf8').matchAll(/declare module '([^']+)'/g)) declared.add(m[1]);
  }
  expect(imports(['web/src']).filter((i) => i.name !== pkg.name && !declared.has(i.name))).toEqual([]);
});
