/**
 * Quoting rules shared by the built-ins that restyle scalars (the `format` function). Style group
 * B re-encoding (docs/catalog.md, "Style generations") is the SDK's `reencodeAsKustomize`.
 */
import { resolvePlainTag } from '../../sdk/index.ts';

/**
 * Whether a string must be quoted to read back as the same string (go-yaml v3 encoder rules;
 * YAML 1.1 booleans such as `yes` stay plain). With `yaml11`, strings a YAML 1.1 reader would
 * take for a boolean are quoted too (the `format` function's "ambiguous strings").
 */
export function needsQuotes(s: string, yaml11 = false): boolean {
  if (s === '') return true;
  if (resolvePlainTag(s) !== '!!str') return true;
  if (yaml11 && /^(y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/.test(s)) return true;
  if (/^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}/.test(s)) return true;
  if (/^[\s]|[\s]$/.test(s)) return true;
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(s) && !/^[-?:][^\s]/.test(s)) return true;
  if (/^-\s|^\?\s|^:\s/.test(s) || s === '-' || s === '?' || s === ':') return true;
  if (s.includes(': ') || s.includes(' #') || s.endsWith(':')) return true;
  if (/[\x00-\x08\x0b-\x1f\x7f\u0085\u2028\u2029\ufeff\t]/.test(s)) return true;
  return false;
}
