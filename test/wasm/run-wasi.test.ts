/** runWasi against real modules built from wasm/testdata/src (C and WAT). */
import { describe, expect, it } from 'vitest';
import { ModuleCache, prepareModule, runWasi } from 'krmfn/wasm';
import { configMapList, dec, enc, fixture } from './fixtures.ts';

const MiB = 1048576;
const prep = (name: string, maxMemoryBytes = 64 * MiB) => prepareModule(fixture(name), { maxMemoryBytes });

describe('runWasi', () => {
  it('echoes stdin to stdout and exits 0', async () => {
    const input = enc(JSON.stringify(configMapList(3)));
    const out = await runWasi({ module: await prep('echo'), stdin: input });
    expect(out.exitCode).toBe(0);
    expect(out.failure).toBeUndefined();
    expect(dec(out.stdout)).toBe(dec(input));
    expect(out.stderr.byteLength).toBe(0);
  });

  it('echoes a 1 MB input byte for byte', async () => {
    const input = enc(JSON.stringify(configMapList(8000)));
    expect(input.byteLength).toBeGreaterThan(1_000_000);
    const out = await runWasi({ module: await prep('echo'), stdin: input });
    expect(Buffer.compare(out.stdout, input)).toBe(0);
  });

  it('annotates every resource', async () => {
    const out = await runWasi({ module: await prep('annotate'), stdin: enc(JSON.stringify(configMapList(2))) });
    expect(out.exitCode).toBe(0);
    const rl = JSON.parse(dec(out.stdout));
    expect(
      rl.items.map(
        (i: { metadata: { annotations: Record<string, string> } }) => i.metadata.annotations['wasm.krmfn.dev/touched'],
      ),
    ).toEqual(['true', 'true']);
    expect(rl.items[0].metadata.annotations['config.kubernetes.io/path']).toBe('cm-0.yaml');
    expect(dec(out.stderr)).toBe('annotated 2 resources\n');
  });

  it('emits results and exits 0', async () => {
    const out = await runWasi({ module: await prep('results'), stdin: enc(JSON.stringify(configMapList(1))) });
    expect(out.exitCode).toBe(0);
    const rl = JSON.parse(dec(out.stdout));
    expect(rl.results).toEqual([
      { message: 'seen by wasm', severity: 'info', resourceRef: { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm-0' } },
      { message: 'policy violated', severity: 'error' },
    ]);
  });

  it('reports a non-zero exit with its stderr', async () => {
    const out = await runWasi({ module: await prep('fail') });
    expect(out.exitCode).toBe(7);
    expect(out.failure).toBeUndefined();
    expect(dec(out.stderr)).toBe('fail: something went wrong\n');
  });

  it('turns a trap into a failure and keeps the stderr written before it', async () => {
    const out = await runWasi({ module: await prep('trap') });
    expect(out.exitCode).toBe(1);
    expect(out.failure).toEqual({ kind: 'trap', message: 'wasm trap: unreachable' });
    expect(dec(out.stderr)).toBe('trap: about to crash\n');
  });

  it('stops a module that writes past the output cap', async () => {
    const out = await runWasi({ module: await prep('flood'), limits: { maxOutputBytes: 4 * MiB } });
    expect(out.failure).toEqual({ kind: 'output', message: 'function output exceeded the limit of 4194304 bytes' });
    expect(out.stdout.byteLength).toBeLessThanOrEqual(4 * MiB);
  });

  it('collects 100 MB of stdout in linear time when the cap allows it', async () => {
    let chunks = 0;
    const out = await runWasi({ module: await prep('flood'), onStdout: () => chunks++ });
    expect(out.exitCode).toBe(0);
    expect(out.stdout.byteLength).toBe(100_007_936);
    expect(chunks).toBeGreaterThan(100);
  });

  it('caps memory by patching the module: malloc fails at the cap', async () => {
    const out = await runWasi({ module: await prep('hog', 32 * MiB) });
    expect(out.exitCode).toBe(3);
    expect(dec(out.stderr)).toMatch(/^hog: malloc failed after (2[0-9]|3[01]) MiB\n$/);
    expect(out.memoryBytes).toBeLessThanOrEqual(32 * MiB);
    expect(out.failure).toEqual({ kind: 'memory', message: 'function exceeded the memory limit of 32 MiB' });
  });

  it('keeps a smaller maximum the module declares itself, and reports that limit', async () => {
    const prepared = await prep('hog16m', 64 * MiB);
    expect([prepared.capPages, prepared.maxPages]).toEqual([1024, 256]);
    const out = await runWasi({ module: prepared });
    expect(out.exitCode).toBe(3);
    expect(out.memoryBytes).toBeLessThanOrEqual(16 * MiB);
    expect(out.failure).toEqual({ kind: 'memory', message: 'function exceeded the memory limit of 16 MiB' });
  });

  it('caps an imported memory with the Memory the host supplies', async () => {
    const out = await runWasi({ module: await prep('hog-import', 24 * MiB) });
    expect(out.exitCode).toBe(3);
    expect(out.memoryBytes).toBeLessThanOrEqual(24 * MiB);
    expect(out.failure?.kind).toBe('memory');
  });

  it('refuses a module whose initial memory is above the cap', async () => {
    await expect(prepareModule(fixture('echo'), { maxMemoryBytes: 64 * 1024 })).rejects.toMatchObject({
      kind: 'memory',
    });
  });

  it('grants no filesystem by default', async () => {
    const out = await runWasi({ module: await prep('openf') });
    expect(out.exitCode).toBe(0);
    expect(dec(out.stderr)).toBe(
      'open /secret.txt: Capabilities insufficient\nopen /data/hello.txt: Capabilities insufficient\ncreate /data/new.txt: Capabilities insufficient\n',
    );
  });

  it('grants a read-only tree only when asked', async () => {
    const files = { 'hello.txt': enc('hello from the host\n') };
    const out = await runWasi({ module: await prep('openf'), fs: { mountPath: '/data', files } });
    expect(dec(out.stdout)).toBe('hello from the host\n');
    expect(dec(out.stderr)).toBe(
      'open /secret.txt: Capabilities insufficient\nopen /data/hello.txt: ok\ncreate /data/new.txt: Read-only file system\n',
    );
    expect(Object.keys(files)).toEqual(['hello.txt']);
  });

  it('passes argv and an environment sorted by key', async () => {
    const out = await runWasi({ module: await prep('environ'), args: ['fn', '--flag', 'x'], env: { B: '2', A: '1' } });
    expect(dec(out.stdout)).toBe('arg: fn\narg: --flag\narg: x\nenv: A=1\nenv: B=2\n');
    const bare = await runWasi({ module: await prep('environ') });
    expect(dec(bare.stdout)).toBe('arg: fn\n');
  });

  it('traces WASI calls when asked', async () => {
    const lines: string[] = [];
    const out = await runWasi({
      module: await prep('fail'),
      env: { B: '2', A: '1' },
      trace: (l: string) => lines.push(l),
    });
    expect(out.exitCode).toBe(7);
    expect(lines.some((l) => l.startsWith('wasi.fd_write('))).toBe(true);
    expect(lines.at(-1)).toMatch(/^wasi\.proc_exit\(7\) threw Error: exit with exit code 7$/);
  });

  it('rejects modules of no supported ABI, naming exports and imports', async () => {
    // (module (func (export "f"))) — no _start, no memory
    const bytes = Uint8Array.from([
      0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 7, 5, 1, 1, 102, 0, 0, 10, 4, 1, 2, 0, 11,
    ]);
    await expect(prepareModule(bytes, { maxMemoryBytes: MiB })).rejects.toMatchObject({
      kind: 'abi',
      message:
        'not a WASI command module (_start, memory) nor a Go js/wasm module (run, resume, getsp, mem) (exports: f; import modules: none)',
    });
    await expect(prepareModule(enc('#!/bin/sh\n'), { maxMemoryBytes: MiB })).rejects.toMatchObject({
      kind: 'compile',
      message: 'not a WebAssembly module: expected magic word 00 61 73 6d',
    });
  });
});

describe('ModuleCache', () => {
  it('compiles once per content and cap', async () => {
    const cache = new ModuleCache();
    const a = await cache.get(fixture('echo'), { maxMemoryBytes: 64 * MiB });
    const b = await cache.get(fixture('echo'), { maxMemoryBytes: 64 * MiB });
    const c = await cache.get(fixture('echo'), { maxMemoryBytes: 32 * MiB });
    expect(b.module).toBe(a.module);
    expect(c.module).not.toBe(a.module);
    expect(a.digest).toBe('sha256:d532d9600d01e0901bb61286ab6eef182c34e2218c178fb16c32bd64add70080');
    expect([cache.hits, cache.misses, cache.size]).toEqual([1, 2, 2]);
  });
});

describe('runWasi with a Go (GOOS=wasip1) module', () => {
  it('runs goroutines and time.Sleep through the shim and sets the namespace', async () => {
    const module = await prep('wasip1-setns-go123', 256 * MiB);
    const stdin = enc(
      JSON.stringify(
        configMapList(3, {
          functionConfig: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'fc' },
            data: { namespace: 'go-wasi' },
          },
        }),
      ),
    );
    const out = await runWasi({ module, stdin });
    expect(out.failure).toBeUndefined();
    expect(out.exitCode).toBe(0);
    const rl = JSON.parse(dec(out.stdout));
    expect(rl.items.map((i: { metadata: { namespace: string } }) => i.metadata.namespace)).toEqual([
      'go-wasi',
      'go-wasi',
      'go-wasi',
    ]);
    expect(rl.results).toEqual([{ message: 'namespace "go-wasi" set on 3 resources', severity: 'info' }]);
    expect(dec(out.stderr)).toBe('wasip1-setns: 3 resources\n');
  });

  it("dies with Go's out-of-memory error under a tight cap, reported as a memory failure", async () => {
    const module = await prep('wasip1-setns-go123', 24 * MiB);
    const out = await runWasi({ module, stdin: enc(JSON.stringify(configMapList(20_000))) });
    expect(out.exitCode).toBe(2);
    expect(dec(out.stderr)).toContain('fatal error: out of memory');
    // Go asks for 4 MiB blocks, so it gives up well before the last page: its message tells.
    expect(out.memoryBytes).toBeLessThan(20 * MiB);
    expect(out.failure).toEqual({ kind: 'memory', message: 'function exceeded the memory limit of 24 MiB' });
  });
});
