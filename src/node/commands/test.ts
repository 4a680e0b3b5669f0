/**
 * `krmfn test [DIR] [--entry FILE] [--update]`: runs a function project's golden cases with no
 * test framework: bundles the entry (default src/fn.ts) with `krmfn build --target module` into a
 * temp file, imports it and runs `goldenTests` over DIR/testdata. Prints one line per case and
 * the diff of each failure (coloured on a terminal unless NO_COLOR); exit code 1 when any case
 * fails. A case checks the output ResourceList (`_expected.yaml`, results included) and the exit
 * code and stderr (`_expected_status.yaml`; absent means exit code 0 and no stderr): console output
 * first, then the function's log, as the exec build prints them, except that an exception is
 * recorded by its message without the stack. `--update` (or `WRITE_GOLDEN_OUTPUT=1`) rewrites both
 * from the actual run.
 */
import { existsSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { isKrmFunction } from '../../../sdk/define.ts';
import { goldenTests } from '../../../sdk/testing.ts';
import { nodeFixtures, withConsoleOnStderr } from '../sdk.ts';
import { write, type CliIO } from '../io.ts';
import { bool, parseFlags, str } from '../cli-flags.ts';
import { testSpec } from './specs/test.ts';
import { buildFunction } from '../bundle-function.ts';

/** Runs `call` with console.* captured as an exec build prints it on stderr (src/node/sdk.ts). */
async function captureConsole<T>(call: () => Promise<T>): Promise<{ value: T; output: string }> {
  let output = '';
  const sink = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      output += chunk.toString();
      done();
    },
  });
  const value = await withConsoleOnStderr(sink, call);
  return { value, output };
}

/** Colours a unified diff's added and removed lines (ANSI), for terminals. */
function colourDiff(diff: string): string {
  return diff
    .split('\n')
    .map((l) =>
      l.startsWith('+++') || l.startsWith('---')
        ? `\x1b[1m${l}\x1b[0m`
        : l.startsWith('+')
          ? `\x1b[32m${l}\x1b[0m`
          : l.startsWith('-')
            ? `\x1b[31m${l}\x1b[0m`
            : l.startsWith('@@')
              ? `\x1b[36m${l}\x1b[0m`
              : l,
    )
    .join('\n');
}

export async function runTest(args: string[], io: CliIO): Promise<number> {
  const parsed = parseFlags(args, testSpec.flags);
  const values = { entry: str(parsed, 'entry'), update: bool(parsed, 'update') };
  const root = nodePath.resolve(io.cwd, parsed.positional[0] ?? '.');
  const entry = nodePath.resolve(root, values.entry ?? 'src/fn.ts');
  const testdata = nodePath.join(root, 'testdata');
  if (!existsSync(entry)) {
    await write(io.stderr, `error: entry ${entry} does not exist\n`);
    return 1;
  }
  if (!existsSync(testdata)) {
    await write(io.stderr, `error: no testdata/ directory in ${root}\n`);
    return 1;
  }
  const tmp = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'krmfn-test-'));
  try {
    const out = nodePath.join(tmp, 'fn.module.mjs');
    await buildFunction({ entry, out, target: 'module' });
    const mod = (await import(pathToFileURL(out).href)) as { default?: unknown };
    if (!isKrmFunction(mod.default)) {
      await write(
        io.stderr,
        `error: ${entry} must default-export a function made with defineMutator/defineValidator/defineGenerator\n`,
      );
      return 1;
    }
    const fn = mod.default;
    const fixtures = nodeFixtures(testdata);
    const update = values.update === true || io.env['WRITE_GOLDEN_OUTPUT'] === '1';
    const cases = await goldenTests(fn, {
      dir: fixtures.dir,
      fs: fixtures.fs,
      update,
      // An exception is recorded by its message: its stack names this run's temp file and lines.
      run: { logStack: false },
      captureOutput: captureConsole,
    });
    const colour =
      (io.stdout as { isTTY?: boolean }).isTTY === true && !io.env['NO_COLOR'] && io.env['TERM'] !== 'dumb';
    let failed = 0;
    for (const c of cases) {
      const r = await c.run();
      if (r.ok) await write(io.stdout, `ok    ${c.name}${update ? ' (updated)' : ''}\n`);
      else {
        failed++;
        await write(io.stdout, `FAIL  ${c.name}\n${colour ? colourDiff(r.diff) : r.diff}\n`);
      }
    }
    await write(io.stdout, `\n${cases.length - failed} passed, ${failed} failed\n`);
    return failed > 0 || cases.length === 0 ? 1 : 0;
  } catch (e) {
    await write(io.stderr, `error: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  } finally {
    await fsp.rm(tmp, { recursive: true, force: true });
  }
}
