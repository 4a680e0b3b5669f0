/**
 * Mount targets inside the image's own directories (`--mount ...,dst=/etc/extra`) need a mount
 * point in the read-only tree; bubblewrap cannot make one there. This creates the missing
 * directory (or empty file, for a file source) in the cached root filesystem, scoped to the root
 * (src/node/sandbox/scoped-path.ts). Targets whose first segment the image lacks need nothing: they
 * live in the sandbox's tmpfs root (src/node/sandbox/bwrap.ts).
 */
import { existsSync, lstatSync, statSync, writeFileSync } from 'node:fs';
import type { SandboxMount } from './mounts.ts';
import { resolveDirInRoot } from './scoped-path.ts';

export function ensureMountPoints(rootfs: string, mounts: readonly SandboxMount[]): void {
  for (const m of mounts) {
    const segs = m.target.split('/').filter((s) => s !== '');
    if (segs.length < 2 || !existsSync(`${rootfs}/${segs[0]}`)) continue;
    const parent = resolveDirInRoot(rootfs, segs.slice(0, -1).join('/'), true)!;
    const host = `${parent}/${segs[segs.length - 1]}`;
    let present = true;
    try {
      lstatSync(host);
    } catch {
      present = false;
    }
    if (present) continue;
    const isFile = m.type === 'bind' && statSync(m.source, { throwIfNoEntry: false })?.isFile() === true;
    if (isFile) writeFileSync(host, '', { flag: 'wx' });
    else resolveDirInRoot(rootfs, segs.join('/'), true);
  }
}
