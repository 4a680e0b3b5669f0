/** Creating objects from plain data (parsing text lives with the YAML layer: see processResourceList). */
import { KubeObject } from '../src/core/kube-object.ts';

/** A new KubeObject from plain data (`{apiVersion, kind, metadata, ...}`). */
export function newObject(value: Record<string, unknown>): KubeObject {
  return KubeObject.fromJS(value);
}
