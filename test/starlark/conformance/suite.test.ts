// Runs every chunk of every .star file in test/starlark/suite through the harness (the same code
// path as `krmfn starlark test`). One vitest case per chunk; listed known failures are reported
// but do not fail the run (see known-failures.json).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTestFile, formatChunk } from '../../../src/starlark/testing/index.ts';
import { REPO, knownFailures, readRepoFile, suiteFiles, suitePath } from './suite-files.ts';

const known = knownFailures();

for (const name of suiteFiles()) {
  const path = suitePath(name);
  const outcome = runTestFile(path, readFileSync(join(REPO, path), 'utf8'), {
    readFile: readRepoFile,
    knownFailures: known,
  });
  describe(name, () => {
    for (const c of outcome.chunks) {
      it(`${c.chunk.startLine}: ${c.title}`, () => {
        if (c.status === 'known-failure' || c.status === 'fixed') console.log(formatChunk(c));
        expect(c.status === 'fail' ? formatChunk(c) : '').toBe('');
      });
    }
  });
}

describe('suite hygiene', () => {
  it('every chunk has a title, unique within its file, and loads what it uses', () => {
    const problems: string[] = [];
    for (const name of suiteFiles()) {
      const outcome = runTestFile(suitePath(name), readFileSync(join(REPO, suitePath(name)), 'utf8'), {
        readFile: readRepoFile,
      });
      const seen = new Set<string>();
      for (const c of outcome.chunks) {
        if (c.title === '') problems.push(`${name}:${c.chunk.startLine}: chunk without a title comment`);
        if (seen.has(c.title)) problems.push(`${name}:${c.chunk.startLine}: duplicate title ${c.title}`);
        seen.add(c.title);
        if (
          /\bassert\.(eq|ne|true|lt|contains|fails|fail)\(/.test(c.chunk.text) &&
          !/load\("assert\.star"/.test(c.chunk.text)
        ) {
          problems.push(`${name}:${c.chunk.startLine}: uses assert without loading it`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
  it('every known failure names an existing chunk', () => {
    const titles = new Set<string>();
    for (const name of suiteFiles()) {
      const outcome = runTestFile(suitePath(name), readFileSync(join(REPO, suitePath(name)), 'utf8'), {
        readFile: readRepoFile,
      });
      for (const c of outcome.chunks) titles.add(`${name}: ${c.title}`);
    }
    expect([...known.keys()].filter((k) => !titles.has(k))).toEqual([]);
  });
});

describe('suite coverage', () => {
  const text = suiteFiles()
    .map((f) => readFileSync(join(REPO, suitePath(f)), 'utf8'))
    .join('\n');
  it('calls every builtin of the universe and every method of every built-in type', async () => {
    const { UNIVERSE, execFile } = await import('../../../src/starlark/index.ts');
    const names = Object.keys(UNIVERSE).filter((n) => !['None', 'True', 'False'].includes(n));
    const missing = names.filter((n) => !new RegExp(`(^|[^.\\w])${n}\\(`, 'm').test(text));
    const { globals } = execFile({
      filename: 'dir.star',
      source: 'methods = {"string": dir(""), "bytes": dir(b""), "list": dir([]), "dict": dir({}), "set": dir(set())}\n',
      dialect: { set: true },
    });
    const methods = globals['methods'] as unknown as { entries(): [string, { elems: string[] }][] };
    for (const [type, list] of methods.entries()) {
      for (const m of list.elems) if (!new RegExp(`\\.${m}\\(`).test(text)) missing.push(`${type}.${m}`);
    }
    expect(missing).toEqual([]);
  });
  it('exercises every dialect option', () => {
    for (const o of ['set', 'while', 'toplevelcontrol', 'globalreassign', 'loadbindsglobally', 'recursion']) {
      expect(text.includes(`option:${o}`), o).toBe(true);
    }
  });
});
