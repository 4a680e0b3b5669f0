/**
 * doublestar-style globs for file paths (search-replace `by-file-path`): `*` and `?` stay inside
 * one path segment, `**` spans segments, `[class]` and `{a,b}` alternatives.
 */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slash = glob[i + 2] === '/';
        re += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 1);
      if (close < 0) re += '\\[';
      else {
        let body = glob.slice(i + 1, close);
        if (body.startsWith('!')) body = '^' + body.slice(1);
        re += `[${body.replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else if (c === '{') {
      const close = glob.indexOf('}', i + 1);
      if (close < 0) re += '\\{';
      else {
        re +=
          '(?:' +
          glob
            .slice(i + 1, close)
            .split(',')
            .map((a) => globToRegExp(a).source.slice(1, -1))
            .join('|') +
          ')';
        i = close;
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

export function globMatch(glob: string, path: string): boolean {
  return globToRegExp(glob).test(path);
}
