/**
 * search-replace (builtins/docs/search-replace.md): matches field values by value, regex, path and file path,
 * and reports, replaces or comments them. v0.1.x requires a matcher and has no `by-file-path`.
 */
import {
  cloneNode,
  compileGoRegexp,
  defineBuiltin,
  defineMutator,
  documentNode,
  emitYamlDocument,
  GlobSyntaxError,
  type GoRegexp,
  GoRegexpError,
  type KubeObject,
  mappingNode,
  newNode,
  type PathSegment,
  resolvePlainTag,
  type Result,
  setScalarText,
  type YNode,
} from '../sdk/index.ts';
import { emulatedVersion, finish } from './lib/catalog-fn.ts';
import { kyamlDataMap } from './lib/config.ts';
import { globMatch } from './lib/glob.ts';
import { fileRefOf } from './lib/gvk.ts';
import { fail, goQuote, ok, type Report } from './lib/report.ts';
import { atLeast } from './lib/version.ts';
import { acceptKyaml, kyamlPath } from './lib/walk.ts';

export interface SearchReplaceConfig {
  byValue?: string;
  byValueRegex?: string;
  byPath?: string;
  byFilePath?: string;
  putValue?: string;
  putComment?: string;
}

const KEYS_V2 = ['by-value', 'by-file-path', 'by-value-regex', 'by-path', 'put-value', 'put-comment'];
const KEYS_V1 = ['by-value', 'by-value-regex', 'by-path', 'put-value', 'put-comment'];

/** Validates the ConfigMap `data` for the given version; a string is the error message. */
export function parseSearchReplaceConfig(
  data: ReadonlyMap<string, string>,
  version: string,
): SearchReplaceConfig | string {
  const allowed = atLeast(version, '0.2.0') ? KEYS_V2 : KEYS_V1;
  const cfg: SearchReplaceConfig = {};
  for (const [k, v] of data) {
    if (!allowed.includes(k))
      return `invalid matcher ${goQuote(k)}, must be one of [${allowed.map(goQuote).join(' ')}]`;
    // Upstream reads the data map as Go strings: an empty value is the same as an absent key.
    if (v === '') continue;
    if (k === 'by-value') cfg.byValue = v;
    else if (k === 'by-value-regex') cfg.byValueRegex = v;
    else if (k === 'by-path') cfg.byPath = v;
    else if (k === 'by-file-path') cfg.byFilePath = v;
    else if (k === 'put-value') cfg.putValue = v;
    else cfg.putComment = v;
  }
  if (cfg.byValue !== undefined && cfg.byValueRegex !== undefined)
    return 'only one of ["by-value", "by-value-regex"] can be provided';
  if (!atLeast(version, '0.2.0') && !cfg.byValue && !cfg.byValueRegex && !cfg.byPath) {
    return 'at least one of ["by-value", "by-value-regex", "by-path"] must be provided';
  }
  return cfg;
}

class SearchReplaceError extends Error {}

export function searchReplace(items: readonly KubeObject[], cfg: SearchReplaceConfig): Report {
  let regex: GoRegexp | undefined;
  if (cfg.byValueRegex) {
    // Upstream compiles with Go's regexp.Compile and reports its error as is (errors.Wrap).
    try {
      regex = compileGoRegexp(cfg.byValueRegex);
    } catch (e) {
      if (!(e instanceof GoRegexpError)) throw e;
      return fail(`failed to perform search-replace operation: ${goQuote(e.message)}`);
    }
  }
  const mutate = cfg.putValue !== undefined || cfg.putComment !== undefined;
  const results: Result[] = [];
  const push = (obj: KubeObject, message: string, path: string, requireFile = false): void => {
    const file = fileRefOf(obj);
    // Upstream records scalar matches only for items that have a file path.
    if (requireFile && !file) return;
    const r: Result = { message, field: { path } };
    // Upstream fills `framework.File{Path}` only: results never carry the index.
    if (file) r.file = { path: file.path };
    results.push(r);
  };
  try {
    for (const obj of items) {
      if (cfg.byFilePath) {
        const file = fileRefOf(obj);
        if (!file || !globMatch(cfg.byFilePath, file.path)) continue;
      }
      if (isPutByAbsolutePath(cfg)) {
        const at = lookupCreate(obj, cfg.byPath!.split('.'));
        setScalarText(obj, at, cfg.putValue!);
        const node = obj.getNode(at)!;
        if (cfg.putComment) obj.editTree(() => (node.lineComment = asComment(cfg.putComment!)));
        push(obj, `Mutated field value to ${goQuote(cfg.putValue!)}`, cfg.byPath!);
        continue;
      }
      // Upstream order (walk.go `acceptImpl`): a mapping's list fields get their comment first
      // (`visitMapping`), then the fields are visited.
      acceptKyaml(
        obj.root,
        (map, mapPath) => {
          if (!cfg.putComment || !cfg.byPath) return;
          for (let i = 0; i + 1 < map.content.length; i += 2) {
            const key = map.content[i];
            const node = map.content[i + 1];
            // `IsNilOrEmpty`: an empty list is skipped.
            if (node.kind !== 'sequence' || node.content.length === 0) continue;
            if (!pathMatch(cfg.byPath, kyamlPath([...mapPath, key.value]))) continue;
            const comment = asComment(cfg.putComment);
            obj.editTree(() => {
              key.lineComment = comment;
              node.lineComment = '';
            });
            // A copy, not a spread: a node's comment and anchor fields are accessors (src/core/yaml/node.ts).
            const flow = cloneNode(node);
            flow.style = 'flow';
            const shown = serialize(flow);
            obj.editTree(() => (node.style = ''));
            push(obj, `Mutated field value to ${goQuote(shown)}`, `${cfg.byPath} # ${cfg.putComment}`);
          }
        },
        (node, path) => {
          if (path.length === 0) return;
          const p = kyamlPath(path);
          const value = node.value;
          const valueMatcher = cfg.byValue !== undefined || regex !== undefined;
          const vm = valueMatch(value, cfg, regex);
          const pm = cfg.byPath ? pathMatch(cfg.byPath, p) : false;
          const matched = (pm && vm) || (vm && !cfg.byPath) || (pm && !valueMatcher);
          if (!matched) return;
          if (!mutate) {
            push(obj, `Matched field value ${goQuote(serialize(node))}`, p, true);
            return;
          }
          if (cfg.putComment !== undefined) {
            const comment = asComment(expand(cfg.putComment, value, regex));
            obj.editTree(() => (node.lineComment = comment));
          }
          if (cfg.putValue !== undefined) setScalarText(obj, path, expand(cfg.putValue, value, regex));
          push(obj, `Mutated field value to ${goQuote(serialize(node))}`, p, true);
        },
      );
    }
  } catch (e) {
    // A malformed by-file-path glob is doublestar's ErrBadPattern, returned by upstream's Perform.
    if (e instanceof SearchReplaceError || e instanceof GlobSyntaxError)
      return fail(`failed to perform search-replace operation: ${goQuote(e.message)}`);
    throw e;
  }
  if (results.length === 0) return ok([{ message: 'no matches' }]);
  return ok(results);
}

function isPutByAbsolutePath(cfg: SearchReplaceConfig): boolean {
  const p = cfg.byPath;
  if (!p || cfg.putValue === undefined || cfg.byValue !== undefined || cfg.byValueRegex !== undefined) return false;
  return !p.includes('*') && !p.includes('[') && !p.split('.').includes('');
}

function valueMatch(value: string, cfg: SearchReplaceConfig, regex: GoRegexp | undefined): boolean {
  if (cfg.byValue !== undefined) return cfg.byValue !== '' && value === cfg.byValue;
  if (regex) return regex.matchString(value);
  return false;
}

/**
 * `by-path` against a node path, both split on `.`: `*` is exactly one segment, `**` zero or
 * more, `[*]` any sequence index inside a segment (`containers[*]`, `*[1]`).
 */
export function pathMatch(pattern: string, path: string): boolean {
  const pat = pattern.split('.').filter((s) => s !== '');
  const segs = path.split('.').filter((s) => s !== '');
  // Memoised on (i, j), like upstream's dynamic programming: many `**` stay O(|pattern| × |path|).
  const memo = new Map<number, boolean>();
  const rec = (i: number, j: number): boolean => {
    const key = i * (segs.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (i === pat.length) result = j === segs.length;
    else if (pat[i] === '**') {
      result = false;
      for (let k = j; k <= segs.length && !result; k++) result = rec(i + 1, k);
    } else result = j < segs.length && segmentMatch(pat[i], segs[j]) && rec(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return rec(0, 0);
}

function segmentMatch(pat: string, seg: string): boolean {
  if (pat === '*') return true;
  const re = pat
    .replace(/[.+?^${}()|\\]/g, '\\$&')
    .replace(/\[\*\]/g, '\\[[0-9]+\\]')
    .replace(/\[([0-9]+)\]/g, '\\[$1\\]')
    .replace(/\*/g, '[^\\[\\]]*');
  return compileGoRegexp(`^${re}$`).matchString(seg);
}

/**
 * Upstream's `resolvePattern` (GoogleContainerTools/kpt-functions-catalog
 * functions/go/search-replace/searchreplace/search_replace.go, tag functions/go/search-replace/v0.2.0): each `${i}` is replaced, for i = 1, 2, ... in
 * turn, by group i of `FindStringSubmatch` on the old value (`''` for a group that did not take
 * part); a `${n}` left over is an error.
 */
function expand(text: string, oldValue: string | undefined, regex: GoRegexp | undefined): string {
  if (!regex || oldValue === undefined) return text;
  const groups = regex.findStringSubmatch(oldValue) ?? [];
  let out = text;
  for (let i = 1; i < groups.length; i++) out = out.replaceAll(`\${${i}}`, groups[i]);
  if (/\$\{[0-9]+\}/.test(out)) throw new SearchReplaceError('unable to resolve capture groups');
  return out;
}

/** The node as YAML text, trimmed (quotes and line comment included), as upstream reports values. */
function serialize(node: YNode): string {
  const copy = cloneNode(node);
  copy.headComment = '';
  copy.footComment = '';
  return emitYamlDocument(documentNode(copy), 'compact').trim();
}

function asComment(text: string): string {
  return text.startsWith('#') ? text : `# ${text}`;
}

/**
 * Looks up `segs`, creating mappings and the final scalar (appended) when missing, and replacing
 * a non-mapping met before the end. Returns the path of the final node.
 */
function lookupCreate(obj: KubeObject, segs: string[]): PathSegment[] {
  if (obj.root.kind !== 'mapping') throw new SearchReplaceError('wrong node kind at ');
  for (let i = 0; i < segs.length; i++) {
    const last = i === segs.length - 1;
    const at = segs.slice(0, i + 1);
    const next = obj.getNode(at);
    if (!next || (!last && next.kind !== 'mapping'))
      obj.set(at, last ? newNode('scalar', { tag: resolvePlainTag(''), value: '' }) : mappingNode());
  }
  return segs;
}

const VERSIONS = ['v0.1.0', 'v0.1.1', 'v0.2.0'];

export const searchReplaceFn = defineMutator({
  name: 'search-replace',
  usage: 'Finds field values by value, regex, field path or file path and reports, replaces or comments them.',
  run(ctx) {
    const version = emulatedVersion(ctx, VERSIONS[VERSIONS.length - 1]);
    // Every tag reads `data` with kyaml's GetDataMap; v0.1.0 after a Go-map round trip.
    const cfg = parseSearchReplaceConfig(kyamlDataMap(ctx.functionConfig, version === 'v0.1.0'), version);
    finish(ctx, typeof cfg === 'string' ? fail(cfg) : searchReplace(ctx.items.all, cfg));
  },
});

export default defineBuiltin({
  name: 'search-replace',
  versions: VERSIONS,
  configKinds: ['ConfigMap'],
  summary: 'Search fields by value, regex, path or file and replace or comment them',
  schema: {
    type: 'object',
    properties: {
      data: {
        type: 'object',
        additionalProperties: false,
        properties: {
          'by-value': { type: 'string', description: 'Match a field value exactly.' },
          'by-value-regex': { type: 'string', description: 'Match a field value by RE2 regex (unanchored).' },
          'by-path': { type: 'string', description: 'Match a field path: `.`-separated, `*`, `**`, `[*]`, `[n]`.' },
          'by-file-path': { type: 'string', description: 'v0.2+: glob on the file path annotation.' },
          'put-value': { type: 'string', description: 'New value; `${n}` expands regex capture groups.' },
          'put-comment': { type: 'string', description: 'Line comment to set; `${n}` expands regex capture groups.' },
        },
      },
    },
  },
  fn: searchReplaceFn,
});
