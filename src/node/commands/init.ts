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
import { write, type CliIO, type Command } from '../io.ts';
import { krmfnRoot } from '../package-root.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { projectFiles, type TemplateKind } from '../templates/function-project.ts';

const HELP = `Create a new KRM function project written with krmfn/sdk.

Usage:
  krmfn init NAME [--kind mutator|validator|generator] [--dir DIR] [--krmfn SPEC]

Args:
  NAME   the function name (lowercase letters, digits and dashes), e.g. set-owner

Flags:
      --kind K    mutator (default), validator or generator
      --dir DIR     where to create the project (default: ./NAME)
      --krmfn SPEC  npm spec of the krmfn dependency (default: file: path of this krmfn)
  -h, --help        show this help

Then: cd NAME && npm install && npm test && npm run typecheck && npm run build
`;

const NAME_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export const initCommand: Command = {
  name: 'init',
  summary: 'Scaffold a new function project (source, schema, golden test, build)',
  async run(args: string[], io: CliIO): Promise<number> {
    const parsed = await parseCommandArgs(
      args,
      { kind: { type: 'string' }, dir: { type: 'string' }, krmfn: { type: 'string' } },
      HELP,
      io,
    );
    if (typeof parsed === 'number') return parsed;
    const name = parsed.positionals[0];
    if (!name || parsed.positionals.length > 1) {
      await write(io.stderr, `error: expected exactly one NAME\n\n${HELP}`);
      return 1;
    }
    if (!NAME_RE.test(name)) {
      await write(io.stderr, `error: invalid name ${JSON.stringify(name)}: use lowercase letters, digits and dashes\n`);
      return 1;
    }
    const kind = (parsed.values.kind ?? 'mutator') as TemplateKind;
    if (kind !== 'mutator' && kind !== 'validator' && kind !== 'generator') {
      await write(
        io.stderr,
        `error: unknown --kind ${JSON.stringify(parsed.values.kind)} (expected mutator, validator or generator)\n`,
      );
      return 1;
    }
    const dir = nodePath.resolve(io.cwd, parsed.values.dir ?? name);
    if (existsSync(dir) && (await fsp.readdir(dir)).length > 0) {
      await write(io.stderr, `error: ${dir} exists and is not empty\n`);
      return 1;
    }
    const krmfnSpec =
      parsed.values.krmfn ?? `file:${nodePath.relative(dir, krmfnRoot()).split(nodePath.sep).join('/')}`;
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
  },
};
