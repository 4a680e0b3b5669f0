/**
 * kpt's `--mount` values (kyaml's runtimeutil.StorageMount, kubernetes-sigs/kustomize
 * kyaml/fn/runtime/runtimeutil/functiontypes.go): comma-separated `key=value` options, `type`
 * (bind, tmpfs), `src`/`source`, `dst`/`target`, and `rw=true` for a writable
 * mount; read-only otherwise. Relative sources are taken from the working directory.
 */
import { isAbsolute, resolve } from 'node:path';
import { KrmfnError } from '../../core/errors.ts';

export interface SandboxMount {
  type: 'bind' | 'tmpfs';
  /** Absolute host path (bind only). */
  source: string;
  /** Absolute path inside the sandbox. */
  target: string;
  readonly: boolean;
}

function usage(message: string): KrmfnError {
  return new KrmfnError({ code: 'usage', message });
}

export function parseStorageMount(text: string, cwd: string): SandboxMount {
  const opts = new Map<string, string>();
  for (const option of text.split(',')) {
    const eq = option.indexOf('=');
    if (eq > 0) opts.set(option.slice(0, eq), option.slice(eq + 1));
  }
  const type = opts.get('type') ?? '';
  const source = opts.get('src') ?? opts.get('source') ?? '';
  const target = opts.get('dst') ?? opts.get('target') ?? '';
  if (type !== 'bind' && type !== 'tmpfs') {
    throw usage(`mount ${JSON.stringify(text)}: type must be bind or tmpfs for the sandbox runtime`);
  }
  if (!target.startsWith('/')) throw usage(`mount ${JSON.stringify(text)}: the target must be an absolute path`);
  if (target.split('/').includes('..')) throw usage(`mount ${JSON.stringify(text)}: the target must not contain ..`);
  if (type === 'bind' && source === '') throw usage(`mount ${JSON.stringify(text)}: a bind mount needs a source`);
  return {
    type,
    source: type === 'bind' ? (isAbsolute(source) ? source : resolve(cwd, source)) : '',
    target,
    readonly: opts.get('rw') !== 'true',
  };
}
