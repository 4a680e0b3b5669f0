/** The WASM KRM runtime through its runner, against real modules on disk and real workers. */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, type Limits } from '../../src/core/limits.ts';
import type { BytesRunner, PipelineFunction, ResolveContext, RunContext } from '../../src/core/function.ts';
import { createNodeWasmLoader, createNodeWasmRuntime } from '../../src/node/wasm/index.ts';
import { createWasmRuntime } from '../../src/runtimes/wasm.ts';
import { dec, enc, fixture, TESTDATA } from './fixtures.ts';
import { layoutTar, wasmLayout, writeLayoutDir } from './oci.ts';

const MiB = 1048576;
const tmp = mkdtempSync(join(tmpdir(), 'krmfn-wasm-rt-'));
for (const f of [
  'echo',
  'environ',
  'annotate',
  'fail',
  'trap',
  'spin',
  'hog',
  'flood',
  'results',
  'gojs-setns-go119',
  'gojs-setns-go123',
]) {
  copyFileSync(`${TESTDATA}${f}.wasm`, join(tmp, `${f}.wasm`));
}
writeFileSync(join(tmp, 'script.sh'), '#!/bin/sh\ncat\n');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const runtime = createNodeWasmRuntime({ maxWorkers: 2 });
const jsonRuntime = createNodeWasmRuntime({ maxWorkers: 1, stdinFormat: 'json', maxMemoryBytes: 256 * MiB });
afterAll(() => Promise.all([runtime.close(), jsonRuntime.close()]));

const resolveCtx = (over: Partial<ResolveContext> = {}): ResolveContext => ({
  displayName: 'fn',
  packagePath: '/pkg',
  cwd: tmp,
  allowExec: true,
  allowWasm: true,
  allowNetwork: false,
  limits: DEFAULT_LIMITS,
  ...over,
});
const runCtx = (limits: Partial<Limits> = {}): RunContext => {
  const l = { ...DEFAULT_LIMITS, ...limits };
  return {
    limits: l,
    signal: new AbortController().signal,
    deadline: Date.now() + l.timeoutMs,
    now: Date.now,
    env: {},
    validator: false,
  };
};
const resolve = async (spec: PipelineFunction, rt = runtime, ctx: Partial<ResolveContext> = {}): Promise<BytesRunner> =>
  (await rt.resolve(spec, resolveCtx({ displayName: spec.exec ?? spec.image ?? '', ...ctx }))) as BytesRunner;

const YAML_LIST = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: a # a comment
    annotations:
      config.kubernetes.io/path: 'a.yaml'
  data:
    k: v
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: b
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: function-input
  data:
    namespace: prod
`;

describe('createWasmRuntime: which functions it takes', () => {
  it('takes nothing without --allow-alpha-wasm', async () => {
    await expect(resolve({ exec: 'echo.wasm' }, runtime, { allowWasm: false })).rejects.toMatchObject({
      code: 'function-not-found',
    });
  });

  it('leaves exec functions that are not .wasm to the exec runtime', async () => {
    await expect(resolve({ exec: './script.sh' })).rejects.toMatchObject({ code: 'function-not-found' });
    await expect(resolve({ image: 'gcr.io/kpt-fn/set-namespace:v0.4.1' })).rejects.toMatchObject({
      code: 'function-not-found',
    });
  });

  it('needs --allow-exec for exec: WASM in render, as kpt does', async () => {
    await expect(resolve({ exec: 'echo.wasm' }, runtime, { allowExec: false })).rejects.toMatchObject({
      code: 'function-not-found',
    });
  });

  it('with claimAllExec, treats every exec as WASM (kpt render) and fails non-WASM at compile time', async () => {
    const rt = createNodeWasmRuntime({ claimAllExec: true });
    await expect(resolve({ exec: './script.sh' }, rt)).rejects.toMatchObject({
      code: 'wasm-compile',
      message: 'not a WebAssembly module: expected magic word 00 61 73 6d',
    });
    await rt.close();
  });

  it('reports a missing module clearly', async () => {
    await expect(resolve({ exec: 'missing.wasm' })).rejects.toMatchObject({
      code: 'wasm-compile',
      message: expect.stringMatching(/^cannot read WASM module .*\/missing\.wasm: ENOENT/),
    });
  });
});

describe('createWasmRuntime: running WASI modules', () => {
  it("sends kpt's YAML on stdin and returns stdout (relative exec path from cwd)", async () => {
    const out = await (await resolve({ exec: './echo.wasm' })).run(enc(YAML_LIST), runCtx());
    expect(out).toEqual({ stdout: enc(YAML_LIST), stderr: '', exitCode: 0 });
  });

  it('can send the list as JSON to modules that only parse JSON', async () => {
    const out = await (await resolve({ exec: 'annotate.wasm' }, jsonRuntime)).run(enc(YAML_LIST), runCtx());
    expect(out.exitCode).toBe(0);
    expect(out.stderr).toBe('annotated 2 resources\n');
    const rl = JSON.parse(dec(out.stdout));
    expect(rl.items[0].metadata.annotations).toEqual({
      'config.kubernetes.io/path': 'a.yaml',
      'wasm.krmfn.dev/touched': 'true',
    });
    expect(rl.items[1].metadata.annotations).toEqual({ 'wasm.krmfn.dev/touched': 'true' });
  });

  it('gives modules an empty environment unless names are passed, and exec words as argv', async () => {
    const ctx = { ...runCtx(), env: { HOME: '/root', SECRET: 'x', LANG: 'C' } };
    expect(dec((await (await resolve({ exec: 'environ.wasm one two' })).run(enc(''), ctx)).stdout)).toBe(
      'arg: fn\narg: one\narg: two\n',
    );
    const rt = createNodeWasmRuntime({ passEnv: ['LANG', 'MISSING'] });
    expect(dec((await (await resolve({ exec: 'environ.wasm' }, rt)).run(enc(''), ctx)).stdout)).toBe(
      'arg: fn\nenv: LANG=C\n',
    );
    await rt.close();
  });

  it('returns a non-zero exit with stderr for the engine to fail on', async () => {
    const out = await (await resolve({ exec: 'fail.wasm' })).run(enc(YAML_LIST), runCtx());
    expect(out).toEqual({ stdout: new Uint8Array(0), stderr: 'fail: something went wrong\n', exitCode: 7 });
  });

  it('fails a trap with its message and the stderr written before it', async () => {
    await expect((await resolve({ exec: 'trap.wasm' })).run(enc(YAML_LIST), runCtx())).rejects.toMatchObject({
      code: 'wasm-trap',
      message: 'wasm trap: unreachable',
      stderr: 'trap: about to crash\n',
      exitCode: 1,
    });
  });

  it('stops a module that loops forever at the deadline', async () => {
    const runner = await resolve({ exec: 'spin.wasm' });
    await expect(runner.run(enc(YAML_LIST), runCtx({ timeoutMs: 200 }))).rejects.toMatchObject({
      code: 'timeout',
      limit: 'deadline',
      message: 'function timed out after 200 ms',
    });
    // The runtime still works afterwards.
    expect((await (await resolve({ exec: 'echo.wasm' })).run(enc('x'), runCtx())).exitCode).toBe(0);
  });

  it('stops a module that allocates without bound at the memory cap', async () => {
    const rt = createNodeWasmRuntime({ maxMemoryBytes: 32 * MiB });
    await expect((await resolve({ exec: 'hog.wasm' }, rt)).run(enc(''), runCtx())).rejects.toMatchObject({
      code: 'limit-exceeded',
      limit: 'memory',
      message: 'function exceeded the memory limit of 32 MiB',
      exitCode: 3,
      stderr: expect.stringMatching(/^hog: malloc failed after \d+ MiB\n$/),
    });
    await rt.close();
  });

  it('stops a module that writes 100 MB to stdout at the output cap', async () => {
    await expect(
      (await resolve({ exec: 'flood.wasm' })).run(enc(''), runCtx({ maxOutputBytes: 8 * MiB })),
    ).rejects.toMatchObject({
      code: 'limit-exceeded',
      limit: 'output',
      message: 'function output exceeded the limit of 8388608 bytes',
    });
  });

  it('verifies a sha256 pin', async () => {
    const good = 'sha256:d532d9600d01e0901bb61286ab6eef182c34e2218c178fb16c32bd64add70080';
    expect((await (await resolve({ exec: `echo.wasm@${good}` })).run(enc('ok'), runCtx())).stdout).toEqual(enc('ok'));
    const bad = `sha256:${'0'.repeat(64)}`;
    await expect(resolve({ exec: `echo.wasm@${bad}` })).rejects.toMatchObject({
      code: 'wasm-digest',
      message: `WASM module ${tmp}/echo.wasm has digest ${good}, but ${bad} was pinned`,
    });
  });
});

describe('createWasmRuntime: executors and debugging', () => {
  it('runs in this thread with the default executor (no workers)', async () => {
    const rt = createWasmRuntime({ loader: createNodeWasmLoader() });
    const out = await (await resolve({ exec: 'echo.wasm' }, rt)).run(enc('in-thread'), runCtx());
    expect(dec(out.stdout)).toBe('in-thread');
    await rt.close();
  });

  it('traces every WASI call of a worker run when asked', async () => {
    const lines: string[] = [];
    const rt = createNodeWasmRuntime({ trace: (l) => lines.push(l) });
    const out = await (await resolve({ exec: 'fail.wasm' }, rt)).run(enc(''), runCtx());
    expect(out.exitCode).toBe(7);
    expect(lines.some((l) => l.startsWith('fail.wasm: wasi.fd_write('))).toBe(true);
    expect(lines.at(-1)).toBe('fail.wasm: wasi.proc_exit(7) threw Error: exit with exit code 7');
    await rt.close();
  });

  it('keeps what a module wrote to stderr before it hung', async () => {
    await expect((await resolve({ exec: 'spin.wasm' })).run(enc(''), runCtx({ timeoutMs: 150 }))).rejects.toMatchObject(
      {
        code: 'timeout',
        stderr: 'spin: spinning\n',
      },
    );
  });
});

describe('createWasmRuntime: OCI image layouts', () => {
  const layout = wasmLayout(fixture('echo'), { tag: 'v1' });
  writeLayoutDir(join(tmp, 'echo-image'), layout);
  writeFileSync(join(tmp, 'echo-image.tar'), layoutTar(wasmLayout(fixture('echo'), { gzip: true })));

  it('loads the module from a layout directory (exec and oci: image)', async () => {
    for (const spec of [
      { exec: './echo-image' },
      { image: `oci:${tmp}/echo-image:v1` },
      { image: `oci:echo-image@${layout.manifestDigest}` },
    ]) {
      const out = await (await resolve(spec)).run(enc('via oci'), runCtx());
      expect(dec(out.stdout)).toBe('via oci');
    }
  });

  it('loads the module from a layout tar with a gzip layer', async () => {
    const out = await (await resolve({ exec: 'echo-image.tar' })).run(enc('via tar'), runCtx());
    expect(dec(out.stdout)).toBe('via tar');
  });

  it('rejects a layout whose blob does not match its digest, or an unknown tag', async () => {
    const broken = wasmLayout(fixture('echo'));
    const layerPath = Object.keys(broken.files).find(
      (p) => p.startsWith('blobs/') && broken.files[p].byteLength > 1000,
    )!;
    broken.files[layerPath] = enc('tampered');
    writeLayoutDir(join(tmp, 'broken-image'), broken);
    await expect(resolve({ exec: 'broken-image' })).rejects.toMatchObject({
      code: 'wasm-compile',
      message: expect.stringMatching(/^OCI layout: blob sha256:[0-9a-f]{64} does not match its digest/),
    });
    await expect(resolve({ image: 'oci:echo-image:v9' })).rejects.toMatchObject({
      message: expect.stringMatching(/^OCI layout: no manifest tagged "v9"/),
    });
  });
});

describe.each(['gojs-setns-go119', 'gojs-setns-go123'])('createWasmRuntime: Go js/wasm module %s', (name) => {
  it('runs processResourceList and returns its ResourceList', async () => {
    const runner = await resolve({ exec: `${name}.wasm` }, jsonRuntime);
    for (let i = 0; i < 2; i++) {
      const out = await runner.run(enc(YAML_LIST), runCtx());
      expect(out.exitCode).toBe(0);
      const rl = JSON.parse(dec(out.stdout));
      expect(rl.items.map((x: { metadata: { namespace: string } }) => x.metadata.namespace)).toEqual(['prod', 'prod']);
    }
  });

  it('fails with the messages of the error results', async () => {
    const runner = await resolve({ exec: `${name}.wasm` }, jsonRuntime);
    await expect(runner.run(enc(YAML_LIST.replace('namespace: prod', 'fail: "true"')), runCtx())).rejects.toMatchObject(
      {
        code: 'function-failed',
        message: 'namespace failure requested',
      },
    );
  });

  it('stops a Go program that loops forever at the deadline', async () => {
    const runner = await resolve({ exec: `${name}.wasm` }, jsonRuntime);
    await expect(
      runner.run(enc(YAML_LIST.replace('namespace: prod', 'spin: "true"')), runCtx({ timeoutMs: 300 })),
    ).rejects.toMatchObject({ code: 'timeout' });
    expect((await runner.run(enc(YAML_LIST), runCtx())).exitCode).toBe(0);
  });
});
