// A minimal static file server for the playground (tests, benchmarks, `npm run web`). Serves one
// directory on loopback with the right MIME types and cross-origin isolation headers.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
};

/**
 * The file a URL path names inside `base` (an absolute directory), or an error when the decoded
 * path leaves it (`/..%2fdist-evil/x` must not reach the sibling `dist-evil`) or holds a NUL. The
 * check compares whole path segments: `base` itself or a path under `base + sep`.
 */
export async function resolveInside(base, urlPath) {
  const path = decodeURIComponent(urlPath);
  if (path.includes('\0')) throw new Error('NUL in path');
  let file = resolve(base, '.' + (path.startsWith('/') ? path : '/' + path));
  if (file !== base && !file.startsWith(base + sep)) throw new Error('outside root');
  if ((await stat(file)).isDirectory()) file = resolve(file, 'index.html');
  return file;
}

/** Starts serving `root`; resolves with { url, close }. */
export async function serveStatic(root, { port = 0, host = '127.0.0.1' } = {}) {
  const base = resolve(root);
  const server = createServer(async (req, res) => {
    try {
      const file = await resolveInside(base, new URL(req.url ?? '/', 'http://x').pathname);
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-embedder-policy': 'require-corp',
        'cache-control': 'no-cache',
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found\n');
    }
  });
  await new Promise((r) => server.listen(port, host, r));
  const { port: p } = server.address();
  return {
    url: `http://${host}:${p}/`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.argv[2] ?? 'web/dist';
  const s = await serveStatic(root, { port: Number(process.env.PORT ?? 8080) });
  console.log(`serving ${root} at ${s.url}`);
}
