/**
 * apply-setters (catalog.md §4.4): sets the fields marked `# kpt-set: <pattern>` from the
 * functionConfig's `data` map. v0.1.x fails on an empty setter list and on no matches; v0.2.x
 * reports `no matches for input setter(s)` and succeeds.
 */
import type { KubeObject } from '../src/core/kube-object.ts';
import type { Result } from '../src/core/result.ts';
import { sequenceNode, type YNode } from '../src/core/yaml/node.ts';
import { compileGoRegexp, defineBuiltin, defineMutator, quoteMeta } from '../sdk/index.ts';
import { emulatedVersion, finish } from './lib/catalog-fn.ts';
import { dataMap } from './lib/config.ts';
import { fileRefOf } from './lib/gvk.ts';
import { fail, goQuote, ok, type Report } from './lib/report.ts';
import { setScalarText } from './lib/scalar.ts';
import { fieldMarker, setterName, setterRefs } from './lib/setters.ts';
import { isEmptyListText, parseScalarList } from './lib/simple-list.ts';
import { atLeast } from './lib/version.ts';
import { kyamlPath, walk } from './lib/walk.ts';

class SetterError extends Error {}

/** Applies `setters` to every item in place. `version` is the image version ('' = newest). */
export function applySetters(
  items: readonly KubeObject[],
  setters: ReadonlyMap<string, string>,
  version: string,
): Report {
  const v2 = atLeast(version, '0.2.0');
  if (!v2 && setters.size === 0) return fail('failed to apply setters: input setters list cannot be empty');
  const results: Result[] = [];
  try {
    for (const obj of items) {
      const file = fileRefOf(obj);
      walk(obj.root, ({ node, key, path }) => {
        const pattern = fieldMarker(node, key);
        if (pattern === undefined) return;
        const refs = setterRefs(pattern);
        if (!refs.some((r) => setters.has(setterName(r)))) return;
        const p = kyamlPath(path);
        let message: string;
        if (node.kind === 'sequence') {
          message = applyArraySetter(node, key, pattern, setters);
        } else {
          const value = resolvePattern(pattern, node.value, setters);
          setScalarText(node, value);
          message = `set field value to ${goQuote(value)}`;
        }
        const r: Result = { message, field: { path: p } };
        if (file) r.file = file;
        results.push(r);
        return 'skip';
      });
    }
  } catch (e) {
    if (e instanceof SetterError) return fail(`failed to apply setters: ${e.message}`);
    throw e;
  }
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
    out.set(refs[i]!, m[i + 1]!);
  }
  return out;
}

/** Replaces a sequence's elements with the setter's list; returns the result message. */
function applyArraySetter(
  node: YNode,
  key: YNode | undefined,
  pattern: string,
  setters: ReadonlyMap<string, string>,
): string {
  if (!/^\$\{[^}]*\}$/.test(pattern))
    throw new SetterError(`invalid setter pattern for array node: ${goQuote(pattern)}`);
  const text = setters.get(setterName(pattern)) ?? '';
  const comment = key?.lineComment || node.lineComment;
  if (isEmptyListText(text)) {
    node.content = [];
    node.style = 'flow';
    node.lineComment = comment;
    if (key) key.lineComment = '';
    return `set field value to ${goQuote(text)}`;
  }
  const elems = parseScalarList(text);
  if (!elems) throw new SetterError(`input to array setter must be an array of values, but found ${goQuote(text)}`);
  const fresh = sequenceNode(elems);
  node.content = fresh.content;
  node.style = '';
  if (key) {
    key.lineComment = comment;
    node.lineComment = '';
  }
  return `set field value to ${goQuote(text)}`;
}

const VERSIONS = ['v0.1.0', 'v0.1.1', 'v0.2.0', 'v0.2.1'];

export const applySettersFn = defineMutator({
  name: 'apply-setters',
  usage: 'Sets fields marked `# kpt-set: <pattern>` from the setters in the functionConfig `data` map.',
  run(ctx) {
    const version = emulatedVersion(ctx, VERSIONS[VERSIONS.length - 1]!);
    finish(ctx, applySetters(ctx.items.all, dataMap(ctx.functionConfig), version));
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
