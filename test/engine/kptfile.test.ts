// Strict Kptfile decoding (docs/kpt-semantics.md, "Kptfile"): unknown fields and wrong kinds at every level,
// reported as go-yaml's unmarshal errors with the offending line.
import { describe, expect, test } from 'vitest';
import { decodeKptfile, formatUnmarshalErrors } from '../../src/core/kptfile.ts';
import { parseYamlFile } from 'krmfn';

const decode = (text: string) => decodeKptfile(parseYamlFile(text).docs[0]);
const head = 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: app\n';

describe('decodeKptfile', () => {
  const failures: [string, string, string[]][] = [
    ['unknown top-level field', head + 'sources: []\n', ['line 5: field sources not found in type v1.KptFile']],
    [
      'unknown metadata field',
      'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: app\n  uid: x\n',
      ['line 5: field uid not found in type yaml.ObjectMeta'],
    ],
    [
      'unknown function field',
      head + 'pipeline:\n  mutators:\n  - image: a\n    targetResources: []\n',
      ['line 8: field targetResources not found in type v1.Function'],
    ],
    [
      'unknown selector field, with a second error',
      head + 'pipeline:\n  validators:\n  - exec: a\n    selectors:\n    - kindd: X\n  foo: 1\n',
      ['line 9: field kindd not found in type v1.Selector', 'line 10: field foo not found in type v1.Pipeline'],
    ],
    [
      'a list under configMap',
      head + 'pipeline:\n  mutators:\n  - image: a\n    configMap:\n      k: [1, 2]\n',
      ['line 9: cannot unmarshal !!seq into string'],
    ],
    [
      'a scalar where a list belongs',
      head + 'pipeline:\n  mutators: nope\n',
      ['line 6: cannot unmarshal !!str `nope` into []v1.Function'],
    ],
    [
      'a duplicate key',
      head + 'info:\n  description: a\n  description: b\n',
      ['line 7: mapping key "description" already defined at line 6'],
    ],
  ];
  for (const [name, text, errors] of failures) {
    test(name, () => expect(decode(text)).toEqual({ ok: false, errors }));
  }

  test('a full Kptfile decodes into the pipeline', () => {
    const r = decode(
      head +
        'upstream:\n  type: git\n  git:\n    repo: r\n    directory: d\n    ref: main\ninfo:\n  emails: [a@b]\n' +
        'pipeline:\n  mutators:\n  - image: set-namespace:v0.4.1\n    configMap:\n      namespace: "5"\n    selectors:\n    - kind: Deployment\n      labels: {app: web}\n' +
        '  validators:\n  - exec: ./check.sh\n    configPath: c.yaml\n    exclude:\n    - name: x\n' +
        'status:\n  conditions:\n  - type: Rendered\n    status: "True"\n',
    );
    expect(r).toEqual({
      ok: true,
      kptfile: {
        apiVersion: 'kpt.dev/v1',
        kind: 'Kptfile',
        metadata: { name: 'app' },
        pipeline: {
          mutators: [
            {
              image: 'set-namespace:v0.4.1',
              configMap: { namespace: '5' },
              selectors: [{ kind: 'Deployment', labels: { app: 'web' } }],
            },
          ],
          validators: [{ exec: './check.sh', configPath: 'c.yaml', exclude: [{ name: 'x' }] }],
        },
      },
    });
  });

  test('the Details block', () => {
    expect(formatUnmarshalErrors(['line 1: a', 'line 2: b'])).toBe('yaml: unmarshal errors:\n  line 1: a\n  line 2: b');
  });
});
