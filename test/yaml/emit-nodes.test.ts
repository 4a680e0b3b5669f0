// The emitter on trees built in code (what functions produce): style fall-backs of §4.1–4.2,
// the resolver-driven quoting of new strings, tags, keys and comment slots.
import { describe, expect, it } from 'vitest';
import { emitYamlDocument, resolvePlainTag } from '../../src/core/yaml/index.ts';
import { documentNode, mappingNode, newNode, sequenceNode, strNode, type YNode } from '../../src/core/yaml/node.ts';

const doc = (...pairs: YNode[]): string => emitYamlDocument(documentNode(mappingNode(pairs)), 'compact');
const k = (s: string): YNode => strNode(s);

describe('emitting new nodes', () => {
  const cases: [string, YNode, string][] = [
    ['plain string', strNode('hello'), 'v: hello\n'],
    ['string that reads as bool', strNode('true'), 'v: "true"\n'],
    ['string that reads as int', strNode('123'), 'v: "123"\n'],
    ['string that reads as null', strNode('null'), 'v: "null"\n'],
    ['empty string', strNode(''), 'v: ""\n'],
    ['YAML 1.1 bool stays plain', strNode('yes'), 'v: yes\n'],
    ['timestamp-looking string', strNode('2001-12-14'), 'v: "2001-12-14"\n'],
    ['multi-line plain becomes literal', strNode('a\nb\n'), 'v: |\n  a\n  b\n'],
    ['multi-line without final newline', strNode('a\nb'), 'v: |-\n  a\n  b\n'],
    ['leading space', strNode(' x'), "v: ' x'\n"],
    ['colon space', strNode('a: b'), "v: 'a: b'\n"],
    ['hash after space', strNode('a #b'), "v: 'a #b'\n"],
    ['tab', strNode('a\tb'), 'v: "a\\tb"\n'],
    ['emoji', strNode('🎉'), 'v: "\\U0001F389"\n'],
    ['single style kept', strNode("it's", 'single'), "v: 'it''s'\n"],
    ['double style kept', strNode('x', 'double'), 'v: "x"\n'],
    ['int node', newNode('scalar', { tag: '!!int', value: '42' }), 'v: 42\n'],
    ['int tag on text that is not an int', newNode('scalar', { tag: '!!int', value: 'abc' }), 'v: !!int abc\n'],
    ['explicit tag', newNode('scalar', { tag: '!!str', value: '123', tagged: true }), 'v: !!str 123\n'],
    ['null node', newNode('scalar', { tag: '!!null', value: '' }), 'v:\n'],
    ['empty mapping', mappingNode([]), 'v: {}\n'],
    ['empty sequence', sequenceNode([]), 'v: []\n'],
    ['flow sequence', sequenceNode([strNode('a'), strNode('b c'), strNode('')], 'flow'), 'v: [a, b c, ""]\n'],
    ['null in a flow sequence', sequenceNode([newNode('scalar', { tag: '!!null' })], 'flow'), "v: ['']\n"],
    ['string that reads as a merge key', strNode('<<'), 'v: "<<"\n'],
  ];
  for (const [name, value, want] of cases) {
    it(name, () => expect(doc(k('v'), value)).toBe(want));
  }
  it('a "<<" string key stays a string key (fuzz finding)', () => {
    expect(doc(k('<<'), strNode(''))).toBe('"<<": ""\n');
  });

  it('block sequences follow the document style', () => {
    const seq = sequenceNode([
      strNode('a'),
      mappingNode([k('x'), strNode('1', 'double'), k('y'), strNode('2', 'double')]),
    ]);
    const root = mappingNode([k('list'), seq]);
    expect(emitYamlDocument(documentNode(root), 'compact')).toBe('list:\n- a\n- x: "1"\n  y: "2"\n');
    expect(emitYamlDocument(documentNode(root), 'wide')).toBe('list:\n  - a\n  - x: "1"\n    y: "2"\n');
  });

  it('comment slots', () => {
    const key = strNode('a');
    key.headComment = '# head\n\n# second';
    key.footComment = 'foot without hash';
    const value = strNode('1', 'double');
    value.lineComment = '# line';
    const root = mappingNode([key, value, k('b'), strNode('2', 'double')]);
    const d = documentNode(root);
    d.headComment = '# document';
    d.footComment = '# end';
    expect(emitYamlDocument(d, 'compact')).toBe(
      '# document\n\n# head\n\n# second\na: "1" # line\n# foot without hash\n\nb: "2"\n\n# end\n',
    );
  });

  it('long and multi-line keys use the explicit form', () => {
    expect(doc(k('k'.repeat(129)), strNode('v'))).toBe(`? ${'k'.repeat(129)}\n: v\n`);
    expect(doc(k('k'.repeat(128)), strNode('v'))).toBe(`${'k'.repeat(128)}: v\n`);
    expect(doc(strNode('a\nb', 'double'), strNode('v'))).toBe('? "a\\nb"\n: v\n');
    // A plain multi-line key (built in code) is a literal block in the explicit form.
    expect(doc(k('a\nb'), strNode('v'))).toBe('? |-\n  a\n  b\n: v\n');
  });

  it('anchors, aliases and merge keys', () => {
    const base = mappingNode([k('x'), newNode('scalar', { tag: '!!int', value: '1' })]);
    base.anchor = 'b';
    const alias = newNode('alias', { value: 'b', alias: base });
    const merge = newNode('scalar', { tag: '!!merge', value: '<<' });
    expect(doc(k('base'), base, k('m'), mappingNode([merge, alias]))).toBe('base: &b\n  x: 1\nm:\n  !!merge <<: *b\n');
  });
});

describe('resolvePlainTag', () => {
  const table: [string, string][] = [
    ['', '!!null'],
    ['~', '!!null'],
    ['null', '!!null'],
    ['Null', '!!null'],
    ['NULL', '!!null'],
    ['nULL', '!!str'],
    ['true', '!!bool'],
    ['False', '!!bool'],
    ['yes', '!!str'],
    ['on', '!!str'],
    ['y', '!!str'],
    ['0', '!!int'],
    ['-1', '!!int'],
    ['+1', '!!int'],
    ['0755', '!!int'],
    ['08', '!!float'],
    ['0x1F', '!!int'],
    ['0o17', '!!int'],
    ['0b101', '!!int'],
    ['1_000', '!!int'],
    ['9223372036854775807', '!!int'],
    ['18446744073709551615', '!!int'],
    ['18446744073709551616', '!!float'],
    ['-9223372036854775809', '!!float'],
    ['1.5', '!!float'],
    ['1e3', '!!float'],
    ['.5', '!!float'],
    ['1.', '!!float'],
    ['1e400', '!!str'],
    ['.inf', '!!float'],
    ['-.Inf', '!!float'],
    ['.nan', '!!float'],
    ['.x', '!!str'],
    ['2001-12-14', '!!timestamp'],
    ['2001-12-14T21:59:43.10Z', '!!timestamp'],
    ['2001-13-14', '!!str'],
    ['1:20', '!!str'],
    // Digit-led Kubernetes quantities and versions (a letter no number holds: a string at once).
    ['500m', '!!str'],
    ['128Mi', '!!str'],
    ['10Gi', '!!str'],
    ['0x1Fg', '!!str'],
    ['1.14.2', '!!str'],
    ['80', '!!int'],
    ['12345678901234567', '!!int'],
    ['123456789012345678', '!!int'],
    ['1_0_0', '!!int'],
    ['2001-12-14t21:59:43.10-05:00', '!!timestamp'],
    ['<<', '!!str'],
    ['-', '!!str'],
    ['abc', '!!str'],
  ];
  for (const [value, tag] of table) it(JSON.stringify(value), () => expect(resolvePlainTag(value)).toBe(tag));
});
