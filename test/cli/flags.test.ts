/**
 * The one flag parser (src/node/cli-flags.ts) answers usage errors in pflag's words; each expected
 * line below is what the real kpt v1.0.0-beta.56 prints for the same arguments (checked with
 * `kpt fn ...`): shorthand groups (`-sx`), a shorthand's missing argument, a boolean's bad value
 * named with its shorthand, `--flag=false`, and repeated list flags.
 */
import { describe, expect, test } from 'vitest';
import { parseFlags, type FlagSpec } from '../../src/node/cli-flags.ts';
import { runCli } from '../harness/golden.ts';

const CWD = import.meta.dirname;

describe('usage errors as kpt prints them', () => {
  test.each([
    [['fn', 'render', 'pkg', '-o'], "error: flag needs an argument: 'o' in -o\n"],
    [['fn', 'render', 'pkg', '--results-dir'], 'error: flag needs an argument: --results-dir\n'],
    [['fn', 'eval', 'pkg', '-sx'], "error: unknown shorthand flag: 'x' in -x\n"],
    [['fn', 'eval', 'pkg', '-st'], "error: flag needs an argument: 't' in -t\n"],
    [
      ['fn', 'eval', 'pkg', '--save=maybe'],
      'error: invalid argument "maybe" for "-s, --save" flag: strconv.ParseBool: parsing "maybe": invalid syntax\n',
    ],
    [
      ['fn', 'render', 'pkg', '--truncate-output=2'],
      'error: invalid argument "2" for "--truncate-output" flag: strconv.ParseBool: parsing "2": invalid syntax\n',
    ],
  ])('%j', async (argv, stderr) => {
    const r = await runCli(argv, { cwd: CWD });
    expect(r).toEqual({ exitCode: 1, stdout: '', stderr });
  });
});

describe('parseFlags', () => {
  const specs: FlagSpec[] = [
    { name: 'save', short: 's', kind: 'bool' },
    { name: 'type', short: 't', kind: 'string' },
    { name: 'env', short: 'e', kind: 'list' },
  ];

  test('shorthand groups, attached values, =false, repeats and the rest after --', () => {
    const p = parseFlags(['-stmutator', '-e', 'A=1', '--env=B=2', 'dir', '--', '-s', 'k=v'], specs);
    expect(Object.fromEntries(p.flags)).toEqual({ save: true, type: 'mutator', env: ['A=1', 'B=2'] });
    expect(p.positional).toEqual(['dir']);
    expect(p.rest).toEqual(['-s', 'k=v']);
    expect(parseFlags(['--save=false', '-t=validator'], specs).flags).toEqual(
      new Map<string, unknown>([
        ['save', false],
        ['type', 'validator'],
      ]),
    );
  });

  test('a misspelt long flag carries the nearest as a hint', () => {
    expect(() => parseFlags(['--tyep', 'x'], specs)).toThrow(expect.objectContaining({ hint: 'Did you mean --type?' }));
    expect(() => parseFlags(['--zzzzzz'], specs)).toThrow(expect.objectContaining({ hint: undefined }));
  });
});
