/**
 * kyaml's `PathMatcher` (kubernetes-sigs/kustomize kyaml/yaml/match.go at kyaml/v0.19.0), which
 * kustomize `replacements` use to find targets from api/v0.19.0 on: every node a split path
 * reaches, optionally creating what is missing. Its rules, which differ from `PathGetter`
 * (lib/kustomize-path.ts):
 * - `[k=v]` matches elements whose `k` value, encoded as YAML and trimmed, contains a match of the
 *   Go regular expression `v` (unanchored); `[=v]` matches scalar elements the same way and
 *   ignores the rest of the path; a part that is a non-negative integer is an index (an error
 *   when out of range, except that `create` appends at index = length); `*` visits every list
 *   element (`[*]` is not a wildcard);
 * - a field of a null node is missing; a field, index or list part on another kind of node is
 *   kyaml's "wrong node kind" error;
 * - `create` makes missing fields (mapping, list or the created kind by the next part) and
 *   appends `{k: v}` / `v` when no element matches; under a null node the creation is detached
 *   (kyaml appends to the null scalar), so nothing changes and no error is raised.
 * Errors are `KyamlPathError`s.
 */
import {
  compileGoRegexp,
  type GoRegexp,
  GoRegexpError,
  type KubeObject,
  mappingNode,
  type NodeKind,
  strNode,
} from '../../sdk/index.ts';
import {
  addField,
  appendElement,
  elementOf,
  fieldOf,
  isListIndex,
  isNull,
  keyNode,
  KyamlPathError,
  kyamlString,
  type Loc,
  partKind,
  requireKind,
  splitIndexNameValue,
  untaggedNode,
} from './kustomize-path.ts';

const isIdxNumber = (p: string): boolean => /^[+-]?[0-9]+$/.test(p) && Number(p) >= 0;

/** `obj.Pipe(&PathMatcher{Path: parts, Create: create})`: the nodes reached (none: empty). */
export function pathMatch(obj: KubeObject, parts: readonly string[], create?: NodeKind): Loc[] {
  return new Matcher(obj, create).filter({ node: obj.root, path: [] }, parts) ?? [];
}

class Matcher {
  private readonly obj: KubeObject;
  private readonly create: NodeKind | undefined;
  constructor(obj: KubeObject, create: NodeKind | undefined) {
    this.obj = obj;
    this.create = create;
  }

  /** undefined: kyaml's nil result (nothing matched). */
  filter(at: Loc, parts: readonly string[], retried = false): Loc[] | undefined {
    if (parts.length === 0) return [at];
    const part = parts[0];
    if (isIdxNumber(part)) return this.index(at, Number(part), parts);
    if (isListIndex(part)) return this.seq(at, parts, retried);
    if (part === '*') return this.every(at, parts);
    return this.field(at, parts);
  }

  private field(at: Loc, parts: readonly string[]): Loc[] | undefined {
    let found: Loc | undefined;
    if (!isNull(at.node)) {
      requireKind(at.node, 'mapping', 'v0.19', []);
      found = fieldOf(at, parts[0]);
    }
    if (!found) {
      if (this.create === undefined) return undefined;
      found = addField(this.obj, at, parts[0], untaggedNode(partKind(parts[1] ?? '', this.create, 'v0.19')));
    }
    return this.filter(found, parts.slice(1));
  }

  private index(at: Loc, idx: number, parts: readonly string[]): Loc[] | undefined {
    requireKind(at.node, 'sequence', 'v0.19', []);
    let element: Loc | undefined;
    if (at.node.content.length === idx && this.create !== undefined) {
      element = appendElement(this.obj, at, untaggedNode(partKind(parts[1] ?? '', this.create, 'v0.19')));
    } else if (idx >= at.node.content.length) {
      throw new KyamlPathError(`index ${idx} specified but only ${at.node.content.length} elements found`);
    } else element = elementOf(at, idx);
    return this.filter(element, parts.slice(1));
  }

  private seq(at: Loc, parts: readonly string[], retried: boolean): Loc[] | undefined {
    const [field, pattern] = splitIndexNameValue(parts[0]);
    requireKind(at.node, 'sequence', 'v0.19', []);
    const out: Loc[] = [];
    const count = at.node.content.length;
    for (let i = 0; i < count; i++) {
      const el = elementOf(at, i);
      const re = regexp(pattern);
      if (field === '') {
        if (re.matchString(kyamlString(el.node).trim())) out.push(el);
        continue;
      }
      if (el.node.kind !== 'mapping') continue;
      const value = fieldOf(el, field);
      if (!value || !re.matchString(kyamlString(value.node).trim())) continue;
      const add = this.filter(el, parts.slice(1));
      if (add) out.push(...add);
    }
    if (out.length > 0) return out;
    // Upstream re-runs the search after appending; a pattern that does not match its own text
    // recurses without end there. Here the second search is the last.
    if (this.create === undefined || retried) return undefined;
    const fresh = field === '' ? strNode(pattern) : mappingNode([keyNode(field), strNode(pattern)]);
    appendElement(this.obj, at, fresh);
    return this.seq(at, parts, true);
  }

  private every(at: Loc, parts: readonly string[]): Loc[] | undefined {
    requireKind(at.node, 'sequence', 'v0.19', []);
    const out: Loc[] = [];
    const count = at.node.content.length;
    for (let i = 0; i < count; i++) {
      const add = this.filter(elementOf(at, i), parts.slice(1));
      if (add) out.push(...add);
    }
    return out.length > 0 ? out : undefined;
  }
}

/** Go `regexp.Compile` (RE2 syntax); a bad pattern is the error Go reports. */
function regexp(pattern: string): GoRegexp {
  try {
    return compileGoRegexp(pattern);
  } catch (e) {
    if (e instanceof GoRegexpError) throw new KyamlPathError(e.message);
    throw e;
  }
}
