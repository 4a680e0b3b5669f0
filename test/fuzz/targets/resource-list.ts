/**
 * The ResourceList codec (src/core/resource-list.ts): objects serialized as a ResourceList read
 * back as the same objects (with kpt's index annotations added), and arbitrary text given as a
 * function's input either reads or fails with a krmfn error.
 */
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { KubeObject } from '../../../src/core/kube-object.ts';
import { parseResourceListInput, serializeResourceList } from '../../../src/core/resource-list.ts';
import { onlyCleanErrors, target, utf8 } from '../harness.ts';

const label = fc.stringMatching(/^[a-z0-9]([-a-z0-9.]{0,10}[a-z0-9])?$/);
const value = fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('yes', '0x1', '', '- a', 'a: b', '#x', 'ü'));
const object = fc.record(
  {
    apiVersion: fc.constantFrom('v1', 'apps/v1', 'example.com/v1beta1'),
    kind: fc.constantFrom('ConfigMap', 'Deployment', 'Thing'),
    metadata: fc.record(
      { name: label, namespace: label, labels: fc.dictionary(label, value, { maxKeys: 3, noNullPrototype: true }) },
      { requiredKeys: ['name'], noNullPrototype: true },
    ),
    data: fc.dictionary(fc.string({ maxLength: 8 }), value, { maxKeys: 4, noNullPrototype: true }),
  },
  { noNullPrototype: true },
);

const KEYS = [
  'apiVersion: config.kubernetes.io/v1\n',
  'kind: ResourceList\n',
  'items:\n',
  '- ',
  '  ',
  'kind: ConfigMap\n',
  'metadata:\n',
  'name: a\n',
  'functionConfig:\n',
  '---\n',
  '[]',
  '{}',
  'null\n',
  'items: 3\n',
  '\n',
  '  - 1\n',
  'results:\n',
];
const text = fc.array(fc.constantFrom(...KEYS), { maxLength: 25 }).map((t) => t.join(''));

type Input = { kind: 'objects'; objects: Array<Record<string, unknown>> } | { kind: 'text'; text: string };

const withoutInternal = (o: KubeObject): unknown => {
  const js = o.toJS() as { metadata?: { annotations?: Record<string, string> } };
  const ann = js.metadata?.annotations;
  if (ann) {
    for (const k of Object.keys(ann))
      if (k.startsWith('config.kubernetes.io/') || k.startsWith('internal.config.kubernetes.io/')) delete ann[k];
    if (Object.keys(ann).length === 0) delete js.metadata!.annotations;
  }
  return js;
};

function check(i: Input): void {
  if (i.kind === 'text') {
    onlyCleanErrors(() => parseResourceListInput(i.text));
    return;
  }
  const text = serializeResourceList(i.objects.map((o) => KubeObject.fromJS(o)));
  const back = parseResourceListInput(text).map(withoutInternal);
  if (!isDeepStrictEqual(back, i.objects))
    throw new Error(`ResourceList round trip changed the objects:\n${text}\n${JSON.stringify(back)}`);
}

export const resourceListTarget = target<Input>({
  name: 'resource-list',
  arbitrary: fc.oneof(
    fc.array(object, { maxLength: 4 }).map((objects) => ({ kind: 'objects' as const, objects })),
    text.map((t) => ({ kind: 'text' as const, text: t })),
  ),
  check,
  fromCorpus: (b) => ({ kind: 'text', text: utf8(b) }),
});
