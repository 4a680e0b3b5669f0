#!/usr/bin/env node
/**
 * Counts the catalog built-ins' checked cases for the fidelity closing note (docs/catalog.md,
 * "Golden cases"): golden packages per function and per image tag (the tag the case's Kptfile or
 * `.expected/config.yaml` names, else its folder prefix), and the differential test files under
 * test/builtins/<fn>/ with their number of `it(` / `it.each(` blocks (an `it.each` table counts
 * its rows). Prints a Markdown table; `--json` prints the counts as JSON.
 *
 *   node scripts/catalog-case-counts.mjs [--json]
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', 'test', 'builtins');

/** The image tag a golden case runs: Kptfile pipeline image, eval config image, or folder prefix. */
function caseTag(dir, name) {
  const texts = [join(dir, 'Kptfile'), join(dir, '.expected', 'config.yaml')]
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f, 'utf8'));
  for (const text of texts) {
    const m = /image:\s*["']?[^\s"']*?:([\w.-]+?)(?:@sha256:\w+)?["']?\s*$/m.exec(text);
    if (m) return m[1];
  }
  const prefix = /^(?:eval-)?(v\d+(?:\.\d+){0,2}|latest|unstable)-/.exec(name);
  return prefix ? prefix[1] : 'untagged';
}

/** `it(` blocks plus the rows of `it.each(NAME)` tables declared in the same file. */
function countTests(text) {
  let n = (text.match(/\bit\(/g) ?? []).length;
  for (const m of text.matchAll(/\bit\.each\((\w+)\)/g)) {
    const table = new RegExp(`const ${m[1]}[^=]*=\\s*\\[([\\s\\S]*?)\\n\\];`).exec(text);
    n += table ? (table[1].match(/^\s*\[/gm) ?? []).length : 1;
  }
  return n;
}

const report = {};
for (const fn of readdirSync(ROOT).sort()) {
  const fnDir = join(ROOT, fn);
  if (!statSync(fnDir).isDirectory()) continue;
  const entry = { golden: {}, differential: {} };
  for (const name of readdirSync(fnDir).sort()) {
    const p = join(fnDir, name);
    if (statSync(p).isDirectory() && existsSync(join(p, '.expected'))) {
      const tag = caseTag(p, name);
      entry.golden[tag] = (entry.golden[tag] ?? 0) + 1;
    } else if (name.endsWith('.test.ts') && name !== 'golden.test.ts') {
      entry.differential[name] = countTests(readFileSync(p, 'utf8'));
    }
  }
  report[fn] = entry;
}

if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} else {
  const lines = ['| Function | Golden cases per tag | Differential tests (file: count) |', '|---|---|---|'];
  for (const [fn, { golden, differential }] of Object.entries(report)) {
    const tags = Object.entries(golden)
      .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
      .map(([t, n]) => `${t} ${n}`)
      .join(', ');
    const diffs = Object.entries(differential)
      .map(([f, n]) => `${f}: ${n}`)
      .join(', ');
    lines.push(`| ${fn} | ${tags || '—'} | ${diffs || '—'} |`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
