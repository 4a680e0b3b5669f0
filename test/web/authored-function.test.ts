/**
 * The function a new author builds runs in the browser: krmfn is packed and installed from its
 * tarball, `krmfn init` scaffolds a project, `npm install` and `npm run build` build it (the setup
 * of test/package/authoring.test.ts, shared through test/package/packed-krmfn.ts), the preview
 * page of docs/sdk.md ("Previewing a function in the browser", taken from the doc itself) is
 * bundled with the project's esbuild and loaded in real Chromium (Debian's /usr/bin/chromium,
 * driven by playwright-core), and rendering a package there writes the same files and reports the
 * same results as `krmfn render` running the function's exec build, on success and on a config
 * error (nothing written, the same error result).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic } from '../../scripts/static-server.mjs';
import {
  APP_CONFIGMAP,
  ROOT,
  TEAM_CONFIG,
  installPackedKrmfn,
  run,
  writeExecPackage,
  type PackedKrmfn,
} from '../package/packed-krmfn.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'];
const ESBUILD_ARGS = ['preview.mjs', '--bundle', '--format=esm', '--platform=browser', '--outfile=dist/preview.js'];

interface Preview {
  ok: boolean;
  results: { exitCode: number; items: { exitCode: number; stderr?: string; results?: unknown[] }[] };
  files: Record<string, string>;
}

let packed: PackedKrmfn | undefined;
let project = '';
let browser: Browser | undefined;
let server: { url: string; close(): Promise<void> } | undefined;

/** The code blocks of docs/sdk.md's browser-preview section, in order. */
function previewDocBlocks(): string[] {
  const doc = readFileSync(join(ROOT, 'docs/sdk.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Previewing a function in the browser'));
  return [...section.matchAll(/```\w*\n([\s\S]*?)```/g)].map((m) => m[1]);
}

beforeAll(async () => {
  packed = installPackedKrmfn('krmfn-browser-fn-');
  const init = run(packed.bin, ['init', 'set-team'], packed.work);
  if (init.code !== 0) throw new Error(init.out);
  project = join(packed.work, 'set-team');
  for (const step of [['install'], ['run', 'build']]) {
    const r = run('npm', step, project);
    if (r.code !== 0) throw new Error(`npm ${step.join(' ')} failed:\n${r.out}`);
  }
  server = await serveStatic(project);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  packed?.remove();
}, 120_000);

describe('an authored function in Chromium', () => {
  it('bundles the documented preview page from the built function and the installed krmfn', () => {
    const [page, command] = previewDocBlocks();
    expect(command.trim()).toBe(`npx esbuild ${ESBUILD_ARGS.join(' ')}`);
    writeFileSync(join(project, 'preview.mjs'), page.replace('example.com/my-fn:v1', 'example.com/set-team:v1'));
    writeFileSync(
      join(project, 'preview.html'),
      '<!doctype html><link rel="icon" href="data:,"><script type="module" src="dist/preview.js"></script>\n',
    );
    const bundle = run(join(project, 'node_modules', '.bin', 'esbuild'), ESBUILD_ARGS, project);
    expect(bundle.code, bundle.out).toBe(0);
    // Nothing Node-only reached the page's bundle.
    expect(readFileSync(join(project, 'dist', 'preview.js'), 'utf8')).not.toMatch(/["']node:/);
  });

  it('renders a package in the page exactly as krmfn render runs the exec build', async () => {
    const { cli, page } = await renderBothWays('ok', TEAM_CONFIG);
    expect(cli.code, cli.out).toBe(0);
    expect(page.ok).toBe(true);
    // The Kptfiles differ (image: in the page, exec: on the command line); every resource is the same.
    for (const f of ['cm.yaml', 'team.yaml']) expect(page.files[f], f).toBe(cli.files[f]);
    expect(page.files['cm.yaml']).toContain('example.com/managed-by: payments');
    expect(page.results.exitCode).toBe(0);
    expect(page.messages).toEqual(cli.messages);
    expect(page.messages).toEqual([expect.stringMatching(/^set example\.com\/managed-by on \d+ resource\(s\)$/)]);
  }, 120_000);

  it('fails in the page as krmfn render fails: same error results, nothing written', async () => {
    const { cli, page } = await renderBothWays('bad', TEAM_CONFIG.replace('value: payments', 'value: ""'));
    expect(cli.code).toBe(1);
    expect(page.ok).toBe(false);
    expect(page.results.exitCode).toBe(1);
    expect(page.messages).toEqual(cli.messages);
    expect(page.messages).toEqual(['functionConfig is invalid: value: must NOT have fewer than 1 characters']);
    expect(page.files['cm.yaml']).toBe(APP_CONFIGMAP);
    expect(cli.files['cm.yaml']).toBe(APP_CONFIGMAP);
  }, 120_000);
});

interface Rendered {
  files: Record<string, string>;
  messages: string[];
}

/**
 * Renders one package (APP_CONFIGMAP and `teamConfig`) with `krmfn render` running the exec build,
 * and in the page with the browser build under the image name: files after, result messages.
 */
async function renderBothWays(
  name: string,
  teamConfig: string,
): Promise<{ cli: Rendered & { code: number; out: string }; page: Rendered & Preview }> {
  const dir = join(packed!.work, `pkg-${name}`);
  const resultsDir = join(packed!.work, `results-${name}`);
  writeExecPackage(dir, join(project, 'dist', 'fn.mjs'));
  writeFileSync(join(dir, 'team.yaml'), teamConfig);
  const render = run(packed!.bin, ['render', dir, '--allow-exec', '--results-dir', resultsDir], dir);
  const cliResults = readFileSync(join(resultsDir, 'results.yaml'), 'utf8');
  const cli = {
    code: render.code,
    out: render.out,
    files: Object.fromEntries(['cm.yaml', 'team.yaml'].map((f) => [f, readFileSync(join(dir, f), 'utf8')])),
    messages: [...cliResults.matchAll(/^[ -]*message: (.*)$/gm)].map((m) => m[1].replace(/^'(.*)'$/, '$1')),
  };

  const page = await browser!.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${server!.url}preview.html`);
  await page
    .waitForFunction(() => typeof (globalThis as { preview?: unknown }).preview === 'function', null, {
      timeout: 30_000,
    })
    .catch((e: Error) => {
      throw new Error(`${e.message}\npage errors:\n${errors.join('\n')}`);
    });
  const kptfile =
    'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: app\npipeline:\n  mutators:\n    - image: example.com/set-team:v1\n      configPath: team.yaml\n';
  const out = await page.evaluate(
    (files) => (globalThis as unknown as { preview(f: Record<string, string>): Promise<Preview> }).preview(files),
    { Kptfile: kptfile, 'team.yaml': teamConfig, 'cm.yaml': APP_CONFIGMAP },
  );
  await page.close();
  expect(errors).toEqual([]);
  const messages = out.results.items.flatMap((i) => (i.results ?? []).map((r) => (r as { message: string }).message));
  return { cli, page: { ...out, messages } };
}
