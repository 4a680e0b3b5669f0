// Package files kpt refuses to read, on real directories. Expected texts and exit codes are
// kpt v1.0.0-beta.56's (`kpt fn render PKG` on the same packages): a looping or dangling symlink
// named like a resource file and invalid UTF-8 fail the render before any function runs; a
// dangling symlink not named like a resource file is ignored, as kpt's walk ignores it.
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { firstUtf8Problem } from '../../src/core/utf8.ts';
import { runCli } from '../harness/golden.ts';

let tmp: string;
beforeAll(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-read-'));
});
afterAll(() => fsp.rm(tmp, { recursive: true, force: true }));

const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n';

async function pkg(name: string, extra: (dir: string) => Promise<void>): Promise<string> {
  const dir = path.join(tmp, name);
  await fsp.mkdir(dir);
  await fsp.writeFile(path.join(dir, 'Kptfile'), `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\n`);
  await fsp.writeFile(path.join(dir, 'cm.yaml'), CM);
  await extra(dir);
  return dir;
}

const yamlWithValue = (bytes: number[]): Buffer =>
  Buffer.concat([
    Buffer.from('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\ndata:\n  k: "'),
    Buffer.from(bytes),
    Buffer.from('"\n'),
  ]);

describe('render refuses what kpt refuses', () => {
  test('a symlink loop named like a resource file', async () => {
    const dir = await pkg('loop', async (d) => {
      await fsp.symlink('a', path.join(d, 'b.yaml'));
      await fsp.symlink('b.yaml', path.join(d, 'a'));
    });
    const r = await runCli(['fn', 'render', dir], { cwd: tmp });
    expect(r).toMatchObject({
      exitCode: 1,
      stderr: `Error: ${dir}/b.yaml: open ${dir}/b.yaml: too many levels of symbolic links \n`,
    });
  });

  test('a dangling symlink named like a resource file', async () => {
    const dir = await pkg('dangling', (d) => fsp.symlink('nowhere.yaml', path.join(d, 'x.yaml')));
    const r = await runCli(['fn', 'render', dir], { cwd: tmp });
    expect(r).toMatchObject({
      exitCode: 1,
      stderr: `Error: ${dir}/x.yaml: open ${dir}/x.yaml: no such file or directory \n`,
    });
  });

  test('a dangling symlink to a directory is ignored', async () => {
    const dir = await pkg('dangling-dir', (d) => fsp.symlink('nowhere', path.join(d, 'sub')));
    const r = await runCli(['fn', 'render', dir], { cwd: tmp });
    expect(r).toMatchObject({
      exitCode: 0,
      stderr: 'Package "dangling-dir": \nSuccessfully executed 0 function(s) in 1 package(s).\n',
    });
  });

  test.each([
    ['invalid leading UTF-8 octet', [0xff, 0xfe]],
    ['invalid trailing UTF-8 octet', [0x6f, 0x6b, 0xc3]],
    ['invalid Unicode character', [0xed, 0xa0, 0x80]],
    ['invalid length of a UTF-8 sequence', [0xc0, 0x80]],
  ])('invalid UTF-8: %s, the file left as it was', async (why, bytes) => {
    const dir = await pkg(`utf8-${bytes.join('-')}`, (d) =>
      fsp.writeFile(path.join(d, 'bad.yaml'), yamlWithValue(bytes)),
    );
    const r = await runCli(['fn', 'render', dir], { cwd: tmp });
    expect(r).toMatchObject({ exitCode: 1, stderr: `Error: ${dir}/bad.yaml: MalformedYAMLError: yaml: ${why} \n` });
    expect(await fsp.readFile(path.join(dir, 'bad.yaml'))).toEqual(yamlWithValue(bytes));
  });
});

test('go-yaml reader texts for the first invalid sequence', () => {
  const u = (...b: number[]) => firstUtf8Problem(new Uint8Array(b));
  expect(u(0x61, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80)).toBeUndefined();
  expect(u(0x61, 0xe2, 0x82)).toBe('incomplete UTF-8 octet sequence');
  expect(u(0xf4, 0x90, 0x80, 0x80)).toBe('invalid Unicode character');
  expect(u(0x80)).toBe('invalid leading UTF-8 octet');
  expect(u(0xe0, 0x80, 0x80)).toBe('invalid length of a UTF-8 sequence');
});
