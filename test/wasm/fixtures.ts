/** Reads the committed WASM fixtures (wasm/testdata, rebuilt by scripts/build-wasm-fixtures.sh). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const TESTDATA = fileURLToPath(new URL('../../wasm/testdata/', import.meta.url));

export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(`${TESTDATA}${name}.wasm`));
}

export const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
export const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

/** A JSON ResourceList of `n` ConfigMaps. */
export function configMapList(n: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const items = Array.from({ length: n }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${i}`, annotations: { 'config.kubernetes.io/path': `cm-${i}.yaml` } },
    data: { key: `value-${i}` },
  }));
  return { apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items, ...extra };
}
