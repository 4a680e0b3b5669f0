// The real function boundary of kpt render, built from our own parse and emit (spec
// docs/yaml-output.md, "After a function"): the file's resources go into one ResourceList after the Kptfile, the list is
// emitted with compact sequences and parsed again, and every returned item gets CopyComments and
// SyncOrder from its input. normalizeAfterFunction must give the same bytes without any of this.
import {
  copyComments,
  emitYamlDocument,
  parseYamlFile,
  syncOrder,
  type ParsedFile,
} from '../../src/core/yaml/index.ts';
import {
  cloneNode,
  documentNode,
  mapGet,
  mappingNode,
  sequenceNode,
  strNode,
  type YNode,
} from '../../src/core/yaml/node.ts';

const KPTFILE = 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: golden\n';

/**
 * `together`: all of the file's resources in one list, as kpt render sends them; `alone`: each
 * resource in a list of its own (the context normalizeAfterFunction models).
 */
export function throughResourceList(file: ParsedFile, mode: 'together' | 'alone' = 'together'): YNode[] {
  if (mode === 'alone') {
    return file.docs.flatMap((d) => throughResourceList({ docs: [d], seqIndent: ['compact'] }, 'together'));
  }
  const kptfile = parseYamlFile(KPTFILE).docs[0].content[0];
  const items = file.docs.map((d) => cloneNode(d.content[0]));
  const list = mappingNode([
    strNode('apiVersion'),
    strNode('config.kubernetes.io/v1'),
    strNode('kind'),
    strNode('ResourceList'),
    strNode('items'),
    sequenceNode([kptfile, ...items]),
  ]);
  const wire = emitYamlDocument(documentNode(list), 'compact');
  const back = parseYamlFile(wire).docs[0].content[0];
  const returned = mapGet(back, 'items')!.content.slice(1);
  return returned.map((item, i) => {
    copyComments(file.docs[i], item);
    syncOrder(file.docs[i], item);
    return documentNode(item);
  });
}
