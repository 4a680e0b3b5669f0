// The environment of exec functions follows kpt v1.0.0-beta.56 (kptdev/kpt
// internal/fnruntime/exec.go: `ExecFn.Env` is never set for exec functions, so Go's exec.Cmd
// inherits the whole environment of kpt). WASM modules get none (test/wasm/runtime.test.ts).
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCli } from '../harness/golden.ts';

let tmp: string;
beforeAll(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-env-'));
  await fsp.writeFile(
    path.join(tmp, 'Kptfile'),
    'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: env\npipeline:\n  mutators:\n    - exec: ./fn.sh\n',
  );
  await fsp.writeFile(
    path.join(tmp, 'cm.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  seen: none\n',
  );
  await fsp.writeFile(path.join(tmp, 'fn.sh'), '#!/bin/sh\nexec sed "s/seen: none/seen: \'$KRMFN_TEST_VALUE\'/"\n', {
    mode: 0o755,
  });
});
afterAll(() => fsp.rm(tmp, { recursive: true, force: true }));

test('an exec function inherits the environment krmfn runs with, as in kpt', async () => {
  const r = await runCli(['render', '.', '--allow-exec'], { cwd: tmp, env: { KRMFN_TEST_VALUE: 'from-host' } });
  expect(r.exitCode).toBe(0);
  expect(await fsp.readFile(path.join(tmp, 'cm.yaml'), 'utf8')).toContain("seen: 'from-host'\n");
});
