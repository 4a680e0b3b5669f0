/**
 * Argument parsing for the authoring commands (init, build, test) with node:util parseArgs:
 * a usage error prints `error: <message>` and the help to stderr (exit 1), `-h/--help` prints the
 * help to stdout (exit 0). Either way the command returns the number; otherwise it gets the values.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { write, type CliIO } from '../io.ts';

type Options = NonNullable<ParseArgsConfig['options']>;
export type ParsedCommandArgs<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; allowPositionals: true; options: O & { help: { type: 'boolean'; short: 'h' } } }>
>;

export async function parseCommandArgs<O extends Options>(
  args: string[],
  options: O,
  help: string,
  io: CliIO,
): Promise<ParsedCommandArgs<O> | number> {
  let parsed: ParsedCommandArgs<O>;
  try {
    const result: unknown = parseArgs({
      args,
      allowPositionals: true,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
    });
    parsed = result as ParsedCommandArgs<O>;
  } catch (e) {
    await write(io.stderr, `error: ${e instanceof Error ? e.message : String(e)}\n\n${help}`);
    return 1;
  }
  if ((parsed.values as { help?: boolean }).help) {
    await write(io.stdout, help);
    return 0;
  }
  return parsed;
}
