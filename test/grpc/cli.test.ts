/**
 * `krmfn serve --grpc` as a subprocess, called by a real gRPC client built from the proto: the
 * same ResourceList as `krmfn run` (what the function's container would write) and `krmfn eval -`,
 * and Porch's own runner's messages for failures (texts from nephio-project/porch
 * func/wrapper-server/main.go and func/internal/multievaluator.go, see
 * src/node/grpc/porch-status.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import YAML from 'yaml';
import { krmfn, serveProcess, SET_NAMESPACE, setNamespaceList, STARLARK, starlarkList, TestClient } from './helpers.ts';

const APP = `- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: app # keep me
    annotations:
      config.kubernetes.io/index: '0'
      internal.config.kubernetes.io/path: 'app.yaml'
  data:
    k: v
`;
const LIST = setNamespaceList(APP);

const NAMESPACED_APP = `- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: app
    namespace: prod
    annotations:
      config.kubernetes.io/index: '0'
      internal.config.kubernetes.io/path: 'app.yaml'
  data:
    k: v
`;

const LABEL_SOURCE = `for r in ctx.resource_list["items"]:
  r["metadata"].setdefault("labels", {})["team"] = "blue"`;

const FAIL_SOURCE = `print("checked 1 object")
fail("app is not allowed")`;

let server: Awaited<ReturnType<typeof serveProcess>>;
let client: TestClient;

beforeAll(async () => {
  server = await serveProcess(['--grpc', '127.0.0.1:0', '--grpc-only']);
  client = new TestClient(server.target);
});

afterAll(async () => {
  client?.close();
  if (server) expect(await server.stop()).toBe(0);
});

describe('krmfn serve --grpc: answers as the function and kpt would', () => {
  it('answers health checks', async () => {
    expect(await client.check()).toMatchObject({ code: 0, status: 'SERVING' });
    expect(await client.check('evaluator.FunctionEvaluator')).toMatchObject({ code: 0, status: 'SERVING' });
    expect((await client.check('no.such.Service')).code).toBe(grpc.status.NOT_FOUND);
  });

  it('runs a built-in: the same ResourceList as `krmfn run` and `krmfn eval -`', async () => {
    const answer = await client.evaluate(SET_NAMESPACE, LIST);
    const run = await krmfn(['run', SET_NAMESPACE], LIST);
    expect(run.code).toBe(0);
    expect(answer).toMatchObject({ code: 0, resourceList: run.stdout, log: run.stderr });
    expect(answer.resourceList).toContain('namespace: prod');
    expect(answer.resourceList).toContain('# keep me');
    const evaluated = await krmfn(['eval', '-', '-i', SET_NAMESPACE, '--', 'namespace=prod'], LIST);
    expect(evaluated.code).toBe(0);
    expect(resourcesOf(answer.resourceList!)).toEqual(resourcesOf(evaluated.stdout));
  });

  it('runs a Starlark function: the same ResourceList as `krmfn run` and `krmfn eval -`', async () => {
    const input = starlarkList(NAMESPACED_APP, LABEL_SOURCE);
    const answer = await client.evaluate(STARLARK, input);
    const run = await krmfn(['run', STARLARK], input);
    expect(run.code).toBe(0);
    expect(answer).toMatchObject({ code: 0, resourceList: run.stdout, log: run.stderr });
    expect(answer.resourceList).toContain('team: blue');
    const dir = mkdtempSync(join(tmpdir(), 'krmfn-grpc-'));
    const config = join(dir, 'fn.yaml');
    writeFileSync(config, YAML.stringify((YAML.parse(input) as { functionConfig: unknown }).functionConfig));
    const evaluated = await krmfn(['eval', '-', '-i', STARLARK, '--fn-config', config], input);
    rmSync(dir, { recursive: true });
    expect(evaluated.code).toBe(0);
    expect(resourcesOf(answer.resourceList!)).toEqual(resourcesOf(evaluated.stdout));
  });

  it('answers NOT_FOUND for an image nothing runs, as Porch does', async () => {
    const answer = await client.evaluate('example.com/fn/nothing-runs-me:v1', LIST);
    expect(answer).toEqual({
      code: grpc.status.NOT_FOUND,
      details: 'function "example.com/fn/nothing-runs-me:v1" not found',
    });
  });

  it('answers INTERNAL with the structured results and stderr for a non-zero exit', async () => {
    const input = starlarkList(NAMESPACED_APP, FAIL_SOURCE);
    const run = await krmfn(['run', STARLARK], input);
    expect(run.code).not.toBe(0);
    const answer = await client.evaluate(STARLARK, input);
    expect(answer).toEqual({
      code: grpc.status.INTERNAL,
      details: `failed to evaluate function "${STARLARK}" with structured results: [error]: fail: app is not allowed and stderr: ${run.stderr}`,
    });
  });

  it('answers INTERNAL with the parse error and stderr for a malformed ResourceList', async () => {
    const input = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: [\n';
    const run = await krmfn(['run', SET_NAMESPACE], input);
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    const answer = await client.evaluate(SET_NAMESPACE, input);
    expect(answer).toEqual({
      code: grpc.status.INTERNAL,
      details: `failed to parse the output of function "${SET_NAMESPACE}" with stderr '${run.stderr}': failed to parse input bytes: expected exactly one object, got 0`,
    });
  });

  it('forwards what it cannot run to --grpc-upstream and relays the answer', async () => {
    const front = await serveProcess(['--grpc', '127.0.0.1:0', '--grpc-only', '--grpc-upstream', server.target]);
    const frontClient = new TestClient(front.target);
    try {
      const image = 'example.com/fn/only-upstream-knows:v1';
      expect(await frontClient.evaluate(image, LIST)).toEqual({
        code: grpc.status.NOT_FOUND,
        details: `function "${image}" not found`,
      });
      expect(server.logs.some((l) => l.msg === 'grpc' && l.image === image)).toBe(true);
      // Built-ins stay in the front: the upstream sees no new call for them.
      const upstreamCalls = server.logs.filter((l) => l.msg === 'grpc').length;
      expect((await frontClient.evaluate(SET_NAMESPACE, LIST)).code).toBe(0);
      expect(server.logs.filter((l) => l.msg === 'grpc').length).toBe(upstreamCalls);
    } finally {
      frontClient.close();
      expect(await front.stop()).toBe(0);
    }
  });

  it('refuses bad gRPC flags with a usage error', async () => {
    expect(await krmfn(['serve', '--grpc-only'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: --grpc-only needs --grpc ADDR\n',
    });
    expect(await krmfn(['serve', '--grpc', 'nowhere', '--grpc-only'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: invalid gRPC address "nowhere": want HOST:PORT\n',
    });
    const half = await krmfn(['serve', '--grpc', '127.0.0.1:0', '--grpc-tls-cert', 'cert.pem']);
    expect(half).toEqual({ code: 1, stdout: '', stderr: 'error: --grpc-tls-cert and --grpc-tls-key go together\n' });
  });

  it('writes one JSON log line per call', () => {
    const calls = server.logs.filter((l) => l.msg === 'grpc');
    expect(calls.length).toBeGreaterThanOrEqual(5);
    expect(calls.map((c) => c.code)).toEqual(expect.arrayContaining(['OK', 'NOT_FOUND', 'INTERNAL']));
    for (const c of calls) expect(c).toMatchObject({ method: 'EvaluateFunction', image: expect.any(String) });
  });
});

/**
 * The items of an output ResourceList without the bookkeeping annotations kpt's orchestrator
 * (here `krmfn eval`) adds around the function call, which a function runner does not.
 */
function resourcesOf(list: string): unknown[] {
  const items = (YAML.parse(list) as { items: Array<{ metadata?: { annotations?: Record<string, string> } }> }).items;
  for (const item of items) {
    const a = item.metadata?.annotations ?? {};
    for (const k of Object.keys(a))
      if (k.startsWith('internal.config.kubernetes.io/') || k.startsWith('config.kubernetes.io/')) delete a[k];
    if (item.metadata && Object.keys(a).length === 0) delete item.metadata.annotations;
  }
  return items;
}
