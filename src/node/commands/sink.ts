/**
 * `krmfn fn sink DIR` (also `krmfn sink`): write the ResourceList (or YAML stream) read from stdin
 * into a new directory, as kpt fn sink does (kptdev/kpt thirdparty/cmdconfig/commands/cmdsink/
 * cmdsink.go and internal/util/cmdutil/cmdutil.go at v1.0.0-beta.56).
 */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { sinkResources } from '../../engine/source.ts';
import { parseFlags, UsageError } from '../cli-flags.ts';
import { NodeFs, toEnginePath } from '../fs.ts';
import { readAll, write, type CliIO } from '../io.ts';
import { sinkSpec } from './specs/sink.ts';
import { chosenKptLevel } from '../kpt-level-args.ts';
import { errorLine } from '../error-line.ts';

export async function runSink(args: string[], io: CliIO): Promise<number> {
  try {
    const p = parseFlags(args, sinkSpec.flags);
    // kpt's fn source and fn sink are the same at every level krmfn implements (kptdev/kpt
    // internal/cmdsource and internal/cmdsink do not change between v1.0.0-beta.56 and
    // v1.0.0-beta.67): the level is checked, as on render and eval, and changes nothing.
    chosenKptLevel(p, io);
    const dir = p.positional[0];
    if (dir === undefined) throw new UsageError('requires at least 1 arg(s), only received 0');
    const abs = nodePath.resolve(io.cwd, dir);
    const exists = await fsp.lstat(abs).then(
      () => true,
      () => false,
    );
    if (exists)
      throw new UsageError(`directory ${JSON.stringify(dir)} already exists, please delete the directory and retry`);
    // kpt creates the directory before it reads (cmdutil.WriteToOutput), so a failed read leaves it.
    await fsp.mkdir(abs, { recursive: true });
    const text = new TextDecoder().decode(await readAll(io.stdin));
    await sinkResources({ fs: new NodeFs(), text, dir: toEnginePath(abs), shownDir: dir });
    return 0;
  } catch (e) {
    await write(io.stderr, errorLine(e));
    return 1;
  }
}
