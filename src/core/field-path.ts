/**
 * Field paths (docs/sdk.md, "Design"). Accepted: a segment array, or a string of dot-separated keys
 * with `[n]` or `.n.` indexes and quoted brackets for keys containing dots or slashes
 * (`metadata.annotations["config.kubernetes.io/path"]`). Emitted: the bracket form.
 */
import { KrmfnError } from './errors.ts';

export type PathSegment = string | number;
export type FieldPathInput = string | readonly PathSegment[];

export function parseFieldPath(path: FieldPathInput): PathSegment[] {
  if (typeof path !== 'string') return [...path];
  const out: PathSegment[] = [];
  let i = 0;
  const n = path.length;
  let cur = '';
  let haveCur = false;
  const flush = (): void => {
    if (!haveCur) return;
    out.push(/^(0|[1-9][0-9]*)$/.test(cur) && out.length > 0 ? Number(cur) : cur);
    cur = '';
    haveCur = false;
  };
  while (i < n) {
    const ch = path[i];
    if (ch === '.') {
      flush();
      i++;
    } else if (ch === '[') {
      flush();
      const q = path[i + 1];
      if (q === '"' || q === "'") {
        let j = i + 2;
        let key = '';
        while (j < n && path[j] !== q) {
          if (path[j] === '\\' && j + 1 < n) j++;
          key += path[j];
          j++;
        }
        if (path[j + 1] !== ']') throw badPath(path);
        out.push(key);
        i = j + 2;
      } else {
        const close = path.indexOf(']', i);
        if (close < 0) throw badPath(path);
        const inner = path.slice(i + 1, close);
        if (!/^[0-9]+$/.test(inner)) throw badPath(path);
        out.push(Number(inner));
        i = close + 1;
      }
    } else {
      cur += ch;
      haveCur = true;
      i++;
    }
  }
  flush();
  return out;
}

function badPath(path: string): KrmfnError {
  return new KrmfnError({ code: 'usage', message: `invalid field path ${JSON.stringify(path)}` });
}

/** Segments as the bracket form: `spec.containers[0].image`, `metadata.annotations["a/b"]`. */
export function formatFieldPath(segments: readonly PathSegment[]): string {
  let s = '';
  for (const seg of segments) {
    if (typeof seg === 'number') s += `[${seg}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(seg)) s += s ? `.${seg}` : seg;
    else s += `[${JSON.stringify(seg)}]`;
  }
  return s;
}
