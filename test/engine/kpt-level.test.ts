// The compatibility levels: version parsing, semantic-version tags (Masterminds semver rules as
// kptdev/kpt pkg/fn/runtime/tag_resolution.go uses them at v1.0.0-beta.67), image naming per
// level, and the Kptfile as kpt beta.67 marshals it back.
import { describe, expect, test } from 'vitest';
import { KPT_VERSIONS, parseKptVersion } from '../../src/core/kpt-version.ts';
import { highestSatisfying, parseConstraint, parseSemver } from '../../src/core/semver.ts';
import { canonicalKptfileNode, emitCanonicalKptfile } from '../../src/core/kptfile-canonical.ts';
import { decodeKptfile } from '../../src/core/kptfile.ts';
import { parseYamlFile } from '../../src/core/yaml/index.ts';
import { kptLevel } from '../../src/engine/kpt-level.ts';
import { isKrmfnError } from '../../src/core/errors.ts';

describe('kpt versions', () => {
  test('both levels exist and parse with or without a v', () => {
    expect(KPT_VERSIONS).toEqual(['1.0.0-beta.56', '1.0.0-beta.67']);
    expect(parseKptVersion('v1.0.0-beta.67')).toBe('1.0.0-beta.67');
    expect(parseKptVersion(' 1.0.0-beta.56 ')).toBe('1.0.0-beta.56');
  });
  test('an unknown level is an error naming every level', () => {
    expect(() => parseKptVersion('1.0.0-beta.60')).toThrow(
      'unknown kpt version "1.0.0-beta.60": krmfn implements 1.0.0-beta.56, 1.0.0-beta.67',
    );
  });
});

const SET_NAMESPACE = ['v0.3.4', 'v0.4.0', 'v0.4.1', 'v0.4.3', 'v0.4.5', 'v0.5.0', 'v0.5.1'];
const WITH_ODD_TAGS = ['v1.0.0-rc.1', 'v0.9.0', 'sha256-abc.sig', 'v0.9.1-git-abc', 'latest', 'v0.8'];

describe('semantic-version constraints', () => {
  const cases: [string, readonly string[], string | undefined][] = [
    ['~0.4', SET_NAMESPACE, 'v0.4.5'],
    ['~0.4.1', SET_NAMESPACE, 'v0.4.5'],
    ['^0.4.1', SET_NAMESPACE, 'v0.4.5'],
    ['^0.0.3', ['v0.0.3', 'v0.0.4'], 'v0.0.3'],
    ['^1', ['v1.2.0', 'v2.0.0'], 'v1.2.0'],
    ['0.4.1 - 0.4.3', SET_NAMESPACE, 'v0.4.3'],
    ['>=0.3, <0.4.3', SET_NAMESPACE, 'v0.4.1'],
    ['>= 0.4 < 0.5', SET_NAMESPACE, 'v0.4.5'],
    ['>0.4', SET_NAMESPACE, 'v0.5.1'],
    ['<=0.4', SET_NAMESPACE, 'v0.4.5'],
    ['!=0.5.1, >=0.5', SET_NAMESPACE, 'v0.5.0'],
    ['0.4.x', SET_NAMESPACE, 'v0.4.5'],
    ['=0.4', SET_NAMESPACE, 'v0.4.5'],
    ['*', SET_NAMESPACE, 'v0.5.1'],
    ['~0.1 || ~0.4', SET_NAMESPACE, 'v0.4.5'],
    ['~9.1', SET_NAMESPACE, undefined],
    ['>=0.9', WITH_ODD_TAGS, 'v0.9.0'],
    ['>=1.0.0-rc.0', WITH_ODD_TAGS, 'v1.0.0-rc.1'],
    ['~0.8', WITH_ODD_TAGS, 'v0.8'],
  ];
  test.each(cases)('%s', (constraint, tags, want) => {
    const c = parseConstraint(constraint);
    expect(c).toBeDefined();
    expect(highestSatisfying(tags, c!)).toBe(want);
  });
  test('versions and non-constraints', () => {
    expect(parseSemver('v0.4.1')).toMatchObject({ major: 0, minor: 4, patch: 1 });
    expect(parseSemver('1.2')).toMatchObject({ major: 1, minor: 2, patch: 0 });
    expect(parseSemver('latest')).toBeUndefined();
    expect(parseConstraint('latest')).toBeUndefined();
    expect(parseConstraint('~0.2 ||')).toBeUndefined();
  });
});

describe('image naming per level', () => {
  const beta56 = kptLevel('1.0.0-beta.56').images;
  const beta67 = kptLevel('1.0.0-beta.67').images;
  const list = (): readonly string[] => SET_NAMESPACE;
  const cases: [string, string | undefined, string, string][] = [
    [
      'set-namespace',
      undefined,
      'gcr.io/kpt-fn/set-namespace',
      'ghcr.io/kptdev/krm-functions-catalog/set-namespace:latest',
    ],
    [
      'set-namespace:v0.4',
      undefined,
      'gcr.io/kpt-fn/set-namespace:v0.4',
      'ghcr.io/kptdev/krm-functions-catalog/set-namespace:v0.4',
    ],
    [
      'example.com/fn@sha256:' + 'a'.repeat(64),
      undefined,
      'example.com/fn@sha256:' + 'a'.repeat(64),
      'example.com/fn@sha256:' + 'a'.repeat(64),
    ],
    [
      'set-namespace:v0.1.0',
      '~0.4',
      'gcr.io/kpt-fn/set-namespace:v0.1.0',
      'ghcr.io/kptdev/krm-functions-catalog/set-namespace:v0.4.5',
    ],
    ['localhost:5000/fn:v1', 'v2.0', 'localhost:5000/fn:v1', 'localhost:5000/fn:v2.0'],
    ['fn', 'stable_1', 'gcr.io/kpt-fn/fn', 'ghcr.io/kptdev/krm-functions-catalog/fn:stable_1'],
  ];
  test.each(cases)('%s tag %s', (image, tag, want56, want67) => {
    expect(beta56.resolve(image, tag, list)).toBe(want56);
    expect(beta67.resolve(image, tag, list)).toBe(want67);
  });
  test('prefix: custom, empty (left alone), trailing slashes trimmed', () => {
    expect(beta67.resolve('fn', undefined, list, 'my.io/fns//')).toBe('my.io/fns/fn:latest');
    expect(beta67.resolve('fn', undefined, list, '')).toBe('fn:latest');
  });
  test("kpt's messages for unusable tags", () => {
    const message = (tag: string): string => {
      try {
        beta67.resolve('set-namespace', tag, list);
      } catch (e) {
        if (isKrmfnError(e)) return e.message;
      }
      return '';
    };
    expect(message('~9')).toBe('no tag could be found matching the version constraint "~9"');
    expect(message('-x')).toBe(
      '`function.tag` "-x" must be a valid image tag: must start with an alphanumeric character or underscore, followed by at most 127 alphanumeric characters, underscores, periods, or dashes',
    );
  });
});

describe('Kptfile as kpt beta.67 writes it back', () => {
  const input = `# comment dropped
kind: Kptfile
apiVersion: kpt.dev/v1
pipeline:
  validators:
  - exec: ./check.sh
  mutators:
  - tag: "~0.4"
    configMap: {b: "2", a: "on"}
    image: set-namespace
status:
  renderStatus:
    errorSummary: ""
    mutationSteps:
    - exitCode: 0
      image: x
metadata:
  annotations: {z: "1"}
  name: app
info: {}
`;
  const want = `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: app
  annotations:
    z: "1"
info: {}
pipeline:
  mutators:
    - image: set-namespace
      configMap:
        a: "on"
        b: "2"
      tag: ~0.4
  validators:
    - exec: ./check.sh
status:
  renderStatus:
    mutationSteps:
      - image: x
        exitCode: 0
`;
  test('Go field order, omitempty, sorted maps, wide sequences, no comments', () => {
    const doc = parseYamlFile(input).docs[0];
    expect(decodeKptfile(doc, '1.0.0-beta.67').ok).toBe(true);
    expect(emitCanonicalKptfile(canonicalKptfileNode(doc, '1.0.0-beta.67'))).toBe(want);
  });
  test('beta.56 does not know the newer fields', () => {
    const doc = parseYamlFile(input).docs[0];
    const r = decodeKptfile(doc, '1.0.0-beta.56');
    expect(r).toEqual({
      ok: false,
      errors: [
        'line 8: field tag not found in type v1.Function',
        'line 12: field renderStatus not found in type v1.Status',
      ],
    });
  });
  test('a multi-line message with a tab stays a literal block (go-yaml v3.0.4)', () => {
    const writer = kptLevel('1.0.0-beta.67').status;
    const out = writer.update('apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: a\n', {
      steps: [],
      error: 'pkg.render: pkg .:\n\tpipeline.run: already handled error',
    });
    expect(out).toBe(
      'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: a\nstatus:\n  conditions:\n    - type: Rendered\n      status: "False"\n      reason: RenderFailed\n      message: |-\n        pkg.render: pkg .:\n        \tpipeline.run: already handled error\n',
    );
    expect(kptLevel('1.0.0-beta.56').status.update('kind: Kptfile\n', { steps: [] })).toBeUndefined();
  });
});
