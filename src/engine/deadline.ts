/**
 * Every function call runs under a deadline (`--timeout`, default 60 s). `runWithDeadline` gives
 * the runner an AbortSignal that fires at the deadline (or when the caller's signal fires) and
 * rejects with a LimitExceededError('deadline') if the runner has not settled by then — a runner
 * that ignores the signal is abandoned, not awaited. Timeouts beyond what timers can wait for
 * (MAX_TIMER_MS, about 24.8 days) are clamped to it rather than firing at once.
 */
import { MAX_TIMER_MS } from '../core/duration.ts';
import { KrmfnError, LimitExceededError } from '../core/errors.ts';

export function formatTimeout(ms: number): string {
  if (ms % 60_000 === 0 && ms >= 60_000) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

export async function runWithDeadline<T>(
  name: string,
  timeoutMs: number,
  outer: AbortSignal | undefined,
  run: (signal: AbortSignal, deadline: number) => Promise<T>,
  now: () => number = Date.now,
): Promise<T> {
  const controller = new AbortController();
  const deadline = now() + timeoutMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onOuter: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        const err = new LimitExceededError(
          'deadline',
          `function ${JSON.stringify(name)} did not finish within ${formatTimeout(timeoutMs)} (raise the limit with --timeout)`,
          name,
        );
        controller.abort(err);
        reject(err);
      },
      Math.min(timeoutMs, MAX_TIMER_MS),
    );
    if (outer) {
      onOuter = () => {
        const err = new KrmfnError({
          code: 'cancelled',
          message: `function ${JSON.stringify(name)} was cancelled`,
          function: name,
        });
        controller.abort(err);
        reject(err);
      };
      if (outer.aborted) onOuter();
      else outer.addEventListener('abort', onOuter, { once: true });
    }
  });
  stop.catch(() => undefined);
  try {
    return await Promise.race([run(controller.signal, deadline), stop]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (outer && onOuter) outer.removeEventListener('abort', onOuter);
  }
}
