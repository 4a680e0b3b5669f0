/**
 * Splitting a chunked Starlark test file (docs/starlark.md, "Test files") into independent programs.
 *
 * Contract: CRLF/CR are normalised to LF first; chunks are separated by lines that are exactly
 * `---`; each chunk's `source` is prefixed with `startLine - 1` newlines so positions stay
 * file-relative; the `---` line belongs to no chunk.
 */

/** The dialect option names a chunk may switch on with `option:NAME`. */
export const CHUNK_OPTION_NAMES = [
  'set',
  'while',
  'toplevelcontrol',
  'globalreassign',
  'loadbindsglobally',
  'recursion',
] as const;
export type ChunkOptionName = (typeof CHUNK_OPTION_NAMES)[number];

export interface Chunk {
  /** 0-based index of the chunk in its file. */
  index: number;
  /** 1-based file line of the chunk's first line. */
  startLine: number;
  /** 1-based file line of the chunk's last line. */
  endLine: number;
  /** The chunk text exactly as written (no padding). */
  text: string;
  /** The chunk text prefixed with `startLine - 1` newlines: what is executed. */
  source: string;
  /** Options switched on by `option:NAME` anywhere in the chunk text. */
  options: ReadonlySet<ChunkOptionName>;
}

export function normaliseNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

export function splitChunks(fileText: string): Chunk[] {
  const lines = normaliseNewlines(fileText).split('\n');
  const chunks: Chunk[] = [];
  let start = 0; // 0-based line index of the current chunk's first line
  const flush = (endExclusive: number): void => {
    const text = lines.slice(start, endExclusive).join('\n');
    chunks.push({
      index: chunks.length,
      startLine: start + 1,
      endLine: Math.max(start + 1, endExclusive),
      text,
      source: '\n'.repeat(start) + text,
      options: chunkOptions(text),
    });
  };
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === '---') {
      flush(i);
      start = i + 1;
    }
  }
  flush(lines.length);
  return chunks;
}

/** Like upstream: the option is on when the text contains `option:NAME` anywhere. */
export function chunkOptions(text: string): Set<ChunkOptionName> {
  const found = new Set<ChunkOptionName>();
  for (const name of CHUNK_OPTION_NAMES) if (text.includes(`option:${name}`)) found.add(name);
  return found;
}
