import { execFileSync } from 'node:child_process';
import { existsSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/node/cli.ts';

async function krmfn(
  argv: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  const o: Buffer[] = [];
  const e: Buffer[] = [];
  out.on('data', (c: Buffer) => o.push(c));
  err.on('data', (c: Buffer) => e.push(c));
  const code = await main({
    argv,
    stdin: Readable.from([]),
    stdout: out,
    stderr: err,
    env: { PATH: process.env.PATH, ...env },
    cwd,
  });
  return { code, stdout: Buffer.concat(o).toString(), stderr: Buffer.concat(e).toString() };
}

let tmp: string;
beforeAll(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-cli-'));
});
afterAll(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});

describe('krmfn functions', () => {
  it('lists built-ins with images, versions and config kinds', async () => {
    const r = await krmfn(['functions'], tmp);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('set-namespace (mutator)');
    expect(r.stdout).toContain(
      '  images:   gcr.io/kpt-fn/set-namespace, ghcr.io/kptdev/krm-functions-catalog/set-namespace',
    );
    expect(r.stdout).toContain('  config:   ConfigMap, SetLabels, SetLabelConfig');
  });
  it('--json includes the schema', async () => {
    const r = await krmfn(['functions', '--json'], tmp);
    const list = JSON.parse(r.stdout) as { name: string; versions: string[]; schema?: unknown; docs: string }[];
    const sn = list.find((d) => d.name === 'set-namespace')!;
    expect(sn.versions).toContain('v0.4.1');
    expect(sn.schema).toMatchObject({ type: 'object' });
    expect(sn.docs).toBe('builtins/docs/set-namespace.md');
    const names = list.map((d) => d.name);
    expect(names).toEqual([...names].sort());
  });
});

describe.each(['mutator', 'validator', 'generator'])('krmfn init --kind %s', (kind) => {
  it('scaffolds a project that passes its own golden test, then builds a runnable exec file', async () => {
    const name = `demo-${kind}`;
    const init = await krmfn(['init', name, '--kind', kind], tmp);
    expect(init.code, init.stderr).toBe(0);
    const dir = path.join(tmp, name);
    for (const f of [
      'package.json',
      'tsconfig.json',
      'src/fn.ts',
      'src/config.ts',
      'testdata/basic/_expected.yaml',
      'test/golden.test.mjs',
      'README.md',
    ]) {
      expect(existsSync(path.join(dir, f)), f).toBe(true);
    }
    const test = await krmfn(['test'], dir);
    expect(test.stdout + test.stderr).toContain('ok    basic');
    expect(test.code).toBe(0);

    const build = await krmfn(['build', '--out', 'dist/fn.mjs'], dir);
    expect(build.code, build.stderr).toBe(0);
    const help = execFileSync(path.join(dir, 'dist/fn.mjs'), ['--help'], { encoding: 'utf8' });
    expect(help).toContain(`${name} (${kind})`);
    expect(await krmfn(['init', name], tmp)).toMatchObject({ code: 1 });
  });
});

describe('krmfn build --target container', () => {
  it('writes the exec bundle with a Dockerfile and metadata.yaml', async () => {
    expect((await krmfn(['init', 'boxed'], tmp)).code).toBe(0);
    const dir = path.join(tmp, 'boxed');
    const r = await krmfn(['build', '--target', 'container'], dir);
    expect(r.code, r.stderr).toBe(0);
    const out = path.join(dir, 'dist/container');
    expect((await fsp.readdir(out)).sort()).toEqual(['Dockerfile', 'fn.mjs', 'metadata.yaml']);
    expect(await fsp.readFile(path.join(out, 'Dockerfile'), 'utf8')).toContain(
      'USER nobody\nENTRYPOINT ["node", "/usr/local/bin/krm-fn.mjs"]',
    );
    expect(await fsp.readFile(path.join(out, 'metadata.yaml'), 'utf8')).toBe(
      'image: boxed\ndescription: "Sets an annotation on every resource but local-config ones and the Kptfile."\ntags:\n  - mutator\nlicense: Apache-2.0\n',
    );
  });

  it('produces byte-identical bundles on rebuild (reproducible)', async () => {
    const dir = path.join(tmp, 'boxed');
    await krmfn(['build', '--out', 'a.mjs'], dir);
    await krmfn(['build', '--out', 'b.mjs'], dir);
    expect(await fsp.readFile(path.join(dir, 'a.mjs'), 'utf8')).toBe(
      await fsp.readFile(path.join(dir, 'b.mjs'), 'utf8'),
    );
    expect(await fsp.readFile(path.join(dir, 'a.mjs'), 'utf8')).not.toContain(tmp);
  });
});

describe('krmfn build --target wasm-js', () => {
  it('produces a plain script that defines processResourceList in a bare JS context', async () => {
    const dir = path.join(tmp, 'boxed');
    const r = await krmfn(['build', '--target', 'wasm-js'], dir);
    expect(r.code, r.stderr).toBe(0);
    const code = await fsp.readFile(path.join(dir, 'dist/fn.global.js'), 'utf8');
    expect(code).not.toMatch(/^\s*(import|export)\b/m);
    const { createContext, runInContext } = await import('node:vm');
    const sandbox: Record<string, unknown> = { TextDecoder, TextEncoder };
    sandbox['globalThis'] = sandbox;
    createContext(sandbox);
    runInContext(code, sandbox);
    const out = (sandbox['processResourceList'] as (s: string) => string)(
      'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: x\n  data:\n    value: team-a\n',
    );
    expect(out).toContain('example.com/managed-by: team-a');
  });
});

describe('krmfn test', () => {
  it('fails with a diff when the golden output differs, and --update rewrites it', async () => {
    const dir = path.join(tmp, 'drift');
    expect((await krmfn(['init', 'drift'], tmp)).code).toBe(0);
    const fnPath = path.join(dir, 'src/fn.ts');
    await fsp.writeFile(
      fnPath,
      (await fsp.readFile(fnPath, 'utf8')).replace('ctx.results.info(`set', 'ctx.results.warning(`set'),
    );
    const failed = await krmfn(['test'], dir);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('FAIL  basic');
    expect(failed.stdout).toContain('-  severity: info\n+  severity: warning');
    expect((await krmfn(['test', '--update'], dir)).code).toBe(0);
    expect((await krmfn(['test'], dir)).code).toBe(0);
  });

  it('checks the exit code: a function that stops failing fails its failing case', async () => {
    const dir = path.join(tmp, 'lenient');
    expect((await krmfn(['init', 'lenient'], tmp)).code).toBe(0);
    expect((await krmfn(['test'], dir)).stdout).toContain('ok    empty-value');
    const cfgPath = path.join(dir, 'src/config.ts');
    await fsp.writeFile(cfgPath, (await fsp.readFile(cfgPath, 'utf8')).replace('minLength: 1, ', ''));
    const r = await krmfn(['test'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('FAIL  empty-value');
    expect(r.stdout).toContain('-exitCode: 1\n+exitCode: 0');
  });

  it('records and checks stderr', async () => {
    const dir = path.join(tmp, 'chatty');
    expect((await krmfn(['init', 'chatty'], tmp)).code).toBe(0);
    const fnPath = path.join(dir, 'src/fn.ts');
    await fsp.writeFile(
      fnPath,
      (await fsp.readFile(fnPath, 'utf8')).replace('let changed = 0;', "let changed = 0;\n    ctx.log('hello');"),
    );
    const r = await krmfn(['test'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('+stderr: |\n+  hello');
    expect((await krmfn(['test', '--update'], dir)).code).toBe(0);
    expect(await fsp.readFile(path.join(dir, 'testdata/basic/_expected_status.yaml'), 'utf8')).toBe(
      'exitCode: 0\nstderr: |\n  hello\n',
    );
    expect((await krmfn(['test'], dir)).code).toBe(0);
  });
});
