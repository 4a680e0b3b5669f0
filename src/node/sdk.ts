/**
 * `krmfn/sdk/node`: Node hosts for SDK functions (docs/sdk.md, "Design").
 *
 * - `runCli(fn, argv?, io?)`: the function as a program. ResourceList mode (stdin → stdout) makes
 *   it usable as kpt's `exec:` and as a container entrypoint; standalone mode
 *   `fn [-f config.yaml] [-d k=v]... FILE... | -` prints the resulting resources as a plain
 *   multi-document stream and the results on stderr. stdout carries only the output: `console.*`
 *   goes to stderr while the function runs. The full output is written before a non-zero exit.
 *   Returns the exit code (0, 1 for error results or config errors, 2 for an uncaught exception).
 * - `run(fn)`: `runCli` on the real process, setting `process.exitCode`.
 * - `nodeFixtures(dir)`: a `GoldenFs` over the real filesystem plus `update` from
 *   `WRITE_GOLDEN_OUTPUT=1`, for `goldenTests` in `krmfn/sdk/testing`.
 */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { format, parseArgs } from 'node:util';
import type { Readable, Writable } from 'node:stream';
import type { ResourceList } from '../core/function.ts';
import { KubeObject } from '../core/kube-object.ts';
import { fromJS } from '../core/yaml/convert.ts';
import { emitYamlDocument, emitYamlFile, parseYamlFile } from '../core/yaml/index.ts';
import { documentNode } from '../core/yaml/node.ts';
import type { KrmFunction } from '../../sdk/define.ts';
import { functionDefinition, helpText } from '../../sdk/definition.ts';
import { parseResourceList, processResourceList, type ProcessOutcome } from '../../sdk/process.ts';
import type { GoldenFs } from '../../sdk/testing.ts';

export interface SdkIO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env: Record<string, string | undefined>;
  cwd: string;
}

async function readStream(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return new Uint8Array(Buffer.concat(chunks));
}

function writeTo(stream: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => stream.write(text, (err) => (err ? reject(err) : resolve())));
}

const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

/**
 * Routes console.* to `stderr` while `body` runs (stdout is reserved for the ResourceList). Text is
 * formatted as Node's console formats it (`util.format`: `%s`/`%d` substitution, an `Error` as its
 * stack, objects inspected, cycles shown), and `console.trace` prints `Trace: …` and the call stack.
 */
export async function withConsoleOnStderr<T>(stderr: Writable, body: () => Promise<T>): Promise<T> {
  const saved = CONSOLE_METHODS.map((m) => console[m]);
  const sink = (...args: unknown[]): void => void stderr.write(format(...args) + '\n');
  const trace = (...args: unknown[]): void => {
    const stack = (new Error().stack ?? '').split('\n').slice(2).join('\n');
    stderr.write(`Trace: ${format(...args)}\n${stack}\n`);
  };
  for (const m of CONSOLE_METHODS) console[m] = m === 'trace' ? trace : sink;
  try {
    return await body();
  } finally {
    CONSOLE_METHODS.forEach((m, i) => (console[m] = saved[i]!));
  }
}

function configFromPairs(pairs: readonly string[]): KubeObject {
  const data: Record<string, string> = {};
  for (const p of pairs) {
    const i = p.indexOf('=');
    if (i < 0) throw new Error(`-d expects KEY=VALUE, got ${JSON.stringify(p)}`);
    data[p.slice(0, i)] = p.slice(i + 1);
  }
  return KubeObject.fromJS({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'function-input' }, data });
}

async function readConfigFile(file: string): Promise<KubeObject> {
  const text = await fsp.readFile(file, 'utf8');
  const doc = parseYamlFile(text, { file }).docs[0];
  if (!doc) throw new Error(`${file}: no functionConfig document`);
  return new KubeObject(doc);
}

function formatResultLine(r: ProcessOutcome['results'][number]): string {
  const sev = r.severity ?? 'info';
  const ref = r.resourceRef
    ? ` ${r.resourceRef.apiVersion}/${r.resourceRef.kind}/${r.resourceRef.namespace ? r.resourceRef.namespace + '/' : ''}${r.resourceRef.name}`
    : '';
  const field = r.field ? ` ${r.field.path}` : '';
  return `[${sev}]${ref}${field}: ${r.message}`;
}

export async function runCli(
  fn: KrmFunction,
  argv: readonly string[] = process.argv.slice(2),
  io?: Partial<SdkIO>,
): Promise<number> {
  const stdin = io?.stdin ?? process.stdin;
  const stdout = io?.stdout ?? process.stdout;
  const stderr = io?.stderr ?? process.stderr;
  const cwd = io?.cwd ?? process.cwd();
  let args: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; args: string[] }>>;
  try {
    args = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true });
  } catch (e) {
    await writeTo(stderr, `error: ${e instanceof Error ? e.message : String(e)}\n\n${helpText(fn)}`);
    return 1;
  }
  const v = args.values;
  if (v.help) {
    await writeTo(stdout, helpText(fn));
    return 0;
  }
  if (v.doc) {
    await writeTo(stdout, (fn.doc ?? fn.usage ?? fn.name) + '\n');
    return 0;
  }
  if (v.definition) {
    await writeTo(stdout, emitYamlDocument(documentNode(fromJS(functionDefinition(fn))), 'compact'));
    return 0;
  }
  const resolve = (p: string): string => nodePath.resolve(cwd, p);
  try {
    let config: KubeObject | undefined;
    if (v['fn-config']) config = await readConfigFile(resolve(v['fn-config']));
    if (v.data && v.data.length) config = configFromPairs(v.data);
    const positionals = args.positionals;
    const standalone = positionals.length > 0;
    let outcome: ProcessOutcome;
    const options = {
      env: Object.fromEntries(Object.entries(io?.env ?? {}).filter((e): e is [string, string] => e[1] !== undefined)),
    };
    if (!standalone) {
      const bytes = v.input ? new Uint8Array(await fsp.readFile(resolve(v.input))) : await readStream(stdin);
      let input: string | Uint8Array | ResourceList = bytes;
      if (config) {
        const parsed = parseResourceList(new TextDecoder().decode(bytes));
        parsed.list.functionConfig = config;
        input = parsed.list;
      }
      outcome = await withConsoleOnStderr(stderr, () => processResourceList(fn, input, options));
    } else {
      const items: KubeObject[] = [];
      for (const file of positionals) {
        const text =
          file === '-' ? new TextDecoder().decode(await readStream(stdin)) : await fsp.readFile(resolve(file), 'utf8');
        const parsed = parseYamlFile(text, { file });
        parsed.docs.forEach((d, i) => {
          const o = new KubeObject(d);
          if (file !== '-' && o.root.kind === 'mapping') {
            o.setAnnotation('config.kubernetes.io/path', file);
            o.setAnnotation('config.kubernetes.io/index', String(i));
          }
          items.push(o);
        });
      }
      const list: ResourceList = { items, results: [] };
      if (config) list.functionConfig = config;
      outcome = await withConsoleOnStderr(stderr, () => processResourceList(fn, list, options));
    }
    let text: string;
    if (!standalone) text = v.json ? JSON.stringify(resourceListJson(outcome), null, 2) + '\n' : outcome.output;
    else {
      const items = outcome.resourceList.items;
      text = v.json
        ? JSON.stringify(
            items.map((o) => o.toJS()),
            null,
            2,
          ) + '\n'
        : emitYamlFile(
            items.map((o) => o.doc),
            'compact',
          );
      for (const r of outcome.results) outcome.log.push(formatResultLine(r));
    }
    if (v.output) await fsp.writeFile(resolve(v.output), text);
    else await writeTo(stdout, text);
    if (outcome.log.length) await writeTo(stderr, outcome.log.join('\n') + '\n');
    return outcome.exitCode;
  } catch (e) {
    await writeTo(stderr, `error: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

function resourceListJson(outcome: ProcessOutcome): Record<string, unknown> {
  const out: Record<string, unknown> = {
    apiVersion: 'config.kubernetes.io/v1',
    kind: 'ResourceList',
    items: outcome.resourceList.items.map((o) => o.toJS()),
  };
  if (outcome.resourceList.functionConfig) out['functionConfig'] = outcome.resourceList.functionConfig.toJS();
  if (outcome.resourceList.results.length) out['results'] = outcome.resourceList.results;
  return out;
}

const OPTIONS = {
  input: { type: 'string', short: 'i' },
  output: { type: 'string', short: 'o' },
  'fn-config': { type: 'string', short: 'f' },
  data: { type: 'string', short: 'd', multiple: true },
  json: { type: 'boolean' },
  doc: { type: 'boolean' },
  definition: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `runCli` on the real process; sets `process.exitCode`. */
export async function run(fn: KrmFunction): Promise<void> {
  process.exitCode = await runCli(fn, process.argv.slice(2), { env: process.env });
}

/** A `GoldenFs` over the real filesystem, with `update` from `WRITE_GOLDEN_OUTPUT=1` (the Go SDK's switch). */
export function nodeFixtures(dir: string): { dir: string; fs: GoldenFs; update: boolean } {
  const fs: GoldenFs = {
    async readDir(p) {
      const entries = await fsp.readdir(p, { withFileTypes: true });
      return entries
        .filter((e) => e.isFile() || e.isDirectory())
        .map((e) => ({ name: e.name, kind: e.isDirectory() ? ('dir' as const) : ('file' as const) }));
    },
    readFile: (p) => fsp.readFile(p, 'utf8'),
    writeFile: (p, text) => fsp.writeFile(p, text),
  };
  return { dir: nodePath.resolve(dir), fs, update: process.env['WRITE_GOLDEN_OUTPUT'] === '1' };
}
