/**
 * Where the sandbox runtime gets images from. Until the OCI registry client lands (issue #15,
 * point 1), pulling answers a clear `container-unavailable` error; the cache directory is
 * `$KRMFN_CACHE_DIR/sandbox`, else `$XDG_CACHE_HOME/krmfn/sandbox`, else `~/.cache/krmfn/sandbox`.
 */
import { join } from 'node:path';
import { KrmfnError } from '../../core/errors.ts';
import type { ImageSource } from './image.ts';

export function sandboxCacheDir(env: Record<string, string | undefined>): string {
  if (env.KRMFN_CACHE_DIR) return join(env.KRMFN_CACHE_DIR, 'sandbox');
  const base = env.XDG_CACHE_HOME || join(env.HOME || '/tmp', '.cache');
  return join(base, 'krmfn', 'sandbox');
}

export function registryImageSource(_env: Record<string, string | undefined>): ImageSource {
  return {
    get(reference: string): Promise<never> {
      return Promise.reject(
        new KrmfnError({
          code: 'container-unavailable',
          message: `cannot pull ${reference}: this build of krmfn has no registry client yet`,
          function: reference,
        }),
      );
    },
  };
}
