/** Every fuzz target, by name (`npm run fuzz -- --target NAME`). */
import type { FuzzTarget } from '../harness.ts';
import { globTarget } from './glob.ts';
import { layerUnpackTarget } from './layer-unpack.ts';
import { resourceListTarget } from './resource-list.ts';
import { starlarkTarget } from './starlark.ts';
import { tarTarget } from './tar.ts';
import { yamlTarget } from './yaml.ts';
import { zstdLayerTarget } from './zstd-layer.ts';

export const TARGETS: readonly FuzzTarget[] = [
  yamlTarget,
  starlarkTarget,
  resourceListTarget,
  globTarget,
  tarTarget,
  layerUnpackTarget,
  zstdLayerTarget,
];
