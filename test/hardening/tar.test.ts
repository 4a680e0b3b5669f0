// The one tar reader (src/core/tar.ts; wasm/oci/layout.ts gets it injected): archives made by the
// real `tar` in every format read back exactly, and a cut, corrupted or escaping archive is an
// error at every cut point, never a silently shorter file list.
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readTar, writeTar, type TarEntry } from '../../src/core/tar.ts';

const enc = new TextEncoder();
let tmp: string;
const longDir = `${'d'.repeat(60)}/${'e'.repeat(60)}`;
const files: Record<string, string> = {
  Kptfile: 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: p\n',
  'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
  [`${longDir}/${'f'.repeat(110)}.yaml`]: 'x: 1\n'.repeat(300),
};

beforeAll(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-tar-'));
  for (const [p, text] of Object.entries(files)) {
    await fsp.mkdir(path.dirname(path.join(tmp, 'pkg', p)), { recursive: true });
    await fsp.writeFile(path.join(tmp, 'pkg', p), text);
  }
});
afterAll(() => fsp.rm(tmp, { recursive: true, force: true }));

const asText = (entries: TarEntry[]): Record<string, string> =>
  Object.fromEntries(entries.map((e) => [e.path, new TextDecoder().decode(e.data)]));

function realTar(format: string, extra: string[] = []): Uint8Array {
  const r = spawnSync('tar', ['-c', `--format=${format}`, '-f', '-', '-C', path.join(tmp, 'pkg'), ...extra, '.'], {
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`tar failed: ${String(r.stderr)}`);
  return new Uint8Array(r.stdout);
}

describe.each(['ustar', 'gnu', 'pax', 'oldgnu'])('archives from the real tar, --format=%s', (format) => {
  test('read back exactly', () => {
    if (format === 'ustar' || format === 'oldgnu') {
      // ustar cannot hold a 110-character base name; oldgnu stores it with a GNU long-name entry.
      if (format === 'ustar') expect(() => realTar(format)).toThrow();
      else expect(asText(readTar(realTar(format)))).toEqual(files);
      return;
    }
    expect(asText(readTar(realTar(format)))).toEqual(files);
  });

  test('cut anywhere: an error, never fewer files', () => {
    if (format === 'ustar') return;
    const tar = realTar(format);
    const cuts = new Set<number>();
    for (let at = 0; at < tar.length; at += 512) cuts.add(at);
    for (let at = 1; at < tar.length; at += 997) cuts.add(at);
    // Past the first zero block (the end-of-archive marker) the archive is complete: tar pads
    // it to its record size. Before it, every cut is an error.
    let failures = 0;
    for (const at of [...cuts].sort((a, b) => a - b)) {
      let got: TarEntry[] | undefined;
      try {
        got = readTar(tar.subarray(0, at));
      } catch (e) {
        expect((e as Error).message, `cut at ${at}`).toMatch(/^tar archive: truncated/);
        failures++;
      }
      if (got) expect(asText(got), `cut at ${at}`).toEqual(files);
    }
    expect(failures).toBeGreaterThan(3);
  });
});

test('a changed header byte fails the checksum', () => {
  const tar = writeTar([{ path: 'a.yaml', data: enc.encode('a: 1\n') }]);
  const bad = tar.slice();
  bad[0] = 'b'.charCodeAt(0);
  expect(() => readTar(bad)).toThrow('tar archive: header at byte 0 has a bad checksum (corrupt or not a tar)');
  expect(() => readTar(enc.encode('not a tar at all'.padEnd(1024, '!')))).toThrow(/bad checksum|malformed/);
});

test('paths escaping the root and non-regular entries are refused (skipped for image layers)', () => {
  const linked = path.join(tmp, 'linked');
  spawnSync('mkdir', ['-p', linked]);
  spawnSync('ln', ['-s', 'target', path.join(linked, 'link.yaml')]);
  spawnSync('sh', ['-c', `echo 'a: 1' > ${path.join(linked, 'a.yaml')}`]);
  const r = spawnSync('tar', ['-c', '-f', '-', '-C', linked, 'a.yaml', 'link.yaml']);
  const tar = new Uint8Array(r.stdout);
  expect(() => readTar(tar)).toThrow('tar archive: entry "link.yaml": only regular files are supported (type "2")');
  expect(readTar(tar, { nonRegular: 'skip' }).map((e) => e.path)).toEqual(['a.yaml']);
  const up = spawnSync('tar', ['-c', '-f', '-', '-P', '-C', linked, '--transform', 's|^a.yaml|../up.yaml|', 'a.yaml']);
  expect(() => readTar(new Uint8Array(up.stdout))).toThrow('tar entry "../up.yaml" escapes the package root');
});

test('the file count cap', () => {
  const tar = writeTar(Array.from({ length: 5 }, (_, i) => ({ path: `f${i}.yaml`, data: enc.encode('a: 1\n') })));
  expect(() => readTar(tar, { maxEntries: 4 })).toThrow('tar archive has more than 4 files');
  expect(readTar(tar).length).toBe(5);
});
