/**
 * Who the function runs as, as kpt asks Docker (docs/kpt-semantics.md, "Runtimes"): `--user nobody`
 * by default, looked up in the image's /etc/passwd as Docker does (an image without a `nobody`
 * entry fails with Docker's message), or the caller's uid:gid with `--as-current-user`. The home
 * directory comes from the passwd entry, `/` otherwise (Docker's rule).
 */
import { lstatSync, readFileSync } from 'node:fs';
import { KrmfnError } from '../../core/errors.ts';
import { resolveDirInRoot } from './scoped-path.ts';

export interface SandboxUser {
  uid: number;
  gid: number;
  home: string;
}

function passwdLines(rootfs: string): string[] {
  const etc = resolveDirInRoot(rootfs, 'etc', false);
  if (!etc) return [];
  try {
    // A symlinked passwd file could point outside the root: only a regular file counts.
    if (!lstatSync(`${etc}/passwd`).isFile()) return [];
    return readFileSync(`${etc}/passwd`, 'utf8').split('\n');
  } catch {
    return [];
  }
}

/** `name` from the image's passwd file, or Docker's error. */
export function imageUser(rootfs: string, name: string, image: string): SandboxUser {
  for (const line of passwdLines(rootfs)) {
    const f = line.split(':');
    if (f.length >= 7 && f[0] === name && /^\d+$/.test(f[2]) && /^\d+$/.test(f[3])) {
      return { uid: Number(f[2]), gid: Number(f[3]), home: f[5] || '/' };
    }
  }
  throw new KrmfnError({
    code: 'function-failed',
    message: `unable to find user ${name}: no matching entries in passwd file`,
    function: image,
  });
}

/** The caller's ids, with the home directory the image gives that uid (or `/`). */
export function currentUser(rootfs: string, ids: { uid: number; gid: number }): SandboxUser {
  for (const line of passwdLines(rootfs)) {
    const f = line.split(':');
    if (f.length >= 7 && f[2] === String(ids.uid)) return { ...ids, home: f[5] || '/' };
  }
  return { ...ids, home: '/' };
}
