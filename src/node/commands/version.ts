/**
 * `krmfn version [--json]`: krmfn's version and the kpt releases it can imitate (the
 * compatibility levels of src/core/kpt-version.ts, chosen with `--kpt-version` or
 * `KRMFN_KPT_VERSION`).
 */
import { readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { DEFAULT_KPT_VERSION, KPT_VERSIONS } from '../../core/kpt-version.ts';
import { write, type CliIO, type Command } from '../io.ts';
import { krmfnRoot } from '../package-root.ts';

function krmfnVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(nodePath.join(krmfnRoot(), 'package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

async function runVersion(args: string[], io: CliIO): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    await write(
      io.stdout,
      "Print krmfn's version and the kpt releases it imitates.\n\nUsage:\n  krmfn version [--json]\n",
    );
    return 0;
  }
  const unknown = args.find((a) => a !== '--json');
  if (unknown !== undefined) {
    await write(io.stderr, `error: unknown flag: ${unknown}\n`);
    return 1;
  }
  const version = krmfnVersion();
  if (args.includes('--json')) {
    await write(
      io.stdout,
      JSON.stringify({ version, kptVersions: KPT_VERSIONS, defaultKptVersion: DEFAULT_KPT_VERSION }, null, 2) + '\n',
    );
    return 0;
  }
  const levels = KPT_VERSIONS.map((v) => (v === DEFAULT_KPT_VERSION ? `${v} (default)` : v)).join(', ');
  await write(io.stdout, `krmfn ${version}\nkpt versions: ${levels}\n`);
  return 0;
}

export const versionCommand: Command = {
  name: 'version',
  summary: 'Print the version and the kpt releases krmfn imitates (--kpt-version)',
  run: runVersion,
};
