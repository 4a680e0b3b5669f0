/** Creating objects: from plain data, or from YAML text (comments and styles kept). */
import { KrmfnError } from '../src/core/errors.ts';
import { KubeObject } from '../src/core/kube-object.ts';
import { parseYamlFile } from '../src/core/yaml/index.ts';

/** A new KubeObject from plain data (`{apiVersion, kind, metadata, ...}`). */
export function newObject(value: Record<string, unknown>): KubeObject {
  return KubeObject.fromJS(value);
}

/** The single object in `text` (YAML or JSON); throws KrmfnError for none or several. */
export function parseObject(text: string): KubeObject {
  const docs = parseYamlFile(text).docs;
  if (docs.length !== 1)
    throw new KrmfnError({ code: 'usage', message: `expected one YAML document, found ${docs.length}` });
  return new KubeObject(docs[0]);
}

/** Every object in a multi-document YAML stream. */
export function parseObjects(text: string): KubeObject[] {
  return parseYamlFile(text).docs.map((d) => new KubeObject(d));
}
