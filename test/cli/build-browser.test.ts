/**
 * `krmfn build --target browser` (src/node/commands/build.ts): the scaffold's function bundles into
 * an ES module with no Node built-ins and no `require` shim that default-exports the descriptor,
 * and a function importing a Node built-in is refused with a line saying why. The module running
 * in Chromium is test/web/authored-function.test.ts.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/node/cli.ts';

async function krmfn(argv: string[], cwd: string): Promise<{ code: number; stderr: string }> {
  const err = new PassThrough();
  const e: Buffer[] = [];
  err.on('data', (c: Buffer) => e.push(c));
  const code = await main({ argv, stdin: Readable.from([]), stdout: new PassThrough(), stderr: err, env: {}, cwd });
  return { code, stderr: Buffer.concat(e).toString() };
}

let tmp = '';
let dir = '';
beforeAll(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-build-browser-'));
  dir = path.join(tmp, 'set-team');
  expect((await krmfn(['init', 'set-team'], tmp)).code).toBe(0);
});
afterAll(() => fsp.rm(tmp, { recursive: true, force: true }));

describe('krmfn build --target browser', () => {
  it('writes dist/fn.browser.mjs: the descriptor, nothing Node-only', async () => {
    const r = await krmfn(['build', '--target', 'browser'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^built dist\/fn\.browser\.mjs \(browser, [\d.]+ KiB\)\n$/);
    const file = path.join(dir, 'dist', 'fn.browser.mjs');
    const code = await fsp.readFile(file, 'utf8');
    expect(code).not.toMatch(/["']node:|\brequire\(|createRequire|process\./);
    const fn = ((await import(pathToFileURL(file).href)) as { default: { name: string; kind: string } }).default;
    expect([fn.name, fn.kind]).toEqual(['set-team', 'mutator']);
  });

  it('refuses a Node built-in with the reason', async () => {
    const fnPath = path.join(dir, 'src', 'fn.ts');
    const original = await fsp.readFile(fnPath, 'utf8');
    await fsp.writeFile(fnPath, `import { readFileSync } from 'node:fs';\nvoid readFileSync;\n${original}`);
    try {
      const r = await krmfn(['build', '--target', 'browser'], dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('Could not resolve "node:fs"');
      expect(r.stderr).toMatch(/\(a function built for browsers cannot import Node built-ins: .*\)\n$/);
    } finally {
      await fsp.writeFile(fnPath, original);
    }
  });
});
