/**
 * The command table (src/node/commands/specs/) is the help: every command's `--help` matches its
 * golden text in test/cli/help/ (regenerate with KRMFN_UPDATE_GOLDEN=1), every flag a command's
 * implementation reads is declared in the table and shown in its help, every flag the help shows
 * is accepted, and the kpt group, `--version` and did-you-mean answer as documented.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, test } from 'vitest';
import { COMMANDS } from '../../src/node/commands/specs/index.ts';
import type { Command } from '../../src/node/commands/specs/types.ts';
import { DEFAULT_KPT_VERSION } from '../../src/core/kpt-version.ts';
import { runCli } from '../harness/golden.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const GOLDEN_DIR = path.join(import.meta.dirname, 'help');
const UPDATE = process.env.KRMFN_UPDATE_GOLDEN === '1';

/** Every command with the words that reach it (`starlark test`). */
const ALL: [string[], Command][] = COMMANDS.flatMap((c): [string[], Command][] => [
  [[c.name], c],
  ...(c.subcommands ?? []).map((s): [string[], Command] => [[c.name, s.name], s]),
]);

function checkGolden(name: string, actual: string): void {
  const file = path.join(GOLDEN_DIR, `${name}.txt`);
  if (UPDATE || !existsSync(file)) writeFileSync(file, actual);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

/** The flags a command's implementation reads: `str(p, 'x')`, `bool(p, 'x')`, `list(p, 'x')`. */
function flagsRead(file: string): string[] {
  const src = readFileSync(path.join(ROOT, file), 'utf8');
  return [...src.matchAll(/\b(?:str|bool|list)\(\w+, '([a-z-]+)'/g)].map((m) => m[1]).filter((f) => f !== 'help');
}

/** `--x` words of the Flags section of a help text. */
function flagsShown(help: string): string[] {
  const section = help.split('\nFlags:\n')[1]?.split('\n\n')[0] ?? '';
  return [...section.matchAll(/^ {2}(?:-\w, )? *--?([a-z][a-z-]*)/gm)].map((m) => m[1]);
}

describe('help', () => {
  for (const [words, cmd] of ALL) {
    const name = words.join('-');
    test(`krmfn ${words.join(' ')} --help matches test/cli/help/${name}.txt`, async () => {
      const r = await runCli([...words, '--help'], { cwd: ROOT });
      expect(r).toMatchObject({ exitCode: 0, stderr: '' });
      checkGolden(name, r.stdout);
      const shown = flagsShown(r.stdout);
      expect(shown.sort()).toEqual([...cmd.flags.map((f) => f.name), 'help'].sort());
    });
  }

  test('root and kpt-group help', async () => {
    for (const [argv, name] of [
      [['--help'], 'root'],
      [['fn', '--help'], 'fn'],
    ] as const) {
      const r = await runCli([...argv], { cwd: ROOT });
      expect(r.exitCode).toBe(0);
      checkGolden(name, r.stdout);
    }
  });

  test.each([
    ['render', 'src/node/commands/render.ts'],
    ['render', 'src/node/cli-engine.ts'],
    ['eval', 'src/node/commands/eval.ts'],
    ['eval', 'src/node/cli-engine.ts'],
    ['source', 'src/node/commands/source.ts'],
    ['doc', 'src/node/commands/doc.ts'],
    ['run', 'src/node/commands/run.ts'],
    ['serve', 'src/node/commands/serve.ts'],
    ['build', 'src/node/commands/build.ts'],
    ['init', 'src/node/commands/init.ts'],
    ['test', 'src/node/commands/test.ts'],
    ['functions', 'src/node/commands/functions.ts'],
    ['version', 'src/node/commands/version.ts'],
  ])('every flag %s reads in %s is in its help', async (name, file) => {
    const read = flagsRead(file);
    expect(read.length).toBeGreaterThan(0);
    const r = await runCli([name, '--help'], { cwd: ROOT });
    const shown = flagsShown(r.stdout);
    expect(read.filter((f) => !shown.includes(f))).toEqual([]);
  });

  test('every flag shown is accepted (no unknown-flag error)', async () => {
    for (const [words, cmd] of ALL) {
      for (const f of cmd.flags) {
        const dash = cmd.singleDashLong ? '-' : '--';
        const r = await runCli([...words, `${dash}${f.name}${f.kind === 'bool' ? '' : '=x'}`, '--help'], { cwd: ROOT });
        expect(r.stderr, `${words.join(' ')} ${dash}${f.name}`).toBe('');
        expect(r.exitCode).toBe(0);
      }
    }
  });

  test('help COMMAND is COMMAND --help (also help fn COMMAND, help starlark test)', async () => {
    for (const words of [['render'], ['fn', 'eval'], ['starlark', 'test']]) {
      const viaHelp = await runCli(['help', ...words], { cwd: ROOT });
      const viaFlag = await runCli([...words, '--help'], { cwd: ROOT });
      expect(viaHelp).toEqual(viaFlag);
      expect(viaHelp.exitCode).toBe(0);
    }
    const unknown = await runCli(['help', 'rendr'], { cwd: ROOT });
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('Did you mean this?\n\trender\n');
  });

  test('the default kpt level shown is DEFAULT_KPT_VERSION', async () => {
    const r = await runCli(['render', '--help'], { cwd: ROOT });
    expect(r.stdout).toContain(`(default ${DEFAULT_KPT_VERSION})`);
  });

  test('boolean flags take =false, as cobra does', async () => {
    const r = await runCli(['version', '--json=false'], { cwd: ROOT });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^krmfn /);
    const bad = await runCli(['version', '--json=maybe'], { cwd: ROOT });
    expect(bad).toMatchObject({
      exitCode: 1,
      stderr: 'error: invalid argument "maybe" for "--json" flag: strconv.ParseBool: parsing "maybe": invalid syntax\n',
    });
  });
});

describe('did you mean', () => {
  test('a misspelt command names the nearest (cobra style)', async () => {
    const r = await runCli(['rendr'], { cwd: ROOT });
    expect(r).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr:
        'error: unknown command "rendr" for "krmfn"\n\nDid you mean this?\n\trender\n\nRun \'krmfn --help\' for usage.\n',
    });
    const fn = await runCli(['fn', 'evl'], { cwd: ROOT });
    expect(fn.stderr).toContain('unknown command "evl" for "krmfn fn"\n\nDid you mean this?\n\teval\n');
    const far = await runCli(['xyzzy-plugh'], { cwd: ROOT });
    expect(far.stderr).not.toContain('Did you mean');
  });

  test('a misspelt flag names the nearest', async () => {
    const r = await runCli(['render', '--dif'], { cwd: ROOT });
    expect(r).toMatchObject({ exitCode: 1, stderr: 'error: unknown flag: --dif\nDid you mean --diff?\n' });
    const go = await runCli(['starlark', '-recursio'], { cwd: ROOT });
    expect(go).toMatchObject({
      exitCode: 2,
      stderr: 'error: flag provided but not defined: -recursio\nDid you mean -recursion?\n',
    });
  });
});

test('krmfn --version is krmfn version', async () => {
  const a = await runCli(['--version'], { cwd: ROOT });
  const b = await runCli(['version'], { cwd: ROOT });
  expect(a.exitCode).toBe(0);
  expect(a.stdout).toBe(b.stdout);
  expect(a.stdout).toMatch(
    /^krmfn \d+\.\d+\.\d+\nkpt versions: .*\nbuilt-in functions \(\d+\):\n {2}apply-replacements +v0/,
  );
});
