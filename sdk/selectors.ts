/**
 * Selectors are plain predicates over KubeObjects (docs/sdk.md, "Design"), composable with
 * `matchAll`, `matchAny` and `not`. `bySelector(...)` takes the shape of kpt's `--match-*` flags and
 * Kptfile selectors: within one field any listed value matches; all given fields must match.
 */
import type { Selector as KptSelector } from '../src/core/function.ts';
import type { KubeObject } from '../src/core/kube-object.ts';
import { matchesSelector } from '../src/core/selector.ts';

export type Predicate = (obj: KubeObject) => boolean;

export interface SelectorSpec {
  kinds?: readonly string[];
  apiVersions?: readonly string[];
  /** API groups ('' is the core group). */
  groups?: readonly string[];
  names?: readonly string[];
  namespaces?: readonly string[];
  /** Every pair must be present with that value. */
  labels?: Readonly<Record<string, string>>;
  annotations?: Readonly<Record<string, string>>;
}

const anyOf = (list: readonly string[] | undefined, v: string): boolean =>
  !list || list.length === 0 || list.includes(v);

const hasAll = (have: Record<string, string>, want: Readonly<Record<string, string>> | undefined): boolean =>
  !want || Object.entries(want).every(([k, v]) => have[k] === v);

export function bySelector(spec: SelectorSpec): Predicate {
  return (o) =>
    anyOf(spec.kinds, o.kind) &&
    anyOf(spec.apiVersions, o.apiVersion) &&
    anyOf(spec.groups, o.group) &&
    anyOf(spec.names, o.name) &&
    anyOf(spec.namespaces, o.namespace) &&
    hasAll(o.labels(), spec.labels) &&
    hasAll(o.annotations(), spec.annotations);
}

/**
 * A kpt Kptfile/CLI selector (`{apiVersion, kind, name, namespace, labels, annotations}`), matched
 * exactly as the engine matches it (src/core/selector.ts).
 */
export function fromKptSelector(sel: KptSelector): Predicate {
  return (o) => matchesSelector(o, sel);
}

export const byKind =
  (kind: string, apiVersion?: string): Predicate =>
  (o) =>
    o.kind === kind && (apiVersion === undefined || o.apiVersion === apiVersion);
export const byGroupKind =
  (group: string, kind: string): Predicate =>
  (o) =>
    o.group === group && o.kind === kind;
export const byName =
  (...names: string[]): Predicate =>
  (o) =>
    names.includes(o.name);
export const byNamespace =
  (...namespaces: string[]): Predicate =>
  (o) =>
    namespaces.includes(o.namespace);
export const byLabels =
  (labels: Readonly<Record<string, string>>): Predicate =>
  (o) =>
    hasAll(o.labels(), labels);
export const byAnnotations =
  (annotations: Readonly<Record<string, string>>): Predicate =>
  (o) =>
    hasAll(o.annotations(), annotations);
export const isLocalConfig: Predicate = (o) => o.isLocalConfig;

export const matchAll =
  (...ps: Predicate[]): Predicate =>
  (o) =>
    ps.every((p) => p(o));
export const matchAny =
  (...ps: Predicate[]): Predicate =>
  (o) =>
    ps.some((p) => p(o));
export const not =
  (p: Predicate): Predicate =>
  (o) =>
    !p(o);
