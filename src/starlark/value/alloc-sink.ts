/**
 * The allocation budget of the thread that is running, for value-layer code that has no thread
 * argument (repr/str of containers, JSON encoding). These writers charge every string piece as
 * they produce it, so a value that shares one large string many times (`[s] * 1000`) hits the
 * budget while its text is being built, not after. Execution is synchronous: the running thread
 * pushes its sink on entry and pops it on exit (nested loads stack).
 */
const sinks: ((bytes: number) => void)[] = [];

/** Charges `bytes` to the running thread's budget (a no-op outside execution). */
export function chargeRunning(bytes: number): void {
  const sink = sinks[sinks.length - 1];
  if (sink !== undefined) sink(bytes);
}

export function withAllocSink<T>(sink: (bytes: number) => void, run: () => T): T {
  sinks.push(sink);
  try {
    return run();
  } finally {
    sinks.pop();
  }
}
