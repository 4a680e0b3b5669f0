/**
 * Style group B of catalog.md §3.4: what a kustomize resource round trip (YAML → JSON/maps →
 * YAML) does to an item's styles. Comments and key order come back through kpt, so only styles
 * change: unnecessary quotes are dropped, strings that need quoting become double-quoted, flow
 * collections become block, multi-line strings become literal blocks. Applied in place.
 */
import type { YNode } from '../../src/core/yaml/node.ts';
import { resolvePlainTag } from './scalar.ts';

export function reencodeStyles(root: YNode): void {
  const rec = (n: YNode, isKey: boolean): void => {
    if (n.kind === 'mapping' || n.kind === 'sequence') {
      if (n.style === 'flow') n.style = '';
      n.content.forEach((c, i) => rec(c, n.kind === 'mapping' && i % 2 === 0));
      return;
    }
    if (n.kind === 'document') {
      n.content.forEach((c) => rec(c, false));
      return;
    }
    if (n.kind !== 'scalar') return;
    n.tagged = false;
    if (n.tag !== '!!str') {
      // Non-strings are re-emitted in their canonical plain form by the encoder.
      if (n.style !== '') n.style = '';
      return;
    }
    if (n.value.includes('\n') && !isKey) {
      n.style = 'literal';
      return;
    }
    n.style = needsQuotes(n.value) ? 'double' : '';
  };
  rec(root, false);
}

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
