/**
 * Parses the small YAML texts catalog configs carry as sequence values (`[a, b]`, `- a\n- b`,
 * `""`, `~`) into scalar nodes. Returns undefined when the text is not a sequence of scalars
 * (a plain scalar, a mapping, nested collections), which callers report as "not an array".
 */
import { newNode, resolvePlainTag, strNode, type YNode } from '../../sdk/index.ts';

export function parseScalarList(text: string): YNode[] | undefined {
  const t = text.trim();
  if (t.startsWith('[')) return parseFlow(t);
  const lines = t.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  if (lines.length === 0 || !lines.every((l) => /^\s*-(\s|$)/.test(l))) return undefined;
  const out: YNode[] = [];
  for (const l of lines) {
    const item = scalar(
      l
        .replace(/^\s*-\s?/, '')
        .replace(/\s+#.*$/, '')
        .trim(),
    );
    if (!item) return undefined;
    out.push(item);
  }
  return out;
}

/** Whether the text is an empty value for an array setter (`''`, `""`, `~`, `null`, `[]`). */
export function isEmptyListText(text: string): boolean {
  const t = text.trim();
  return t === '' || t === '""' || t === "''" || t === '~' || t === 'null' || /^\[\s*\]$/.test(t);
}

function parseFlow(t: string): YNode[] | undefined {
  if (!t.endsWith(']')) return undefined;
  const body = t.slice(1, -1);
  const out: YNode[] = [];
  let i = 0;
  while (i < body.length) {
    while (i < body.length && /\s/.test(body[i])) i++;
    if (i >= body.length) break;
    let raw: string;
    const q = body[i];
    if (q === '"' || q === "'") {
      let j = i + 1;
      while (j < body.length && body[j] !== q) j += body[j] === '\\' && q === '"' ? 2 : 1;
      raw = body.slice(i, j + 1);
      i = j + 1;
    } else {
      let j = i;
      while (j < body.length && body[j] !== ',') j++;
      raw = body.slice(i, j).trim();
      i = j;
    }
    if (raw.startsWith('[') || raw.startsWith('{')) return undefined;
    const item = scalar(raw);
    if (!item) return undefined;
    out.push(item);
    while (i < body.length && /\s/.test(body[i])) i++;
    if (i < body.length) {
      if (body[i] !== ',') return undefined;
      i++;
    }
  }
  return out;
}

function scalar(raw: string): YNode | undefined {
  if (raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2) {
    try {
      return strNode(JSON.parse(raw) as string, 'double');
    } catch {
      return undefined;
    }
  }
  if (raw.startsWith("'") && raw.endsWith("'") && raw.length >= 2)
    return strNode(raw.slice(1, -1).replace(/''/g, "'"), 'single');
  if (/^[[{]/.test(raw) || /:\s/.test(raw)) return undefined;
  return newNode('scalar', { tag: resolvePlainTag(raw), value: raw });
}
