/**
 * `krmfn fn source [DIR]` (also `krmfn source`): print a package's resources as a ResourceList on
 * stdout, as kpt fn source does (kptdev/kpt thirdparty/cmdconfig/commands/cmdsource/cmdsource.go
 * at v1.0.0-beta.56): `--fn-config FILE` adds the functionConfig, `-o unwrap` prints plain YAML.
 */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { sourcePackage } from '../../engine/source.ts';
import { bool, parseFlags, str, UsageError, type ParsedArgs } from '../cli-flags.ts';
import { NodeFs, toEnginePath } from '../fs.ts';
import { write, type CliIO } from '../io.ts';
import { sourceSpec } from './specs/source.ts';
import { chosenKptLevel } from '../kpt-level-args.ts';
import { errorLine } from '../error-line.ts';

/** kpt resolves the path (argutil.ResolveSymlink): a missing one fails with lstat's message. */
async function resolveExisting(given: string, cwd: string, what: 'package' | 'fn-config'): Promise<string> {
  const abs = nodePath.resolve(cwd, given);
  try {
    return await fsp.realpath(abs);
  } catch {
    const lstat = `lstat ${abs}: no such file or directory`;
    throw new UsageError(what === 'fn-config' ? `evalsymlink failure on '${given}' : ${lstat}` : lstat);
  }
}

export async function runSource(args: string[], io: CliIO): Promise<number> {
  let p: ParsedArgs;
  try {
    p = parseFlags(args, sourceSpec.flags);
    // kpt's fn source and fn sink are the same at every level krmfn implements (kptdev/kpt
    // internal/cmdsource and internal/cmdsink do not change between v1.0.0-beta.56 and
    // v1.0.0-beta.67): the level is checked, as on render and eval, and changes nothing.
    chosenKptLevel(p, io);
    if (p.positional.length > 1) throw new UsageError(`accepts at most 1 arg(s), received ${p.positional.length}`);
    if (bool(p, 'include-meta-resources')) {
      throw new UsageError(
        '--include-meta-resources is no longer necessary because meta resources are now included by default',
      );
    }
    const output = str(p, 'output') ?? 'stdout';
    if (output !== 'stdout' && output !== 'unwrap') {
      throw new UsageError(`invalid input for --output flag "${output}", must be "stdout" or "unwrap"`);
    }
    const fnConfig = str(p, 'fn-config');
    const fnConfigPath = fnConfig ? await resolveExisting(fnConfig, io.cwd, 'fn-config') : undefined;
    const path = await resolveExisting(p.positional[0] ?? '.', io.cwd, 'package');
    const text = await sourcePackage({
      fs: new NodeFs(),
      path: toEnginePath(path),
      output,
      ...(fnConfigPath !== undefined ? { fnConfigPath: toEnginePath(fnConfigPath) } : {}),
    });
    await write(io.stdout, text);
    return 0;
  } catch (e) {
    await write(io.stderr, errorLine(e));
    return 1;
  }
}
