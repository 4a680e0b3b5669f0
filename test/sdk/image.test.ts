import { describe, expect, it } from 'vitest';
import { findBuiltin, parseImageRef } from 'krmfn/sdk';
import { BUILTINS } from 'krmfn/builtins';
import { resolveImageName } from '../../src/core/image.ts';

describe('image references', () => {
  it('parses registry, name, tag and digest', () => {
    expect(parseImageRef('gcr.io/kpt-fn/set-namespace:v0.4.1')).toMatchObject({
      repository: 'gcr.io/kpt-fn',
      name: 'set-namespace',
      tag: 'v0.4.1',
      digest: '',
    });
    expect(parseImageRef('localhost:5000/fn@sha256:ab')).toMatchObject({
      repository: 'localhost:5000',
      name: 'fn',
      tag: '',
      digest: 'sha256:ab',
    });
    expect(parseImageRef('set-labels')).toMatchObject({ repository: '', name: 'set-labels', tag: '' });
  });

  it('resolves short names as beta.56 and HEAD do', () => {
    expect(resolveImageName('set-labels:v0.1')).toBe('gcr.io/kpt-fn/set-labels:v0.1');
    expect(resolveImageName('example.com/x')).toBe('example.com/x');
    expect(resolveImageName('set-labels', { kpt: 'head' })).toBe(
      'ghcr.io/kptdev/krm-functions-catalog/set-labels:latest',
    );
    expect(resolveImageName('set-labels', { kpt: 'head', prefix: 'my.io/fns' })).toBe('my.io/fns/set-labels:latest');
  });
});

describe('catalog lookup', () => {
  const version = (image: string): string | undefined => findBuiltin(BUILTINS, image)?.image.version;
  it.each([
    ['gcr.io/kpt-fn/set-namespace:v0.1.3', 'v0.1.3'],
    ['gcr.io/kpt-fn/set-namespace:v0.1', 'v0.1.4'],
    ['gcr.io/kpt-fn/set-namespace:v0', 'v0.4.1'],
    ['gcr.io/kpt-fn/set-namespace:v0.4', 'v0.4.1'],
    ['ghcr.io/kptdev/krm-functions-catalog/set-namespace:v0.4', 'v0.4.5'],
    ['set-namespace:v0.2.0', 'v0.2.0'],
    ['ghcr.io/kptdev/krm-functions-catalog/set-namespace:latest', 'v0.4.5'],
    ['ghcr.io/kptdev/krm-functions-catalog/wasm/set-labels:v0.2.4', 'v0.2.4'],
    ['gcr.io/kpt-fn-demo/set-labels:v0.2.0', 'v0.2.0'],
    ['ghcr.io/kptdev/krm-functions-catalog/set-labels', 'v0.2.5'],
    ['gcr.io/kpt-fn/set-label:v0.1.2', 'v0.1.3'],
  ])('%s → %s', (image, v) => {
    expect(version(image)).toBe(v);
  });

  it.each([
    'gcr.io/kpt-fn/set-namespace:v0.6.0',
    'gcr.io/kpt-fn/set-namespace:v0.1.9',
    'gcr.io/kpt-fn/set-namespace:v1',
    'gcr.io/kpt-fn/set-namespace:dev',
    'gcr.io/kpt-fn/set-namespace@sha256:0000',
    'docker.io/me/set-namespace:v0.4.1',
    'gcr.io/kpt-fn/no-such-fn:v0.1.0',
    'gcr.io/kpt-fn/set-labels',
    'gcr.io/kpt-fn-demo/set-labels:unstable',
  ])('%s is not a built-in', (image) => {
    expect(findBuiltin(BUILTINS, image)).toBeUndefined();
  });

  it('keeps the tag as written next to the resolved version', () => {
    expect(findBuiltin(BUILTINS, 'set-namespace:v0.4')?.image).toEqual({
      name: 'set-namespace',
      tag: 'v0.4',
      version: 'v0.4.1',
    });
  });
});
