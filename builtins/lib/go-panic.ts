/**
 * How a panic inside a Go catalog function reaches kpt. The process dies with exit code 2 and
 * Go's runtime prints `panic: <value>` and a goroutine trace on stderr (no ResourceList on
 * stdout). kpt-functions-sdk/go/fn's `Run` (go/fn/run.go) recovers some panics and re-panics the
 * rest; a re-panic prints `panic: <value> [recovered]` then `\tpanic: <value>`. krmfn prints these
 * first lines only: the trace (goroutine ids, addresses, source lines of the Go build) cannot be
 * reproduced, and builtins/docs pages say where a built-in ends this way.
 */
import type { FnContext } from '../../sdk/index.ts';

/** A panic the emulated Go code would raise; `message` is what Go prints after `panic: `. */
export class GoPanic extends Error {}

export const NIL_DEREFERENCE = 'runtime error: invalid memory address or nil pointer dereference';

/** The process dies of `panic`; `recovered` when the SDK's `Run` recovered it and panicked again. */
export function crashWithPanic(ctx: FnContext<unknown>, panic: GoPanic, recovered = false): void {
  ctx.log(recovered ? `panic: ${panic.message} [recovered]\n\tpanic: ${panic.message}` : `panic: ${panic.message}`);
  ctx.exitCode = 2;
}
