/**
 * The fuzz harness: a target is a property over generated inputs (fast-check) plus a way to read
 * its checked-in seed corpus (test/fuzz/corpus/<target>/). `check` throws when the property fails:
 * a host exception where only a clean, coded error is allowed, data lost in a round trip, two
 * implementations disagreeing. fuzz.test.ts runs every target briefly with a fixed seed inside
 * `npm test`; `npm run fuzz -- --seconds N [--target name]` (run.mjs) runs them longer.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { isKrmfnError } from '../../src/core/errors.ts';

export interface FuzzTarget<T = unknown> {
  name: string;
  /** Generated inputs. */
  arbitrary: fc.Arbitrary<T>;
  /** Throws when the property does not hold for `input`. */
  check(input: T): void;
  /** A corpus file's bytes as an input of this target. */
  fromCorpus(bytes: Uint8Array): T;
}

/** Declares a target keeping its input type (the list in targets/index.ts is heterogeneous). */
export function target<T>(t: FuzzTarget<T>): FuzzTarget {
  return t;
}

export const CORPUS = new URL('./corpus/', import.meta.url);

export function corpusOf(name: string): Array<{ file: string; bytes: Uint8Array }> {
  const dir = join(CORPUS.pathname, name);
  let files: string[];
  try {
    files = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return files.map((file) => ({ file, bytes: new Uint8Array(readFileSync(join(dir, file))) }));
}

/** Runs `body`; an error is fine only when it is a krmfn error (coded, positioned, user-facing). */
export function onlyCleanErrors<T>(body: () => T, clean: (e: unknown) => boolean = isKrmfnError): T | undefined {
  try {
    return body();
  } catch (e) {
    if (clean(e)) return undefined;
    throw new Error(
      `host exception instead of a clean error: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`,
      {
        cause: e,
      },
    );
  }
}

/**
 * Writes `input` to `file` before it is checked, so an input that hangs the process is on disk
 * when the watchdog in run.mjs stops it: a byte array or a string as its bytes (ready for the seed
 * corpus), anything else as fast-check's `stringify` text.
 */
export function recordInput(file: string, input: unknown): void {
  const bytes =
    input instanceof Uint8Array ? input : typeof input === 'string' ? new TextEncoder().encode(input) : undefined;
  writeFileSync(file, bytes ?? fc.stringify(input));
}

export const utf8 = (b: Uint8Array): string => new TextDecoder().decode(b);
