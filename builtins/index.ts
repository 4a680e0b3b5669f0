/**
 * The built-in registry: every catalog function krmfn runs natively, as a frozen array of
 * descriptors (sdk/registry.ts). Each function lives in its own file and default-exports its
 * descriptor; add one import and one entry per function (keep both sorted by name).
 * The built-in runtime takes this array as an argument, so hosts can extend or replace it.
 */
import type { BuiltinDescriptor } from '../sdk/registry.ts';
import setLabels from './set-labels.ts';
import setNamespace from './set-namespace.ts';

export type { BuiltinDescriptor } from '../sdk/registry.ts';

export const BUILTINS: readonly BuiltinDescriptor[] = Object.freeze([
  setLabels,
  setNamespace,
]);
