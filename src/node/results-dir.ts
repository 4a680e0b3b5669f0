/**
 * `--results-dir`: made before anything runs, as kpt's preRunE does (kptdev/kpt
 * commands/fn/render/cmdrender.go and thirdparty/cmdconfig/commands/cmdeval/cmdeval.go at
 * v1.0.0-beta.56): `error: cannot read or create results dir "file/sub": mkdir file: not a directory`.
 */
import { mkdirAll } from './mkdir-all.ts';

/** Makes the directory; returns kpt's error text when it cannot be made. */
export async function prepareResultsDir(dir: string, cwd: string): Promise<string | undefined> {
  try {
    await mkdirAll(dir, cwd);
    return undefined;
  } catch (e) {
    return `cannot read or create results dir ${JSON.stringify(dir)}: ${(e as Error).message}`;
  }
}
