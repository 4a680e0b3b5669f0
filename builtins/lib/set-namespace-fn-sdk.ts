/**
 * set-namespace v0.3.0 – v0.4.1, the kpt-functions-sdk `fn` generation before origins
 * (builtins/docs/set-namespace.md, "v0.3.x and v0.4.x, tag by tag"). Each tag is read from
 * functions/go/set-namespace/transformer/namespace.go at set-namespace/<tag> and the SDK commit its
 * go.mod pins (v0.3.0–v0.3.2 e5817d5d2014, v0.3.3–v0.3.4 2afd3aec6b69, v0.4.0 7ad5b77727ee, v0.4.1
 * f85503febd54). What the tags share: config strings are read with the SDK's typed getters
 * (builtins/lib/fn-sdk-string.ts), the namespace fields are visited by `VisitNamespaces`, and the
 * `depends-on` annotation is matched whole against `<group>/namespaces/<ns>/<kind>/<name>` with
 * the group of the target taken as its apiVersion up to the first `/` (so core-group targets,
 * `v1`, never match the annotation's empty group: upstream bug, reproduced).
 */
import { identityKey, type FnContext, type KubeObject, type PathSegment, type Result } from '../../sdk/index.ts';
import { sdkNestedString } from './fn-sdk-string.ts';
import { crashWithPanic, GoPanic, NIL_DEREFERENCE } from './go-panic.ts';
import { configObjectError, goQuote } from './report.ts';

type Ctx = FnContext<undefined>;

/** The SDK commit a tag pins decides how a panic surfaces (go/fn/run.go `Run`). */
type SdkCommit = 'e5817d5d2014' | '2afd3aec6b69' | '7ad5b77727ee' | 'f85503febd54';

interface Tag {
  sdk: SdkCommit;
  /** v0.3.2+: RoleBinding subjects too, and `metadata.namespace` after the kind switch. */
  roleBindings: boolean;
  /** v0.3.3+: counted result, `%q` messages, the "no namespace fields" error. */
  counts: boolean;
  /** v0.3.3 only: a leftover `set image from … to …` info result. */
  imageResult: boolean;
  /** v0.4.x: every visited field is set to the new namespace (no old-namespace matching). */
  v04: boolean;
}

function tagOf(version: string): Tag {
  const patch = version.replace(/^v/, '');
  const sdk: SdkCommit =
    patch === '0.4.1'
      ? 'f85503febd54'
      : patch === '0.4.0'
        ? '7ad5b77727ee'
        : patch === '0.3.3' || patch === '0.3.4'
          ? '2afd3aec6b69'
          : 'e5817d5d2014';
  return {
    sdk,
    roleBindings: !['0.3.0', '0.3.1'].includes(patch),
    counts: !['0.3.0', '0.3.1', '0.3.2'].includes(patch),
    imageResult: patch === '0.3.3',
    v04: patch.startsWith('0.4.'),
  };
}

/** A `GetStringOrDie` / `NestedStringOrDie` panic on `fields` of `obj`. */
class FieldPanic extends Error {
  readonly fields: readonly string[];
  constructor(fields: readonly string[]) {
    super(fields.join('/'));
    this.fields = fields;
  }
}

/** A config the transformer refuses (`Config` returned an error). */
class ConfigError extends Error {}

const ROOT: readonly PathSegment[] = Object.freeze([]);

function getString(obj: KubeObject, fields: readonly string[]): string {
  const r = sdkNestedString(obj.readNode(ROOT)!, fields);
  if (!r.ok) throw new FieldPanic(fields);
  return r.value;
}

interface Settings {
  namespace: string;
  matcher: string;
}

function readConfig(fc: KubeObject | undefined, tag: Tag): Settings {
  // v0.3.x and v0.4.0 call methods on the nil config kpt leaves when no config is given.
  if (!fc) {
    if (tag.sdk !== 'f85503febd54') throw new GoPanic(NIL_DEREFERENCE);
    throw new ConfigError('FunctionConfig is missing. Expect `ConfigMap` or `SetNamespace`');
  }
  if (tag.sdk === 'f85503febd54' && fc.root.kind === 'mapping' && fc.root.content.length === 0)
    throw new ConfigError('FunctionConfig is missing. Expect `ConfigMap` or `SetNamespace`');
  if (fc.apiVersion === 'v1' && fc.kind === 'ConfigMap') {
    let namespace = getString(fc, ['data', 'namespace']);
    if (namespace === '') {
      if (fc.name !== 'kptfile.kpt.dev') throw new ConfigError('`data.namespace` should not be empty');
      namespace = getString(fc, ['data', 'name']);
      if (namespace === '') throw new ConfigError('`data.name` should not be empty');
    }
    return { namespace, matcher: tag.v04 ? '' : getString(fc, ['data', 'namespaceMatcher']) };
  }
  if (fc.apiVersion === 'fn.kpt.dev/v1alpha1' && fc.kind === 'SetNamespace') {
    const namespace = getString(fc, ['namespace']);
    if (namespace === '') throw new ConfigError('`namespace` should not be empty');
    // v0.3.x reads the matcher of a `SetNamespace` from `data.namespaceMatcher` (copied from the
    // ConfigMap branch): a top-level `namespaceMatcher` is ignored. Reproduced.
    return { namespace, matcher: tag.v04 ? '' : getString(fc, ['data', 'namespaceMatcher']) };
  }
  throw new ConfigError(
    `unknown functionConfig Kind=${fc.kind} ApiVersion=${fc.apiVersion}, expect \`SetNamespace\` or \`ConfigMap\``,
  );
}

/** One visited namespace field. `value` is what the visitor may change; it is written back after. */
interface Field {
  obj: KubeObject;
  path: PathSegment[];
  value: string;
  isNamespaceObject: boolean;
}

/** A non-local-config item with the namespace fields `VisitNamespaces` visits on it, in its order. */
interface Visited {
  obj: KubeObject;
  paths: PathSegment[][];
  isNamespaceObject: boolean;
}

/**
 * The items and fields every `VisitNamespaces` of one run visits, found once: which fields an item
 * has depends on its kind, apiVersion, its subjects and (v0.3) whether `metadata.namespace` is
 * present, none of which a visit changes (a visit writes only the fields listed, and creates a
 * missing one in the first visit already), so the later visits of the run reuse the list.
 */
function namespaceFields(items: readonly KubeObject[], tag: Tag): Visited[] {
  const out: Visited[] = [];
  for (const obj of items) {
    const v = visitedItem(obj, tag);
    if (v) out.push(v);
  }
  return out;
}

/** One item's entry of `namespaceFields`: undefined for a local-config item or one without namespace fields. */
function visitedItem(obj: KubeObject, tag: Tag): Visited | undefined {
  if (obj.isLocalConfig) return undefined;
  const paths = fieldPaths(obj, tag);
  if (paths.length === 0) return undefined;
  return { obj, paths, isNamespaceObject: obj.apiVersion === 'v1' && obj.kind === 'Namespace' };
}

/**
 * `VisitNamespaces`: calls `visit` on each namespace field of each non-local-config item, then
 * writes the value back with `SetOrDie`, which creates a missing field, as upstream does (a CRD
 * without a conversion webhook gets `namespace: ""` at v0.3, the new namespace at v0.4).
 */
function visitNamespaces(visited: readonly Visited[], visit: (f: Field) => void): void {
  for (const v of visited) visitItem(v, visit);
}

function visitItem({ obj, paths, isNamespaceObject }: Visited, visit: (f: Field) => void): void {
  for (const path of paths) {
    const before = readField(obj, path);
    const field: Field = { obj, path, value: before ?? '', isNamespaceObject };
    visit(field);
    if (field.value !== before) obj.set(path, field.value);
  }
}

/**
 * The field's string; undefined when missing. A subject's namespace is read ignoring the error
 * (`found, _ := s.Get(&ns, "namespace")`: a non-string reads as ""); the other fields with the
 * panicking getters.
 */
function readField(obj: KubeObject, path: PathSegment[]): string | undefined {
  if (path[0] === 'subjects') {
    const subject = obj.readNode(path.slice(0, 2));
    const r = subject ? sdkNestedString(subject, ['namespace']) : undefined;
    return r?.ok ? r.value : '';
  }
  if (!obj.has(path)) return undefined;
  return getString(obj, path as string[]);
}

const NAMESPACE_OBJECT_NAME: readonly PathSegment[] = Object.freeze(['metadata', 'name']);
const CRD_WEBHOOK_NAMESPACE: readonly PathSegment[] = Object.freeze([
  'spec',
  'conversion',
  'webhook',
  'clientConfig',
  'service',
  'namespace',
]);
const API_SERVICE_NAMESPACE: readonly PathSegment[] = Object.freeze(['spec', 'service', 'namespace']);
const METADATA_NAMESPACE: readonly PathSegment[] = Object.freeze(['metadata', 'namespace']);

/** The namespace fields `VisitNamespaces` visits on one item, in its order (shared frozen paths: read only). */
function fieldPaths(obj: KubeObject, tag: Tag): PathSegment[][] {
  const out: PathSegment[][] = [];
  let special = true;
  const apiVersion = obj.apiVersion;
  const kind = obj.kind;
  if (apiVersion === 'v1' && kind === 'Namespace') out.push(NAMESPACE_OBJECT_NAME as PathSegment[]);
  else if (apiVersion === 'apiextensions.k8s.io/v1' && kind === 'CustomResourceDefinition')
    out.push(CRD_WEBHOOK_NAMESPACE as PathSegment[]);
  else if (apiVersion === 'apiregistration.k8s.io/v1' && kind === 'APIService')
    out.push(API_SERVICE_NAMESPACE as PathSegment[]);
  else if (kind === 'ClusterRoleBinding' || (tag.roleBindings && kind === 'RoleBinding')) {
    const subjects = obj.readNode('subjects');
    if (subjects?.kind === 'sequence')
      subjects.content.forEach((_, i) => {
        if (obj.has(['subjects', i, 'namespace'])) out.push(['subjects', i, 'namespace']);
      });
  } else special = false;
  // v0.3 takes `HasNamespace` (the key is present) for namespace scope, v0.4 `IsNamespaceScoped`;
  // v0.3.0/v0.3.1 reach it only for kinds outside the switch.
  const scoped = tag.v04 ? obj.isNamespaceScoped : obj.has(METADATA_NAMESPACE);
  if (scoped && (tag.roleBindings || !special)) out.push(METADATA_NAMESPACE as PathSegment[]);
  return out;
}

const DEPENDS_ON = 'config.kubernetes.io/depends-on';
const NAMESPACED_REF = /^([-.\w]*)\/namespaces\/([-.\w]*)\/([-.\w]*)\/([-.\w]*)$/;

/** `dependsOnKeyPattern(group, kind, name)` of a visited object; group = apiVersion before `/`. */
function dependsOnKey(obj: KubeObject): string {
  const api = obj.apiVersion;
  const slash = api.indexOf('/');
  return `${slash > -1 ? api.slice(0, slash) : api}/${obj.kind}/${obj.name}`;
}

/** Whether a visited item has a `depends-on` annotation (else `updateDependsOn` changes nothing). */
const hasDependsOn = (v: Visited): boolean => !!v.obj.getAnnotation(DEPENDS_ON);

/**
 * `GetDependsOnMap` then `UpdateAnnotation`: `replaced(ns)` says whether a reference's namespace
 * changed. Both are visits after the transform's, which already read every field and created the
 * missing ones: they can neither fail nor write a field, so callers skip them when no visited item
 * has a `depends-on` annotation (they would change nothing).
 */
function updateDependsOn(visited: readonly Visited[], newNs: string, replaced: (ns: string) => boolean) {
  const keys = new Set<string>();
  visitNamespaces(visited, (f) => keys.add(dependsOnKey(f.obj)));
  visitNamespaces(visited, (f) => {
    const value = f.obj.getAnnotation(DEPENDS_ON);
    if (!value) return;
    const m = NAMESPACED_REF.exec(value);
    if (!m || !keys.has(`${m[1]}/${m[3]}/${m[4]}`) || !replaced(m[2])) return;
    f.obj.setAnnotation(DEPENDS_ON, `${m[1]}/namespaces/${newNs}/${m[3]}/${m[4]}`);
  });
}

/** Go's `%v` of a `map[string]int` (keys sorted). */
const goMap = (m: Map<string, number>): string =>
  `map[${[...m.keys()]
    .sort()
    .map((k) => `${k}:${m.get(k)}`)
    .join(' ')}]`;

/** v0.3.x `GetOldNamespace`: the namespace to replace, or an error message. */
function oldNamespace(s: Settings, tag: Tag, fromResources: string[], nsCount: Map<string, number>): string | Error {
  if (s.matcher !== '') {
    if (nsCount.size === 0) return s.matcher;
    return new Error(
      'found Namespace objects from the input resources, you cannot use `namespaceMatcher` in FunctionConfig together with Namespace objects',
    );
  }
  if (nsCount.size > 1)
    return new Error(`cannot accept more than one Namespace objects from the input resources, found ${goMap(nsCount)}`);
  if (nsCount.size === 1) {
    const [[name, n]] = [...nsCount];
    if (n > 1) {
      const quoted = tag.counts ? goQuote(name) : name;
      return new Error(`found more than one Namespace objects of the same name ${quoted}`);
    }
    return name;
  }
  if (fromResources.length > 1) {
    const joined = fromResources.join(',');
    return new Error(
      `all input namespace-scoped resources should be under the same namespace but found different namespaces: ${tag.counts ? goQuote(joined) : joined} `,
    );
  }
  if (fromResources.length === 0) {
    if (!tag.counts) throw new GoPanic('runtime error: index out of range [0] with length 0');
    return new Error(
      'could not find any namespace fields to update. This function requires at least one of Namespace objects or namespace-scoped resources to have their namespace field set.',
    );
  }
  return fromResources[0];
}

function transformV03(ctx: Ctx, s: Settings, tag: Tag): Result[] {
  const visited = namespaceFields(ctx.items.all, tag);
  const found = new Set<string>();
  const nsCount = new Map<string, number>();
  visitNamespaces(visited, (f) => {
    if (f.value === '') return;
    if (f.isNamespaceObject) nsCount.set(f.value, (nsCount.get(f.value) ?? 0) + 1);
    found.add(f.value);
  });
  const old = oldNamespace(s, tag, [...found].sort(), nsCount);
  const results: Result[] = [];
  let matcher = s.matcher;
  if (old instanceof Error) results.push({ message: old.message, severity: 'error' });
  else {
    matcher = old;
    let count = 0;
    if (!(tag.counts && old === s.namespace)) {
      visitNamespaces(visited, (f) => {
        if (f.value === '' || f.value !== old) return;
        f.value = s.namespace;
        count++;
      });
    }
    if (visited.some(hasDependsOn)) updateDependsOn(visited, s.namespace, (ns) => ns === old);
    const message = tag.counts
      ? `namespace ${goQuote(matcher)} updated to ${goQuote(s.namespace)}, ${count} values changed`
      : 'namespace updated';
    results.push({ message, severity: 'info' });
  }
  if (tag.imageResult) {
    results.push({
      message: `set image from ${matcher} to ${s.namespace}`,
      field: { path: '', currentValue: matcher, proposedValue: s.namespace },
      file: { path: 'test' },
      severity: 'info',
    });
  }
  return results;
}

/**
 * v0.4's transform, then `UpdateAnnotation` of depends-on, then the duplicate check, as upstream
 * runs them, with what each needs of an item gathered in the one pass of the transform (each
 * item's tree is fetched once): after an item's fields are visited, whether it has a `depends-on`
 * annotation and its identity (a visit changes only its own item, and depends-on only annotations,
 * so the identities are those upstream reads after both).
 */
function transformV04(ctx: Ctx, s: Settings, tag: Tag): Result {
  const items = ctx.items.all;
  const visited: Visited[] = [];
  const olds = new Set<string>();
  let count = 0;
  let dependsOn = false;
  const rewrite = (f: Field): void => {
    if (f.value === s.namespace) return;
    olds.add(f.value);
    f.value = s.namespace;
    count++;
  };
  // identity → [first item with it, how many]; a Map keeps first-seen order, as `duplicates()` does.
  const identities = new Map<string, [KubeObject, number]>();
  for (const obj of items) {
    const v = visitedItem(obj, tag);
    if (v) {
      visited.push(v);
      visitItem(v, rewrite);
      dependsOn ||= hasDependsOn(v);
    }
    const key = identityKey(obj);
    const seen = identities.get(key);
    if (seen) seen[1]++;
    else identities.set(key, [obj, 1]);
  }
  if (dependsOn) updateDependsOn(visited, s.namespace, (ns) => olds.has(ns));
  for (const [o, n] of identities.values()) {
    if (n < 2) continue;
    return {
      message: `duplicate Resource(apiVersion=${o.apiVersion}, kind=${o.kind}, Namespace=${o.namespace}, Name=${o.name})`,
      severity: 'error',
    };
  }
  if (count === 0)
    return { message: `all namespaces are already ${goQuote(s.namespace)}. no value changed`, severity: 'info' };
  // Go ranges over a map here, so with several old namespaces upstream's order varies run to run.
  const list = [...olds].map(goQuote).join(',');
  return {
    message: `namespace ${list} updated to ${goQuote(s.namespace)}, ${count} value(s) changed`,
    severity: 'info',
  };
}

/** Go's `%s` of the SDK's `ErrKubeObjectFields` value (its `Error` method has a pointer receiver). */
function kubeObjectFieldsValue(fields: readonly string[]): string {
  // The pointer's address differs per run; krmfn prints a fixed one (builtins/docs/set-namespace.md).
  return `{%!s(*fn.KubeObject=0xc000010000) [${fields.join(' ')}]}`;
}

/** Surfaces a panic as the tag's SDK commit does. */
function surfacePanic(ctx: Ctx, tag: Tag, e: FieldPanic | GoPanic): void {
  if (tag.sdk === 'e5817d5d2014') {
    // Every panic is recovered as `panic with %s`.
    const message = `panic with ${e instanceof FieldPanic ? kubeObjectFieldsValue(e.fields) : e.message}`;
    ctx.results.add({ message, severity: 'error' });
    ctx.log(`failed to evaluate function: ${message}`);
    ctx.exitCode = 1;
    return;
  }
  if (e instanceof FieldPanic && tag.sdk !== '2afd3aec6b69') {
    // `ErrSubObjectFields` is recovered: an error result and a failed run.
    const message = `SubObject has unmatched field type: \`${e.fields.join('/')}`;
    ctx.results.add({ message, severity: 'error' });
    ctx.log(`failed to evaluate function: ${message}`);
    ctx.exitCode = 1;
    return;
  }
  // 2afd3aec6b69 panics with `ErrKubeObjectFields` by value but recovers only pointers; runtime
  // errors are re-panicked by every commit but the first.
  const value = e instanceof FieldPanic ? '(fn.ErrKubeObjectFields) 0xc000010000' : e.message;
  crashWithPanic(ctx, new GoPanic(value), true);
}

export function runSetNamespaceFnSdk(ctx: Ctx, version: string): void {
  const tag = tagOf(version);
  try {
    let s: Settings;
    try {
      s = readConfig(ctx.functionConfig, tag);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      if (tag.sdk === 'f85503febd54') {
        ctx.results.error(e.message);
        ctx.log('failed to evaluate function: error: function failure');
        ctx.exitCode = 1;
      } else {
        ctx.results.add(configObjectError(e.message, ctx.functionConfig));
        ctx.exitCode = 0;
      }
      return;
    }
    const results = tag.v04 ? [transformV04(ctx, s, tag)] : transformV03(ctx, s, tag);
    for (const r of results) ctx.results.add(r);
    ctx.exitCode = 0;
  } catch (e) {
    if (!(e instanceof FieldPanic || e instanceof GoPanic)) throw e;
    surfacePanic(ctx, tag, e);
  }
}
