// The installed entry point as a real process: `bin/krmfn.mjs` over dist/ (built by `npm test`;
// built here first when missing). Renders the bundled example the way the README's first command does.
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { ensureBuilt } from '../harness/built-cli.ts';

const repo = path.resolve(import.meta.dirname, '../..');

beforeAll(() => {
  ensureBuilt();
});

test('krmfn render examples/hello --output stdout (README quick start)', () => {
  const r = spawnSync(process.execPath, ['bin/krmfn.mjs', 'render', 'examples/hello', '--output', 'stdout'], {
    cwd: repo,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, KRMFN_KPT_VERSION: '1.0.0-beta.56' },
  });
  expect(r.stderr).toMatch(/^Package "hello\/db": \n\[RUNNING\] "gcr.io\/kpt-fn\/set-labels:v0.2.0"\n/);
  expect(r.status).toBe(0);
  expect(r.stdout).toContain('namespace: hello-prod');
  expect(r.stdout).toContain('tier: db');
});

test('a failing render exits 1 and leaves the package untouched', async () => {
  const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-bin-'));
  try {
    await fsp.cp(path.join(repo, 'examples/hello'), path.join(tmp, 'hello'), { recursive: true });
    await fsp.appendFile(path.join(tmp, 'hello/Kptfile'), '    - exec: sh -c "exit 7"\n');
    const before = await fsp.readFile(path.join(tmp, 'hello/deployment.yaml'), 'utf8');
    const r = spawnSync(process.execPath, [path.join(repo, 'bin/krmfn.mjs'), 'fn', 'render', 'hello', '--allow-exec'], {
      cwd: tmp,
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('  Exit code: 7\n\n');
    expect(await fsp.readFile(path.join(tmp, 'hello/deployment.yaml'), 'utf8')).toBe(before);
  } finally {
    await fsp.rm(tmp, { recursive: true, force: true });
  }
});
