/**
 * The text yaml.v2's `Unmarshal` reads (go-yaml/yaml yaml.go at v2.4.0, `unmarshal`: one
 * `parser.parse()`, the first document only): everything before the first `---` or `...` line at
 * column 0 that follows the document's content, after leading comments, directives and the
 * document's own `---`. Later documents are neither read nor checked, and kyaml's document
 * separator rules (src/core/yaml/read.ts) never see them. Line numbers are kept.
 */
const MARKER = /^(?:---|\.\.\.)(?:[ \t]|$)/;
const YAML_1 = /^%YAML[ \t]+1\.[0-9]+[ \t]*(?:#.*)?$/;
const PREAMBLE = /^(?:[ \t]*(?:#.*)?|%.*)$/;

export function firstDocument(text: string): string {
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length && PREAMBLE.test(lines[i])) i++;
  if (i < lines.length && /^---(?:[ \t]|$)/.test(lines[i])) {
    // krmfn's parser reads no directives: one `%YAML 1.x` before the `---` is read as a blank line.
    const version = lines.slice(0, i).filter((l) => l.startsWith('%'));
    if (version.length === 1 && YAML_1.test(version[0])) lines[lines.indexOf(version[0])] = '';
    i++;
  }
  for (let j = i; j < lines.length; j++) if (MARKER.test(lines[j])) return lines.slice(0, j).join('\n') + '\n';
  return lines.join('\n');
}
