/**
 * `.krmignore` matching (gitignore syntax, as kyaml uses it): one pattern per line, `#` comments,
 * `!` negation (last match wins), a trailing `/` matches directories only, a `/` anywhere but the
 * end anchors the pattern to the package root, otherwise it matches a name at any depth; `*`, `?`,
 * `[...]` and `**` globbing. Paths given to `ignores` are slash paths relative to the package root.
 */
interface Rule {
  negate: boolean;
  dirOnly: boolean;
  re: RegExp;
}

export interface IgnoreMatcher {
  ignores(relPath: string, isDir: boolean): boolean;
}

export const NO_IGNORES: IgnoreMatcher = { ignores: () => false };

function globToRegExp(glob: string): string {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        const slashAfter = glob[i + 2] === '/';
        re += slashAfter ? '(?:.*/)?' : '.*';
        i += slashAfter ? 2 : 1;
      } else re += '[^/]*';
    } else if (ch === '?') re += '[^/]';
    else if (ch === '[') {
      const close = glob.indexOf(']', i + 1);
      if (close < 0) re += '\\[';
      else {
        let cls = glob.slice(i + 1, close);
        if (cls.startsWith('!')) cls = '^' + cls.slice(1);
        re += `[${cls.replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else if (ch === '\\' && i + 1 < glob.length) {
      re += glob[++i]!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    } else re += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return re;
}

export function parseKrmignore(text: string): IgnoreMatcher {
  const rules: Rule[] = [];
  for (let line of text.split(/\r?\n/)) {
    if (line.startsWith('#')) continue;
    line = line.replace(/(?<!\\)\s+$/, '');
    if (!line) continue;
    let negate = false;
    if (line.startsWith('!')) {
      negate = true;
      line = line.slice(1);
    }
    let dirOnly = false;
    if (line.endsWith('/')) {
      dirOnly = true;
      line = line.slice(0, -1);
    }
    const anchored = line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    if (!line) continue;
    const body = globToRegExp(line);
    rules.push({ negate, dirOnly, re: new RegExp(anchored ? `^${body}$` : `(?:^|/)${body}$`) });
  }
  if (!rules.length) return NO_IGNORES;
  return {
    ignores(relPath: string, isDir: boolean): boolean {
      let ignored = false;
      for (const r of rules) {
        if (r.dirOnly && !isDir) continue;
        if (r.re.test(relPath)) ignored = !r.negate;
      }
      return ignored;
    },
  };
}
