/**
 * kpt's `results.yaml` (`FunctionResultList`, docs/kpt-semantics.md, "Results file"): key order `image`|`exec`,
 * `stderr`, `exitCode`, `results`; everything omit-empty except `exitCode`; wide sequences.
 * Multi-line stderr becomes a literal block, as go-yaml writes it. Result field values take the
 * release's form (src/core/result-field-values.ts).
 */
import type { FunctionResult, FunctionResultList } from './result.ts';
import { resultsNode } from './resource-list.ts';
import type { FieldValueStyle } from './result-field-values.ts';
import { documentNode, mappingNode, newNode, sequenceNode, strNode, type YNode } from './yaml/node.ts';
import { emitYamlDocument } from './yaml/index.ts';

export function newResultList(): FunctionResultList {
  return {
    apiVersion: 'kpt.dev/v1',
    kind: 'FunctionResultList',
    metadata: { name: 'fnresults' },
    exitCode: 0,
    items: [],
  };
}

function intNode(n: number): YNode {
  return newNode('scalar', { tag: '!!int', value: String(n) });
}

function itemNode(item: FunctionResult, fieldValues: FieldValueStyle): YNode {
  const c: YNode[] = [];
  if (item.image) c.push(strNode('image'), strNode(item.image));
  else if (item.exec) c.push(strNode('exec'), strNode(item.exec));
  if (item.stderr) c.push(strNode('stderr'), strNode(item.stderr, item.stderr.includes('\n') ? 'literal' : ''));
  c.push(strNode('exitCode'), intNode(item.exitCode));
  if (item.results && item.results.length) c.push(strNode('results'), resultsNode(item.results, fieldValues));
  return mappingNode(c);
}

export function resultListNode(list: FunctionResultList, fieldValues: FieldValueStyle = 'go-values'): YNode {
  const c: YNode[] = [
    strNode('apiVersion'),
    strNode(list.apiVersion),
    strNode('kind'),
    strNode(list.kind),
    strNode('metadata'),
    mappingNode([strNode('name'), strNode(list.metadata.name)]),
    strNode('exitCode'),
    intNode(list.exitCode),
  ];
  if (list.items.length) c.push(strNode('items'), sequenceNode(list.items.map((i) => itemNode(i, fieldValues))));
  return documentNode(mappingNode(c));
}

export function emitResultsFile(list: FunctionResultList, fieldValues: FieldValueStyle = 'go-values'): string {
  return emitYamlDocument(resultListNode(list, fieldValues), 'wide');
}
