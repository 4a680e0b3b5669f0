/**
 * Inputs go-yaml (through kyaml) refuses that the `yaml` CST accepts or reads differently. Each
 * expected message was printed by the real kpt v1.0.0-beta.56 (`kpt fn source`) for the same file;
 * the fuzz suite (test/fuzz/) found the first three. The document is the same ConfigMap each time,
 * with the case on line 6.
 */
import { describe, expect, it } from 'vitest';
import { parseYamlFile } from '../../src/core/yaml/index.ts';

const doc = (line: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  ${line}\n`;

const REFUSED: readonly (readonly [string, string])[] = [
  ['a: >- !!str ', 'yaml: line 6: did not find expected comment or line break'],
  ['a: > x', 'yaml: line 6: did not find expected comment or line break'],
  ['b: [:]', 'yaml: line 5: did not find expected node content'],
  ['b: [: x]', 'yaml: line 5: did not find expected node content'],
  ['c: {: x}', 'yaml: line 5: did not find expected node content'],
  ['c: {a: 1, : x}', 'yaml: line 5: did not find expected node content'],
];

const ACCEPTED: readonly string[] = ['a: |  # c', 'a: >-', 'c: {? : x}', 'c: {a: }', 'c: [a: b]'];

describe('go-yaml syntax errors the yaml CST does not raise', () => {
  for (const [line, message] of REFUSED) {
    it(`refuses ${JSON.stringify(line)}`, () => {
      expect(() => parseYamlFile(doc(line), { file: 'cm.yaml' })).toThrow(message);
    });
  }
  for (const line of ACCEPTED) {
    it(`accepts ${JSON.stringify(line)}`, () => {
      expect(parseYamlFile(doc(line), { file: 'cm.yaml' }).docs).toHaveLength(1);
    });
  }
});

const head = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n';

/**
 * go-yaml names the line of the error's context mark (the collection, scalar or key it was
 * reading) unless that is the piece's first line, else the problem's; each expected message was
 * printed by the real kpt v1.0.0-beta.56 for `head` + the case.
 */
const LINES: readonly (readonly [string, string])[] = [
  ['data:\n  m:\n      a: 1\n    b: 2\n', 'yaml: line 5: did not find expected key'],
  ['data:\n  y: [1,\n    2\n  z: 3\n', "yaml: line 5: did not find expected ',' or ']'"],
  ['data:\n  y: |\n    a\n\t b\n', 'yaml: line 6: found a tab character where an indentation space is expected'],
  ['data:\n  a: 1\n  b\n', "yaml: line 7: could not find expected ':'"],
  ['data:\n  x: "a\n', 'yaml: line 6: found unexpected end of stream'],
  ['data:\n  !!str ? a\n', 'yaml: line 6: mapping keys are not allowed in this context'],
  ['data:\n  : v\n', 'yaml: line 5: did not find expected key'],
];

describe("go-yaml's error lines", () => {
  for (const [tail, message] of LINES) {
    it(`${JSON.stringify(tail)} → ${message}`, () => {
      expect(() => parseYamlFile(head + tail, { file: 'cm.yaml' })).toThrow(message);
    });
  }
  it('an empty key after an anchor is a key', () => {
    const f = parseYamlFile(`${head}data:\n  &y : v\n`);
    const data = f.docs[0].content[0].content[7];
    expect(data.content.map((n) => [n.anchor, n.tag, n.value])).toEqual([
      ['y', '!!null', ''],
      ['', '!!str', 'v'],
    ]);
  });
});
