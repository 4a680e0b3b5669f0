/**
 * yaml.v2's line folding of flow scalars (go-yaml/yaml emitterc.go at v2.4.0, gopkg.in/yaml.v2:
 * `yaml_emitter_write_plain_scalar`, `yaml_emitter_write_single_quoted_scalar`,
 * `yaml_emitter_write_double_quoted_scalar`): once the column passes the best width (80), the next
 * single space that may break is replaced by a line break and the continuation indent. Input is the
 * scalar as written on one line (plain text, or a quoted scalar with its quotes and escapes); the
 * column is where it starts. Columns count characters, as the emitter does. Only the starlib yaml
 * module asks for it (EmitOptions.foldWidth in emit.ts); every other writer has no line width.
 */

export type FoldStyle = 'plain' | 'single' | 'double';

/**
 * Folds `text` (one line) written from `column`, continuing at `indent` spaces. Plain: a space
 * breaks unless the previous or next character is a space. Single-quoted: also never the first or
 * last character inside the quotes. Double-quoted: a space before another space breaks too,
 * followed by `\` so the next space is kept.
 */
export function foldScalar(text: string, style: FoldStyle, column: number, indent: number, width: number): string {
  const chars = Array.from(text);
  const first = style === 'plain' ? 0 : 1;
  const last = style === 'plain' ? chars.length - 1 : chars.length - 2;
  const parts: string[] = [];
  let col = column;
  let spaces = false;
  let start = 0;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c !== ' ' || i < first || i > last) {
      col = c === '\n' ? 0 : col + 1;
      spaces = false;
      continue;
    }
    const nextSpace = chars[i + 1] === ' ';
    const inner = style === 'plain' || (i > first && i < last);
    const breaks = !spaces && col > width && inner && (style === 'double' || !nextSpace);
    if (breaks) {
      parts.push(chars.slice(start, i).join(''), '\n', ' '.repeat(indent));
      col = indent;
      if (style === 'double' && nextSpace) {
        parts.push('\\');
        col++;
      }
      start = i + 1;
    } else col++;
    spaces = true;
  }
  if (start === 0) return text;
  parts.push(chars.slice(start).join(''));
  return parts.join('');
}
