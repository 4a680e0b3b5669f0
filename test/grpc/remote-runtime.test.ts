/**
 * The remote runtime's `grpc://` endpoints end to end: `krmfn render` (a subprocess) sends the
 * functions its remote config maps to a `krmfn serve --grpc` subprocess, with a bearer token in
 * the metadata, and writes the same package as a local render.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { krmfn, serveProcess } from './helpers.ts';

const KPTFILE = (image: string): string => `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: app
pipeline:
  mutators:
  - image: ${image}
    configMap:
      namespace: prod
`;

const RESOURCES = `apiVersion: v1
kind: ConfigMap
metadata:
  name: app # keep me
data:
  k: v
`;

const TOKEN = 'grpc-remote-s3cret';
let server: Awaited<ReturnType<typeof serveProcess>>;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'krmfn-grpc-remote-'));
  writeFileSync(join(dir, 'token'), TOKEN + '\n');
  server = await serveProcess(['--grpc', '127.0.0.1:0', '--grpc-only', '--token-file', join(dir, 'token')]);
});

afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
  rmSync(dir, { recursive: true, force: true });
});

function pkg(name: string, image: string): string {
  const root = mkdtempSync(join(dir, `${name}-pkg-`));
  writeFileSync(join(root, 'Kptfile'), KPTFILE(image));
  writeFileSync(join(root, 'cm.yaml'), RESOURCES);
  return root;
}

function remoteConfig(image: string, token: string): string {
  const file = join(dir, `remote-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(
    file,
    `apiVersion: krmfn.dev/v1alpha1
kind: RemoteFunctions
endpoints:
- image: ${image}
  url: grpc://${server.target}
  retries: 0
  headers:
    authorization: Bearer ${token}
`,
  );
  return file;
}

describe('remote runtime over gRPC', () => {
  it('renders with a function run by `krmfn serve --grpc`, as a local render does', async () => {
    const image = 'gcr.io/kpt-fn/set-namespace:v0.4.1';
    const remote = pkg('remote', image);
    const local = pkg('local', image);
    const before = server.logs.filter((l) => l.msg === 'grpc' && l.code === 'OK').length;
    const r = await krmfn(['render', remote, '--remote-config', remoteConfig('gcr.io/kpt-fn/set-namespace', TOKEN)]);
    expect(r.code).toBe(0);
    expect(server.logs.filter((l) => l.msg === 'grpc' && l.code === 'OK').length).toBe(before + 1);
    const l = await krmfn(['render', local]);
    expect(l.code).toBe(0);
    expect(readFileSync(join(remote, 'cm.yaml'), 'utf8')).toBe(readFileSync(join(local, 'cm.yaml'), 'utf8'));
    expect(readFileSync(join(remote, 'cm.yaml'), 'utf8')).toContain('namespace: prod');
    // The same results as the local run (the package name and the duration differ).
    const results = (out: string): string => out.slice(out.indexOf('  Results:'));
    expect(results(r.stderr)).toBe(results(l.stderr));
    expect(results(r.stderr)).toContain('[info]: namespace "" updated to "prod", 1 value(s) changed');
  });

  it("fails the render with the server's status when the call is refused", async () => {
    const image = 'gcr.io/kpt-fn/set-namespace:v0.4.1';
    const root = pkg('refused', image);
    const r = await krmfn(['render', root, '--remote-config', remoteConfig('gcr.io/kpt-fn/set-namespace', 'wrong')]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      `remote function "${image}" at grpc://${server.target} failed: UNAUTHENTICATED: missing or wrong bearer token`,
    );
    expect(readFileSync(join(root, 'cm.yaml'), 'utf8')).toBe(RESOURCES);
  });

  it("fails the render with the runner's INTERNAL message as the function's stderr", async () => {
    const image = 'gcr.io/kpt-fn/starlark:v0.4.3';
    const root = mkdtempSync(join(dir, 'failing-pkg-'));
    writeFileSync(
      join(root, 'Kptfile'),
      `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: app
pipeline:
  mutators:
  - image: ${image}
    configPath: fn.yaml
`,
    );
    writeFileSync(
      join(root, 'fn.yaml'),
      `apiVersion: fn.kpt.dev/v1alpha1
kind: StarlarkRun
metadata:
  name: fn
  annotations:
    config.kubernetes.io/local-config: "true"
source: |
  fail("no such luck")
`,
    );
    writeFileSync(join(root, 'cm.yaml'), RESOURCES);
    const r = await krmfn(['render', root, '--remote-config', remoteConfig('gcr.io/kpt-fn/starlark', TOKEN)]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      `failed to evaluate function \\"${image}\\" with structured results: [error]: fail: no such luck`,
    );
    expect(readFileSync(join(root, 'cm.yaml'), 'utf8')).toBe(RESOURCES);
  });
});
