/**
 * Shell-like splitting of an `exec:` command line, following Go's google/shlex: whitespace
 * separates words; single quotes take everything literally; double quotes allow `\` escapes of
 * `"`, `\`, `$`, `` ` `` and newline; a backslash outside quotes escapes the next character; `#`
 * at the start of a word begins a comment. Unterminated quotes or a trailing escape are errors.
 */
import { KrmfnError } from '../core/errors.ts';

export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let i = 0;
  const fail = (what: string): never => {
    throw new KrmfnError({ code: 'usage', message: `cannot split exec command ${JSON.stringify(line)}: ${what}` });
  };
  while (i < line.length) {
    const ch = line[i];
    if (/\s/.test(ch)) {
      if (inWord) {
        words.push(cur);
        cur = '';
        inWord = false;
      }
      i++;
    } else if (ch === '#' && !inWord) {
      while (i < line.length && line[i] !== '\n') i++;
    } else if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) fail('unterminated single quote');
      cur += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (ch === '"') {
      i++;
      inWord = true;
      let closed = false;
      while (i < line.length) {
        const c = line[i];
        if (c === '"') {
          closed = true;
          i++;
          break;
        }
        if (c === '\\' && i + 1 < line.length && '"\\$`\n'.includes(line[i + 1])) {
          if (line[i + 1] !== '\n') cur += line[i + 1];
          i += 2;
          continue;
        }
        cur += c;
        i++;
      }
      if (!closed) fail('unterminated double quote');
    } else if (ch === '\\') {
      if (i + 1 >= line.length) fail('trailing escape');
      if (line[i + 1] !== '\n') cur += line[i + 1];
      inWord = true;
      i += 2;
    } else {
      cur += ch;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(cur);
  return words;
}
