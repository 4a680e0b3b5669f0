/**
 * `readResourceFiles` (src/engine/read.ts): many files read with a bounded number open at once
 * (one read per file at once failed with EMFILE on a 28,897-file package), results in the order
 * given, the first failure rejecting.
 */
import { describe, expect, it } from 'vitest';
import { MemoryFs } from '../../src/core/memory-fs.ts';
import { DEFAULT_LIMITS } from '../../src/core/limits.ts';
import { readResourceFiles } from '../../src/engine/read.ts';

/** A MemoryFs that answers each read a turn of the event loop later and records the reads in flight. */
class CountingFs extends MemoryFs {
  inFlight = 0;
  maxInFlight = 0;
  override async readFile(path: string): Promise<Uint8Array> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return await super.readFile(path);
    } finally {
      this.inFlight--;
    }
  }
}

const resource = (i: number): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\n`;

describe('readResourceFiles', () => {
  it('keeps at most 64 files open and answers in the order given', async () => {
    const files: Record<string, string> = {};
    const names: string[] = [];
    for (let i = 0; i < 300; i++) {
      names.push(`f-${i}.yaml`);
      files[`/pkg/f-${i}.yaml`] = resource(i);
    }
    const fs = new CountingFs(files);
    const reads = await readResourceFiles(fs, '/pkg', names, DEFAULT_LIMITS);
    expect(fs.maxInFlight).toBeGreaterThan(1);
    expect(fs.maxInFlight).toBeLessThanOrEqual(64);
    expect(reads.map((r) => r.items[0].name)).toEqual(names.map((_, i) => `cm-${i}`));
    expect(reads.map((r) => r.items[0].getAnnotation('internal.config.kubernetes.io/path'))).toEqual(names);
  });

  it('rejects with a read failure and starts no read after it', async () => {
    const files: Record<string, string> = {};
    const names: string[] = [];
    for (let i = 0; i < 200; i++) {
      names.push(`f-${i}.yaml`);
      if (i !== 3) files[`/pkg/f-${i}.yaml`] = resource(i);
    }
    const fs = new CountingFs(files);
    let started = 0;
    const read = fs.readFile.bind(fs);
    fs.readFile = (path: string) => {
      started++;
      return read(path);
    };
    await expect(readResourceFiles(fs, '/pkg', names, DEFAULT_LIMITS)).rejects.toThrow(
      '/pkg/f-3.yaml: open /pkg/f-3.yaml: no such file or directory',
    );
    expect(started).toBeLessThan(200);
  });
});
