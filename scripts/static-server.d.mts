// Types of scripts/static-server.mjs for the TypeScript tests that import it.
export function resolveInside(base: string, urlPath: string): Promise<string>;
export function serveStatic(
  root: string,
  options?: { port?: number; host?: string },
): Promise<{ url: string; close(): Promise<void> }>;
