/**
 * YAML nodes for functions that edit the tree itself (docs/sdk.md): the node type, its
 * constructors and lookups, plain-data conversion, document emission and the comment/order
 * helpers kpt applies after a function. Re-exported from src/core/yaml so that a function (the
 * built-ins included) needs nothing beyond the SDK; one implementation, no copies.
 */
export {
  cloneNode,
  documentNode,
  mapGet,
  mapIndexOf,
  mappingNode,
  newNode,
  sequenceNode,
  strNode,
  type NodeKind,
  type NodeStyle,
  type YNode,
} from '../src/core/yaml/node.ts';
export { fromJS, toJS } from '../src/core/yaml/convert.ts';
export { copyComments, emitYamlDocument, syncOrder } from '../src/core/yaml/index.ts';
