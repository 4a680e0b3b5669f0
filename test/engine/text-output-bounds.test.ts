/**
 * Bounded CLI text (src/engine/text-output.ts): blocks are cut before quoting and never exceed
 * MAX_BLOCK_CHARS of source text. The 300,000-line case was recorded from real kpt v1.0.0-beta.56
 * (an exec function writing `line "q"` 300,000 times to stderr).
 */
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  formatEvent,
  formatFailure,
  formatResultsBlock,
  formatStderrBlock,
  MAX_BLOCK_CHARS,
} from '../../src/engine/text-output.ts';
import { KrmfnError } from '../../src/core/errors.ts';
import { ensureBuilt } from '../harness/built-cli.ts';

const truncating = { truncate: true, color: false };
const full = { truncate: false, color: false };

describe('Stderr and Results blocks', () => {
  it('shows 4 quoted lines and counts the rest, as kpt does', () => {
    const stderr = 'line "q"\n'.repeat(300_000);
    expect(formatStderrBlock(stderr, truncating)).toBe(
      '  Stderr:\n' +
        '    "line \\"q\\""\n'.repeat(4) +
        "    ...(299997 line(s) truncated, use '--truncate-output=false' to disable)\n",
    );
  });

  it('cuts one enormous line to the block bound with a note', () => {
    const out = formatStderrBlock('x'.repeat(MAX_BLOCK_CHARS * 3), truncating);
    expect(out.length).toBeLessThan(MAX_BLOCK_CHARS + 200);
    expect(out).toMatch(
      /\.\.\.\(output truncated: krmfn shows at most 1048576 characters per block; 0 more line\(s\) not shown\)\n$/,
    );
  });

  it('bounds --truncate-output=false too', () => {
    const stderr = `${'y'.repeat(99)}\n`.repeat(100_000);
    const out = formatStderrBlock(stderr, full);
    // 1 MiB of source text, plus 4 spaces, 2 quotes and a newline per 99-character line.
    expect(out.length).toBeLessThan(MAX_BLOCK_CHARS * 1.08);
    expect(out).toMatch(/more line\(s\) not shown\)\n$/);
    expect(out.split('\n').length).toBeGreaterThan(10_000);
  });

  it('reads only the shown results', () => {
    const results = Array.from({ length: 200_000 }, (_, i) => ({ message: `r${i}` }));
    expect(formatResultsBlock(results, truncating)).toBe(
      '  Results:\n    [info]: r0\n    [info]: r1\n    [info]: r2\n    [info]: r3\n' +
        "    ...(199996 line(s) truncated, use '--truncate-output=false' to disable)\n",
    );
  });

  it('caps messages and error lines', () => {
    const huge = 'm'.repeat(MAX_BLOCK_CHARS * 2);
    const msg = formatEvent({ type: 'message', message: huge }, truncating, 'render');
    expect(msg.length).toBeLessThan(MAX_BLOCK_CHARS + 200);
    expect(msg).toContain(`...(output truncated: ${MAX_BLOCK_CHARS} more character(s) not shown)`);
    const err = formatFailure({
      style: 'plain',
      error: new KrmfnError({ code: 'function-failed', message: huge }),
    });
    expect(err.length).toBeLessThan(MAX_BLOCK_CHARS + 200);
  });
});

const repo = path.resolve(import.meta.dirname, '../..');

describe('krmfn render with a stderr flood (real process)', () => {
  beforeAll(() => {
    ensureBuilt();
  });

  it('prints kpt text for 3,000,000 stderr lines and succeeds', async () => {
    const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-flood-'));
    try {
      await fsp.writeFile(
        path.join(tmp, 'Kptfile'),
        'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: flood\npipeline:\n  mutators:\n' +
          `    - exec: sh -c "cat; yes 'line' | head -n 3000000 >&2"\n`,
      );
      await fsp.writeFile(path.join(tmp, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n');
      const r = spawnSync(process.execPath, [path.join(repo, 'bin/krmfn.mjs'), 'fn', 'render', '.', '--allow-exec'], {
        cwd: tmp,
        encoding: 'utf8',
        maxBuffer: 16 * 1024 * 1024,
      });
      expect(r.stderr).toContain(
        '  Stderr:\n' +
          '    "line"\n'.repeat(4) +
          "    ...(2999997 line(s) truncated, use '--truncate-output=false' to disable)\n",
      );
      expect(r.status).toBe(0);
    } finally {
      await fsp.rm(tmp, { recursive: true, force: true });
    }
  });
});
