// Golden cases for the KRM `starlark` function: each directory under cases/ holds `input.yaml`
// (the ResourceList kpt would send, functionConfig included), optionally `env.json` and
// `openapi.json` and `image.txt` (the image reference whose tag selects the behaviour; default
// the newest), and the expected `outcome.json` ({exitCode, stderr, results}) and, on success,
// `output.yaml` (the output items as a ResourceList). UPDATE_GOLDEN=1 rewrites the expectations.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runStarlarkFunction, starlarkImageVersion } from '../../../src/runtimes/starlark.ts';
import { KubeObject } from '../../../src/core/kube-object.ts';
import { DEFAULT_LIMITS } from '../../../src/core/limits.ts';
import type { ResourceList, RunContext } from '../../../src/core/function.ts';
import { parseYamlFile } from '../../../src/core/yaml/index.ts';
import { documentNode, mapGet } from '../../../src/core/yaml/node.ts';
import { serializeResourceList } from '../../../src/core/resource-list.ts';

const CASES = fileURLToPath(new URL('./cases/', import.meta.url));
const UPDATE = process.env['UPDATE_GOLDEN'] === '1';

function readInput(text: string): ResourceList {
  const root = parseYamlFile(text, { file: 'input.yaml' }).docs[0].content[0];
  const items = mapGet(root, 'items')?.content.map((n) => new KubeObject(documentNode(n))) ?? [];
  const fc = mapGet(root, 'functionConfig');
  return { items, ...(fc ? { functionConfig: new KubeObject(documentNode(fc)) } : {}), results: [] };
}

function context(): RunContext {
  return {
    limits: { ...DEFAULT_LIMITS },
    signal: new AbortController().signal,
    deadline: Date.now() + 60_000,
    now: () => 1_700_000_000_000,
    env: { SECRET_TEST_VAR: 'the host environment must not reach scripts' },
    validator: false,
  };
}

function golden(path: string, actual: string): void {
  if (UPDATE || !existsSync(path)) {
    writeFileSync(path, actual);
    if (!UPDATE) throw new Error(`wrote missing golden ${path}; review it and re-run`);
    return;
  }
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

describe('KRM starlark function golden cases', () => {
  for (const name of readdirSync(CASES).sort()) {
    const dir = join(CASES, name);
    it(name, () => {
      const input = readInput(readFileSync(join(dir, 'input.yaml'), 'utf8'));
      const env = existsSync(join(dir, 'env.json'))
        ? (JSON.parse(readFileSync(join(dir, 'env.json'), 'utf8')) as Record<string, string>)
        : {};
      const openApiFile = join(dir, 'openapi.json');
      const openApi = existsSync(openApiFile)
        ? () => JSON.parse(readFileSync(openApiFile, 'utf8')) as unknown
        : undefined;
      const imageFile = join(dir, 'image.txt');
      const version = existsSync(imageFile) ? starlarkImageVersion(readFileSync(imageFile, 'utf8').trim()) : undefined;
      if (existsSync(imageFile)) expect(version).toBeDefined();
      const out = runStarlarkFunction(input, context(), {
        environment: env,
        ...(openApi ? { openApi } : {}),
        ...(version ? { version } : {}),
      });
      golden(
        join(dir, 'outcome.json'),
        JSON.stringify({ exitCode: out.exitCode, stderr: out.stderr, results: out.output.results }, null, 2) + '\n',
      );
      if (out.exitCode === 0) golden(join(dir, 'output.yaml'), serializeResourceList(out.output.items));
      else expect(existsSync(join(dir, 'output.yaml'))).toBe(false);
    });
  }
});
