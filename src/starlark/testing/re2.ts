/**
 * RE2 → JavaScript RegExp translation for test expectations and `assert.fails` patterns
 * (docs/starlark.md, "Test files"). Common patterns are identical in both dialects; this rewrites the RE2-only
 * forms (leading inline flags, `(?P<name>…)`, `\A`, `\z`, `\Q…\E`, `[[:alpha:]]`) and rejects what
 * cannot be expressed. Matching is unanchored (`RegExp#test`).
 */
export type Re2Result = { ok: true; regexp: RegExp } | { ok: false; error: string };

const POSIX_CLASSES: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

const cache = new Map<string, Re2Result>();

export function compileRe2(pattern: string): Re2Result {
  let r = cache.get(pattern);
  if (!r) {
    r = translate(pattern);
    cache.set(pattern, r);
  }
  return r;
}

function translate(pattern: string): Re2Result {
  let flags = '';
  let i = 0;
  const lead = /^\(\?([imsU]+)\)/.exec(pattern);
  if (lead) {
    for (const f of lead[1]) {
      if (f === 'U') return { ok: false, error: `unsupported RE2 flag U in ${pattern}` };
      if (!flags.includes(f)) flags += f;
    }
    i = lead[0].length;
  }
  let out = '';
  let inClass = false;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '\\') {
      const n = pattern[i + 1];
      if (n === undefined) return { ok: false, error: `trailing backslash in ${pattern}` };
      if (!inClass && n === 'A') out += '(?<![\\s\\S])';
      else if (!inClass && n === 'z') out += '(?![\\s\\S])';
      else if (n === 'C') return { ok: false, error: `unsupported RE2 escape \\C in ${pattern}` };
      else if (n === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        const lit = pattern.slice(i + 2, end < 0 ? pattern.length : end);
        out += lit.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
        i = end < 0 ? pattern.length : end + 2;
        continue;
      } else out += c + n;
      i += 2;
      continue;
    }
    if (inClass) {
      if (c === '[' && pattern[i + 1] === ':') {
        const m = /^\[:(\^?)([a-z]+):\]/.exec(pattern.slice(i));
        if (m) {
          const cls = POSIX_CLASSES[m[2]];
          if (!cls) return { ok: false, error: `invalid character class range: ${m[0]}` };
          if (m[1]) return { ok: false, error: `unsupported negated POSIX class ${m[0]}` };
          out += cls;
          i += m[0].length;
          continue;
        }
      }
      if (c === ']') inClass = false;
      out += c;
      i++;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      i++;
      if (pattern[i] === '^') {
        out += '^';
        i++;
      }
      if (pattern[i] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    if (c === '(' && pattern.startsWith('(?P<', i)) {
      out += '(?<';
      i += 4;
      continue;
    }
    if (c === '(' && pattern[i + 1] === '?' && /^\(\?[imsU-]+[:)]/.test(pattern.slice(i))) {
      return { ok: false, error: `unsupported inline flags inside pattern ${pattern}` };
    }
    out += c;
    i++;
  }
  try {
    return { ok: true, regexp: new RegExp(out, flags) };
  } catch (e) {
    return { ok: false, error: `error parsing regexp: ${(e as Error).message}` };
  }
}
