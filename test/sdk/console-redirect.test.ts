/**
 * runCli sends console.* to stderr while the function runs, formatted as Node's console formats
 * it: an Error prints its message and stack (not `{}`), objects are inspected, `%d` substitutes.
 */
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { defineMutator } from '../../sdk/index.ts';
import { runCli } from '../../src/node/sdk.ts';

const LIST = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: a
`;

async function stderrOf(run: () => void): Promise<{ code: number; stdout: string; stderr: string }> {
  const fn = defineMutator({ name: 'chatty', run });
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await runCli(fn, [], { stdin: Readable.from([LIST]), stdout, stderr, env: {}, cwd: '/' });
  return { code, stdout: out, stderr: err };
}

describe('console redirect', () => {
  it('prints an Error with its message and stack', async () => {
    const r = await stderrOf(() => {
      console.error(new Error('disk on fire'));
      console.warn('context:', new TypeError('bad type'));
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^Error: disk on fire\n {4}at /m);
    expect(r.stderr).toMatch(/^context: TypeError: bad type\n {4}at /m);
    expect(r.stderr).not.toContain('{}');
    expect(r.stdout).not.toContain('disk on fire');
  });

  it('formats like Node: substitutions, inspected objects, cycles', async () => {
    const r = await stderrOf(() => {
      const cyclic: Record<string, unknown> = { name: 'loop' };
      cyclic.self = cyclic;
      console.log('%d items in %s', 3, 'ns');
      console.info({ a: [1, 2], b: 'x' });
      console.debug(cyclic);
      console.log(undefined, null, 10n);
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('3 items in ns\n');
    expect(r.stderr).toContain("{ a: [ 1, 2 ], b: 'x' }\n");
    expect(r.stderr).toContain("<ref *1> { name: 'loop', self: [Circular *1] }\n");
    expect(r.stderr).toContain('undefined null 10n\n');
  });

  it('prints console.trace with a Trace: header and the stack', async () => {
    const r = await stderrOf(() => console.trace('here %s', 'now'));
    expect(r.stderr).toMatch(/^Trace: here now\n {4}at /m);
  });
});
