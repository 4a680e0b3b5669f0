/**
 * create-setters (builtins/docs/create-setters.md): the inverse of apply-setters. Fields whose value contains a
 * setter value get a `# kpt-set: <pattern>` line comment; sequences whose elements equal an array
 * setter's values (order-insensitive) get `# kpt-set: ${name}` on their key and become block style.
 */
import { defineBuiltin, defineMutator, type KubeObject, type Result } from '../sdk/index.ts';
import { finish } from './lib/catalog-fn.ts';
import { dataMap } from './lib/config.ts';
import { fileRefOf } from './lib/gvk.ts';
import { fail, goQuote, ok, type Report } from './lib/report.ts';
import { SETTER_PREFIX } from './lib/setters.ts';
import { isEmptyListText, parseScalarList } from './lib/simple-list.ts';
import { kyamlPath, walk } from './lib/walk.ts';

export interface SetterDefs {
  scalars: { name: string; value: string }[];
  arrays: { name: string; values: string[] }[];
}

/** Splits the config into scalar and array setters; scalars longest value first. */
export function parseSetterDefs(data: ReadonlyMap<string, string>): SetterDefs {
  const defs: SetterDefs = { scalars: [], arrays: [] };
  for (const [name, value] of data) {
    const list = value.trim().startsWith('[') || /^\s*-(\s|$)/.test(value) ? parseScalarList(value) : undefined;
    if (list && !isEmptyListText(value)) defs.arrays.push({ name, values: list.map((n) => n.value).sort() });
    else defs.scalars.push({ name, value });
  }
  defs.scalars.sort((a, b) => b.value.length - a.value.length || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return defs;
}

/** Go `strings.Replacer` semantics: left to right, at each position the first listed match wins. */
export function replaceAllOrdered(text: string, pairs: readonly { from: string; to: string }[]): string {
  let out = '';
  let i = 0;
  outer: while (i < text.length) {
    for (const p of pairs) {
      if (p.from !== '' && text.startsWith(p.from, i)) {
        out += p.to;
        i += p.from.length;
        continue outer;
      }
    }
    out += text[i];
    i++;
  }
  return out;
}

export function createSetters(items: readonly KubeObject[], defs: SetterDefs): Report {
  const pairs = defs.scalars.filter((s) => s.value !== '').map((s) => ({ from: s.value, to: `\${${s.name}}` }));
  const results: Result[] = [];
  for (const obj of items) {
    const file = fileRefOf(obj);
    walk(obj.root, ({ node, key, path }) => {
      if (path.length === 0) return;
      let comment: string | undefined;
      let value = '';
      if (node.kind === 'scalar') {
        const rewritten = replaceAllOrdered(node.value, pairs);
        if (rewritten === node.value) return;
        comment = `kpt-set: ${rewritten}`;
        obj.editTree(() => (node.lineComment = SETTER_PREFIX + rewritten));
        value = node.value;
      } else if (node.kind === 'sequence' && key && node.content.every((c) => c.kind === 'scalar')) {
        const sorted = node.content.map((c) => c.value).sort();
        const hit = defs.arrays.find(
          (a) => a.values.length === sorted.length && a.values.every((v, i) => v === sorted[i]),
        );
        if (!hit) return;
        comment = `kpt-set: \${${hit.name}}`;
        obj.editTree(() => {
          key.lineComment = SETTER_PREFIX + `\${${hit.name}}`;
          node.lineComment = '';
          node.style = '';
        });
        // Go's fmt.Sprint of a []string: `[a b]`.
        value = `[${node.content.map((c) => c.value).join(' ')}]`;
      } else return;
      const r: Result = {
        message: `Added line comment ${goQuote(comment)} for field with value ${goQuote(value)}`,
        field: { path: kyamlPath(path) },
      };
      if (file) r.file = file;
      results.push(r);
      return node.kind === 'sequence' ? 'skip' : undefined;
    });
  }
  if (results.length === 0) return fail('failed to create setters: no matches for the input list of setters');
  return ok(results);
}

export const createSettersFn = defineMutator({
  name: 'create-setters',
  usage: 'Adds `# kpt-set:` setter comments to fields whose values match the given setter values.',
  run(ctx) {
    const data = dataMap(ctx.functionConfig);
    finish(
      ctx,
      data.size === 0
        ? fail('failed to create setters: config map cannot be empty')
        : createSetters(ctx.items.all, parseSetterDefs(data)),
    );
  },
});

export default defineBuiltin({
  name: 'create-setters',
  versions: ['v0.1.0'],
  configKinds: ['ConfigMap'],
  summary: 'Add kpt-set setter comments to fields matching setter values',
  schema: { type: 'object', properties: { data: { type: 'object', additionalProperties: { type: 'string' } } } },
  fn: createSettersFn,
});
