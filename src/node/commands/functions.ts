/**
 * `krmfn functions [--json]`: every built-in catalog function with its image names, implemented
 * versions, config kinds, one-line summary and docs page; `--json` adds the config schema.
 */
import { BUILTINS } from '../../../builtins/index.ts';
import type { BuiltinDescriptor } from '../../../sdk/registry.ts';
import { write, type CliIO } from '../io.ts';
import { bool, parseFlags, UsageError } from '../cli-flags.ts';
import { functionsSpec } from './specs/functions.ts';

export function describeBuiltin(d: BuiltinDescriptor): Record<string, unknown> {
  return {
    name: d.name,
    kind: d.fn.kind,
    summary: d.summary,
    images: [...d.images],
    versions: [...d.versions],
    ...(d.aliases?.length ? { aliases: d.aliases.map((a) => ({ ...a })) } : {}),
    configKinds: [...d.configKinds],
    docs: d.docs,
    ...(d.schema !== undefined ? { schema: d.schema } : {}),
  };
}

function versionRange(versions: readonly string[]): string {
  return versions.length <= 1
    ? (versions[0] ?? '')
    : `${versions[0]} … ${versions[versions.length - 1]} (${versions.length})`;
}

export function formatBuiltins(registry: readonly BuiltinDescriptor[]): string {
  const sorted = [...registry].sort((a, b) => (a.name < b.name ? -1 : 1));
  const out: string[] = [];
  for (const d of sorted) {
    out.push(`${d.name} (${d.fn.kind})`, `  ${d.summary}`);
    out.push(`  images:   ${d.images.join(', ')}`);
    out.push(`  versions: ${versionRange(d.versions)}`);
    if (d.aliases?.length) out.push(`  aliases:  ${d.aliases.map((a) => `${a.name} (as ${a.version})`).join(', ')}`);
    out.push(`  config:   ${d.configKinds.join(', ') || 'none'}`);
    if (d.docs) out.push(`  docs:     ${d.docs}`);
    out.push('');
  }
  out.push(
    `${sorted.length} built-in functions. Any catalog registry prefix, short names, vX.Y.Z / vX.Y / vX / latest tags resolve.`,
  );
  return out.join('\n') + '\n';
}

export async function runFunctions(args: string[], io: CliIO): Promise<number> {
  const p = parseFlags(args, functionsSpec.flags);
  if (p.positional.length) throw new UsageError(`unexpected argument ${JSON.stringify(p.positional[0])}`);
  const sorted = [...BUILTINS].sort((a, b) => (a.name < b.name ? -1 : 1));
  if (bool(p, 'json')) await write(io.stdout, JSON.stringify(sorted.map(describeBuiltin), null, 2) + '\n');
  else await write(io.stdout, formatBuiltins(sorted));
  return 0;
}
