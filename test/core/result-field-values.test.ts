// The release-specific forms of a result's field values (src/core/result-field-values.ts), for
// results parsed from a function's output and for results built in code (a built-in's).
import { describe, expect, test } from 'vitest';
import { parseFunctionOutput } from '../../src/core/resource-list.ts';
import { emitResultsFile, newResultList } from '../../src/core/results-file.ts';
import { goFloatText, goKeyLess } from '../../src/core/result-field-values.ts';
import type { Result } from '../../src/core/result.ts';

const OUTPUT = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items: []
results:
  - message: m
    field:
      path: spec.x
      currentValue: {b10: 1, b9: 2.0, a: [y, n]}
      proposedValue: 1000000.0
`;

function fileWith(results: Result[], style: 'go-values' | 'strings'): string {
  const list = newResultList();
  list.items.push({ exec: 'f', exitCode: 0, results });
  return emitResultsFile(list, style);
}

/** The lines under the first result's `field:`, de-indented. */
function fieldLines(text: string): string {
  const tail = text.slice(text.indexOf('        field:\n') + '        field:\n'.length);
  return tail
    .split('\n')
    .map((l) => l.slice(10))
    .join('\n');
}

describe('result field values', () => {
  test('beta.56 re-marshals Go values: keys in go-yaml order, floats as FormatFloat g, YAML 1.1 booleans quoted', () => {
    const { results } = parseFunctionOutput(OUTPUT);
    expect(fieldLines(fileWith(results, 'go-values'))).toBe(
      [
        'path: spec.x',
        'currentValue:',
        '  a:',
        '    - "y"',
        '    - "n"',
        '  b9: 2',
        '  b10: 1',
        'proposedValue: 1e+06',
        '',
      ].join('\n'),
    );
  });

  test('beta.67 keeps the text as written: scalars verbatim, collections as their YAML', () => {
    const { results } = parseFunctionOutput(OUTPUT);
    expect(fieldLines(fileWith(results, 'strings'))).toBe(
      ['path: spec.x', "currentValue: '{b10: 1, b9: 2.0, a: [y, n]}'", 'proposedValue: "1000000.0"', ''].join('\n'),
    );
  });

  test('results built in code (no source text) use their JS values', () => {
    const built: Result[] = [{ message: 'm', field: { path: 'p', currentValue: 3, proposedValue: { k: ['v'] } } }];
    expect(fieldLines(fileWith(built, 'strings'))).toBe(
      ['path: p', 'currentValue: "3"', 'proposedValue: |-', '  k:', '  - v', ''].join('\n'),
    );
    expect(fieldLines(fileWith(built, 'go-values'))).toBe(
      ['path: p', 'currentValue: 3', 'proposedValue:', '  k:', '    - v', ''].join('\n'),
    );
    const empty: Result[] = [{ message: 'm', field: { path: 'p', currentValue: '', proposedValue: null } }];
    expect(fieldLines(fileWith(empty, 'strings'))).toBe('path: p\nproposedValue: "null"\n');
    expect(fieldLines(fileWith(empty, 'go-values'))).toBe('path: p\ncurrentValue: ""\n');
  });

  // Expected order printed by go-yaml v3.0.1's Marshal of a map[string]interface{} with these keys.
  test("go-yaml's key order compares digit runs as numbers", () => {
    const keys = ['b10', 'a', 'b9', 'b09x', 'B', '1', '_z'];
    expect([...keys].sort((x, y) => (goKeyLess(x, y) ? -1 : goKeyLess(y, x) ? 1 : 0))).toEqual([
      '_z',
      '1',
      'B',
      'a',
      'b9',
      'b09x',
      'b10',
    ]);
  });

  test("Go's shortest %g", () => {
    expect([1.5, 1e6, 123456, 0.0001, 0.00001, 1234567.5, -2.5e-7].map(goFloatText)).toEqual([
      '1.5',
      '1e+06',
      '123456',
      '0.0001',
      '1e-05',
      '1.2345675e+06',
      '-2.5e-07',
    ]);
  });
});
