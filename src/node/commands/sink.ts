/**
 * `krmfn fn sink DIR` (also `krmfn sink`): write the ResourceList (or YAML stream) read from stdin
 * into a new directory, as kpt fn sink does (kptdev/kpt thirdparty/cmdconfig/commands/cmdsink/
 * cmdsink.go and internal/util/cmdutil/cmdutil.go at v1.0.0-beta.56).
 */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { sinkResources } from '../../engine/source.ts';
import { bool, parseFlags, UsageError, type FlagSpec } from '../cli-flags.ts';
import { NodeFs, toEnginePath } from '../fs.ts';
import { readAll, write, type CliIO, type Command } from '../io.ts';
import { errorLine } from '../error-line.ts';

const SINK_FLAGS: readonly FlagSpec[] = [{ name: 'help', short: 'h', kind: 'bool' }];

const HELP = `Write the resources read from stdin into a new directory (kpt fn sink).

Usage:
  krmfn fn sink DIR
  krmfn sink DIR

Args:
  DIR   Directory to create; it must not exist yet.

Flags:
  -h, --help   show this help
`;

export async function runSink(args: string[], io: CliIO): Promise<number> {
  try {
    const p = parseFlags(args, SINK_FLAGS);
    if (bool(p, 'help')) {
      await write(io.stdout, HELP);
      return 0;
    }
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

export const sinkCommand: Command = {
  name: 'sink',
  summary: 'Write a ResourceList from stdin into a new directory (kpt fn sink)',
  run: runSink,
};
