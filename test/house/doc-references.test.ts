/**
 * Comments and docs cite only documents the repository holds (docs/architecture.md): every `*.md`
 * path named in source code, scripts and docs must be a file of the repo (from the root or from the
 * citing file's folder), and a cited section (a doc path followed by a quoted heading) must be a heading of that
 * file. A line that names an upstream repository (owner/name of a public project) cites upstream and
 * is not checked.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

const UPSTREAM =
  /\b(kptdev|GoogleContainerTools|kubernetes-sigs|kubernetes|google|golang|qri-io|nephio-project|bjorn3|eemeli|justjake|go-yaml|yaml|monochromegane|grpc|opencontainers|distribution)\/[\w.-]+/;

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
}

const tracked = new Set(trackedFiles());

/** The files whose text is checked: code, scripts and the repo's own docs (not test data). */
const checked = [...tracked].filter(
  (f) =>
    /\.(ts|mts|mjs|js|sh|md)$/.test(f) &&
    !f.includes('/testdata/') &&
    !f.startsWith('test/e2e/cases/') &&
    !f.startsWith('test/builtins/') &&
    !f.startsWith('node_modules/') &&
    existsSync(join(ROOT, f)),
);

function headingsOf(doc: string): Set<string> {
  const text = readFileSync(join(ROOT, doc), 'utf8');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((m) => m[1]));
}

const MD_PATH = /(?<![\w/.@-])((?:\.{1,2}\/)?(?:[\w.-]+\/)*[\w.-]+\.md)\b(?:((?:,\s*"[^"]+")+))?/g;

interface Dangling {
  file: string;
  line: number;
  ref: string;
}

function scan(): { refs: number; dangling: Dangling[] } {
  const dangling: Dangling[] = [];
  let refs = 0;
  for (const file of checked) {
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    lines.forEach((text, i) => {
      if (UPSTREAM.test(text) || /https?:\/\//.test(text)) return;
      for (const m of text.matchAll(MD_PATH)) {
        const path = m[1];
        if (path.includes('*') || path.startsWith('.expected')) continue;
        refs++;
        const candidates = [normalize(path), normalize(join(dirname(file), path))].map((p) => p.replaceAll('\\', '/'));
        const target = candidates.find((p) => tracked.has(p));
        if (!target) {
          dangling.push({ file, line: i + 1, ref: path });
          continue;
        }
        for (const h of (m[2] ?? '').matchAll(/"([^"]+)"/g)) {
          if (!headingsOf(target).has(h[1])) dangling.push({ file, line: i + 1, ref: `${path}, "${h[1]}"` });
        }
      }
      if (/\b[\w-]+\.md\s*§/.test(text) && !/docs\//.test(text)) {
        dangling.push({ file, line: i + 1, ref: text.trim() });
      }
    });
  }
  return { refs, dangling };
}

describe('document references', () => {
  const { refs, dangling } = scan();

  it('finds the references', () => {
    expect(refs).toBeGreaterThan(100);
  });

  it('every cited document and section is in the repository', () => {
    expect(dangling.map((d) => `${d.file}:${d.line}: ${d.ref}`)).toEqual([]);
  });
});
