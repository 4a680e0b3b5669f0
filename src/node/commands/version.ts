/**
 * `krmfn version [--json]` (also `krmfn --version`): krmfn's version, the kpt releases it can
 * imitate (the compatibility levels of src/core/kpt-version.ts, chosen with `--kpt-version` or
 * `KRMFN_KPT_VERSION`) and the built-in functions with the versions each resolves.
 */
import { readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { DEFAULT_KPT_VERSION, KPT_VERSIONS } from '../../core/kpt-version.ts';
import { BUILTINS } from '../../../builtins/index.ts';
import { write, type CliIO } from '../io.ts';
import { bool, parseFlags, UsageError } from '../cli-flags.ts';
import { versionSpec } from './specs/version.ts';
import { krmfnRoot } from '../package-root.ts';

function krmfnVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(nodePath.join(krmfnRoot(), 'package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export async function runVersion(args: string[], io: CliIO): Promise<number> {
  const p = parseFlags(args, versionSpec.flags);
  if (p.positional.length) throw new UsageError(`unexpected argument ${JSON.stringify(p.positional[0])}`);
  const version = krmfnVersion();
  const functions = [...BUILTINS]
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((d) => ({ name: d.name, versions: [...d.versions] }));
  if (bool(p, 'json')) {
    await write(
      io.stdout,
      JSON.stringify(
        { version, kptVersions: KPT_VERSIONS, defaultKptVersion: DEFAULT_KPT_VERSION, functions },
        null,
        2,
      ) + '\n',
    );
    return 0;
  }
  const levels = KPT_VERSIONS.map((v) => (v === DEFAULT_KPT_VERSION ? `${v} (default)` : v)).join(', ');
  const width = Math.max(...functions.map((f) => f.name.length)) + 2;
  const rows = functions.map((f) => `  ${f.name.padEnd(width)}${f.versions.join(' ')}`);
  await write(
    io.stdout,
    `krmfn ${version}\nkpt versions: ${levels}\nbuilt-in functions (${functions.length}):\n${rows.join('\n')}\n`,
  );
  return 0;
}
