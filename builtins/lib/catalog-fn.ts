/**
 * Glue between the pure catalog logic (which returns a `Report`) and the SDK: picks the emulated
 * version from `ctx.image`, appends the results verbatim and sets the exit code the catalog's SDK
 * generation would (docs/catalog.md, "SDK generations: how errors and results surface"). kyaml-framework functions also print their results to
 * stderr on failure, as `[error] <field>: <message>` blocks.
 */
import type { FnContext } from '../../sdk/define.ts';
import type { Result } from '../../sdk/index.ts';
import type { Report } from './report.ts';

export type SdkGeneration = 'kyaml' | 'fn-sdk';

/**
 * The version whose behaviour to emulate: the resolved `vX.Y.Z`; '' (the unreleased `master`
 * behaviour) for the catalog's CI tag `unstable`; `newest` when run outside the built-in runtime.
 */
export function emulatedVersion(ctx: FnContext<unknown>, newest: string, hasMaster = false): string {
  if (!ctx.image) return newest;
  if (hasMaster && ctx.image.tag === 'unstable') return '';
  return ctx.image.version || newest;
}

export function finish(ctx: FnContext<unknown>, report: Report, generation: SdkGeneration = 'kyaml'): void {
  for (const r of report.results) ctx.results.add(r);
  ctx.exitCode = report.failed ? 1 : 0;
  if (report.failed && generation === 'kyaml') ctx.log(report.results.map(kyamlLine).join('\n\n'));
}

function kyamlLine(r: Result): string {
  const sev = r.severity ?? 'info';
  const ref = r.resourceRef
    ? `${[r.resourceRef.apiVersion, r.resourceRef.kind, r.resourceRef.namespace, r.resourceRef.name].filter(Boolean).join('/')} `
    : '';
  return `[${sev}] ${ref}${r.field?.path ?? ''}: ${r.message}`;
}
