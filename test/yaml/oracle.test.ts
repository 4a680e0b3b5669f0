/**
 * The `yaml` package as a differential oracle for our reader (src/core/yaml/parser.ts): every
 * golden input and YAML fuzz-corpus file is read piece by piece (as kyaml splits a file) by both,
 * and the data must agree. Both sides are compared in the failsafe view (every scalar as its
 * string value, aliases expanded), so the two libraries' different tag resolution (YAML 1.2 core
 * vs go-yaml's) is out of the comparison; structure, keys, scalar values after unescaping and
 * folding, and alias targets are in it. Inputs the `yaml` package refuses are skipped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, isAlias, isMap, isScalar, isSeq, type Document } from 'yaml';
import { DEFAULT_LIMITS } from '../../src/core/limits.ts';
import type { YNode } from '../../src/core/yaml/node.ts';
import { parsePiece } from '../../src/core/yaml/parser.ts';
import { normalizeNewlines, splitPieces } from '../../src/core/yaml/read.ts';

type Plain = string | null | Plain[] | { pairs: [Plain, Plain][] };

function ours(n: YNode | undefined): Plain {
  if (!n) return null;
  if (n.kind === 'alias') return ours(n.alias ?? undefined);
  if (n.kind === 'document') return ours(n.content[0]);
  if (n.kind === 'scalar') return n.tag === '!!null' && n.style === '' && !n.tagged ? null : n.value;
  if (n.kind === 'sequence') return n.content.map((c) => ours(c));
  const pairs: [Plain, Plain][] = [];
  for (let i = 0; i + 1 < n.content.length; i += 2) pairs.push([ours(n.content[i]), ours(n.content[i + 1])]);
  return { pairs };
}

function theirs(n: unknown, doc: Document): Plain {
  if (n === null || n === undefined) return null;
  if (isAlias(n)) return theirs(n.resolve(doc), doc);
  if (isScalar(n)) {
    const v = n.value;
    // Explicit tags still resolve in the failsafe view: `!!merge <<` and `!!binary` (base64 text).
    if (typeof v === 'symbol') return v.description ?? '';
    if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
    return v === null ? null : String(v);
  }
  if (isSeq(n)) return n.items.map((c) => theirs(c, doc));
  if (isMap(n)) return { pairs: n.items.map((p) => [theirs(p.key, doc), theirs(p.value, doc)] as [Plain, Plain]) };
  return null;
}

/** The failsafe reading of a null: go-yaml's `~`/`null` spellings are strings in failsafe. */
function nullsAsEmpty(p: Plain): Plain {
  if (p === null) return '';
  if (typeof p === 'string') return ['~', 'null', 'Null', 'NULL'].includes(p) ? '' : p;
  if (Array.isArray(p)) return p.map(nullsAsEmpty);
  return { pairs: p.pairs.map(([k, v]) => [nullsAsEmpty(k), nullsAsEmpty(v)] as [Plain, Plain]) };
}

function inputs(): [string, string][] {
  const out: [string, string][] = [];
  const cases = new URL('./cases/', import.meta.url).pathname;
  for (const f of readdirSync(cases)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    out.push([`cases/${f}`, readFileSync(cases + f, 'utf8')]);
  }
  const corpus = new URL('../fuzz/corpus/yaml/', import.meta.url).pathname;
  for (const f of readdirSync(corpus).sort()) out.push([`corpus/${f}`, readFileSync(corpus + f, 'utf8')]);
  return out;
}

describe('our reader agrees with the yaml package on the data', () => {
  for (const [name, text] of inputs()) {
    it(name, () => {
      let pieces;
      try {
        pieces = splitPieces(normalizeNewlines(text));
      } catch {
        return;
      }
      for (const piece of pieces) {
        if (piece.text.trim() === '') continue;
        const docs = parseAllDocuments(piece.text, { schema: 'failsafe', uniqueKeys: false, merge: false });
        const first = Array.isArray(docs) ? docs[0] : undefined;
        if (!first || first.errors.length > 0) continue;
        let mine: YNode | null;
        try {
          mine = parsePiece({ text: piece.text, firstLine: piece.firstLine, file: undefined, limits: DEFAULT_LIMITS });
        } catch {
          continue; // go-yaml refusals the yaml package accepts are covered by the error goldens
        }
        const want = nullsAsEmpty(theirs(first.contents, first));
        expect(mine === null ? '' : nullsAsEmpty(ours(mine))).toEqual(want);
      }
    });
  }
});
