/**
 * Runs one built-in in-process on YAML text, the way the built-in runtime does (registry lookup
 * by image, SDK execution on live KubeObjects), and emits the items again with the real emitter.
 * For focused behaviour tests of the catalog functions; the golden packages cover full renders.
 */
import { BUILTINS } from '../../builtins/index.ts';
import { executeFunction, findBuiltin, KubeObject, type Result } from '../../sdk/index.ts';
import { emitYamlFile, parseYamlFile } from '../../src/core/yaml/index.ts';

export interface BuiltinRun {
  /** The items as one multi-document YAML stream. */
  output: string;
  items: KubeObject[];
  results: Result[];
  exitCode: number;
  log: string[];
}

export function parseObjects(text: string): KubeObject[] {
  return parseYamlFile(text).docs.map((d) => new KubeObject(d));
}

export async function runBuiltin(image: string, items: string, config?: string): Promise<BuiltinRun> {
  const match = findBuiltin(BUILTINS, image);
  if (!match) throw new Error(`no built-in for ${image}`);
  const list = {
    items: parseObjects(items),
    functionConfig: config === undefined ? undefined : parseObjects(config)[0],
    results: [] as Result[],
  };
  const outcome = await executeFunction(match.descriptor.fn, list, { image: match.image, uncaughtExitCode: 1 });
  return {
    output: emitYamlFile(list.items.map((o) => o.doc), 'compact'),
    items: list.items,
    results: outcome.results,
    exitCode: outcome.exitCode,
    log: outcome.log,
  };
}
