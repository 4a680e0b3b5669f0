/**
 * The structured-results text Porch's wrapper server puts in its INTERNAL errors: go/fn/result.go
 * `Result.String()` / `Results.Error()` (kptdev/krm-functions-sdk), and go/fn/resourcelist.go
 * `ParseResourceList`'s refusals.
 */
import { describe, expect, it } from 'vitest';
import { answerFromRun, goResultsError, parseOutputList } from '../../src/node/grpc/porch-status.ts';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('Porch error texts', () => {
  it.each([
    [{ message: 'm' }, '[info]: m'],
    [{ message: 'm', severity: 'warning' }, '[warning]: m'],
    [
      { message: 'bad', severity: 'error', resourceRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' } },
      '[error] apps/v1/Deployment/d: bad',
    ],
    [
      {
        message: 'bad',
        severity: 'error',
        resourceRef: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ns', name: 'c' },
        field: { path: 'data.k' },
      },
      '[error] v1/ConfigMap/ns/c data.k: bad',
    ],
    [{ message: 'no path', field: {} }, '[info] : no path'],
  ])('prints result %j as %j', (result, text) => {
    expect(goResultsError([result])).toBe(text);
  });

  it('joins results with a blank line', () => {
    expect(goResultsError([{ message: 'a', severity: 'error' }, { message: 'b' }])).toBe('[error]: a\n\n[info]: b');
  });

  it('refuses output that is not one ResourceList', () => {
    expect(parseOutputList(enc(''))).toEqual({
      error: 'failed to parse input bytes: expected exactly one object, got 0',
    });
    expect(parseOutputList(enc('kind: List\nitems: []\n'))).toEqual({
      error: 'input was of unexpected kind "List"; expected ResourceList',
    });
  });

  it('answers OK for exit 0 with error results (Porch only logs them)', () => {
    const out = 'kind: ResourceList\nitems: []\nresults:\n- message: x\n  severity: error\n';
    expect(answerFromRun('img', { exitCode: 0, stdout: enc(out), stderr: '' })).toMatchObject({ ok: true });
  });
});
