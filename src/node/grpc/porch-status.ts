/**
 * How Porch's function runner turns one function call into a gRPC answer, so Porch shows the same
 * messages whether krmfn or its own runner evaluated the function. Each text below comes from the
 * upstream file named beside it: nephio-project/porch func/internal/multievaluator.go,
 * func/internal/executableevaluator.go and pkg/kpt/fn/eval.go (commit 152c81d849ae),
 * func/wrapper-server/main.go (commit 0826d8c7c1c3); the Go SDK porch vendors under
 * third_party/kptdev/krm-functions-sdk/go/fn, read as GoogleContainerTools/kpt-functions-sdk (the
 * repository's former name) go/fn/result.go (commit 37caf795fe7d), go/fn/resourcelist.go (commit
 * 003dce181b4c) and go/fn/object.go:
 *
 * - image no evaluator runs → NOT_FOUND `function %q not found`
 *   (func/internal/multievaluator.go wraps pkg/kpt/fn/eval.go `NotFoundError.Error()`);
 * - non-zero exit, output parses → INTERNAL `failed to evaluate function %q with structured
 *   results: %v and stderr: %v` (func/wrapper-server/main.go), the results as go/fn/result.go
 *   `Results.Error()` prints them;
 * - output does not parse (any exit code) → INTERNAL `failed to parse the output of function %q
 *   with stderr '%v': %+v` (func/wrapper-server/main.go), the parse error as go/fn/resourcelist.go
 *   `ParseResourceList` and go/fn/object.go `ParseKubeObject` word it (the YAML syntax detail
 *   itself is krmfn's parser's, not kyaml's);
 * - the function could not be started → INTERNAL `Failed to execute function %q: %s (%s)`
 *   (func/wrapper-server/main.go, func/internal/executableevaluator.go);
 * - exit 0 and a ResourceList → OK with the output bytes and stderr as `log` (both files).
 */
import { goQuote } from '../../core/kptfile.ts';
import { isKrmfnError, isNotFoundError } from '../../core/errors.ts';
import { toJS } from '../../core/yaml/convert.ts';
import { parseYamlFile } from '../../core/yaml/index.ts';
import type { RunResponse } from '../serve/service.ts';
import { Status } from './status.ts';

export type PorchAnswer =
  { ok: true; resourceList: Uint8Array; log: Uint8Array } | { ok: false; code: number; details: string };

interface GoResult {
  message?: unknown;
  severity?: unknown;
  resourceRef?: Record<string, unknown> | null;
  field?: { path?: unknown } | null;
}

/** Results of a parsed output ResourceList, or the Go SDK's parse error text. */
export function parseOutputList(bytes: Uint8Array): { results: GoResult[] } | { error: string } {
  let docs;
  try {
    docs = parseYamlFile(new TextDecoder().decode(bytes)).docs;
  } catch (e) {
    const detail = isKrmfnError(e) || e instanceof Error ? e.message : String(e);
    // ParseKubeObject and ParseResourceList each prefix the YAML error.
    return { error: `failed to parse input bytes: failed to parse input bytes: ${detail}` };
  }
  if (docs.length !== 1)
    return { error: `failed to parse input bytes: expected exactly one object, got ${docs.length}` };
  const list = toJS(docs[0]);
  const obj = list && typeof list === 'object' && !Array.isArray(list) ? (list as Record<string, unknown>) : {};
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  if (kind !== 'ResourceList') return { error: `input was of unexpected kind ${goQuote(kind)}; expected ResourceList` };
  const results = Array.isArray(obj.results) ? (obj.results as GoResult[]) : [];
  return { results: results.filter((r) => r && typeof r === 'object') };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/** go/fn/result.go `Result.String()`. */
export function goResultString(r: GoResult): string {
  const ref = r.resourceRef && typeof r.resourceRef === 'object' ? r.resourceRef : undefined;
  const ids = ref ? [ref.apiVersion, ref.kind, ref.namespace, ref.name].map(str).filter((s) => s !== '') : [];
  let out = `[${str(r.severity) || 'info'}]`;
  if (ids.length) out += ` ${ids.join('/')}`;
  if (r.field && typeof r.field === 'object') out += ` ${str(r.field.path)}`;
  return `${out}: ${str(r.message)}`;
}

/** go/fn/result.go `Results.Error()`. */
export function goResultsError(results: readonly GoResult[]): string {
  return results.map(goResultString).join('\n\n');
}

/** The answer for a function that ran (any exit code). */
export function answerFromRun(image: string, run: RunResponse): PorchAnswer {
  // The stderr the function's process writes, as `krmfn run` (src/node/commands/run.ts) writes it.
  const stderr = run.stderr && !run.stderr.endsWith('\n') ? run.stderr + '\n' : run.stderr;
  const out = { ...run, stderr };
  const parsed = parseOutputList(out.stdout);
  if ('error' in parsed)
    return {
      ok: false,
      code: Status.INTERNAL,
      details: `failed to parse the output of function ${goQuote(image)} with stderr '${out.stderr}': ${parsed.error}`,
    };
  if (out.exitCode !== 0)
    return {
      ok: false,
      code: Status.INTERNAL,
      details: `failed to evaluate function ${goQuote(image)} with structured results: ${goResultsError(parsed.results)} and stderr: ${out.stderr}`,
    };
  return { ok: true, resourceList: out.stdout, log: new TextEncoder().encode(out.stderr) };
}

/** The answer for a call that threw instead of running to an exit code. */
export function answerFromError(image: string, e: unknown): PorchAnswer {
  if (isNotFoundError(e)) return { ok: false, code: Status.NOT_FOUND, details: `function ${goQuote(image)} not found` };
  const code = isKrmfnError(e) ? e.code : undefined;
  const message = e instanceof Error ? e.message : String(e);
  if (code === 'timeout') return { ok: false, code: Status.DEADLINE_EXCEEDED, details: message };
  if (code === 'cancelled') return { ok: false, code: Status.CANCELLED, details: message };
  // A function that rejects its input (a malformed ResourceList, a bad functionConfig) ends the
  // way `krmfn run` shows it (src/node/commands/run.ts): exit 1, nothing on stdout, the error on
  // stderr; Porch's wrapper server then reports the unparseable output with that stderr.
  if (isKrmfnError(e))
    return answerFromRun(image, { exitCode: 1, stdout: new Uint8Array(), stderr: `error: ${message}\n` });
  return {
    ok: false,
    code: Status.INTERNAL,
    details: `Failed to execute function ${goQuote(image)}: ${message} ()`,
  };
}
