/**
 * `.krmignore` with kyaml's go-gitignore semantics. Every expected file list below was recorded
 * from real kpt v1.0.0-beta.56 (`kpt fn source .` on this tree with each `.krmignore`, reading the
 * `config.kubernetes.io/path` annotations), then checked here through krmfn's package walk.
 */
import { describe, expect, it } from 'vitest';
import { MemoryFs } from '../../src/core/memory-fs.ts';
import { isKrmfnError } from '../../src/core/errors.ts';
import { parseKrmignore } from '../../src/engine/krmignore.ts';
import { scanPackage } from '../../src/engine/read.ts';

const LONG = `${'a'.repeat(60)}.yaml`;
const FILES = [
  '#x.yaml',
  '.expected/e.yaml',
  'a.yaml',
  LONG,
  'b.yaml',
  'docs/a/b/gen.yaml',
  'docs/a/gen.yaml',
  'docs/gen.yaml',
  'keep.tmp.yaml',
  'out/o.yaml',
  'root-only.yaml',
  'sub/a.yaml',
  'sub/c.yaml',
  'sub/deep/a.yaml',
  'sub/root-only.yaml',
  'x.tmp.yaml',
  'x/sub/a.yaml',
  'za.yaml',
];

async function readFiles(krmignore: string): Promise<string[]> {
  const tree: Record<string, string> = {
    '/pkg/Kptfile': 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n',
    '/pkg/.krmignore': krmignore,
  };
  for (const f of FILES) tree[`/pkg/${f}`] = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n';
  const scan = await scanPackage(new MemoryFs(tree), '/pkg', true);
  return scan.files.filter((f) => f !== 'Kptfile').sort();
}

const without = (...ignored: string[]): string[] => FILES.filter((f) => !ignored.includes(f)).sort();

describe('.krmignore matches what kpt reads', () => {
  const cases: Array<[string, string, string[]]> = [
    [
      'comments, dir-only, root-anchored, accept patterns; ** is one segment',
      '# comment\n.expected\nout/\n/root-only.yaml\n*.tmp.yaml\n!keep.tmp.yaml\ndocs/**/gen.yaml\n',
      without('.expected/e.yaml', 'out/o.yaml', 'root-only.yaml', 'x.tmp.yaml', 'docs/a/gen.yaml'),
    ],
    ['a pattern with a slash matches the path suffix', 'sub/a.yaml\n', without('sub/a.yaml', 'x/sub/a.yaml')],
    [
      'a leading slash anchors to the package root',
      '/sub\n',
      without('sub/a.yaml', 'sub/c.yaml', 'sub/deep/a.yaml', 'sub/root-only.yaml'),
    ],
    ['anchored multi-segment patterns', '/sub/c.yaml\n/x/sub\n', without('sub/c.yaml', 'x/sub/a.yaml')],
    ['an empty range and a long wildcard chain match nothing', '[z-a].yaml\n*a*a*a*a*a*a*a*a*c\n', without()],
    ['an accept pattern wins whatever its line', 'a.yaml\n!sub/a.yaml\n', without('a.yaml', 'sub/deep/a.yaml')],
    ['spaces are trimmed and \\# escapes a hash', '  b.yaml  \n\\#x.yaml\n', without('b.yaml', '#x.yaml')],
    [
      'a bare name or dir/ matches directories at any depth',
      'deep\nsub/\n',
      without('sub/a.yaml', 'sub/c.yaml', 'sub/deep/a.yaml', 'sub/root-only.yaml', 'x/sub/a.yaml'),
    ],
    [
      'malformed classes match nothing; accept patterns re-admit',
      '[z-a]*\n[\n*.yaml\n!a*.yaml\n',
      ['a.yaml', LONG, 'sub/a.yaml', 'sub/deep/a.yaml', 'x/sub/a.yaml'].sort(),
    ],
    ['* stays inside one segment', 'docs/*/gen.yaml\n', without('docs/a/gen.yaml')],
    [
      'dir/* matches the last two segments',
      'sub/*\n',
      without('sub/a.yaml', 'sub/c.yaml', 'sub/deep/a.yaml', 'sub/root-only.yaml', 'x/sub/a.yaml'),
    ],
  ];
  for (const [name, krmignore, want] of cases) {
    it(name, async () => expect(await readFiles(krmignore)).toEqual(want));
  }
});

describe('.krmignore edge cases', () => {
  it('finishes pathological wildcard chains on long names', () => {
    const m = parseKrmignore(`${'*a'.repeat(30)}*c\n${'?*'.repeat(40)}x\n`);
    expect(m.ignores('a'.repeat(5_000), false)).toBe(false);
    expect(m.ignores(`${'a'.repeat(5_000)}c`, false)).toBe(true);
  });

  it('a lone "!" is a clear error naming the line (kpt panics)', () => {
    try {
      parseKrmignore('a.yaml\n!\n', 'pkg/.krmignore');
      expect.unreachable();
    } catch (e) {
      expect(isKrmfnError(e)).toBe(true);
      expect(e).toMatchObject({ file: 'pkg/.krmignore', line: 2 });
      expect((e as Error).message).toContain('pkg/.krmignore:2');
    }
  });

  it('CRLF line ends are dropped', () => {
    const m = parseKrmignore('a.yaml\r\nb.yaml\r\n');
    expect(m.ignores('a.yaml', false)).toBe(true);
    expect(m.ignores('b.yaml', false)).toBe(true);
  });

  it('stops reading at a line of 64 KiB or more, as bufio.Scanner does', () => {
    const m = parseKrmignore(`a.yaml\n${'x'.repeat(64 * 1024)}\nb.yaml\n`);
    expect(m.ignores('a.yaml', false)).toBe(true);
    expect(m.ignores('b.yaml', false)).toBe(false);
  });
});
