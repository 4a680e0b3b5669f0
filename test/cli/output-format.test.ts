// kpt's CLI text, from events (docs/kpt-semantics.md, "CLI text").
import { describe, expect, test } from 'vitest';
import { formatEvent, formatFailure, formatGoDuration, formatResultLine } from '../../src/engine/text-output.ts';
import { parseDuration } from '../../src/node/cli-flags.ts';
import { KrmfnError } from 'krmfn';

const text = { truncate: true, color: false };

describe('Go durations truncated to 100ms', () => {
  const cases: [number, string][] = [
    [0, '0s'],
    [99, '0s'],
    [100, '100ms'],
    [950, '900ms'],
    [1000, '1s'],
    [1234, '1.2s'],
    [62_350, '1m2.3s'],
    [3_600_000, '1h0m0s'],
  ];
  for (const [ms, want] of cases) test(`${ms}ms → ${want}`, () => expect(formatGoDuration(ms)).toBe(want));
});

describe('--timeout parsing', () => {
  const cases: [string, number][] = [
    ['60s', 60_000],
    ['1m30s', 90_000],
    ['500ms', 500],
    ['2', 2000],
    ['1.5s', 1500],
  ];
  for (const [s, ms] of cases) test(s, () => expect(parseDuration(s)).toBe(ms));
  test('garbage', () => expect(() => parseDuration('soon')).toThrow(/invalid duration/));
});

describe('result lines', () => {
  test('full', () =>
    expect(
      formatResultLine({
        message: 'bad thing',
        severity: 'error',
        resourceRef: { apiVersion: 'v1', kind: 'ConfigMap', name: 'c' },
        field: { path: 'data.a' },
      }),
    ).toBe('[error] v1/ConfigMap/c data.a: bad thing'));
  test('bare', () => expect(formatResultLine({ message: 'done' })).toBe('[info]: done'));
  test('namespace and newlines', () =>
    expect(
      formatResultLine({
        message: 'a\nb',
        severity: 'warning',
        resourceRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'w', namespace: 'ns' },
      }),
    ).toBe('[warning] apps/v1/Deployment/ns/w: a b'));
});

describe('events', () => {
  test('package line has a trailing space; blank line after a non-empty pipeline', () => {
    expect(formatEvent({ type: 'package-start', displayPath: 'app/sub', functions: 1 }, text, 'render')).toBe(
      'Package "app/sub": \n',
    );
    expect(formatEvent({ type: 'package-end', displayPath: 'app/sub', functions: 1 }, text, 'render')).toBe('\n');
    expect(formatEvent({ type: 'package-end', displayPath: 'app/sub', functions: 0 }, text, 'render')).toBe('');
    expect(formatEvent({ type: 'package-start', displayPath: 'app', functions: 1 }, text, 'eval')).toBe('');
  });
  test('running with selection count', () =>
    expect(
      formatEvent({ type: 'function-start', name: "sed -e 's/a/b/'", wasm: false, selected: 2 }, text, 'render'),
    ).toBe(`[RUNNING] "sed -e 's/a/b/'" on 2 resource(s)\n`));
  test('pass with results and stderr, truncated', () => {
    const out = formatEvent(
      {
        type: 'function-end',
        name: 'f',
        ok: true,
        durationMs: 120,
        results: [{ message: 'set 1 label(s)' }],
        stderr: 'a\nb\nc\nd\ne\n',
        exitCode: 0,
        exitFailure: false,
      },
      text,
      'render',
    );
    expect(out).toBe(
      '[PASS] "f" in 100ms\n  Results:\n    [info]: set 1 label(s)\n  Stderr:\n    "a"\n    "b"\n    "c"\n    "d"\n    ...(2 line(s) truncated, use \'--truncate-output=false\' to disable)\n',
    );
  });
  test('exec failure block', () => {
    const out = formatEvent(
      {
        type: 'function-end',
        name: 'f',
        ok: false,
        durationMs: 0,
        results: [],
        stderr: 'boom\n',
        exitCode: 3,
        exitFailure: true,
      },
      text,
      'render',
    );
    expect(out).toBe('[FAIL] "f" in 0s\n  Stderr:\n    "boom"\n    ""\n  Exit code: 3\n\n');
  });
  test('error styles', () => {
    const e = new KrmfnError({ code: 'path-escape', message: 'm' });
    expect(formatFailure({ error: e, style: 'typed' })).toBe('Error: m \n');
    expect(formatFailure({ error: e, style: 'plain' })).toBe('error: m\n');
    expect(
      formatFailure({
        error: new KrmfnError({ code: 'kptfile-invalid', message: 'Kptfile is invalid:\nReason: x\n' }),
        style: 'bare',
      }),
    ).toBe('Kptfile is invalid:\nReason: x\n \n');
    expect(formatFailure({ error: e, style: 'none' })).toBe('');
  });
});
