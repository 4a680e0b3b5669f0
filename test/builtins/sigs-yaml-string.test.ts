/**
 * How catalog functions that read their config with sigs.k8s.io/yaml v1.2.0 into Go strings see
 * plain YAML scalars (builtins/lib/sigs-yaml-string.ts): go-yaml v2's YAML 1.1 resolution, then Go's
 * integer, boolean and float32 formatting. Expected texts are Go's `strconv` outputs, worked out by
 * hand from strconv's rules (FormatInt base 10, FormatBool, FormatFloat 'g' -1 32).
 */
import { describe, expect, it } from 'vitest';
import { formatFloat32, plainScalarString } from '../../builtins/lib/sigs-yaml-string.ts';

const PLAIN: [string, string][] = [
  ['hello', 'hello'],
  ['yes', 'true'],
  ['Off', 'false'],
  ['y', 'true'],
  ['TRUE', 'true'],
  ['~', ''],
  ['null', ''],
  ['42', '42'],
  ['+42', '42'],
  ['-0', '0'],
  ['0755', '493'],
  ['0x1F', '31'],
  ['0o17', '15'],
  ['0b101', '5'],
  ['1_000', '1000'],
  ['9223372036854775807', '9223372036854775807'],
  ['18446744073709551615', '18446744073709551615'],
  ['08', '8'],
  ['1.50', '1.5'],
  ['3.14159265358979', '3.1415927'],
  ['1e3', '1000'],
  ['1000000.0', '1e+06'],
  ['0.00001', '1e-05'],
  ['0.0001', '0.0001'],
  ['.5', '0.5'],
  ['.inf', '+Inf'],
  ['-.Inf', '-Inf'],
  ['.nan', 'NaN'],
  ['2001-12-14', '2001-12-14'],
  ['1:20', '1:20'],
  ['v1.2', 'v1.2'],
  ['-', '-'],
];

describe('sigs.k8s.io/yaml v1.2.0 strings from plain scalars', () => {
  it.each(PLAIN)('%s → %s', (text, want) => expect(plainScalarString(text)).toBe(want));
  it('formats float32 the shortest way Go does', () => {
    expect(formatFloat32(16777217)).toBe('1.6777216e+07');
    expect(formatFloat32(123456)).toBe('123456');
    expect(formatFloat32(0.1)).toBe('0.1');
    expect(formatFloat32(-2.5e-7)).toBe('-2.5e-07');
  });
});
