/** The file tree of the package: directories first, then files, each sorted by name. */
export type FileMark = 'changed' | 'created' | 'deleted' | undefined;

interface Dir {
  dirs: Map<string, Dir>;
  files: string[];
}

export function renderTree(
  el: HTMLElement,
  paths: readonly string[],
  selected: string | undefined,
  mark: (path: string) => FileMark,
  onSelect: (path: string) => void,
): void {
  const root: Dir = { dirs: new Map(), files: [] };
  for (const p of paths) {
    const segs = p.split('/');
    let d = root;
    for (const s of segs.slice(0, -1)) {
      let next = d.dirs.get(s);
      if (!next) d.dirs.set(s, (next = { dirs: new Map(), files: [] }));
      d = next;
    }
    d.files.push(p);
  }
  const build = (d: Dir): HTMLUListElement => {
    const ul = document.createElement('ul');
    for (const [name, sub] of [...d.dirs].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const li = document.createElement('li');
      const span = document.createElement('span');
      span.className = 'dir';
      span.textContent = name + '/';
      li.append(span, build(sub));
      ul.append(li);
    }
    for (const path of [...d.files].sort()) {
      const li = document.createElement('li');
      const span = document.createElement('span');
      span.textContent = path.split('/').pop()!;
      span.dataset.path = path;
      span.title = path;
      const m = mark(path);
      if (m) span.classList.add(m);
      if (path === selected) span.classList.add('selected');
      span.addEventListener('click', () => onSelect(path));
      li.append(span);
      ul.append(li);
    }
    return ul;
  };
  el.replaceChildren(build(root));
}
