/**
 * The one line a command prints on stderr for an error it cannot report otherwise: kpt's cobra
 * form `error: <message>` (no stack trace, ever). Multi-line messages are kept as they are.
 */
export function errorLine(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return `error: ${message}\n`;
}
