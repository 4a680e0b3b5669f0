/**
 * `krmfn fn doc --image IMAGE` (also `krmfn doc`): print a built-in function's documentation, the
 * page under builtins/docs/. kpt fn doc (kptdev/kpt commands/fn/doc/cmdfndoc.go at
 * v1.0.0-beta.56) runs the image with `--help`; krmfn has the page itself. As a convenience the
 * image may also be given as the one argument (kpt accepts no arguments).
 */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILTINS } from '../../../builtins/index.ts';
import { catalogName, parseImageRef } from '../../core/image.ts';
import { resolveImageName } from '../../core/kptfile.ts';
import { explainNotBuiltin, findBuiltin } from '../../../sdk/registry.ts';
import { parseFlags, str, UsageError } from '../cli-flags.ts';
import { errorLine } from '../error-line.ts';
import { write, type CliIO } from '../io.ts';
import { docSpec } from './specs/doc.ts';

/** The package root: the nearest directory above this module holding krmfn's package.json. */
async function packageRoot(): Promise<string> {
  let dir = nodePath.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const text = await fsp.readFile(nodePath.join(dir, 'package.json'), 'utf8').catch(() => undefined);
    if (text !== undefined && (JSON.parse(text) as { name?: string }).name === 'krmfn') return dir;
    const up = nodePath.dirname(dir);
    if (up === dir) throw new Error('cannot find the krmfn package directory (for builtins/docs)');
    dir = up;
  }
}

export async function runDoc(args: string[], io: CliIO): Promise<number> {
  try {
    const p = parseFlags(args, docSpec.flags);
    if (p.positional.length > 1) throw new UsageError(`accepts at most 1 arg(s), received ${p.positional.length}`);
    const given = str(p, 'image') ?? p.positional[0];
    if (!given) throw new UsageError('image must be specified');
    const image = resolveImageName(given);
    // A page documents every version: a bare name shows it even where its registry has no `latest`.
    const ref = parseImageRef(image);
    const name = !ref.tag && !ref.digest ? catalogName(image) : undefined;
    const named = name === undefined ? undefined : BUILTINS.find((d) => d.name === name);
    const match = named ? { descriptor: named } : findBuiltin(BUILTINS, image);
    if (!match?.descriptor.docs) {
      const why = explainNotBuiltin(BUILTINS, image);
      throw new UsageError(
        `function ${JSON.stringify(image)} is not built into krmfn: no documentation to show${why ? ` (${why})` : ''}`,
      );
    }
    const page = await fsp.readFile(nodePath.join(await packageRoot(), match.descriptor.docs), 'utf8');
    await write(io.stdout, page);
    return 0;
  } catch (e) {
    await write(io.stderr, errorLine(e));
    return 1;
  }
}
