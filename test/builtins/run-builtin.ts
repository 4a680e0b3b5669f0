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
  return parseWithIndent(text).objects;
}

/** Parses the items and remembers each document's sequence indentation for re-emitting. */
function parseWithIndent(text: string): { objects: KubeObject[]; indent: Map<KubeObject, 'compact' | 'wide'> } {
  const parsed = parseYamlFile(text);
  const objects = parsed.docs.map((d) => new KubeObject(d));
  return { objects, indent: new Map(objects.map((o, i) => [o, parsed.seqIndent[i] ?? 'compact'])) };
}

export async function runBuiltin(image: string, items: string, config?: string): Promise<BuiltinRun> {
  const match = findBuiltin(BUILTINS, image);
  if (!match) throw new Error(`no built-in for ${image}`);
  const parsed = parseWithIndent(items);
  const list = {
    items: parsed.objects,
    functionConfig: config === undefined ? undefined : parseObjects(config)[0],
    results: [] as Result[],
  };
  const outcome = await executeFunction(match.descriptor.fn, list, { image: match.image, uncaughtExitCode: 1 });
  return {
    output: emitYamlFile(
      list.items.map((o) => o.doc),
      list.items.map((o) => parsed.indent.get(o) ?? 'compact'),
    ),
    items: list.items,
    results: outcome.results,
    exitCode: outcome.exitCode,
    log: outcome.log,
  };
}
