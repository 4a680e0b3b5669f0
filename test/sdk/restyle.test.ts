import { describe, expect, it } from 'vitest';
import { parseObject, reencodeAsKustomize, snapshotKeyOrder } from 'krmfn/sdk';
import { emitYamlDocument } from '../../src/core/yaml/index.ts';

describe('reencodeAsKustomize (style group B)', () => {
  it('re-encodes scalars and collections as a JSON round trip would, new keys sorted after old ones', () => {
    const o = parseObject(`apiVersion: v1
kind: ConfigMap
metadata:
  name: 'cm' # keep
  labels: {z: '1', a: b}
data:
  plain: 'quoted'
  needs: ': colon'
  bool11: "yes"
  tagged: !!str 42
  nothing: ~
  flag: True
  multi: "a\\nb"
  list: [x, "w"]
`);
    const before = snapshotKeyOrder(o);
    o.set('metadata.namespace', 'ns');
    o.set('metadata.annotations', { b: '2', a: '1' });
    reencodeAsKustomize(o, before);
    expect(emitYamlDocument(o.doc, 'compact')).toBe(`apiVersion: v1
kind: ConfigMap
metadata:
  name: cm # keep
  labels:
    z: "1"
    a: b
  annotations:
    a: "1"
    b: "2"
  namespace: ns
data:
  plain: quoted
  needs: ': colon'
  bool11: "yes"
  tagged: "42"
  nothing: null
  flag: true
  multi: |-
    a
    b
  list:
  - x
  - w
`);
  });
});
