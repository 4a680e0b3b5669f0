/**
 * Registry WASM images for the CLI's WASM runtime (src/runtimes/wasm.ts `images`): the Node OCI
 * client (disk cache, Docker config credentials) with kpt's `--image-pull-policy`, and the pulls
 * reported to `onImage`. With `containersFollow` (a container runtime is later in the chain) registry
 * failures pass the image on to it.
 */
import type { PullPolicy } from '../../core/oci/client.ts';
import type { WasmImageOptions, WasmImageReport } from '../../runtimes/wasm.ts';
import { createNodeOciClient } from './index.ts';

export function nodeWasmImages(
  env: Record<string, string | undefined>,
  policy?: PullPolicy,
  onImage?: (report: WasmImageReport) => void,
  containersFollow = false,
): WasmImageOptions {
  return {
    client: createNodeOciClient(env).client,
    passOnRegistryErrors: containersFollow,
    ...(policy ? { policy } : {}),
    ...(onImage ? { onImage } : {}),
  };
}
