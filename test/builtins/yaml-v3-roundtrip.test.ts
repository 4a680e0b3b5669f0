/**
 * The go-yaml v3 decode-and-re-encode of a plain config scalar that apply-setters v0.1.0 and
 * search-replace v0.1.0 apply to their `data` values (builtins/lib/yaml-v3-roundtrip.ts). The
 * expected texts were printed by a small Go 1.19 program outside the repository that unmarshals
 * `v: <text>` into `map[string]interface{}` with gopkg.in/yaml.v3 at 9f266ea9e77c (the version
 * kyaml v0.10.10 pins), marshals the map again and prints the value node's text (a null as '').
 * The second table (set-labels / set-annotations v0.1.3) was printed by the same kind of program
 * with go-yaml v3 496545a6307b, go-yaml v2 v2.3.0 and sigs.k8s.io/yaml v1.2.0: the Go-map round
 * trip, then `yaml.Unmarshal` into a `map[string]string` field.
 */
import { describe, expect, it } from 'vitest';
import { goMapThenSigsString, plainRoundTrip } from '../../builtins/lib/yaml-v3-roundtrip.ts';
import { parseYamlFile } from '../../src/core/yaml/index.ts';

const TABLE: [string, string][] = [
  ['hello', 'hello'],
  ['yes', 'yes'],
  ['on', 'on'],
  ['y', 'y'],
  ['Off', 'Off'],
  ['TRUE', 'true'],
  ['True', 'true'],
  ['false', 'false'],
  ['~', ''],
  ['null', ''],
  ['NULL', ''],
  ['42', '42'],
  ['+42', '42'],
  ['-0', '0'],
  ['0755', '493'],
  ['0x1F', '31'],
  ['0o17', '15'],
  ['0b101', '5'],
  ['-0b11', '-3'],
  ['1_000', '1000'],
  ['9223372036854775807', '9223372036854775807'],
  ['9223372036854775808', '9223372036854775808'],
  ['18446744073709551615', '18446744073709551615'],
  ['18446744073709551616', '1.8446744073709552e+19'],
  ['-9223372036854775809', '-9.223372036854776e+18'],
  ['08', '8'],
  ['1.50', '1.5'],
  ['3.14159265358979', '3.14159265358979'],
  ['0.1', '0.1'],
  ['1e3', '1000'],
  ['1000000.0', '1e+06'],
  ['123456.7', '123456.7'],
  ['0.00001', '1e-05'],
  ['0.0001', '0.0001'],
  ['.5', '0.5'],
  ['-.5', '-0.5'],
  ['+.5', '0.5'],
  ['.inf', '.inf'],
  ['+.inf', '.inf'],
  ['-.Inf', '-.inf'],
  ['.NaN', '.nan'],
  ['2001-12-14', '2001-12-14T00:00:00Z'],
  ['2001-2-3', '2001-02-03T00:00:00Z'],
  ['2001-02-30', '2001-02-30'],
  ['2001-12-14T21:59:43.10-05:00', '2001-12-14T21:59:43.1-05:00'],
  ['2001-12-14t21:59:43Z', '2001-12-14T21:59:43Z'],
  ['2001-12-14 21:59:43.1230', '2001-12-14T21:59:43.123Z'],
  ['2001-12-14T21:59:43+00:00', '2001-12-14T21:59:43Z'],
  ['1:20', '1:20'],
  ['1.2.3', '1.2.3'],
  ['0x', '0x'],
  ['1e400', '1e400'],
  ['-1e400', '-1e400'],
  ['v1.2', 'v1.2'],
];

describe('go-yaml v3 round trip of plain scalars', () => {
  it.each(TABLE)('%s → %s', (text, want) => expect(plainRoundTrip(text)).toBe(want));
});

const V013: [string, string][] = [
  ['yes', 'yes'],
  ['on', 'on'],
  ['y', 'y'],
  ['Off', 'Off'],
  ['TRUE', 'true'],
  ['0755', '493'],
  ['1.50', '1.5'],
  ['1e3', '1000'],
  ['3.14159265358979', '3.1415927'],
  ['2001-12-14', '2001-12-14T00:00:00Z'],
  ['~', ''],
  ['0x1F', '31'],
  ['1:20', '1:20'],
  ['hello', 'hello'],
  ['1_000', '1000'],
  ['.inf', '+Inf'],
  ['1e400', '1e400'],
];

describe('go-yaml v3 Go-map round trip, then sigs.k8s.io/yaml into a string', () => {
  it.each(V013)('%s → %s', (text, want) => {
    const doc = parseYamlFile(`k: ${text}\n`).docs[0];
    const value = doc.content[0].content[1];
    expect(goMapThenSigsString(value)).toBe(want);
  });
});
