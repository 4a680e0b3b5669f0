/**
 * Debugging by wrapping: `traceImports` returns a copy of an import object whose every function
 * reports its name, arguments and result (or exception) to a sink before returning. Switched on per
 * call by passing `trace` to `runWasi`; nothing global, nothing printed unless the caller prints.
 */
export type TraceSink = (line: string) => void;

export function traceImports<T extends Record<string, unknown>>(imports: T, sink: TraceSink, namespace = ''): T {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(imports)) {
    if (typeof value !== 'function') {
      out[name] = value;
      continue;
    }
    const fn = value as (...args: unknown[]) => unknown;
    const label = namespace ? `${namespace}.${name}` : name;
    out[name] = (...args: unknown[]): unknown => {
      const shown = args.map(showArg).join(', ');
      try {
        const result = fn(...args);
        sink(`${label}(${shown}) = ${showArg(result)}`);
        return result;
      } catch (e) {
        sink(`${label}(${shown}) threw ${e instanceof Error ? `${e.name}: ${e.message}` : showArg(e)}`);
        throw e;
      }
    };
  }
  return out as T;
}

function showArg(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}
