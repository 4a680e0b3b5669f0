// `krmfn fn doc` as a real process: prints the built-in's docs page (builtins/docs/), or one error line.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { ensureBuilt } from '../harness/built-cli.ts';

const repo = path.resolve(import.meta.dirname, '../..');
const krmfn = (...args: string[]) =>
  spawnSync(process.execPath, ['bin/krmfn.mjs', ...args], {
    cwd: repo,
    encoding: 'utf8',
    env: { PATH: process.env.PATH },
  });

beforeAll(() => {
  ensureBuilt();
});

test('fn doc --image prints the docs page of the built-in the image names', () => {
  const r = krmfn('fn', 'doc', '--image', 'gcr.io/kpt-fn/set-namespace:v0.4.1');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect(r.stdout).toBe(readFileSync(path.join(repo, 'builtins/docs/set-namespace.md'), 'utf8'));
});

test('doc takes short names and the image as its argument', () => {
  const r = krmfn('doc', 'set-labels:v0.2');
  expect(r.status).toBe(0);
  expect(r.stdout).toBe(readFileSync(path.join(repo, 'builtins/docs/set-labels.md'), 'utf8'));
});

test('a bare name shows its page even where the registry has no latest (gcr.io/kpt-fn)', () => {
  const r = krmfn('doc', 'set-namespace');
  expect(r.status).toBe(0);
  expect(r.stdout).toBe(readFileSync(path.join(repo, 'builtins/docs/set-namespace.md'), 'utf8'));
});

test('an image krmfn does not have is one error line, exit 1', () => {
  const r = krmfn('fn', 'doc', '-i', 'example.com/acme/frobnicate:v1');
  expect(r.stdout).toBe('');
  expect(r.stderr).toBe(
    'error: function "example.com/acme/frobnicate:v1" is not built into krmfn: no documentation to show\n',
  );
  expect(r.status).toBe(1);
});

test('a misspelt name or an unknown version names the nearest', () => {
  const name = krmfn('doc', 'set-lables');
  expect(name.status).toBe(1);
  expect(name.stderr).toBe(
    'error: function "gcr.io/kpt-fn/set-lables" is not built into krmfn: no documentation to show (no catalog function is named "set-lables"; did you mean "set-labels"?)\n',
  );
  const version = krmfn('fn', 'doc', '--image', 'set-namespace:v9');
  expect(version.status).toBe(1);
  expect(version.stderr).toMatch(
    /set-namespace has no version "v9"; krmfn has .*; nearest: set-namespace:v0\.\d+\.\d+\)\n$/,
  );
});
