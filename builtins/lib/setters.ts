/**
 * The `# kpt-set:` setter markers shared by apply-setters, create-setters and list-setters
 * (builtins/docs/apply-setters.md; builtins/docs/list-setters.md). A marker is a line comment that starts exactly with `# kpt-set: `;
 * head and foot comments never count. Scalars carry it on the value; block sequences on their
 * key; flow sequences on the value.
 */
import type { YNode } from '../../sdk/index.ts';

export const SETTER_PREFIX = '# kpt-set: ';

/** The pattern of a line comment (`${tag}` of `# kpt-set: ${tag}`), or undefined. */
export function markerPattern(lineComment: string): string | undefined {
  if (!lineComment.startsWith(SETTER_PREFIX)) return undefined;
  return lineComment.slice(SETTER_PREFIX.length).trim();
}

/** The marker of a field: the key's comment for block sequences, the value's otherwise. */
export function fieldMarker(value: YNode, key: YNode | undefined): string | undefined {
  if (value.kind === 'sequence') {
    return value.style === 'flow' ? markerPattern(value.lineComment) : markerPattern(key?.lineComment ?? '');
  }
  if (value.kind === 'scalar') return markerPattern(value.lineComment);
  return undefined;
}

/** Every `${name}` occurrence in a pattern, in order, with duplicates (`${name}` form). */
export function setterRefs(pattern: string): string[] {
  return pattern.match(/\$\{[^}]*\}/g) ?? [];
}

/** `${name}` → `name`. */
export function setterName(ref: string): string {
  return ref.slice(2, -1);
}
