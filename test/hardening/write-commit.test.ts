// The package write as one commit (src/node/commit.ts, docs/writes.md), on real directories:
// output paths are validated before any file changes, modes and symlinks are kept, deletions
// happen only after every write, and no temporary sibling remains.
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCli } from '../harness/golden.ts';

let tmp: string;
beforeAll(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-commit-'));
});
afterAll(() => fsp.rm(tmp, { recursive: true, force: true }));

const cm = (name: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  k: v\n`;

/** A package whose exec function changes every `k: v` and moves b.yaml to `newPath`. */
async function pkgMovingB(name: string, newPath: string): Promise<string> {
  const dir = path.join(tmp, name);
  await fsp.mkdir(dir);
  await fsp.writeFile(
    path.join(dir, 'Kptfile'),
    `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\npipeline:\n  mutators:\n    - exec: ./fn.sh\n`,
  );
  await fsp.writeFile(path.join(dir, 'a.yaml'), cm('a'));
  await fsp.writeFile(path.join(dir, 'b.yaml'), cm('b'));
  await fsp.writeFile(
    path.join(dir, 'fn.sh'),
    `#!/bin/sh\nexec sed -e 's/k: v/k: changed/' -e "s|path: b.yaml|path: '${newPath}'|" -e "s|path: 'b.yaml'|path: '${newPath}'|"\n`,
    { mode: 0o755 },
  );
  return dir;
}

async function listAll(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fsp.readdir(dir, { withFileTypes: true, recursive: true })) {
    out.push(path.relative(dir, path.join(e.parentPath, e.name)));
  }
  return out.sort();
}

test('an over-long output path fails before any file is written (kpt: failed to save resources)', async () => {
  const long = `${'x'.repeat(300)}.yaml`;
  const dir = await pkgMovingB('long-name', long);
  const before = await listAll(dir);
  const r = await runCli(['render', '.', '--allow-exec'], { cwd: dir });
  expect(r.exitCode).toBe(1);
  expect(r.stderr).toContain(`error: failed to save resources: open ${path.join(dir, long)}: file name too long\n`);
  expect(r.stderr).not.toMatch(/ENAMETOOLONG|\n {4}at /);
  expect(await fsp.readFile(path.join(dir, 'a.yaml'), 'utf8')).toBe(cm('a'));
  expect(await fsp.readFile(path.join(dir, 'b.yaml'), 'utf8')).toBe(cm('b'));
  expect(await listAll(dir)).toEqual(before);
});

test('an over-long directory name fails before any directory is made', async () => {
  const dir = await pkgMovingB('long-dir', `${'d'.repeat(300)}/b.yaml`);
  const before = await listAll(dir);
  const r = await runCli(['render', '.', '--allow-exec'], { cwd: dir });
  expect(r.exitCode).toBe(1);
  expect(r.stderr).toContain(': file name too long\n');
  expect(await listAll(dir)).toEqual(before);
  expect(await fsp.readFile(path.join(dir, 'a.yaml'), 'utf8')).toBe(cm('a'));
});

test('a path under a regular file fails before any file is written (kpt: mkdir FILE: not a directory)', async () => {
  const dir = await pkgMovingB('under-file', 'a.yaml/b.yaml');
  const r = await runCli(['render', '.', '--allow-exec'], { cwd: dir });
  expect(r.exitCode).toBe(1);
  expect(r.stderr).toContain(`error: failed to save resources: mkdir ${path.join(dir, 'a.yaml')}: not a directory\n`);
  expect(await fsp.readFile(path.join(dir, 'a.yaml'), 'utf8')).toBe(cm('a'));
  expect(await fsp.readFile(path.join(dir, 'b.yaml'), 'utf8')).toBe(cm('b'));
  expect((await listAll(dir)).filter((n) => n.includes('.krmfn-'))).toEqual([]);
});

test('a moved resource: new file written, old file deleted, new directory made, no temporary left', async () => {
  const dir = await pkgMovingB('moved', 'sub/dir/b.yaml');
  const r = await runCli(['render', '.', '--allow-exec'], { cwd: dir });
  expect(r.stderr).toContain('Successfully executed 1 function(s)');
  expect(r.exitCode).toBe(0);
  expect(await listAll(dir)).toEqual(['Kptfile', 'a.yaml', 'fn.sh', 'sub', 'sub/dir', 'sub/dir/b.yaml']);
  expect(await fsp.readFile(path.join(dir, 'sub/dir/b.yaml'), 'utf8')).toBe(cm('b').replace('k: v', 'k: changed'));
});

test('a rewritten file keeps its mode; a symlinked file is written through its link', async () => {
  const dir = await pkgMovingB('modes', 'b.yaml');
  await fsp.chmod(path.join(dir, 'a.yaml'), 0o640);
  await fsp.rename(path.join(dir, 'b.yaml'), path.join(tmp, 'b-target.yaml'));
  await fsp.symlink(path.join(tmp, 'b-target.yaml'), path.join(dir, 'b.yaml'));
  const r = await runCli(['render', '.', '--allow-exec'], { cwd: dir });
  expect(r.exitCode).toBe(0);
  expect((await fsp.stat(path.join(dir, 'a.yaml'))).mode & 0o777).toBe(0o640);
  expect((await fsp.lstat(path.join(dir, 'b.yaml'))).isSymbolicLink()).toBe(true);
  expect(await fsp.readFile(path.join(tmp, 'b-target.yaml'), 'utf8')).toBe(cm('b').replace('k: v', 'k: changed'));
  expect((await fsp.readdir(tmp)).filter((n) => n.startsWith('.krmfn-'))).toEqual([]);
});
