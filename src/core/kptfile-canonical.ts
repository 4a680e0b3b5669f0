/**
 * A Kptfile as kpt v1.0.0-beta.67 writes it back after decoding it into its Go type
 * (kptdev/kpt pkg/kptfile/kptfileutil/util.go `WriteKptfileToFS`: `yaml.MarshalWithOptions` with
 * wide sequence indentation): fields in Go struct order, `omitempty` fields dropped when empty,
 * map keys sorted, every value re-emitted in go-yaml's canonical style, comments gone.
 *
 * Contract: `canonicalKptfileNode(doc, version)` expects a document that `decodeKptfile(doc, version)`
 * accepts and returns a new document node; `emitCanonicalKptfile` turns such a node into text.
 * Pure: no I/O.
 */
import { kptfileSchema, type FieldType } from './kptfile.ts';
import type { KptVersion } from './kpt-version.ts';
import { emitYamlDocument } from './yaml/index.ts';
import { documentNode, mappingNode, newNode, sequenceNode, strNode, type YNode } from './yaml/node.ts';

function deref(n: YNode): YNode {
  let guard = 0;
  while (n.kind === 'alias' && n.alias && guard++ < 100) n = n.alias;
  return n;
}

const isNull = (n: YNode): boolean => n.kind === 'scalar' && n.tag === '!!null';

export function intNode(n: number): YNode {
  return newNode('scalar', { tag: '!!int', value: String(n) });
}

/** YAML 1.1 booleans and base-60 floats, which go-yaml's Marshal double-quotes in a Go string (encode.go `stringv`). */
const OLD_BOOL = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/** A Go string as go-yaml's Marshal writes it: literal block when multi-line, plain or quoted otherwise. */
export function goStringNode(value: string): YNode {
  if (value.includes('\n')) return strNode(value, 'literal');
  return strNode(value, OLD_BOOL.test(value) || BASE60_FLOAT.test(value) ? 'double' : '');
}

/** The marshalled node of `node` typed `type`, or undefined when `omitempty` drops it. */
function marshal(node: YNode | undefined, type: FieldType, keep: boolean): YNode | undefined {
  const n = node ? deref(node) : undefined;
  const absent = !n || isNull(n);
  switch (type.t) {
    case 'string':
    case 'bool': {
      const v = absent || n.kind !== 'scalar' ? '' : n.value;
      return v === '' && !keep ? undefined : goStringNode(v);
    }
    case 'int': {
      const v = absent || n.kind !== 'scalar' ? 0 : Number(n.value.replace(/_/g, ''));
      return v === 0 && !keep ? undefined : intNode(v);
    }
    case 'map': {
      if (absent || n.kind !== 'mapping' || n.content.length === 0) return undefined;
      const pairs: [string, string][] = [];
      for (let i = 0; i + 1 < n.content.length; i += 2) {
        const v = deref(n.content[i + 1]);
        pairs.push([deref(n.content[i]).value, isNull(v) ? '' : v.value]);
      }
      pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      return mappingNode(pairs.flatMap(([k, v]) => [strNode(k), goStringNode(v)]));
    }
    case 'list': {
      if (absent || n.kind !== 'sequence' || n.content.length === 0) return undefined;
      return sequenceNode(n.content.map((c) => marshal(c, type.of, true) ?? mappingNode([], 'flow')));
    }
    case 'any':
      return marshal(node, type.shape, keep);
    case 'struct': {
      if (absent || n.kind !== 'mapping') return keep && !type.value ? undefined : undefined;
      const content: YNode[] = [];
      for (const [key, ft] of Object.entries(type.fields)) {
        let value: YNode | undefined;
        for (let i = 0; i + 1 < n.content.length; i += 2) {
          if (deref(n.content[i]).value === key) value = n.content[i + 1];
        }
        const out = marshal(value, ft, type.keep?.includes(key) ?? false);
        if (out) content.push(strNode(key), out);
      }
      if (content.length === 0 && type.value) return undefined;
      return mappingNode(content, content.length === 0 ? 'flow' : '');
    }
  }
}

export function canonicalKptfileNode(doc: YNode, version: KptVersion): YNode {
  const root = doc.kind === 'document' ? doc.content[0] : doc;
  return documentNode(marshal(root, kptfileSchema(version), true) ?? mappingNode([], 'flow'));
}

/** kyaml v0.21 (kpt beta.67) writes with go-yaml v3.0.4: tabs allowed in block scalars. */
export function emitCanonicalKptfile(doc: YNode): string {
  return emitYamlDocument(doc, 'wide', { tabsInBlocks: true });
}
