/**
 * `krmfn check [PKG_PATH]`: for the package and every subpackage (kpt's walk, src/engine/read.ts),
 * the pipeline is validated as render validates it (src/engine/pipeline-config.ts) and each
 * built-in function's config file is checked against the built-in's config kinds and schema
 * (sdk/config-hints.ts). One line per problem on stdout, `<Kptfile>: <field> (<image>): <config
 * file>: <hint>`, then a count; exit 1 when there is a problem, or with kpt's message on stderr when
 * a Kptfile or pipeline cannot be read. Nothing runs and nothing is written. Why a command of its own
 * rather than lines in render/eval: docs/cli.md, "Checking function configs".
 */
import { BUILTINS } from '../../../builtins/index.ts';
import { configHints } from '../../../sdk/config-hints.ts';
import { findBuiltin } from '../../../sdk/registry.ts';
import { resolveImageName } from '../../core/kptfile.ts';
import { withLimits } from '../../core/limits.ts';
import { validatePipeline } from '../../engine/pipeline-config.ts';
import { loadKptfile, scanPackage } from '../../engine/read.ts';
import { parseFlags, UsageError } from '../cli-flags.ts';
import { errorLine } from '../error-line.ts';
import { NodeFs, toEnginePath } from '../fs.ts';
import { write, type CliIO } from '../io.ts';
import { checkSpec } from './specs/check.ts';

interface Counts {
  problems: number;
  configs: number;
}

async function checkPackage(fs: NodeFs, root: string, dir: string, out: string[], counts: Counts): Promise<void> {
  const limits = withLimits(undefined);
  const kptfile = await loadKptfile(fs, dir, limits);
  const rel = dir === root ? '' : dir.slice(root.length + 1) + '/';
  for (const entry of await validatePipeline(fs, dir, kptfile, limits)) {
    const { image, configPath } = entry.spec;
    if (image === undefined || entry.diskConfig === undefined) continue;
    const builtin = findBuiltin(BUILTINS, resolveImageName(image));
    if (!builtin) continue;
    counts.configs++;
    for (const hint of configHints(builtin.descriptor, entry.diskConfig)) {
      counts.problems++;
      out.push(`${rel}Kptfile: ${entry.field} (${image}): ${configPath}: ${hint.message}\n`);
    }
  }
  for (const sub of (await scanPackage(fs, dir, true)).subpackages.sort()) {
    await checkPackage(fs, root, sub, out, counts);
  }
}

export async function runCheck(args: string[], io: CliIO): Promise<number> {
  try {
    const parsed = parseFlags(args, checkSpec.flags);
    if (parsed.positional.length > 1) {
      throw new UsageError(`accepts at most 1 arg(s), received ${parsed.positional.length}`);
    }
    const root = toEnginePath(parsed.positional[0] ?? '.', io.cwd);
    const out: string[] = [];
    const counts: Counts = { problems: 0, configs: 0 };
    await checkPackage(new NodeFs(), root, root, out, counts);
    out.push(
      counts.problems === 0
        ? `checked ${counts.configs} built-in function config(s): no problems\n`
        : `${counts.problems} problem(s) in ${counts.configs} built-in function config(s)\n`,
    );
    await write(io.stdout, out.join(''));
    return counts.problems === 0 ? 0 : 1;
  } catch (e) {
    await write(io.stderr, errorLine(e));
    return 1;
  }
}
