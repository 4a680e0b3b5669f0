/**
 * `toBytesRunner` adapts an objects runner (built-ins, Starlark, SDK functions) for hosts that only
 * move bytes (`krmfn serve`, a Worker boundary, a container shim): it parses the ResourceList,
 * runs the function on the objects, and writes a ResourceList with the items and results back.
 */
import { KrmfnError } from '../core/errors.ts';
import type { BytesOutcome, BytesRunner, ObjectsRunner, RunContext } from '../core/function.ts';
import { KubeObject } from '../core/kube-object.ts';
import { resourceListNode } from '../core/resource-list.ts';
import { documentNode, mapGet } from '../core/yaml/node.ts';
import { emitYamlDocument, parseYamlFile } from '../core/yaml/index.ts';

export function toBytesRunner(runner: ObjectsRunner): BytesRunner {
  return {
    kind: 'bytes',
    async run(stdin: Uint8Array, ctx: RunContext): Promise<BytesOutcome> {
      const parsed = parseYamlFile(new TextDecoder().decode(stdin), { limits: ctx.limits });
      const root = parsed.docs[0]?.content[0];
      if (!root || root.kind !== 'mapping') {
        throw new KrmfnError({ code: 'invalid-resource-list', message: 'input is not a ResourceList' });
      }
      const items = mapGet(root, 'items');
      const fc = mapGet(root, 'functionConfig');
      const list = {
        items: items && items.kind === 'sequence' ? items.content.map((n) => new KubeObject(documentNode(n))) : [],
        results: [],
        ...(fc && fc.kind === 'mapping' ? { functionConfig: new KubeObject(documentNode(fc)) } : {}),
      };
      const out = await runner.run(list, ctx);
      const text = emitYamlDocument(resourceListNode(out.output.items, undefined, out.output.results), 'compact');
      return { stdout: new TextEncoder().encode(text), stderr: out.stderr, exitCode: out.exitCode };
    },
  };
}
