/**
 * Which strings are host text. Values (and so `repr` output and Starlark patterns) are binary
 * strings (UTF-8 bytes, one char each); a dynamic error's message is binary until the evaluator
 * traces it (`traced`), host text afterwards; static error messages are binary (they quote
 * identifiers). Expectations in test files are host text.
 */
import { toHostString } from '../value/string.ts';
import type { StarlarkEvalError } from '../errors.ts';

export function evalErrorText(e: StarlarkEvalError): string {
  return e.traced ? e.message : toHostString(e.message);
}

export { toHostString as binaryText };
