// `ctx.open_api` per released tag of the catalog's starlark function (builtins/docs/starlark.md,
// "ctx"): the Kubernetes schema each tag's kyaml embeds plus kustomize's definitions, loaded from
// data/open-api only when a script reads it, a dict up to v0.4.0 and kyaml's lazy mapping from
// v0.4.1. Expected values come from the kyaml sources at each tag (scripts/gen-open-api.mjs).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine, defaultRuntimes, type OpenApiSchemaId } from 'krmfn';
import { runStarlarkFunction } from '../../src/runtimes/starlark.ts';
import { STARLARK_RELEASED_VERSIONS } from '../../src/runtimes/starlark/versions.ts';
import { nodeOpenApiLoader, openApiDocumentsLoaded } from '../../src/node/open-api.ts';
import { DEFAULT_LIMITS } from '../../src/core/limits.ts';
import { MemoryFs } from '../../src/core/memory-fs.ts';
import type { ResourceList, RunContext } from '../../src/core/function.ts';
import { ensureBuilt } from '../harness/built-cli.ts';
import { startServeProcess } from '../serve/serve-process.ts';
import type { RenderResponseJson } from '../../src/node/serve/service.ts';
import { starlarkRunList } from './krm/starlark-run-list.ts';

const repo = path.resolve(import.meta.dirname, '../..');

const list = (source: string): ResourceList => starlarkRunList(source);

const context: RunContext = {
  limits: DEFAULT_LIMITS,
  signal: new AbortController().signal,
  deadline: Number.MAX_SAFE_INTEGER,
  now: () => 0,
  env: {},
  validator: false,
};

function run(version: string, source: string): { stderr: string; exitCode: number; message?: string } {
  const out = runStarlarkFunction(list(source), context, { version, openApi: nodeOpenApiLoader });
  return { stderr: out.stderr, exitCode: out.exitCode, message: out.output.results[0]?.message };
}

/** What each tag's kyaml embeds: Kubernetes version, definition count, a definition new in it. */
function expectedSchema(version: string): { count: number; newest: string; kvPairEnv: boolean } {
  if (version === 'v0.1.0') return { count: 563, newest: 'io.k8s.api.networking.v1.IngressClass', kvPairEnv: false };
  if (version < 'v0.3.0') return { count: 601, newest: 'io.k8s.api.authentication.v1.TokenRequest', kvPairEnv: true };
  return { count: 623, newest: 'io.k8s.api.batch.v1.CronJob', kvPairEnv: true };
}

const PROBE = `d = ctx.open_api["definitions"]
print(d["io.k8s.api.apps.v1.Deployment"]["properties"]["spec"]["$ref"])
print(len(d))
print(type(ctx.open_api), "definitions" in ctx.open_api, "paths" in ctx.open_api)
print("io.k8s.api.batch.v1.CronJob" in d, "io.k8s.api.authentication.v1.TokenRequest" in d)
print(d["io.k8s.api.apps.v1.Kustomization"]["x-kubernetes-group-version-kind"])
print("env" in d["io.k8s.api.apps.v1.KvPairSources"]["properties"])
print(d["io.k8s.api.apps.v1.ConfigMapArgs"]["additionalProperties"])
print(d["io.k8s.apimachinery.pkg.util.intstr.IntOrString"]["format"])
`;

describe('ctx.open_api per released tag', () => {
  it('a script that never reads ctx.open_api loads no document', () => {
    for (const version of STARLARK_RELEASED_VERSIONS) {
      const out = run(version, 'ctx.resource_list["items"][0]["metadata"]["name"] = "b"\nprint(dir(ctx))\n');
      expect(out.exitCode).toBe(0);
      expect(out.stderr).toBe('["environment", "open_api", "resource_list"]');
    }
    expect(openApiDocumentsLoaded()).toBe(0);
  });

  for (const version of STARLARK_RELEASED_VERSIONS) {
    it(`${version}: the schema its kyaml embeds`, () => {
      const want = expectedSchema(version);
      const out = run(version, PROBE);
      expect(out.message).toBeUndefined();
      expect(out.stderr.split('\n')).toEqual([
        '#/definitions/io.k8s.api.apps.v1.DeploymentSpec',
        String(want.count),
        'dict True False',
        `${want.count === 623 ? 'True' : 'False'} ${want.count !== 563 ? 'True' : 'False'}`,
        '[{"group": "kustomize.config.k8s.io", "kind": "Kustomization", "version": "v1beta1"}]',
        want.kvPairEnv ? 'True' : 'False',
        'False',
        'int-or-string',
      ]);
      expect(run(version, `print("${want.newest}" in ctx.open_api["definitions"])`).stderr).toBe('True');
    });
  }

  it('reads each document at most once per process, whichever tags use it', () => {
    expect(openApiDocumentsLoaded()).toBe(3);
  });

  it('a whole definition, as json.encode sees it (keys sorted: the image has Go map order)', () => {
    const out = run(
      'v0.5.1',
      'load("encoding/json.star", "json")\nprint(json.encode(ctx.open_api["definitions"]["io.k8s.api.core.v1.LocalObjectReference"]))',
    );
    expect(JSON.parse(out.stderr)).toEqual({
      description:
        'LocalObjectReference contains enough information to let you locate the referenced object inside the same namespace.',
      properties: {
        name: {
          description:
            'Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names',
          type: 'string',
        },
      },
      type: 'object',
    });
  });
});

describe('the value type per tag', () => {
  const DICT_ONLY = [
    'print(len(ctx.open_api))',
    'print([k for k in ctx.open_api])',
    'print(ctx.open_api.keys())',
    'print(ctx.open_api.get("definitions") != None)',
  ];
  it('up to v0.4.0 ctx.open_api is a plain dict', () => {
    for (const version of ['v0.1.0', 'v0.3.0', 'v0.4.0'])
      expect(DICT_ONLY.map((s) => run(version, s).stderr)).toEqual(['1', '["definitions"]', '["definitions"]', 'True']);
  });
  it('from v0.4.1 it is kyaml`s LazyInitializationOpenapi: indexable, but no len, iteration or methods', () => {
    for (const version of ['v0.4.1', 'v0.5.0', 'v0.5.1']) {
      const messages = DICT_ONLY.map((s) => run(version, s).message);
      expect(messages).toEqual([
        'len: value of type dict has no len',
        'dict value is not iterable',
        'dict has no .keys field or method',
        'dict has no .get field or method',
      ]);
      expect(run(version, 'print(type(ctx.open_api), bool(ctx.open_api), ctx.open_api["x"])').message).toBe(
        'key "x" not in dict',
      );
    }
  });
});

describe('the v0.4.1+ mapping, probe by probe', () => {
  // Expected: a starlark.Mapping delegating as LazyInitializationOpenapi does, run by starlark-go
  // at the v0.5.1 pin with kpt's flags over the same small document (a Go build outside the repo).
  const PROBES: [string, string][] = [
    ['print(ctx.open_api == {}, ctx.open_api != ctx.open_api)', 'False False'],
    ['print(str(ctx.open_api))', '{"definitions": {"a": {"type": "object"}}}'],
    ['print(ctx.open_api)', '{"definitions": {"a": {"type": "object"}}}'],
    ['print("definitions" in ctx.open_api, 1 in ctx.open_api, [] in ctx.open_api)', 'True False False'],
    ['print(dir(ctx.open_api), getattr(ctx.open_api, "keys", 5), hasattr(ctx.open_api, "get"))', '[] 5 False'],
    ['ctx.open_api["x"] = 1', 'error: dict value does not support item assignment'],
    ['x = {ctx.open_api: 1}', 'error: unhashable type: dict'],
    ['print(ctx.open_api < ctx.open_api)', 'error: dict < dict not implemented'],
    ['print(sorted(ctx.open_api))', 'error: sorted: for parameter iterable: got dict, want iterable'],
    ['print(dict(ctx.open_api))', 'error: dict: got dict, want iterable'],
    ['print(list(ctx.open_api))', 'error: list: for parameter 1: got dict, want iterable'],
    [
      'load("encoding/json.star", "json")\nprint(json.encode(ctx.open_api))',
      'error: json.encode: cannot encode dict as JSON',
    ],
    ['print(ctx.open_api[[]])', 'error: unhashable type: list'],
  ];
  it('answers as starlark-go does', () => {
    const answers = PROBES.map(([source]) => {
      const out = runStarlarkFunction(list(source), context, {
        version: 'v0.5.1',
        openApi: () => ({ definitions: { a: { type: 'object' } } }),
      });
      return out.exitCode === 0 ? out.stderr : `error: ${out.output.results[0].message}`;
    });
    expect(answers).toEqual(PROBES.map(([, want]) => want));
  });
});

describe('hosts', () => {
  it('a loader that fails gives the script an error result with its message', () => {
    const out = runStarlarkFunction(list('print(ctx.open_api["definitions"])'), context, {
      version: 'v0.5.1',
      openApi: () => {
        throw new Error('document unavailable');
      },
    });
    expect(out.exitCode).toBe(1);
    expect(out.output.results[0].message).toBe('ctx.open_api: document unavailable');
  });

  it('without a loader (the browser playground) ctx.open_api is empty', () => {
    const out = runStarlarkFunction(list('print(type(ctx.open_api), "definitions" in ctx.open_api)'), context, {
      version: 'v0.4.0',
    });
    expect(out.stderr).toBe('dict False');
  });

  it('the engine hands the loader the schema of the tag the Kptfile names, only when read', async () => {
    const asked: OpenApiSchemaId[] = [];
    const engine = createEngine({
      runtimes: defaultRuntimes({ openApi: (schema) => (asked.push(schema), { definitions: { x: {} } }) }),
    });
    const step = (tag: string, source: string): string =>
      `    - image: gcr.io/kpt-fn/starlark:${tag}\n      configMap:\n        source: ${JSON.stringify(source)}\n`;
    const fs = new MemoryFs({
      '/pkg/Kptfile':
        'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\npipeline:\n  mutators:\n' +
        step('v0.2.0', 'x = 1') +
        step('v0.2.2', 'x = ctx.open_api["definitions"]') +
        step('v0.4.3', 'x = ctx.open_api["definitions"]'),
      '/pkg/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
    });
    const outcome = await engine.render({ fs, root: '/pkg' });
    expect(outcome.results.exitCode).toBe(0);
    expect(asked).toEqual(['kubernetes-v1.20.4', 'kubernetes-v1.21.2']);
  });

  it('krmfn fn eval reads the packaged document', () => {
    ensureBuilt();
    const dir = mkdtempSync(path.join(tmpdir(), 'krmfn-open-api-'));
    try {
      writeFileSync(path.join(dir, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n');
      writeFileSync(
        path.join(dir, 'fn.yaml'),
        'apiVersion: fn.kpt.dev/v1alpha1\nkind: StarlarkRun\nmetadata:\n  name: oa\nsource: |\n' +
          '  print(len(ctx.open_api["definitions"]), "io.k8s.api.batch.v1.CronJob" in ctx.open_api["definitions"])\n',
      );
      const r = spawnSync(
        process.execPath,
        [
          path.join(repo, 'bin/krmfn.mjs'),
          'fn',
          'eval',
          dir,
          '--image',
          'gcr.io/kpt-fn/starlark:v0.2.0',
          '--fn-config',
          path.join(dir, 'fn.yaml'),
        ],
        { encoding: 'utf8', cwd: dir },
      );
      expect(r.status).toBe(0);
      expect(r.stderr).toContain('601 False');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('krmfn serve renders with the packaged document', async () => {
    const server = await startServeProcess([]);
    try {
      const files = {
        Kptfile:
          'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: app\npipeline:\n  mutators:\n' +
          '    - image: ghcr.io/kptdev/krm-functions-catalog/starlark:v0.5.1\n      configMap:\n        source: |\n' +
          '          d = ctx.open_api["definitions"]\n' +
          '          for r in ctx.resource_list["items"]:\n' +
          '            r["metadata"]["labels"] = {"ref": d["io.k8s.api.apps.v1.Deployment"]["properties"]["spec"]["$ref"]}\n',
        'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
      };
      const res = await fetch(`${server.url}/v1/render`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ files }),
      });
      const body = (await res.json()) as RenderResponseJson;
      expect(res.status).toBe(200);
      expect(body.files['cm.yaml']).toContain("ref: '#/definitions/io.k8s.api.apps.v1.DeploymentSpec'");
    } finally {
      await server.stop();
    }
  });

  it('a mutation of ctx.open_api stays within its call', () => {
    for (const version of ['v0.4.0', 'v0.5.1']) {
      run(version, 'ctx.open_api["definitions"]["io.k8s.api.core.v1.Pod"]["type"] = "changed"');
      expect(run(version, 'print(ctx.open_api["definitions"]["io.k8s.api.core.v1.Pod"]["type"])').stderr).toBe(
        'object',
      );
    }
  });
});
