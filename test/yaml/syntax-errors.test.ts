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
