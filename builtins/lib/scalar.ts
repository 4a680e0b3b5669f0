/**
 * Writing a new text into an existing scalar the way kyaml-based functions do
 * (`node.Value = v; node.Tag = ""`): the quote style is kept, the tag is re-inferred from the
 * text (a plain `3` reads as an int again), and an empty plain value is written `""`.
 */
import type { YNode } from '../../src/core/yaml/node.ts';

/** The tag YAML (go-yaml v3's resolver) gives an untagged plain scalar with this text. */
export function resolvePlainTag(text: string): string {
  if (text === '' || text === '~' || /^(null|Null|NULL)$/.test(text)) return '!!null';
  if (/^(true|True|TRUE|false|False|FALSE)$/.test(text)) return '!!bool';
  if (
    /^[-+]?(0|[1-9][0-9_]*)$/.test(text) ||
    /^0x[0-9a-fA-F_]+$/.test(text) ||
    /^0o?[0-7_]+$/.test(text) ||
    /^0b[01_]+$/.test(text)
  ) {
    return '!!int';
  }
  if (
    /^[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?$/.test(text) ||
    /^[-+]?\.(inf|Inf|INF)$/.test(text) ||
    /^\.(nan|NaN|NAN)$/.test(text)
  ) {
    return '!!float';
  }
  return '!!str';
}

/** Replaces a scalar's text in place, keeping its comments and quote style. */
export function setScalarText(node: YNode, text: string): void {
  node.value = text;
  node.tagged = false;
  if (node.style === '' || node.style === 'literal' || node.style === 'folded') {
    if (text === '') {
      node.style = 'double';
      node.tag = '!!str';
    } else {
      node.tag = node.style === '' ? resolvePlainTag(text) : '!!str';
    }
  } else {
    node.tag = '!!str';
  }
}
