import { describe, expect, it } from 'vitest';
import { runCli } from '../harness/golden.ts';

const LIST = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: a # keep
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: function-input
  data:
    namespace: x
`;

describe('krmfn run IMAGE (a function as its container would run it)', () => {
  it('reads a ResourceList on stdin and writes the output ResourceList on stdout', async () => {
    const r = await runCli(['run', 'gcr.io/kpt-fn/set-namespace:v0.4.1'], { cwd: process.cwd(), stdin: LIST });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('    name: a # keep\n    namespace: x\n');
    expect(r.stdout).toContain('results:\n- message: namespace "" updated to "x", 1 value(s) changed');
  });

  it('exits with the function exit code and its stderr', async () => {
    const bad = LIST.replace('namespace: x', 'bogus: y');
    const r = await runCli(['run', 'gcr.io/kpt-fn/set-namespace:v0.4.1'], { cwd: process.cwd(), stdin: bad });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('severity: error');
  });

  it('fails clearly for an image nothing runs', async () => {
    const r = await runCli(['run', 'example.com/none:v1'], { cwd: process.cwd(), stdin: LIST });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: function "example.com\/none:v1" is not built into krmfn/);
  });
});
