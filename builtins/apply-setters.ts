/**
 * apply-setters (builtins/docs/apply-setters.md): sets the fields marked `# kpt-set: <pattern>` from the
 * functionConfig's `data` map. v0.1.x fails on an empty setter list and on no matches; v0.2.x
 * reports `no matches for input setter(s)` and succeeds.
 */
import {
  compileGoRegexp,
  defineBuiltin,
  defineMutator,
  type KubeObject,
  type PathSegment,
  quoteMeta,
  type Result,
  setListItems,
  setScalarText,
  type YNode,
} from '../sdk/index.ts';
import { emulatedVersion, finish } from './lib/catalog-fn.ts';
import { kyamlDataMap } from './lib/config.ts';
import { fileRefOf } from './lib/gvk.ts';
import { fail, goQuote, ok, type Report } from './lib/report.ts';
import { fieldMarker, markerPattern, setterName, setterRefs } from './lib/setters.ts';
import { parseScalarList } from './lib/simple-list.ts';
import { atLeast } from './lib/version.ts';
import { acceptKyaml, kyamlPath } from './lib/walk.ts';

class SetterError extends Error {}

/**
 * Applies `setters` to every item in place. `version` is the image version ('' = newest).
 * The traversal is upstream's `acceptImpl` (applysetters/walk.go): at each mapping, the array
 * setters of its fields first (`visitMapping`), then each field value in order; list items in
 * order; scalars (`visitScalar`). Result paths are `a.b[0].c`.
 */
export function applySetters(
  items: readonly KubeObject[],
  setters: ReadonlyMap<string, string>,
  version: string,
): Report {
  const v010 = !atLeast(version, '0.1.1');
  const v2 = atLeast(version, '0.2.0');
  if (!v010 && !v2 && setters.size === 0) return fail('failed to apply setters: input setters list cannot be empty');
  const results: Result[] = [];
  const wanted = (pattern: string | undefined): pattern is string =>
    pattern !== undefined && setterRefs(pattern).some((r) => setters.has(setterName(r)));
  try {
    for (const obj of items) {
      const file = fileRefOf(obj);
      const record = (message: string, path: PathSegment[]): void => {
        // Upstream results carry the file path only (`framework.File{Path}`), never the index.
        const r: Result = { message, field: { path: kyamlPath(path) } };
        if (file) r.file = { path: file.path };
        results.push(r);
      };
      acceptKyaml(
        obj.root,
        (map, mapPath) => {
          for (let i = 0; i + 1 < map.content.length; i += 2) {
            const key = map.content[i];
            const value = map.content[i + 1];
            if (value.kind !== 'sequence') continue;
            // v0.1.0 reads the marker from the key only; later tags from the value of a flow list.
            const pattern = v010 ? markerPattern(key.lineComment) : fieldMarker(value, key);
            if (!wanted(pattern)) continue;
            const path = [...mapPath, key.value];
            record(applyArraySetter(obj, path, key, pattern, setters, v010), path);
          }
        },
        (node, path) => {
          // v0.1.0 skips null scalars (`IsNilOrEmpty`).
          if (v010 && node.tag === '!!null') return;
          const pattern = markerPattern(node.lineComment);
          if (!wanted(pattern)) return;
          const value = resolvePattern(pattern, node.value, setters);
          setScalarText(obj, path, value);
          record(`set field value to ${goQuote(value)}`, path);
        },
      );
    }
  } catch (e) {
    if (e instanceof SetterError) return fail(`failed to apply setters: ${e.message}`);
    throw e;
  }
  // v0.1.0 reports nothing, success or not.
  if (v010) return ok();
  if (results.length === 0) {
    if (!v2) return fail('failed to apply setters: no matches for the input list of setters');
    return ok([{ message: 'no matches for input setter(s)' }]);
  }
  return ok(results);
}

/** The new scalar text: configured setters substituted, the rest derived from the current value. */
export function resolvePattern(pattern: string, current: string, setters: ReadonlyMap<string, string>): string {
  const derived = deriveSetterValues(pattern, current);
  let out = pattern;
  for (const [name, value] of setters) out = out.split(`\${${name}}`).join(value);
  for (const [ref, value] of derived) out = out.split(ref).join(value);
  const missing = setterRefs(out);
  if (missing.length > 0) throw new SetterError(`values for setters [${missing.join(' ')}] must be provided`);
  return out;
}

/**
 * Values of the pattern's setters read back from the current field value: each `${x}` becomes a
 * greedy capture of the (unanchored) escaped pattern. Nothing is derived unless every capture is
 * non-empty, so adjacent setters (`${a}${b}`) never derive.
 */
export function deriveSetterValues(pattern: string, current: string): Map<string, string> {
  const refs = setterRefs(pattern);
  const out = new Map<string, string>();
  if (refs.length === 0) return out;
  // Upstream quotes the pattern with regexp.QuoteMeta and turns each reference into `(?P<x>.*)`,
  // compiled by Go's regexp (no (?s): `.` stops at a newline).
  const source = pattern
    .split(/(\$\{[^}]*\})/)
    .map((part, i) => (i % 2 === 1 ? '(.*)' : quoteMeta(part)))
    .join('');
  const m = compileGoRegexp(source).findStringSubmatch(current);
  if (!m || m.length !== refs.length + 1) return out;
  for (let i = 0; i < refs.length; i++) {
    if (!m[i + 1]) return new Map();
    out.set(refs[i], m[i + 1]);
  }
  return out;
}

/** Replaces a sequence's elements with the setter's list; returns the result message. */
function applyArraySetter(
  obj: KubeObject,
  path: PathSegment[],
  key: YNode,
  pattern: string,
  setters: ReadonlyMap<string, string>,
  v010: boolean,
): string {
  if (!/^\$\{[^}]*\}$/.test(pattern) || setterRefs(pattern).length !== 1)
    throw new SetterError(`invalid setter pattern for array node: ${goQuote(pattern)}`);
  const text = setters.get(setterName(pattern)) ?? '';
  const value = obj.getNode(path)!;
  // Later tags: the marker of a flow list is on the value, of a block list on the key.
  const comment = value.style === 'flow' ? value.lineComment : key.lineComment;
  if (text === '' && !v010) {
    const node = setListItems(obj, path, [], 'flow');
    obj.editTree(() => {
      node.lineComment = comment;
      key.lineComment = '';
    });
    return `set field value to ${goQuote(text)}`;
  }
  const elems = parseScalarList(text);
  if (!elems) throw new SetterError(`input to array setter must be an array of values, but found ${goQuote(text)}`);
  const node = setListItems(obj, path, elems, '');
  if (!v010) {
    obj.editTree(() => {
      key.lineComment = comment;
      node.lineComment = '';
    });
  }
  return `set field value to ${goQuote(text)}`;
}

const VERSIONS = ['v0.1.0', 'v0.1.1', 'v0.2.0', 'v0.2.1'];

export const applySettersFn = defineMutator({
  name: 'apply-setters',
  usage: 'Sets fields marked `# kpt-set: <pattern>` from the setters in the functionConfig `data` map.',
  run(ctx) {
    const version = emulatedVersion(ctx, VERSIONS[VERSIONS.length - 1]);
    // Every tag reads `data` with kyaml's GetDataMap; v0.1.0 after a Go-map round trip.
    const setters = kyamlDataMap(ctx.functionConfig, version === 'v0.1.0');
    finish(ctx, applySetters(ctx.items.all, setters, version));
  },
});

export default defineBuiltin({
  name: 'apply-setters',
  versions: VERSIONS,
  configKinds: ['ConfigMap'],
  summary: 'Set fields marked with `# kpt-set:` comments from setter values',
  schema: {
    type: 'object',
    description: 'Any object whose `data` map holds setter name → value (arrays as YAML text).',
    properties: { data: { type: 'object', additionalProperties: { type: 'string' } } },
  },
  fn: applySettersFn,
});
