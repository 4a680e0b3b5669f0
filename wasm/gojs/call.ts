/**
 * One KRM call through kpt's js/wasm protocol (docs/wasm.md, "Go `js/wasm` (kpt's alpha ABI)"): `processResourceList(input)`; when
 * the result does not look like a ResourceList, ask `processResourceListErrors(input)` for the
 * messages of the error results, as kpt's drivers do. Whether the output really parses is left to
 * the caller; this only decides which of the two strings is the answer.
 */
import type { WasmFailure } from '../errors.ts';
import type { GoJsInstance } from './instance.ts';

export interface ProcessOutcome {
  /** The returned string looks like a ResourceList (YAML `kind: ResourceList` or JSON). */
  ok: boolean;
  /** `processResourceList`'s return value. */
  output: string;
  /** `processResourceListErrors`'s return value when `ok` is false ('' otherwise). */
  errors: string;
  /** What the program wrote to fd 1/2 during both calls. */
  stderr: string;
  failure?: WasmFailure;
}

const YAML_KIND = /(^|\n)kind:[ \t]*(['"]?)ResourceList\2[ \t]*(#.*)?(\r?\n|$)/;
const JSON_KIND = /"kind"\s*:\s*"ResourceList"/;

export function looksLikeResourceList(text: string): boolean {
  return YAML_KIND.test(text) || JSON_KIND.test(text);
}

export function callProcessResourceList(instance: GoJsInstance, input: string): ProcessOutcome {
  const first = instance.processResourceList(input);
  if (first.failure) return { ok: false, output: '', errors: '', stderr: first.stderr, failure: first.failure };
  if (looksLikeResourceList(first.output)) return { ok: true, output: first.output, errors: '', stderr: first.stderr };
  const second = instance.processResourceListErrors(input);
  const outcome: ProcessOutcome = {
    ok: false,
    output: first.output,
    errors: second.output,
    stderr: first.stderr + second.stderr,
  };
  if (second.failure) outcome.failure = second.failure;
  return outcome;
}
