/**
 * `krmfn completion bash|zsh|fish` (src/node/commands/completion.ts), each run by its shell: bash's
 * and fish's completion answers for typed lines, zsh's completion function with _describe and
 * _arguments stubbed; the zsh and fish scripts name every command and flag of the table and parse
 * (zsh and fish tests run where those shells are installed).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, test } from 'vitest';
import { COMMANDS } from '../../src/node/commands/specs/index.ts';
import { KPT_VERSIONS } from '../../src/core/kpt-version.ts';
import { runCli } from '../harness/golden.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

async function script(shell: string): Promise<string> {
  const r = await runCli(['completion', shell], { cwd: ROOT });
  expect(r).toMatchObject({ exitCode: 0, stderr: '' });
  return r.stdout;
}

/** What bash's completion offers for the words typed so far (the last one is being completed). */
function bashComplete(source: string, words: string[]): string[] {
  const r = spawnSync(
    'bash',
    [
      '-c',
      `${source}\nCOMP_WORDS=("$@"); COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); _krmfn; printf '%s\\n' "\${COMPREPLY[@]}"`,
      'bash',
      ...words,
    ],
    { encoding: 'utf8', cwd: ROOT },
  );
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter(Boolean);
}

function has(cmd: string): boolean {
  return spawnSync(cmd, ['--version'], { encoding: 'utf8' }).status === 0;
}

describe('completion', () => {
  test('bash completes commands, kpt spellings, flags and flag values', async () => {
    const bash = await script('bash');
    expect(bashComplete(bash, ['krmfn', 'ren'])).toEqual(['render']);
    expect(bashComplete(bash, ['krmfn', 'render', '--di'])).toEqual(['--diff']);
    expect(bashComplete(bash, ['krmfn', 'fn', 'eval', '--match-k'])).toEqual(['--match-kind']);
    expect(bashComplete(bash, ['krmfn', 'eval', '-o', 'un'])).toEqual(['unwrap']);
    expect(bashComplete(bash, ['krmfn', 'init', '--kind', ''])).toEqual(['mutator', 'validator', 'generator']);
    expect(bashComplete(bash, ['krmfn', 'starlark', 'test', '-kn'])).toEqual(['-known-failures']);
    expect(bashComplete(bash, ['krmfn', ''])).toEqual([...COMMANDS.map((c) => c.name), 'fn', '--help', '--version']);
  });

  test.each(['zsh', 'fish'])('%s names every command and flag', async (shell) => {
    const text = await script(shell);
    for (const c of COMMANDS) {
      expect(text).toContain(c.name);
      for (const f of [...c.flags, ...(c.subcommands ?? []).flatMap((s) => s.flags)]) expect(text).toContain(f.name);
    }
    if (has(shell)) {
      const dir = mkdtempSync(path.join(tmpdir(), 'krmfn-completion-'));
      try {
        const file = path.join(dir, `krmfn.${shell}`);
        writeFileSync(file, text);
        const r = spawnSync(shell, ['-n', file], { encoding: 'utf8' });
        expect(r.stderr).toBe('');
        expect(r.status).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  test.runIf(has('zsh'))('zsh offers commands, kpt commands after fn, and the flags of the command typed', async () => {
    const zsh = await script('zsh');
    // _describe and _arguments stubbed to print what the completion function hands them.
    const complete = (words: string[]): string[] => {
      const r = spawnSync(
        'zsh',
        [
          '-f',
          '-c',
          `compdef() { :; }
_describe() { print -r -- describe; print -rl -- "\${(@P)4}"; }
_arguments() { print -r -- arguments; print -rl -- "$@"; }
eval "$1"; shift
words=("$@"); CURRENT=$#; _krmfn`,
          'zsh',
          zsh,
          ...words,
        ],
        { encoding: 'utf8' },
      );
      expect(r.stderr).toBe('');
      return r.stdout.split('\n').filter(Boolean);
    };
    const top = complete(['krmfn', '']);
    expect(top[0]).toBe('describe');
    expect(top.map((l) => l.split(':')[0]).slice(1)).toEqual([...COMMANDS.map((c) => c.name), 'fn']);
    const fn = complete(['krmfn', 'fn', '']);
    expect(fn.map((l) => l.split(':')[0]).slice(1)).toEqual(['doc', 'eval', 'render', 'sink', 'source']);
    const render = complete(['krmfn', 'fn', 'render', '--di']);
    expect(render[0]).toBe('arguments');
    expect(render).toContain('--diff[write nothing; print the changes as a unified diff on stdout]');
    expect(render).toContain(
      `--kpt-version[behave as this kpt release\\: ${KPT_VERSIONS.join(', ')}]:V:(${KPT_VERSIONS.join(' ')})`,
    );
    const test = complete(['krmfn', 'starlark', 'test', '-k']);
    expect(test.some((l) => l.startsWith('-known-failures['))).toBe(true);
  });

  test.runIf(has('fish'))('fish completes commands, kpt commands after fn, flags and values', async () => {
    const fish = await script('fish');
    const dir = mkdtempSync(path.join(tmpdir(), 'krmfn-completion-'));
    try {
      writeFileSync(path.join(dir, 'krmfn.fish'), fish);
      const complete = (line: string): string[] => {
        const r = spawnSync('fish', ['-c', `source ${dir}/krmfn.fish; complete -C '${line}'`], {
          encoding: 'utf8',
          cwd: dir,
        });
        expect(r.stderr).toBe('');
        return r.stdout
          .split('\n')
          .filter(Boolean)
          .map((l) => l.split('\t')[0]);
      };
      expect(complete('krmfn ren')).toEqual(['render']);
      expect(complete('krmfn fn ')).toEqual(['doc', 'eval', 'render', 'sink', 'source']);
      expect(complete('krmfn render --di')).toEqual(['--diff']);
      expect(complete('krmfn eval -o ')).toEqual(['stdout', 'unwrap']);
      expect(complete('krmfn starlark -rec')).toEqual(['-recursion']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an unknown shell is a usage error with a suggestion', async () => {
    const r = await runCli(['completion', 'bsh'], { cwd: ROOT });
    expect(r).toMatchObject({
      exitCode: 1,
      stderr: 'error: unsupported shell "bsh": want bash, zsh or fish\nDid you mean bash?\n',
    });
  });
});
