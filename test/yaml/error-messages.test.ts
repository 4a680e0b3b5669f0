/**
 * go-yaml's syntax errors, case by case (test/yaml/error-messages.cases.json: inputs with the
 * error text, or "ok", that kyaml v0.15.0's go-yaml fork produced for them as an oracle). Every
 * case goes through parseYamlFile; a few go through the built CLI, which frames the text as kpt
 * v1.0.0-beta.56 prints it: `Error: <absolute path>: MalformedYAMLError: yaml: line N: ...`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseYamlFile } from '../../src/core/yaml/index.ts';
import { ensureBuilt } from '../harness/built-cli.ts';

interface Case {
  input: string;
  expected: string;
}

const table = JSON.parse(readFileSync(path.join(import.meta.dirname, 'error-messages.cases.json'), 'utf8')) as {
  cases: Case[];
};

function outcome(input: string): string {
  try {
    parseYamlFile(input, { file: 'case.yaml' });
    return 'ok';
  } catch (e) {
    return (e as Error).message;
  }
}

describe("go-yaml's syntax error messages and lines", () => {
  it('covers every message of go-yaml v3.0.1 scanner, parser and reader that a text can produce', () => {
    const problems = new Set(table.cases.map((c) => c.expected.replace(/^yaml: (?:line \d+: )?/, '')));
    for (const p of [
      'block sequence entries are not allowed in this context',
      'control characters are not allowed',
      "could not find expected ':'",
      'could not find expected directive name',
      'did not find URI escaped octet',
      "did not find expected '!'",
      "did not find expected ',' or ']'",
      "did not find expected ',' or '}'",
      "did not find expected '-' indicator",
      'did not find expected <document start>',
      'did not find expected alphabetic or numeric character',
      'did not find expected comment or line break',
      "did not find expected digit or '.' character",
      'did not find expected hexdecimal number',
      'did not find expected key',
      'did not find expected node content',
      'did not find expected tag URI',
      'did not find expected version number',
      'did not find expected whitespace',
      'did not find expected whitespace or line break',
      "did not find the expected '>'",
      'found a tab character that violates indentation',
      'found a tab character where an indentation space is expected',
      'found an incorrect leading UTF-8 octet',
      'found an incorrect trailing UTF-8 octet',
      'found an indentation indicator equal to 0',
      'found character that cannot start any token',
      'found duplicate %TAG directive',
      'found duplicate %YAML directive',
      'found extremely long version number',
      'found incompatible YAML document',
      'found invalid Unicode character escape code',
      'found undefined tag handle',
      'found unexpected document indicator',
      'found unexpected end of stream',
      'found unexpected non-alphabetical character',
      'found unknown directive name',
      'found unknown escape character',
      'mapping keys are not allowed in this context',
      'mapping values are not allowed in this context',
      'ok',
    ]) {
      expect(problems, p).toContain(p);
    }
  });

  for (const [i, c] of table.cases.entries()) {
    it(`#${i} ${JSON.stringify(c.input).slice(0, 60)} → ${c.expected}`, () => {
      expect(outcome(c.input)).toBe(c.expected);
    });
  }
});

describe('the CLI frames them as kpt does', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'krmfn-yaml-errors-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const repo = path.resolve(import.meta.dirname, '../..');
  const head = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n';
  const CLI: readonly (readonly [string, string | Uint8Array, string])[] = [
    ['indentless', `${head}data:\n  x: 1\n- y\n`, 'yaml: line 6: did not find expected key'],
    ['tab', `${head}data:\n\tx: 1\n`, 'yaml: line 6: found character that cannot start any token'],
    ['directive', `${head}---\n%YAML 1.1\n`, 'yaml: line 1: did not find expected <document start>'],
    ['control', `${head}data:\n  x: "\u0001"\n`, 'yaml: control characters are not allowed'],
    [
      'utf8',
      new Uint8Array([...new TextEncoder().encode(`${head}data:\n  x: "`), 0xff, 0x22, 0x0a]),
      'yaml: invalid leading UTF-8 octet',
    ],
  ];
  for (const [name, content, message] of CLI) {
    it(`${name}: Error: <path>: MalformedYAMLError: ${message}`, () => {
      ensureBuilt();
      const pkg = path.join(dir, name);
      rmSync(pkg, { recursive: true, force: true });
      mkdirSync(pkg, { recursive: true });
      writeFileSync(path.join(pkg, 'Kptfile'), 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: p\n');
      writeFileSync(path.join(pkg, 'b.yaml'), content);
      const r = spawnSync(process.execPath, [path.join(repo, 'bin/krmfn.mjs'), 'fn', 'render', pkg], {
        encoding: 'utf8',
      });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`Error: ${path.join(pkg, 'b.yaml')}: MalformedYAMLError: ${message} \n`);
    });
  }
});
