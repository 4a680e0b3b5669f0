/**
 * `krmfn check [PKG_PATH]`: for the package and every subpackage (kpt's walk, src/engine/read.ts),
 * the pipeline is validated as render validates it (src/engine/pipeline-config.ts) and each
 * built-in function's config (its `configPath` file, or its inline `configMap:`) is checked against
 * the built-in's config kinds and schema (sdk/config-hints.ts). With `--image IMAGE --fn-config
 * FILE` it checks the one config `krmfn eval` would pass instead, and walks no package.
 *
 * Output: one line per problem on stdout, `<Kptfile>: <field> (<image>): <config>: <hint>` (for
 * `--fn-config`: `<config>: (<image>): <hint>`), then a count; with `--json` one object
 * `{configs, problems: [{kptfile?, field?, image, config, path, message}]}`. Exit 1 when there is a
 * problem, or with kpt's message on stderr when a Kptfile, pipeline or config cannot be read.
 * Nothing runs and nothing is written. Why a command of its own rather than lines in render/eval:
 * docs/cli.md, "Checking function configs".
 */
import { BUILTINS } from '../../../builtins/index.ts';
import { configHints } from '../../../sdk/config-hints.ts';
import { findBuiltin } from '../../../sdk/registry.ts';
import type { KubeObject } from '../../core/kube-object.ts';
import { resolveImageName } from '../../core/kptfile.ts';
import { withLimits } from '../../core/limits.ts';
import { loadFnConfigFile } from '../../engine/eval.ts';
import { configMapFunctionConfig, validatePipeline } from '../../engine/pipeline-config.ts';
import { loadKptfile, scanPackage } from '../../engine/read.ts';
import { bool, parseFlags, str, UsageError } from '../cli-flags.ts';
import { errorLine } from '../error-line.ts';
import { NodeFs, toEnginePath } from '../fs.ts';
import { write, type CliIO } from '../io.ts';
import { checkSpec } from './specs/check.ts';

/** One problem found in one config; `kptfile` and `field` are absent for an `--fn-config` file. */
interface Problem {
  kptfile?: string;
  field?: string;
  image: string;
  /** The config as the user wrote it: its configPath, `configMap` for an inline one, or the --fn-config argument. */
  config: string;
  /** Field path inside the config (empty for the whole config). */
  path: string;
  message: string;
}

interface Report {
  configs: number;
  problems: Problem[];
}

/** Adds the hints for `config` when `image` names a built-in (counted as one config); else nothing. */
function checkConfig(image: string, config: KubeObject, at: Omit<Problem, 'path' | 'message'>, report: Report): void {
  const builtin = findBuiltin(BUILTINS, resolveImageName(image));
  if (!builtin) return;
  report.configs++;
  for (const hint of configHints(builtin.descriptor, config)) {
    report.problems.push({ ...at, path: hint.field, message: hint.message });
  }
}

async function checkPackage(fs: NodeFs, root: string, dir: string, report: Report): Promise<void> {
  const limits = withLimits(undefined);
  const kptfile = await loadKptfile(fs, dir, limits);
  const rel = dir === root ? '' : dir.slice(root.length + 1) + '/';
  for (const entry of await validatePipeline(fs, dir, kptfile, limits)) {
    const { image, configPath, configMap } = entry.spec;
    if (image === undefined) continue;
    const at = { kptfile: `${rel}Kptfile`, field: entry.field, image };
    if (entry.diskConfig !== undefined && configPath !== undefined) {
      checkConfig(image, entry.diskConfig, { ...at, config: configPath }, report);
    } else if (configMap !== undefined && Object.keys(configMap).length > 0) {
      checkConfig(image, configMapFunctionConfig(configMap), { ...at, config: 'configMap' }, report);
    }
  }
  for (const sub of (await scanPackage(fs, dir, true)).subpackages.sort()) {
    await checkPackage(fs, root, sub, report);
  }
}

function textLine(p: Problem): string {
  return p.kptfile !== undefined
    ? `${p.kptfile}: ${p.field} (${p.image}): ${p.config}: ${p.message}\n`
    : `${p.config}: (${p.image}): ${p.message}\n`;
}

export async function runCheck(args: string[], io: CliIO): Promise<number> {
  try {
    const parsed = parseFlags(args, checkSpec.flags);
    const image = str(parsed, 'image');
    const fnConfig = str(parsed, 'fn-config');
    if ((image === undefined) !== (fnConfig === undefined)) {
      throw new UsageError('--image and --fn-config go together: the config eval would pass to that image');
    }
    const fs = new NodeFs();
    const report: Report = { configs: 0, problems: [] };
    if (image !== undefined && fnConfig !== undefined) {
      if (parsed.positional.length > 0) throw new UsageError('with --fn-config, check takes no PKG_PATH');
      const config = await loadFnConfigFile(fs, toEnginePath(fnConfig, io.cwd), withLimits(undefined));
      checkConfig(image, config, { image, config: fnConfig }, report);
    } else {
      if (parsed.positional.length > 1) {
        throw new UsageError(`accepts at most 1 arg(s), received ${parsed.positional.length}`);
      }
      const root = toEnginePath(parsed.positional[0] ?? '.', io.cwd);
      await checkPackage(fs, root, root, report);
    }
    const n = report.problems.length;
    if (bool(parsed, 'json')) {
      await write(io.stdout, JSON.stringify(report, null, 2) + '\n');
    } else {
      const summary =
        n === 0
          ? `checked ${report.configs} built-in function config(s): no problems\n`
          : `${n} problem(s) in ${report.configs} built-in function config(s)\n`;
      await write(io.stdout, report.problems.map(textLine).join('') + summary);
    }
    return n === 0 ? 0 : 1;
  } catch (e) {
    await write(io.stderr, errorLine(e));
    return 1;
  }
}
