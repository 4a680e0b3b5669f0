/**
 * `krmfn init NAME [--kind mutator|validator|generator] [--dir DIR]`: scaffolds a function project
 * from embedded templates (no network): package.json with test/build scripts, a strict tsconfig,
 * src/fn.ts using the chosen define*, src/config.ts with the config type and JSON Schema, a
 * golden case under testdata/, a node:test file, a README. Refuses to write into a non-empty
 * directory.
 *
 * The project depends on krmfn through a `file:` spec pointing at the krmfn package this command
 * runs from (a clone, or an installed package), so `npm install` needs no registry to hold krmfn;
 * `--krmfn SPEC` overrides it (for example a packed tarball, or a version range once published).
 */
import { existsSync, promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { write, type CliIO } from '../io.ts';
import { parseFlags, str } from '../cli-flags.ts';
import { initSpec } from './specs/init.ts';
import { formatHelp } from './help.ts';
import { krmfnRoot } from '../package-root.ts';
import { projectFiles, type TemplateKind } from '../templates/function-project.ts';

const NAME_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export async function runInit(args: string[], io: CliIO): Promise<number> {
  const parsed = parseFlags(args, initSpec.flags);
  const values = { kind: str(parsed, 'kind'), dir: str(parsed, 'dir'), krmfn: str(parsed, 'krmfn') };
  const name = parsed.positional[0];
  if (!name || parsed.positional.length > 1) {
    await write(io.stderr, `error: expected exactly one NAME\n\n${formatHelp(initSpec)}`);
    return 1;
  }
  if (!NAME_RE.test(name)) {
    await write(io.stderr, `error: invalid name ${JSON.stringify(name)}: use lowercase letters, digits and dashes\n`);
    return 1;
  }
  const kind = (values.kind ?? 'mutator') as TemplateKind;
  if (kind !== 'mutator' && kind !== 'validator' && kind !== 'generator') {
    await write(
      io.stderr,
      `error: unknown --kind ${JSON.stringify(values.kind)} (expected mutator, validator or generator)\n`,
    );
    return 1;
  }
  const dir = nodePath.resolve(io.cwd, values.dir ?? name);
  if (existsSync(dir) && (await fsp.readdir(dir)).length > 0) {
    await write(io.stderr, `error: ${dir} exists and is not empty\n`);
    return 1;
  }
  const krmfnSpec = values.krmfn ?? `file:${nodePath.relative(dir, krmfnRoot()).split(nodePath.sep).join('/')}`;
  const files = projectFiles(name, kind, krmfnSpec);
  for (const [rel, text] of Object.entries(files)) {
    const p = nodePath.join(dir, rel);
    await fsp.mkdir(nodePath.dirname(p), { recursive: true });
    await fsp.writeFile(p, text);
  }
  const shown = nodePath.relative(io.cwd, dir) || '.';
  await write(
    io.stderr,
    `created ${kind} ${name} in ${shown} (${Object.keys(files).length} files; krmfn from ${krmfnSpec})\n\n  cd ${shown}\n  npm install\n  npm test\n  npm run typecheck\n  npm run build   # dist/fn.mjs, usable as kpt exec:\n`,
  );
  return 0;
}
