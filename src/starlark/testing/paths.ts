/** POSIX-style path helpers for `load()` names in test trees (the core may not import node:path). */

export function dirname(p: string): string {
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : i === 0 ? '/' : p.slice(0, i);
}

export function basename(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

/** Joins `rel` onto directory `dir` and normalises `.` and `..` segments. */
export function joinPath(dir: string, rel: string): string {
  const abs = rel.startsWith('/') || dir === '' ? rel : `${dir}/${rel}`;
  const out: string[] = [];
  for (const seg of abs.split('/')) {
    if (seg === '.' || (seg === '' && out.length > 0)) continue;
    if (seg === '..' && out.length > 0 && out[out.length - 1] !== '..' && out[out.length - 1] !== '') out.pop();
    else out.push(seg);
  }
  return out.join('/') || '.';
}
