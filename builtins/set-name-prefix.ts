/**
 * set-name-prefix: renames the objects of a package instantiated from a blueprint, replacing the
 * blueprint's name prefix (`oldPrefix`, default `packagename`) with the package's name, and fixes
 * references to the renamed objects. Upstream: GoogleContainerTools/kpt-functions-catalog
 * `functions/go/set-name-prefix/setnameprefix.go` (identical at tags `go/set-name-prefix/v0.0.1`,
 * `set-name-prefix/v0.0.2` and `set-name-prefix/v0.0.3`: one commit), the package context reader
 * `functions/go/set-gcp-resource-ids/pkg/kpt/` and the rename in builtins/lib/object-refs.ts.
 * It is not kustomize's prefix transformer: a name is `oldPrefix` or starts with `oldPrefix-`.
 *
 * Outcomes as the Go fn SDK (kpt-functions-sdk/go/fn 5fa523b306fe, `run.go`) produces them:
 * - no package context, or an empty prefix: exit 1, `failed to evaluate function: <error>`, no result;
 * - a functionConfig that is not a ConfigMap: one error result, exit 0 (nothing renamed);
 * - a rename error: one error result, exit 0, the renames before it kept.
 */
import { defineBuiltin, defineMutator, type FnContext, type KubeObject } from '../sdk/index.ts';
import { isLocalConfig } from './lib/gvk.ts';
import { crashWithPanic, GoPanic } from './lib/go-panic.ts';
import { RenameError, renameObject } from './lib/object-refs.ts';
import { configObjectError } from './lib/report.ts';

const PACKAGE_CONTEXT_NAME = 'kptfile.kpt.dev';

export interface SetNamePrefixConfig {
  prefix: string;
  oldPrefix: string;
}

class FnError extends Error {}

/** Upstream `kpt.FindPackageContext`: the one local-config object named `kptfile.kpt.dev`, its `data.name`. */
export function packageName(items: readonly KubeObject[]): string {
  const matches = items.filter((o) => isLocalConfig(o) && o.name === PACKAGE_CONTEXT_NAME);
  if (matches.length === 0) throw new FnError('unable to find package context object');
  if (matches.length !== 1) throw new FnError('found multiple matches for package-context object');
  const ctxObj = matches[0];
  const name = ctxObj.get(['data', 'name']);
  if (name !== undefined && name !== null && typeof name !== 'string') {
    // The SDK's ErrUnmatchedField text (kpt-functions-sdk go/fn/errors.go at 5fa523b306fe).
    const gv = ctxObj.group === '' ? ctxObj.version : `${ctxObj.group}/${ctxObj.version}`;
    throw new FnError(
      `error getting data.name from package context object: Resource(apiVersion=${gv}, kind=${ctxObj.kind}) has unmatched field type "string" in fieldpath .data.name`,
    );
  }
  if (!name) throw new FnError('package name (data.name) not set in package context object');
  return name;
}

/**
 * Upstream `LoadConfig`: a missing config or a ConfigMap (the SDK's `IsGVK` treats empty parts as
 * wildcards, so a config without apiVersion/kind counts) may override `prefix` and `oldPrefix`
 * with `data` strings; any other kind is an error, worded with an empty GVK as upstream prints it.
 */
export function loadConfig(fc: KubeObject | undefined, defaults: SetNamePrefixConfig): SetNamePrefixConfig | string {
  const cfg = { ...defaults };
  if (!fc) return cfg;
  const okPart = (have: string, want: string): boolean => have === '' || have === want;
  if (!(okPart(fc.kind, 'ConfigMap') && okPart(fc.group, '') && okPart(fc.version, 'v1'))) {
    return 'functionConfig error: unknown functionConfig Kind /, Kind=';
  }
  const data = fc.get('data');
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    const d = data as Record<string, unknown>;
    if (typeof d['prefix'] === 'string') cfg.prefix = d['prefix'];
    if (typeof d['oldPrefix'] === 'string') cfg.oldPrefix = d['oldPrefix'];
  }
  return cfg;
}

function isResourceGroup(o: KubeObject): boolean {
  return o.apiVersion === 'kpt.dev/v1alpha1' && o.kind === 'ResourceGroup';
}

/** Upstream `Transform`: renames in item order; throws RenameError or GoPanic, keeping earlier edits. */
export function setNamePrefix(items: readonly KubeObject[], cfg: SetNamePrefixConfig): void {
  for (const obj of items) {
    if (isLocalConfig(obj) || isResourceGroup(obj)) continue;
    const oldName = obj.name;
    if (oldName === '') continue;
    let newName: string | undefined;
    if (oldName === cfg.oldPrefix) newName = cfg.prefix;
    else if (oldName.startsWith(`${cfg.oldPrefix}-`))
      newName = `${cfg.prefix}-${oldName.slice(cfg.oldPrefix.length + 1)}`;
    if (newName !== undefined) renameObject(obj, newName, obj.namespace, items);
  }
}

function run(ctx: FnContext<undefined>): void {
  const items = ctx.items.all;
  let prefix: string;
  try {
    prefix = packageName(items);
  } catch (e) {
    return failRun(ctx, (e as Error).message);
  }
  const fc = ctx.functionConfig;
  const cfg = loadConfig(fc, { prefix, oldPrefix: 'packagename' });
  if (typeof cfg === 'string') {
    ctx.results.add(configObjectError(cfg, fc));
    ctx.exitCode = 0;
    return;
  }
  if (cfg.prefix === '') return failRun(ctx, '`data.prefix` should not be empty');
  try {
    setNamePrefix(items, cfg);
  } catch (e) {
    if (e instanceof GoPanic) return crashWithPanic(ctx, e);
    if (!(e instanceof RenameError)) throw e;
    ctx.results.add({ message: e.message, severity: 'error' });
  }
  ctx.exitCode = 0;
}

function failRun(ctx: FnContext<undefined>, message: string): void {
  ctx.log(`failed to evaluate function: ${message}`);
  ctx.exitCode = 1;
}

export const setNamePrefixFn = defineMutator({
  name: 'set-name-prefix',
  usage:
    "Replaces a blueprint's name prefix (oldPrefix, default `packagename`) with the package name and fixes references.",
  run,
});

export default defineBuiltin({
  name: 'set-name-prefix',
  versions: ['v0.0.1', 'v0.0.2', 'v0.0.3'],
  configKinds: ['ConfigMap'],
  summary: "Replace a blueprint's name prefix with the package name, fixing references to renamed objects",
  schema: {
    type: 'object',
    properties: {
      prefix: {
        type: 'string',
        description: 'The new prefix (default: data.name of the kptfile.kpt.dev package context).',
      },
      oldPrefix: { type: 'string', description: 'The prefix to replace (default: packagename).' },
    },
  },
  fn: setNamePrefixFn,
});
