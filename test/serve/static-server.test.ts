/**
 * The playground's static server (scripts/static-server.mjs) serves only files inside its root:
 * encoded `..` segments, absolute-looking paths and sibling directories sharing the root's name
 * prefix (`dist` vs `dist-evil`) get 404.
 */
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic } from '../../scripts/static-server.mjs';

let tmp: string;
let server: { url: string; close(): Promise<void> };

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'krmfn-static-'));
  mkdirSync(join(tmp, 'dist', 'sub'), { recursive: true });
  mkdirSync(join(tmp, 'dist-evil'));
  writeFileSync(join(tmp, 'dist', 'index.html'), '<p>home</p>');
  writeFileSync(join(tmp, 'dist', 'sub', 'a.js'), 'export {};');
  writeFileSync(join(tmp, 'dist-evil', 'x'), 'SECRET');
  writeFileSync(join(tmp, 'secret.txt'), 'SECRET');
  server = await serveStatic(join(tmp, 'dist'));
});
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** A GET with the path sent exactly as written (no client-side normalization). */
function get(path: string): Promise<{ status: number; body: string }> {
  const u = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('static server', () => {
  it('serves files and directory indexes inside its root', async () => {
    expect(await get('/')).toEqual({ status: 200, body: '<p>home</p>' });
    expect(await get('/sub/a.js')).toEqual({ status: 200, body: 'export {};' });
    expect(await get('/sub/..%2fsub%2fa.js')).toEqual({ status: 200, body: 'export {};' });
  });

  it.each([
    '/..%2fdist-evil/x',
    '/..%2f..%2f' + 'dist-evil/x',
    '/%2e%2e/dist-evil/x',
    '/..%2fsecret.txt',
    '/sub/..%2f..%2fsecret.txt',
    '/%2fetc%2fpasswd/../..%2f..%2f..%2fetc/passwd',
    '/index.html%00.js',
    '/%E0%A4%A',
  ])('answers 404 for %s', async (path) => {
    const r = await get(path);
    expect(r.status).toBe(404);
    expect(r.body).not.toContain('SECRET');
  });
});
