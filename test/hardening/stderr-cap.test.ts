// The stderr cap keeps a head that ends at a line end and counts the rest, and the kpt `Stderr:`
// block computed from what was kept counts exactly the lines of the whole output, however the
// pipe happens to chunk it (a real child process writes it in pieces with pauses between).
import { expect, test } from 'vitest';
import { runProcess } from '../../src/node/process.ts';
import { formatStderrBlock } from '../../src/engine/text-output.ts';

/** Runs node writing `pieces` to stderr, pausing between them, with `max` bytes of stderr kept. */
async function capture(pieces: readonly string[], max: number): Promise<string> {
  const script = `const p=${JSON.stringify(pieces)};(async()=>{for(const s of p){process.stderr.write(s);await new Promise(r=>setTimeout(r,30));}})();`;
  const r = await runProcess({
    program: process.execPath,
    args: ['-e', script],
    stdin: new Uint8Array(),
    maxStderrBytes: max,
  });
  expect(r.exitCode).toBe(0);
  return new TextDecoder().decode(r.stderr);
}

/** `strings.Split(text, "\n")` length: what kpt counts. */
function goLines(text: string): number {
  return text.split('\n').length;
}

const cases: { name: string; pieces: string[]; max: number; kept: string }[] = [
  { name: 'cap falls mid-line inside one chunk', pieces: ['abc\ndefghijk\nxy\n'], max: 10, kept: 'abc\n' },
  { name: 'cap falls in a chunk with no line end', pieces: ['abc\nde', 'fghijk\nxy\n'], max: 10, kept: 'abc\n' },
  { name: 'kept chunks end mid-line', pieces: ['ab', 'c\nd', 'efghijklmn\n'], max: 8, kept: 'abc\n' },
  { name: 'one long line', pieces: ['abcdefghij', 'klmnop'], max: 4, kept: 'abcd' },
  { name: 'cap at a line end', pieces: ['abc\n', 'def\n', 'ghi'], max: 4, kept: 'abc\n' },
];

for (const c of cases) {
  test(c.name, async () => {
    const whole = c.pieces.join('');
    const got = await capture(c.pieces, c.max);
    const dropped = whole.length - c.kept.length;
    const droppedLines = whole.slice(c.kept.length).split('\n').length - 1;
    expect(got).toBe(
      `${c.kept}...(output truncated by krmfn: ${dropped} more byte(s), ${droppedLines} more line(s) not kept)\n`,
    );
    // The block shows some quoted lines and names the rest: together, every line of the whole.
    const block = formatStderrBlock(got, { truncate: true, color: false });
    const shown = block.split('\n').filter((l) => l.startsWith('    "')).length;
    const rest = /\.\.\.\((\d+) line\(s\) truncated/.exec(block);
    expect(shown + (rest ? Number(rest[1]) : 0)).toBe(goLines(whole));
  });
}
