/**
 * `load("hash.star", "hash")`: qri-io/starlib v0.5.0 `hash/hash.go`. `hash.md5(s)`,
 * `hash.sha1(s)`, `hash.sha256(s)`: one positional string, the lowercase hex digest of its bytes.
 * Argument errors name the builtin as starlib does (`hash.md5: got 0 arguments, want 1`).
 */
import { Builtin } from '../../value/builtin.ts';
import type { Kwargs, Thread, Value } from '../../value/contract.ts';
import { Module } from '../../value/struct.ts';
import { positional, wantString } from '../args.ts';
import { md5Hex, sha1Hex, sha256Hex } from './digests.ts';

function digest(name: string, f: (s: string) => string): Builtin {
  return new Builtin(name, (thread: Thread, args: Value[], kwargs: Kwargs) => {
    positional(name, args, kwargs, 1, 1);
    const s = wantString(name, 1, args[0]);
    thread.alloc(s.length);
    return f(s);
  });
}

export const HASH_MODULE = new Module('hash', {
  md5: digest('hash.md5', md5Hex),
  sha1: digest('hash.sha1', sha1Hex),
  sha256: digest('hash.sha256', sha256Hex),
});
