/**
 * The note a host appends to a function's stderr when it kept only the first part of it (the
 * Node edge caps captured output, src/node/process.ts). The note names how much was dropped, so
 * kpt's `Stderr:` block can still count the lines kpt would have counted (src/engine/text-output.ts).
 */

const NOTE_RE = /\.\.\.\(output truncated by krmfn: (\d+) more byte\(s\), (\d+) more line\(s\) not kept\)\n$/;

/** The note line (with its newline) for `droppedBytes` bytes holding `droppedLines` newlines. */
export function captureNote(droppedBytes: number, droppedLines: number): string {
  return `...(output truncated by krmfn: ${droppedBytes} more byte(s), ${droppedLines} more line(s) not kept)\n`;
}

/** The newlines dropped before the note ending `text`, or undefined when `text` ends with no note. */
export function droppedLinesOf(text: string): number | undefined {
  const m = NOTE_RE.exec(text.slice(-160));
  return m ? Number(m[2]) : undefined;
}
