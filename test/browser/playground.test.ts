/**
 * The playground in real Chromium (Debian's /usr/bin/chromium, driven by playwright-core), served
 * from web/dist by a loopback static server. Renders run in the page's engine Worker: built-ins,
 * Starlark and WASM all execute inside the browser.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { serveStatic } from '../../scripts/static-server.mjs';
import { OciClient, parseReference, pushWasmImage } from '../../src/core/oci/index.ts';
import { REGISTRY_BINARY, SKIP_MESSAGE, startRegistry, type TestRegistry } from '../oci/registry.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let server: { url: string; close(): Promise<void> };
let browser: Browser;

interface PlaygroundHooks {
  render(): Promise<{
    ok: boolean;
    files: Record<string, string>;
    results: { message: string; severity: string }[];
    log: string;
    error?: { message: string; file?: string; line?: number };
  }>;
  files(): Record<string, string>;
  setFile(path: string, text: string): void;
  load(files: Record<string, string | Uint8Array>): void;
}

async function openPage(query = ''): Promise<Page> {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('pageerror:', e.message));
  await page.goto(server.url + query);
  await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.renderState ?? ''), null, {
    timeout: 20_000,
  });
  return page;
}

async function renderedWith(
  page: Page,
  files: Record<string, string>,
): Promise<Awaited<ReturnType<PlaygroundHooks['render']>>> {
  return page.evaluate(async (f) => {
    const pg = (globalThis as unknown as { krmfnPlayground: PlaygroundHooks }).krmfnPlayground;
    for (const [p, t] of Object.entries(f)) pg.setFile(p, t);
    return pg.render();
  }, files);
}

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-web.mjs'], { stdio: 'pipe' });
  server = await serveStatic('web/dist');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('playground in Chromium', () => {
  it('renders the sample package in the browser and shows diffs, results and a screenshot', async () => {
    const page = await openPage();
    expect(await page.getAttribute('body', 'data-render-state')).toBe('done');
    const deployDiff = page.locator('.file-diff[data-path="deployment.yaml"]');
    await expect.poll(() => deployDiff.textContent()).toContain('+  namespace: hello-prod');
    const text = (await deployDiff.textContent()) ?? '';
    expect(text).toContain('replicas: 3');
    expect(text).toContain('env: prod');
    // Untouched lines keep their comments.
    expect(text).not.toContain('-# The web frontend.');
    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/playground.png', fullPage: true });
    expect(existsSync('test-results/playground.png')).toBe(true);
    await page.click('[data-tab=log]');
    expect(await page.textContent('#tab-log')).toContain('Package "hello"');
    expect(await page.textContent('#tab-log')).toContain('scaled web to 3');
    await page.close();
  });

  it('re-renders after an edit typed into the editor', async () => {
    const page = await openPage();
    await page.click('#tree [data-path="service.yaml"]');
    await page.click('.cm-content');
    await page.keyboard.press('Control+End');
    // The file ends with a newline, so the cursor is at column 0 of an empty last line.
    await page.keyboard.insertText('---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: typed-in\n');
    // The typed resource is now part of the input, and the render namespaces it too.
    await expect
      .poll(async () => page.locator('.file-diff[data-path="service.yaml"]').innerText(), { timeout: 10_000 })
      .toMatch(/name: typed-in\n\+ {2}namespace: hello-prod/);
    await page.close();
  });

  it('points a Starlark error at its line', async () => {
    const page = await openPage();
    const original = await page.evaluate(
      () =>
        (globalThis as unknown as { krmfnPlayground: PlaygroundHooks }).krmfnPlayground.files()['replicas.star.yaml'],
    );
    const broken = original.replace('set_replicas(ctx.resource_list', 'set_replicas(undefined_name, ctx.resource_list');
    const r = await renderedWith(page, { 'replicas.star.yaml': broken });
    expect(r.ok).toBe(false);
    expect(r.error?.message ?? '').toMatch(/undefined_name/);
    expect(r.error?.file).toBe('replicas.star.yaml');
    expect(r.error?.line).toBeGreaterThan(0);
    await expect.poll(() => page.locator('.cm-error-line').count()).toBe(1);
    await page.close();
  });

  it('stops a runaway Starlark script and keeps the page responsive', async () => {
    const page = await openPage('?timeout=1500');
    const original = await page.evaluate(
      () =>
        (globalThis as unknown as { krmfnPlayground: PlaygroundHooks }).krmfnPlayground.files()['replicas.star.yaml'],
    );
    const runaway = original.replace(
      /source: \|[\s\S]*$/,
      'source: |\n  def spin():\n    n = 0\n    for i in range(1000000000):\n      n += i\n  spin()\n',
    );
    const pending = renderedWith(page, { 'replicas.star.yaml': runaway });
    // While the script spins in the Worker, the page answers: the click switches the tab and
    // page script runs (the run is stopped by its deadline below, not by the page).
    await page.click('[data-tab=results]');
    expect(await page.getAttribute('[data-tab=results]', 'aria-selected')).toBe('true');
    expect(await page.evaluate(() => 1 + 1)).toBe(2);
    const r = await pending;
    expect(r.ok).toBe(false);
    expect(r.error?.message ?? '').toMatch(/timed out|deadline|steps|limit/i);
    await page.close();
  });

  it('runs a WASM function in the browser (in a Web Worker)', async () => {
    const page = await openPage();
    await page.selectOption('#sample', 'wasm');
    await page.waitForFunction(
      () => document.body.dataset.renderState === 'done' && document.querySelector('.file-diff[data-path="app.yaml"]'),
      null,
      { timeout: 20_000 },
    );
    const diff = (await page.locator('.file-diff[data-path="app.yaml"]').innerText()) ?? '';
    expect(diff).toContain('+    wasm.krmfn.dev/touched: "true"');
    expect(diff).toContain('+    team: platform');
    await page.click('[data-tab=log]');
    expect(await page.textContent('#tab-log')).toContain('"annotated 2 resources"');
    await page.close();
  });

  it('stops a runaway WASM module at its deadline and keeps the page responsive', async () => {
    const page = await openPage('?timeout=1500');
    const spin = readFileSync('wasm/testdata/spin.wasm').toString('base64');
    const pending = page.evaluate(async (b64) => {
      const pg = (globalThis as unknown as { krmfnPlayground: PlaygroundHooks }).krmfnPlayground;
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      pg.load({
        Kptfile:
          'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: spin\npipeline:\n  mutators:\n    - exec: spin.wasm\n',
        'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
        'spin.wasm': bytes,
      });
      await new Promise((r) => setTimeout(r, 50));
      return pg.render();
    }, spin);
    await page.waitForFunction(() => document.body.dataset.renderState === 'running');
    // The page answers while the module spins in its Worker.
    await page.click('[data-tab=results]');
    expect(await page.getAttribute('[data-tab=results]', 'aria-selected')).toBe('true');
    expect(await page.evaluate(() => document.title)).toBe('krmfn playground');
    const r = await pending;
    expect(r.ok).toBe(false);
    expect(r.error?.message ?? '').toMatch(/did not finish within|timed out|deadline/i);
    await page.close();
  });

  it('shares the whole state through the URL', async () => {
    const page = await openPage();
    await renderedWith(page, { 'extra.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shared\n' });
    await page.click('#share');
    await page.waitForFunction(() => location.hash.startsWith('#s='));
    const url = page.url();
    const again = await browser.newPage();
    await again.goto(url);
    await again.waitForFunction(() => document.body.dataset.renderState === 'done', null, { timeout: 20_000 });
    const files = await again.evaluate(() =>
      (globalThis as unknown as { krmfnPlayground: PlaygroundHooks }).krmfnPlayground.files(),
    );
    expect(files['extra.yaml']).toContain('name: shared');
    await again.close();
    await page.close();
  });

  it('works offline once loaded', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(server.url);
    await page.waitForFunction(
      () => navigator.serviceWorker?.controller !== null || document.body.dataset.renderState === 'done',
      null,
      { timeout: 20_000 },
    );
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await context.setOffline(true);
    await page.reload();
    await page.waitForFunction(() => document.body.dataset.renderState === 'done', null, { timeout: 20_000 });
    expect(await page.textContent('#status')).toMatch(/rendered in/);
    await context.close();
  });
});

/**
 * A WASM function from a registry that allows CORS (the real docker-registry on loopback, another
 * origin than the page): the page's engine Worker pulls kpt's WASM image with `fetch` and runs it.
 */
if (!REGISTRY_BINARY) console.warn(`test/browser/playground.test.ts: registry cases skipped: ${SKIP_MESSAGE}`);

describe.skipIf(!REGISTRY_BINARY)('playground: WASM images from a registry', () => {
  let cors: TestRegistry;
  let closed: TestRegistry;
  const wasm = new Uint8Array(readFileSync('wasm/testdata/annotate-yaml.wasm'));
  const pkg = (image: string): Record<string, string> => ({
    Kptfile: `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: reg\npipeline:\n  mutators:\n    - image: gcr.io/kpt-fn/set-namespace:v0.4.1\n      configMap:\n        namespace: prod\n    - image: ${image}\n`,
    'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
  });
  const renderPackage = (page: Page, files: Record<string, string>) =>
    page.evaluate(async (f) => {
      const pg = (globalThis as unknown as { krmfnPlayground: PlaygroundHooks }).krmfnPlayground;
      pg.load(f);
      return pg.render();
    }, files);

  beforeAll(async () => {
    cors = await startRegistry(undefined, { cors: true });
    closed = await startRegistry();
    for (const reg of [cors, closed]) {
      await pushWasmImage(new OciClient(), parseReference(`${reg.host}/fns/annotate:v1`), wasm, 'annotate-yaml.wasm');
    }
  }, 30_000);
  afterAll(async () => {
    await cors?.stop();
    await closed?.stop();
  });

  it('loads the image from the registry in the browser and renders with it', async () => {
    const page = await openPage();
    const image = `${cors.host}/fns/annotate:v1`;
    const r = await renderPackage(page, pkg(image));
    expect(r.error).toBeUndefined();
    expect(r.ok).toBe(true);
    expect(r.files['cm.yaml']).toBe(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    wasm.krmfn.dev/touched: "true"\n  namespace: prod\n',
    );
    // As kpt fn render --allow-alpha-wasm labels it.
    expect(r.log).toContain(`[RUNNING] WASM "${image}"`);
    await page.close();
  });

  it('keeps a pulled image in IndexedDB: a reload renders with it while the registry is down', async () => {
    const own = await startRegistry(undefined, { cors: true });
    const image = `${own.host}/fns/annotate:v2`;
    await pushWasmImage(new OciClient(), parseReference(image), wasm, 'annotate-yaml.wasm');
    const context = await browser.newContext();
    try {
      const open = async (): Promise<Page> => {
        const page = await context.newPage();
        await page.goto(server.url);
        await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.renderState ?? ''));
        return page;
      };
      const first = await open();
      const pulled = await renderPackage(first, pkg(image));
      expect(pulled.error).toBeUndefined();
      await first.close();
      await own.stop();
      const second = await open();
      const cached = await renderPackage(second, pkg(image));
      expect(cached.error).toBeUndefined();
      expect(cached.ok).toBe(true);
      expect(cached.files['cm.yaml']).toBe(pulled.files['cm.yaml']);
      expect(cached.files['cm.yaml']).toContain('wasm.krmfn.dev/touched: "true"');
    } finally {
      await context.close();
      await own.stop();
    }
  });

  it('a registry that does not allow the page origin fails the render, naming the image', async () => {
    const page = await openPage();
    const image = `${closed.host}/fns/annotate:v1`;
    const r = await renderPackage(page, pkg(image));
    expect(r.ok).toBe(false);
    expect(r.error?.message ?? '').toContain(`pulling ${image}: cannot reach ${closed.host}`);
    expect(r.error?.message ?? '').toContain(
      "reachable from the playground only if it allows this page's origin (CORS)",
    );
    await page.close();
  });
});

describe('browser bundle', () => {
  it('references no Node-only modules or globals', () => {
    const meta = JSON.parse(readFileSync('web/dist/meta.json', 'utf8')) as {
      inputs: Record<string, { imports: { path: string }[] }>;
    };
    const nodeImports = Object.entries(meta.inputs).flatMap(([f, i]) =>
      i.imports.filter((x) => x.path.startsWith('node:')).map((x) => `${f} -> ${x.path}`),
    );
    expect(nodeImports).toEqual([]);
    for (const file of ['main.js', 'worker.js']) {
      const code = readFileSync(`web/dist/${file}`, 'utf8');
      expect(code).not.toMatch(/\bfrom\s*["']node:|require\(["'](fs|path|child_process|worker_threads)["']\)/);
      expect(code).not.toMatch(/\bBuffer\.(from|alloc|concat)\b/);
      expect(code).not.toMatch(/\bprocess\.(argv|exit|cwd|stdout|stderr)\b/);
    }
  });
});
