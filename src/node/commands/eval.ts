/**
 * `krmfn eval [DIR | -] [flags] [-- [Kind] key=value ...]` (also `krmfn fn eval`): run one
 * function over a directory or stdin, as kpt fn eval does, with --image/--exec, --fn-config,
 * --match-* and --exclude-* flags, -o, --save/--type, --results-dir and --timeout.
 */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import type { Selector } from '../../core/function.ts';
import { isValidImageReference } from '../../core/kptfile.ts';
import { bool, list, parseDuration, parseFlags, str, UsageError, type ParsedArgs } from '../cli-flags.ts';
import { createCliEngine } from '../cli-engine.ts';
import { formatRuntimeReport } from '../runtime-report.ts';
import { NodeFs, toEnginePath } from '../fs.ts';
import { readAll, write, type CliIO } from '../io.ts';
import { evalSpec } from './specs/eval.ts';
import { checkOutputDirAbsent, prepareResultsDir, resolvePackageArg } from '../path-args.ts';
import { chosenImagePrefix, chosenKptLevel } from '../kpt-level-args.ts';
import { eventPrinter, finish, resolveOutput, textOptions } from '../run-output.ts';
import type { KptLevel } from '../../engine/kpt-level.ts';

function kvMap(values: readonly string[]): Record<string, string> | undefined {
  if (!values.length) return undefined;
  const out: Record<string, string> = {};
  for (const v of values) {
    const parts = v.split('=');
    if (parts.length < 2) throw new UsageError(`invalid key-value pair ${JSON.stringify(v)}: expected key=value`);
    out[parts[0]] = parts[1]!;
  }
  return out;
}

function selectorFrom(p: ParsedArgs, prefix: 'match' | 'exclude'): Selector {
  const s: Selector = {};
  const av = str(p, `${prefix}-api-version`);
  if (av) s.apiVersion = av;
  const kind = str(p, `${prefix}-kind`);
  if (kind) s.kind = kind;
  const name = str(p, `${prefix}-name`);
  if (name) s.name = name;
  const ns = str(p, `${prefix}-namespace`);
  if (ns) s.namespace = ns;
  const labels = kvMap(list(p, `${prefix}-labels`));
  if (labels) s.labels = labels;
  const ann = kvMap(list(p, `${prefix}-annotations`));
  if (ann) s.annotations = ann;
  return s;
}

function parseFnArgs(rest: readonly string[]): { kind?: string; data: [string, string][] } {
  const data: [string, string][] = [];
  let kind: string | undefined;
  rest.forEach((a, i) => {
    const eq = a.indexOf('=');
    if (eq < 0) {
      if (i === 0) kind = a;
      else throw new UsageError('args must have keys and values separated by =');
      return;
    }
    data.push([a.slice(0, eq), a.slice(eq + 1)]);
  });
  return kind !== undefined ? { kind, data } : { data };
}

export async function runEval(args: string[], io: CliIO): Promise<number> {
  let p: ParsedArgs;
  let image: string | undefined;
  let exec: string | undefined;
  let timeoutMs: number | undefined;
  let fnArgs: { kind?: string; data: [string, string][] };
  let saveType: 'mutator' | 'validator' | undefined;
  let level: KptLevel;
  let imagePrefix: string | undefined;
  try {
    p = parseFlags(args, evalSpec.flags);
    level = chosenKptLevel(p, io);
    imagePrefix = chosenImagePrefix(p, io, level);
    if (str(p, 'tag') !== undefined && !level.imagePrefixFlag) throw new UsageError('unknown flag: --tag');
    if (bool(p, 'include-meta-resources')) {
      throw new UsageError(
        '--include-meta-resources is no longer necessary because meta resources are now included by default',
      );
    }
    if (p.positional.length > 1) throw new UsageError("0 or 1 arguments supported, function arguments go after '--'");
    image = str(p, 'image');
    exec = str(p, 'exec');
    if (!image && !exec) throw new UsageError('must specify --image or --exec');
    if (image) {
      image = level.images.prefixOnly(image, imagePrefix);
      if (!isValidImageReference(image)) throw new UsageError(`function name ${JSON.stringify(image)} is invalid`);
      exec = undefined;
    } else if (list(p, 'mount').length || bool(p, 'as-current-user') || bool(p, 'network') || list(p, 'env').length) {
      throw new UsageError('--mount, --as-current-user, --network and --env can only be used with container functions');
    }
    fnArgs = parseFnArgs(p.rest);
    const t = str(p, 'timeout');
    if (t !== undefined) timeoutMs = parseDuration(t);
    if (bool(p, 'save')) {
      const type = str(p, 'type');
      if (!type) throw new UsageError('--type must be specified if saving functions to Kptfile (--save=true)');
      if (type !== 'mutator' && type !== 'validator')
        throw new UsageError('--type must be either `mutator` or `validator`');
      saveType = type;
    }
  } catch (e) {
    await write(io.stderr, `error: ${(e as Error).message}\n`);
    return 1;
  }
  const fromStdin = p.positional[0] === '-';
  const resultsDir = str(p, 'results-dir');
  const fnConfig = str(p, 'fn-config');
  let dir: string | undefined;
  try {
    // In kpt's order (cmdeval.go preRunE): results dir, output dir, function config, package path.
    await prepareResultsDir(resultsDir, io);
    await checkOutputDirAbsent(str(p, 'output'), io);
    if (fnConfig !== undefined) {
      const exists = await fsp.stat(nodePath.resolve(io.cwd, fnConfig)).then(
        (st) => st.isFile(),
        () => false,
      );
      if (!exists) throw new UsageError(`missing function config file: ${fnConfig}`);
    }
    if (!fromStdin) dir = await resolvePackageArg(p.positional[0], io);
  } catch (e) {
    await write(io.stderr, `error: ${(e as Error).message}\n`);
    return 1;
  }
  const source = dir === undefined ? { text: new TextDecoder().decode(await readAll(io.stdin)) } : { dir };
  const text = textOptions(p, io);
  const printer = eventPrinter(io, text, 'eval', level.text);
  let cli;
  try {
    cli = await createCliEngine(p, io, {
      mounts: list(p, 'mount'),
      fnEnv: list(p, 'env'),
      asCurrentUser: bool(p, 'as-current-user'),
    });
  } catch (e) {
    await write(io.stderr, `error: ${(e as Error).message}\n`);
    return 1;
  }
  const { engine, env } = cli;
  const outputArg = str(p, 'output');
  const outcome = await engine.eval({
    fs: new NodeFs(),
    source,
    function: image
      ? {
          image,
          ...(str(p, 'tag') ? { tag: str(p, 'tag')! } : {}),
          ...(list(p, 'env').length ? { env: list(p, 'env') } : {}),
        }
      : { exec: exec! },
    kptVersion: level.version,
    ...(imagePrefix !== undefined ? { imagePrefix } : {}),
    cwd: io.cwd,
    env,
    allowExec: true,
    allowNetwork: bool(p, 'network'),
    allowWasm: bool(p, 'allow-alpha-wasm'),
    match: selectorFrom(p, 'match'),
    exclude: selectorFrom(p, 'exclude'),
    onEvent: printer.sink,
    args: fnArgs,
    ...(fnConfig !== undefined ? { fnConfigPath: toEnginePath(nodePath.resolve(io.cwd, fnConfig)) } : {}),
    ...(outputArg !== undefined ? { output: await resolveOutput(outputArg, io.cwd) } : {}),
    ...(saveType ? { save: { type: saveType } } : {}),
    ...(resultsDir !== undefined ? { resultsDir: toEnginePath(resultsDir, io.cwd) } : {}),
    ...(timeoutMs !== undefined ? { limits: { timeoutMs } } : {}),
  });
  await cli.close();
  await printer.flush();
  const code = await finish(io, outcome, 'eval', resultsDir, bool(p, 'json'), level.text, cli.images, cli.runtimes);
  if (bool(p, 'verbose')) await write(io.stderr, formatRuntimeReport(cli.runtimes, cli.images));
  return code;
}
