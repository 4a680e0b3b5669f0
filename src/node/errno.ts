/**
 * Node's system errors as Go's `syscall.Errno.Error()` words them (Linux strerror texts), so
 * messages read as kpt's do: `open /pkg/x.yaml: file name too long`, not `ENAMETOOLONG: ...`.
 */
const TEXTS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EEXIST: 'file exists',
  EISDIR: 'is a directory',
  ELOOP: 'too many levels of symbolic links',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'file name too long',
  ENOENT: 'no such file or directory',
  ENOSPC: 'no space left on device',
  ENOTDIR: 'not a directory',
  ENOTEMPTY: 'directory not empty',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  EXDEV: 'invalid cross-device link',
  EDQUOT: 'disk quota exceeded',
  EIO: 'input/output error',
  EBUSY: 'device or resource busy',
  EINVAL: 'invalid argument',
};

/** The Go text of a Node system error; other errors give their message. */
export function errnoText(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code && TEXTS[code]) return TEXTS[code];
  return e instanceof Error ? e.message : String(e);
}
