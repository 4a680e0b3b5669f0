/**
 * The built-in registry: every catalog function krmfn runs natively, as a frozen array of
 * descriptors (sdk/registry.ts). Each function lives in its own file and default-exports its
 * descriptor; add one import and one entry per function (keep both sorted by name).
 * The built-in runtime takes this array as an argument, so hosts can extend or replace it.
 */
import type { BuiltinDescriptor } from '../sdk/registry.ts';
import applyReplacements from './apply-replacements.ts';
import applySetters from './apply-setters.ts';
import createSetters from './create-setters.ts';
import ensureNameSubstring from './ensure-name-substring.ts';
import fix from './fix.ts';
import format from './format.ts';
import kubeconform, { kubevalBuiltin as kubeval } from './kubeconform.ts';
import listSetters from './list-setters.ts';
import removeLocalConfigResources from './remove-local-config-resources.ts';
import searchReplace from './search-replace.ts';
import setAnnotations from './set-annotations.ts';
import setEnforcementAction from './set-enforcement-action.ts';
import setImage from './set-image.ts';
import setLabels from './set-labels.ts';
import setNamePrefix from './set-name-prefix.ts';
import setNamespace from './set-namespace.ts';
import setProjectId from './set-project-id.ts';
import upsertResource from './upsert-resource.ts';

export type { BuiltinDescriptor } from '../sdk/registry.ts';

export const BUILTINS: readonly BuiltinDescriptor[] = Object.freeze([
  applyReplacements,
  applySetters,
  createSetters,
  ensureNameSubstring,
  fix,
  format,
  kubeconform,
  kubeval,
  listSetters,
  removeLocalConfigResources,
  searchReplace,
  setAnnotations,
  setEnforcementAction,
  setImage,
  setLabels,
  setNamePrefix,
  setNamespace,
  setProjectId,
  upsertResource,
]);
