/**
 * The curated global object a Go `js/wasm` program sees as `js.Global()` (docs/wasm.md, "Go `js/wasm` (kpt's alpha ABI)"): only what
 * the Go runtime and syscall/js need. Writes to fd 1 and 2 go to one output callback (the
 * function's stderr); every other filesystem call fails with ENOSYS. No network API, no host
 * process, no real `globalThis`. Each instance gets its own object, so the functions a program
 * registers (`processResourceList`) never clobber another instance's.
 */
export type WriteOutput = (bytes: Uint8Array) => void;

function enosys(): Error {
  const e = new Error('not implemented on this host') as Error & { code: string };
  e.code = 'ENOSYS';
  return e;
}

const CALLBACK_FS_METHODS = [
  'chmod',
  'chown',
  'close',
  'fchmod',
  'fchown',
  'fstat',
  'fsync',
  'ftruncate',
  'lchown',
  'link',
  'lstat',
  'mkdir',
  'open',
  'read',
  'readdir',
  'readlink',
  'rename',
  'rmdir',
  'stat',
  'symlink',
  'truncate',
  'unlink',
  'utimes',
] as const;

function fsObject(write: WriteOutput): Record<string, unknown> {
  const writeSync = (fd: number, buf: Uint8Array): number => {
    if (fd !== 1 && fd !== 2) throw enosys();
    write(buf.slice());
    return buf.byteLength;
  };
  const fs: Record<string, unknown> = {
    // -1: no such open mode exists here; Go only passes them back to `open`, which fails anyway.
    constants: { O_WRONLY: -1, O_RDWR: -1, O_CREAT: -1, O_TRUNC: -1, O_APPEND: -1, O_EXCL: -1 },
    writeSync,
    write(
      fd: number,
      buf: Uint8Array,
      offset: number,
      length: number,
      position: number | null,
      cb: (err: Error | null, n?: number) => void,
    ): void {
      if (offset !== 0 || length !== buf.byteLength || position !== null) {
        cb(enosys());
        return;
      }
      let n: number;
      try {
        n = writeSync(fd, buf);
      } catch (e) {
        cb(e as Error);
        return;
      }
      cb(null, n);
    },
  };
  for (const name of CALLBACK_FS_METHODS) {
    fs[name] = (...args: unknown[]): void => {
      const cb = args[args.length - 1];
      if (typeof cb === 'function') (cb as (e: Error) => void)(enosys());
    };
  }
  return fs;
}

function processObject(): Record<string, unknown> {
  const fail = (): never => {
    throw enosys();
  };
  return {
    getuid: () => -1,
    getgid: () => -1,
    geteuid: () => -1,
    getegid: () => -1,
    getgroups: fail,
    umask: fail,
    cwd: fail,
    chdir: fail,
    pid: -1,
    ppid: -1,
  };
}

export function curatedGlobal(write: WriteOutput): Record<string, unknown> {
  return {
    Object,
    Array,
    Uint8Array,
    Date,
    crypto: { getRandomValues: (a: Uint8Array) => crypto.getRandomValues(a as Uint8Array<ArrayBuffer>) },
    performance: { now: () => performance.now() },
    TextEncoder,
    TextDecoder,
    fs: fsObject(write),
    process: processObject(),
  };
}
