/**
 * `krmfn/sdk/testing`: runner-agnostic test utilities (docs/sdk.md, "Design"). Everything returns
 * plain data; nothing touches `describe`, `it` or `expect`, so any runner (node:test, vitest,
 * jest, a plain script) wraps the cases itself. Browser-safe: files come through an injected fs.
 *
 * Golden layout (the Go SDK's): each subdirectory of `dir` is a case holding resources (`*.yaml`,
 * `*.yml`, `Kptfile`), an optional `_fnconfig.yaml`, and `_expected.yaml`, the whole output
 * ResourceList (results included). Comparison is textual, so lost comments fail the case.
 */
import { unifiedDiff } from '../src/core/diff.ts';
import { isKubeObject, KubeObject } from '../src/core/kube-object.ts';
import type { ResourceList } from '../src/core/function.ts';
import type { Result } from '../src/core/result.ts';
import { parseYamlFile } from '../src/core/yaml/index.ts';
import type { KrmFunction } from './define.ts';
import type { ExecuteOptions } from './execute.ts';
import { processResourceList, stringifyResourceList } from './process.ts';

export type ItemsInput = string | readonly (KubeObject | Record<string, unknown>)[];

export interface RunFunctionInput extends ExecuteOptions {
  /** Items as YAML text (one or more documents) or objects. */
  items?: ItemsInput;
  /** A string map (becomes a `function-input` ConfigMap), plain object or KubeObject. */
  config?: Readonly<Record<string, string>> | Record<string, unknown> | KubeObject;
  /** A whole ResourceList as text (instead of items/config). */
  input?: string;
}

export interface RunFunctionOutput {
  output: string;
  items: KubeObject[];
  results: Result[];
  exitCode: number;
  log: string[];
}

function toObjects(items: ItemsInput | undefined): KubeObject[] {
  if (items === undefined) return [];
  if (typeof items === 'string') return parseYamlFile(items).docs.map((d) => new KubeObject(d));
  return items.map((o) => (isKubeObject(o) ? o : KubeObject.fromJS(o)));
}

function toConfig(config: RunFunctionInput['config']): KubeObject | undefined {
  if (config === undefined) return undefined;
  if (isKubeObject(config)) return config;
  const c = config as Record<string, unknown>;
  if (typeof c['kind'] === 'string') return KubeObject.fromJS(c);
  return KubeObject.fromJS({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'function-input' },
    data: { ...c },
  });
}

/** Builds the input ResourceList text from items and config. */
export function buildResourceList(input: Pick<RunFunctionInput, 'items' | 'config'>): string {
  const list: ResourceList = { items: toObjects(input.items), results: [] };
  const fc = toConfig(input.config);
  if (fc) list.functionConfig = fc;
  return stringifyResourceList(list);
}

/** Runs `fn` on items and config (or a whole ResourceList text) and returns plain data. */
export async function runFunction(fn: KrmFunction, input: RunFunctionInput = {}): Promise<RunFunctionOutput> {
  const text = input.input ?? buildResourceList(input);
  const out = await processResourceList(fn, text, input);
  return {
    output: out.output,
    items: out.resourceList.items,
    results: out.results,
    exitCode: out.exitCode,
    log: out.log,
  };
}

/** A fluent builder of ResourceList inputs for tests. */
export function resourceListBuilder(): {
  item(obj: KubeObject | Record<string, unknown> | string): ReturnType<typeof resourceListBuilder>;
  config(cfg: RunFunctionInput['config']): ReturnType<typeof resourceListBuilder>;
  build(): string;
} {
  const items: (KubeObject | Record<string, unknown>)[] = [];
  let cfg: RunFunctionInput['config'];
  const b = {
    item(obj: KubeObject | Record<string, unknown> | string) {
      if (typeof obj === 'string') items.push(...toObjects(obj));
      else items.push(obj);
      return b;
    },
    config(c: RunFunctionInput['config']) {
      cfg = c;
      return b;
    },
    build: () => buildResourceList({ items, config: cfg }),
  };
  return b;
}

/** The filesystem golden tests read (and, when updating, write). Paths are slash paths. */
export interface GoldenFs {
  /** Entry names of a directory with their kind. */
  readDir(path: string): Promise<{ name: string; kind: 'file' | 'dir' }[]>;
  readFile(path: string): Promise<string>;
  writeFile(path: string, text: string): Promise<void>;
}

export interface GoldenOptions {
  dir: string;
  fs: GoldenFs;
  /** Rewrite `_expected.yaml` (and `_expected_status.yaml`) from the actual run instead of comparing. */
  update?: boolean;
  /** Options passed to every run (env, clock, image...). */
  run?: ExecuteOptions;
  /**
   * Runs one case's function call and returns what the function wrote outside its log (console
   * output, for example), recorded as stderr before the log lines, as an exec build prints them
   * (`krmfn test` passes krmfn/sdk/node's console capture). Default: nothing is captured.
   */
  captureOutput?: <T>(call: () => Promise<T>) => Promise<{ value: T; output: string }>;
}

export interface GoldenResult {
  ok: boolean;
  /** Unified diff expected → actual ('' when equal). */
  diff: string;
  actual: string;
  expected: string | undefined;
  exitCode: number;
  /** What the function wrote to stderr (its log lines, newline-terminated). */
  stderr: string;
}

/**
 * A case's expected exit code and stderr, `_expected_status.yaml` beside `_expected.yaml`:
 * `exitCode: N` and, when the function wrote any, `stderr: |` with the text. A case without the
 * file expects exit code 0 and no stderr, so a failing case must record its failure and a function
 * that stops failing fails its test.
 */
export const STATUS_FILE = '_expected_status.yaml';

function statusText(exitCode: number, stderr: string): string {
  if (!stderr) return `exitCode: ${exitCode}\n`;
  const body = stderr
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => (l ? `  ${l}` : ''))
    .join('\n');
  return `exitCode: ${exitCode}\nstderr: |${stderr.endsWith('\n') ? '' : '-'}\n${body}\n`;
}

export interface GoldenCase {
  name: string;
  dir: string;
  run(): Promise<GoldenResult>;
}

const isResourceFile = (name: string): boolean =>
  name === 'Kptfile' ||
  ((name.endsWith('.yaml') || name.endsWith('.yml')) &&
    name !== '_fnconfig.yaml' &&
    name !== '_expected.yaml' &&
    name !== STATUS_FILE);

/** Items of one case directory (recursively), annotated with their path and index as kpt reads them. */
async function readCaseItems(fs: GoldenFs, dir: string, rel = ''): Promise<KubeObject[]> {
  const out: KubeObject[] = [];
  const entries = (await fs.readDir(dir)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.kind === 'dir') out.push(...(await readCaseItems(fs, `${dir}/${e.name}`, path)));
    else if (isResourceFile(e.name)) {
      const parsed = parseYamlFile(await fs.readFile(`${dir}/${e.name}`), { file: path });
      parsed.docs.forEach((d, i) => {
        const o = new KubeObject(d);
        if (o.root.kind === 'mapping') {
          // What kpt's reader adds, single-quoted as kpt writes them.
          for (const [k, v] of [
            ['config.kubernetes.io/index', String(i)],
            ['config.kubernetes.io/path', path],
            ['internal.config.kubernetes.io/index', String(i)],
            ['internal.config.kubernetes.io/path', path],
          ] as const) {
            o.setAnnotation(k, v);
            const n = o.getNode(['metadata', 'annotations', k]);
            if (n) n.style = 'single';
          }
        }
        out.push(o);
      });
    }
  }
  return out;
}

/** One case per subdirectory of `dir` (sorted); the caller wraps each in its runner's test(). */
export async function goldenTests(fn: KrmFunction, opts: GoldenOptions): Promise<GoldenCase[]> {
  const dirs = (await opts.fs.readDir(opts.dir))
    .filter((e) => e.kind === 'dir')
    .map((e) => e.name)
    .sort();
  return dirs.map((name) => {
    const dir = `${opts.dir}/${name}`;
    return {
      name,
      dir,
      async run(): Promise<GoldenResult> {
        const names = (await opts.fs.readDir(dir)).map((e) => e.name);
        const items = await readCaseItems(opts.fs, dir);
        const list: ResourceList = { items, results: [] };
        if (names.includes('_fnconfig.yaml')) {
          const doc = parseYamlFile(await opts.fs.readFile(`${dir}/_fnconfig.yaml`), { file: '_fnconfig.yaml' })
            .docs[0];
          if (doc) list.functionConfig = new KubeObject(doc);
        }
        const call = (): Promise<Awaited<ReturnType<typeof processResourceList>>> =>
          processResourceList(fn, list, opts.run ?? {});
        const { value: out, output } = opts.captureOutput
          ? await opts.captureOutput(call)
          : { value: await call(), output: '' };
        const actual = out.output;
        const stderr = output + out.log.map((l) => `${l}\n`).join('');
        const actualStatus = statusText(out.exitCode, stderr);
        const expectedPath = `${dir}/_expected.yaml`;
        const statusPath = `${dir}/${STATUS_FILE}`;
        const expected = names.includes('_expected.yaml') ? await opts.fs.readFile(expectedPath) : undefined;
        if (opts.update) {
          await opts.fs.writeFile(expectedPath, actual);
          await opts.fs.writeFile(statusPath, actualStatus);
          return { ok: true, diff: '', actual, expected: actual, exitCode: out.exitCode, stderr };
        }
        const expectedStatus = names.includes(STATUS_FILE) ? await opts.fs.readFile(statusPath) : statusText(0, '');
        const outputOk = expected === actual;
        const statusOk = expectedStatus === actualStatus;
        const diff = [
          outputOk ? '' : unifiedDiff('_expected.yaml', expected ?? '', actual),
          statusOk ? '' : unifiedDiff(STATUS_FILE, expectedStatus, actualStatus),
        ].join('');
        return { ok: outputOk && statusOk, diff, actual, expected, exitCode: out.exitCode, stderr };
      },
    };
  });
}

/** Plain matcher objects for `expect.extend` (vitest, jest): no runner imported here. */
export const matchers = {
  /** `expect(results).toHaveResult({ severity: 'error', message: /x/ })` */
  toHaveResult(received: readonly Result[], want: { severity?: string; message?: string | RegExp }) {
    const pass = received.some(
      (r) =>
        (want.severity === undefined || r.severity === want.severity) &&
        (want.message === undefined ||
          (typeof want.message === 'string' ? r.message === want.message : want.message.test(r.message))),
    );
    return {
      pass,
      message: () =>
        `expected results ${pass ? 'not ' : ''}to contain ${JSON.stringify(want)}; got ${JSON.stringify(received)}`,
    };
  },
  /** `expect(await golden.run()).toMatchGolden()` */
  toMatchGolden(received: GoldenResult) {
    return {
      pass: received.ok,
      message: () => (received.ok ? 'expected a golden mismatch' : `golden mismatch:\n${received.diff}`),
    };
  },
};
