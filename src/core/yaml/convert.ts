/**
 * Conversion between YAML nodes and plain JavaScript values.
 *
 * `toJS` reads a node tree as JSON-like data: mappings → objects (duplicate keys: the last wins,
 * like JSON.parse), sequences → arrays, scalars by their resolved tag (`!!int` → number, or bigint
 * beyond 2^53; `!!float`, `!!bool`, `!!null`, everything else → string). Aliases are expanded; the
 * expansion count and depth are bounded so hostile input fails with a LimitExceededError.
 *
 * `fromJS` builds a fresh node tree: strings get `!!str` with plain style (the emitter quotes any
 * value YAML would misread), numbers/booleans/null their tags, objects mappings in key order.
 */
import { LimitExceededError } from '../errors.ts';
import { mappingNode, newNode, sequenceNode, strNode, type YNode } from './node.ts';

export interface ToJSOptions {
  maxAliases?: number;
  maxDepth?: number;
}

export function toJS(node: YNode | undefined, opts: ToJSOptions = {}): unknown {
  if (!node) return undefined;
  const maxAliases = opts.maxAliases ?? 10_000;
  const maxDepth = opts.maxDepth ?? 1_000;
  let aliases = 0;
  const walk = (n: YNode, depth: number): unknown => {
    if (depth > maxDepth) throw new LimitExceededError('depth', `YAML nesting deeper than ${maxDepth} levels`);
    switch (n.kind) {
      case 'document':
        return n.content[0] ? walk(n.content[0], depth) : null;
      case 'alias':
        if (++aliases > maxAliases) {
          throw new LimitExceededError('aliases', `YAML document expands more than ${maxAliases} aliases`);
        }
        return n.alias ? walk(n.alias, depth + 1) : null;
      case 'mapping': {
        const o: Record<string, unknown> = {};
        const c = n.content;
        for (let i = 0; i + 1 < c.length; i += 2) {
          const k = c[i];
          const v = c[i + 1];
          if (k.kind === 'scalar' && k.tag === '!!merge' && k.value === '<<') {
            const src = walk(v, depth + 1);
            const merges = Array.isArray(src) ? src : [src];
            for (const m of merges) {
              if (m && typeof m === 'object')
                for (const [mk, mv] of Object.entries(m as Record<string, unknown>)) if (!(mk in o)) o[mk] = mv;
            }
            continue;
          }
          const key = k.kind === 'scalar' ? k.value : JSON.stringify(walk(k, depth + 1));
          Object.defineProperty(o, key, {
            value: walk(v, depth + 1),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        return o;
      }
      case 'sequence':
        return n.content.map((ch) => walk(ch, depth + 1));
      case 'scalar':
        return scalarToJS(n);
    }
  };
  return walk(node, 0);
}

export function scalarToJS(n: YNode): unknown {
  switch (n.tag) {
    case '!!null':
      return null;
    case '!!bool':
      return /^(true|True|TRUE)$/.test(n.value);
    case '!!int': {
      const v = n.value.replace(/_/g, '');
      const neg = v.startsWith('-');
      const body = v.replace(/^[-+]/, '');
      let big: bigint;
      try {
        if (/^0[0-7]+$/.test(body)) big = BigInt('0o' + body.slice(1));
        else if (/^0o/i.test(body)) big = BigInt('0o' + body.slice(2));
        else big = BigInt(body);
      } catch {
        return n.value;
      }
      if (neg) big = -big;
      return big <= BigInt(Number.MAX_SAFE_INTEGER) && big >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(big) : big;
    }
    case '!!float': {
      const v = n.value.replace(/_/g, '');
      if (/^[-+]?\.inf$/i.test(v)) return v.startsWith('-') ? -Infinity : Infinity;
      if (/^\.nan$/i.test(v)) return NaN;
      return Number(v);
    }
    default:
      return n.value;
  }
}

export function fromJS(value: unknown): YNode {
  if (value === null || value === undefined) return newNode('scalar', { tag: '!!null', value: 'null' });
  switch (typeof value) {
    case 'string':
      return strNode(value);
    case 'boolean':
      return newNode('scalar', { tag: '!!bool', value: value ? 'true' : 'false' });
    case 'number':
      if (Number.isInteger(value)) return newNode('scalar', { tag: '!!int', value: String(value) });
      if (Number.isNaN(value)) return newNode('scalar', { tag: '!!float', value: '.nan' });
      if (!Number.isFinite(value)) return newNode('scalar', { tag: '!!float', value: value > 0 ? '.inf' : '-.inf' });
      return newNode('scalar', { tag: '!!float', value: String(value) });
    case 'bigint':
      return newNode('scalar', { tag: '!!int', value: value.toString() });
    case 'object': {
      if (isYNode(value)) return value;
      if (Array.isArray(value)) return sequenceNode(value.map(fromJS));
      const content: YNode[] = [];
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (v === undefined) continue;
        content.push(strNode(k), fromJS(v));
      }
      return mappingNode(content);
    }
    default:
      return strNode(String(value));
  }
}

/** Structural guard for YAML nodes (no instanceof: nodes cross bundles). */
export function isYNode(v: unknown): v is YNode {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as YNode).kind === 'string' &&
    Array.isArray((v as YNode).content) &&
    typeof (v as YNode).headComment === 'string'
  );
}
