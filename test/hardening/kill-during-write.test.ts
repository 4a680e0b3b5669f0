// Kill-during-write: the real CLI (bin/krmfn.mjs over dist/) renders a generated package whose
// every file changes, and is killed with SIGINT, SIGTERM or SIGKILL at seeded random points,
// either at a random time after start or just after the [PASS] line (when the write begins).
// After each kill every file must hold exactly the bytes of one of the two renderings, and after
// SIGINT/SIGTERM no temporary sibling may remain (docs/writes.md states the guarantee).
import { spawn, spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ensureBuilt } from '../harness/built-cli.ts';

const repo = path.resolve(import.meta.dirname, '../..');
const bin = path.join(repo, 'bin/krmfn.mjs');
const FILES = 200;
/** KRMFN_KILL_ITERATIONS and KRMFN_KILL_SEED run a longer or another loop (docs/hardening.md). */
const ITERATIONS = Number(process.env.KRMFN_KILL_ITERATIONS ?? 18);
const SEED = Number(process.env.KRMFN_KILL_SEED ?? 0x5eed10);
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGKILL'] as const;

let tmp = '';

/** mulberry32: small and reproducible. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function kptfile(stamp: string): string {
  return `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: big
  annotations:
    config.kubernetes.io/local-config: "true"
pipeline:
  mutators:
    - image: gcr.io/kpt-fn/set-annotations:v0.1.4
      configMap:
        stamp: ${stamp}
`;
}

/** A ConfigMap of about 10 KB. */
function configMap(i: number): string {
  const lines = [`apiVersion: v1`, `kind: ConfigMap`, `metadata:`, `  name: cm-${i}`, `data:`];
  for (let k = 0; k < 150; k++) lines.push(`  key-${k}: "value ${i}-${k} ${'x'.repeat(40)}"`);
  return lines.join('\n') + '\n';
}

async function snapshot(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const name of await fsp.readdir(dir)) out.set(name, await fsp.readFile(path.join(dir, name)));
  return out;
}

function renderSync(pkg: string): void {
  const r = spawnSync(process.execPath, [bin, 'render', pkg], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`render failed: ${r.stderr}`);
}

beforeAll(async () => {
  ensureBuilt();
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-kill-'));
});

afterAll(async () => {
  if (tmp) await fsp.rm(tmp, { recursive: true, force: true });
});

/** Spawns a render, kills it per the plan, resolves with how it ended. */
function killedRender(
  pkg: string,
  signal: (typeof SIGNALS)[number],
  afterPass: boolean,
  delayMs: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'render', pkg], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let armed = false;
    const arm = (): void => {
      if (armed) return;
      armed = true;
      setTimeout(() => child.kill(signal), delayMs);
    };
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      if (afterPass && stderr.includes('[PASS]')) arm();
    });
    if (!afterPass) arm();
    child.on('close', (code, sig) => resolve({ code, signal: sig, stderr }));
  });
}

test(
  'a render killed at any point leaves every file entirely old or entirely new',
  { timeout: 300_000 + ITERATIONS * 10_000 },
  async () => {
    const pkg = path.join(tmp, 'big');
    const res = path.join(pkg, 'res');
    await fsp.mkdir(res, { recursive: true });
    await Promise.all(
      Array.from({ length: FILES }, (_, i) => fsp.writeFile(path.join(res, `cm-${i}.yaml`), configMap(i))),
    );
    // The two renderings every file may hold: stamp "a" and stamp "b".
    const versions: Map<string, Buffer>[] = [];
    for (const stamp of ['a', 'b']) {
      await fsp.writeFile(path.join(pkg, 'Kptfile'), kptfile(stamp));
      renderSync(pkg);
      versions.push(await snapshot(res));
    }
    for (const [name, a] of versions[0]) expect(a.equals(versions[1].get(name)!), name).toBe(false);

    const random = rng(SEED);
    const seen = { finished: 0, killed: 0, mixed: 0 };
    for (let it = 0; it < ITERATIONS; it++) {
      const signal = SIGNALS[it % SIGNALS.length];
      const afterPass = random() < 0.6;
      const delayMs = Math.floor(random() * (afterPass ? 100 : 1000));
      await fsp.writeFile(path.join(pkg, 'Kptfile'), kptfile(it % 2 ? 'a' : 'b'));
      const target = versions[it % 2 ? 0 : 1];
      // A SIGKILL may have left the tree mixed: what this render may leave is judged against it.
      const before = await snapshot(res);
      const r = await killedRender(pkg, signal, afterPass, delayMs);
      if (r.code === 0) seen.finished++;
      else {
        seen.killed++;
        expect(r.signal, `iteration ${it}: ${r.stderr}`).toBe(signal);
      }
      const names = (await fsp.readdir(res)).sort();
      const temps = names.filter((n) => n.startsWith('.krmfn-'));
      if (signal !== 'SIGKILL') expect(temps, `iteration ${it} (${signal})`).toEqual([]);
      for (const t of temps) await fsp.rm(path.join(res, t));
      const now = await snapshot(res);
      expect(now.size).toBe(FILES);
      let fromA = 0;
      for (const [name, bytes] of now) {
        const isA = bytes.equals(versions[0].get(name)!);
        const isB = bytes.equals(versions[1].get(name)!);
        expect(isA || isB, `iteration ${it} (${signal}): ${name} is neither old nor new (${bytes.length} bytes)`).toBe(
          true,
        );
        if (isA) fromA++;
      }
      // SIGINT/SIGTERM finish the commit (every file is the target) or roll it back (every file is
      // as before); SIGKILL may stop it between renames.
      const all = (want: Map<string, Buffer>): boolean => [...now].every(([n, b]) => b.equals(want.get(n)!));
      if (signal !== 'SIGKILL')
        expect(all(before) || all(target), `iteration ${it} (${signal}): half committed`).toBe(true);
      else if (fromA !== 0 && fromA !== FILES) seen.mixed++;
    }
    // The loop really interrupted renders (the plan is seeded, so this is deterministic enough).
    expect(seen.killed).toBeGreaterThan(0);
    console.log(`kill-during-write: ${JSON.stringify(seen)}`);
  },
);
