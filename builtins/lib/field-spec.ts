/**
 * Compatibility adapter over the SDK's FieldSpec library (`sdk/field-spec.ts`, the one walker)
 * for built-ins still written against the parent-and-key callback (ensure-name-substring). New
 * code uses `walkFieldSpec` from the SDK directly.
 */
import {
  type FieldSpec,
  FieldSpecError,
  type KubeObject,
  parseFieldSpecs,
  type PathSegment,
  walkFieldSpec,
  type YNode,
} from '../../sdk/index.ts';

export { FIELD_SPEC_SCHEMA, splitFieldSpecPath, type FieldSpec } from '../../sdk/index.ts';

/** The FieldSpecs of a config value (see `parseFieldSpecs`). */
export const toFieldSpecs = parseFieldSpecs;

/**
 * Calls `cb(parent, key, path)` for every target of `fs` whose parent mapping exists (intermediate
 * mappings are created when `fs.create`); the target itself may be missing. A path kustomize
 * would refuse reaches no target here. Returns how many targets were reached.
 */
export function forEachFieldSpecTarget(
  obj: KubeObject,
  fs: FieldSpec,
  cb: (parent: YNode, key: string, path: PathSegment[]) => void,
): number {
  let count = 0;
  try {
    walkFieldSpec(
      obj,
      fs,
      (path) => {
        const parent = obj.getNode(path.slice(0, -1));
        const key = path[path.length - 1];
        if (!parent || parent.kind !== 'mapping' || typeof key !== 'string') return;
        count++;
        cb(parent, key, path);
      },
      { createKind: 'scalar' },
    );
  } catch (e) {
    if (!(e instanceof FieldSpecError)) throw e;
  }
  return count;
}
