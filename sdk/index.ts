/**
 * `krmfn/sdk`: the authoring API for KRM functions (sdk/README.md). Browser-safe: no
 * `node:*`, `process` or `Buffer`. Node hosts (`run`, `runCli`, `nodeFixtures`) live in
 * `krmfn/sdk/node`; test helpers in `krmfn/sdk/testing`.
 */
export {
  defineFunction,
  defineGenerator,
  defineMutator,
  defineValidator,
  isKrmFunction,
  type FnContext,
  type FunctionKind,
  type FunctionDefinition,
  type ImageInfo,
  type KrmFunction,
  type RunReturn,
  type SelectOptions,
} from './define.ts';
export {
  bindConfig,
  coerceString,
  configResult,
  DEFAULT_CONFIG_API_VERSION,
  emptyFunctionInput,
  isEmptyConfig,
  type BindContext,
  type BindOutcome,
  type ConfigSpec,
  type ValidateFunction,
} from './config.ts';
export { validateSchema, type JsonSchema, type SchemaError, type SchemaValidateOptions } from './schema.ts';
export {
  ConfigError,
  fileRefOf,
  fromAjvErrors,
  isConfigError,
  isErrorResult,
  isResultsError,
  makeResult,
  pointerToFieldPath,
  resourceRefOf,
  ResultBuilder,
  ResultsError,
  sortResults,
  type ResultOptions,
  type SchemaErrorLike,
} from './results.ts';
export { identityKey, Resources, type ListAccess, type ObjectRef } from './resources.ts';
export {
  byAnnotations,
  byGroupKind,
  byKind,
  byLabels,
  byName,
  byNamespace,
  fromKptSelector,
  isLocalConfig,
  matchAll,
  matchAny,
  not,
  bySelector,
  type Predicate,
  type SelectorSpec,
} from './selectors.ts';
export { executeFunction, executeFunctionSync, type ExecuteOptions, type ExecuteOutcome } from './execute.ts';
export {
  defineBuiltin,
  explainNotBuiltin,
  findBuiltin,
  type BuiltinDescriptor,
  type BuiltinInit,
  type BuiltinMatch,
  type FindBuiltinOptions,
  type ImageAlias,
} from './registry.ts';
export {
  ANNOTATIONS,
  FieldTypeError,
  isKubeObject,
  KubeObject,
  PROTECTED_ANNOTATIONS,
  ProtectedFieldError,
  ReadOnlyError,
  type FieldComments,
  type GroupVersionKind,
  type ObjectAccess,
  type ObjectSource,
} from '../src/core/kube-object.ts';
export { knownScope, type KnownScope } from '../src/core/kube-scope.ts';
export { formatFieldPath, parseFieldPath, type FieldPathInput, type PathSegment } from '../src/core/field-path.ts';
export { compareVersions, parseImageRef, parseVersion, versionAtLeast } from '../src/core/image.ts';
export { builtinVersions, catalogReleases, type CatalogRelease } from '../src/core/catalog-versions.ts';
export type { FieldRef, FileRef, ResourceRef, Result, Severity } from '../src/core/result.ts';
export type { ResourceList } from '../src/core/function.ts';
export { newObject, parseObject, parseObjects } from './objects.ts';
export { versionedApi, type VersionedApiOptions } from './versioned.ts';
export {
  FIELD_SPEC_SCHEMA,
  FieldSpecError,
  matchesGvk,
  parseFieldSpecs,
  parseGroupVersion,
  splitFieldSpecPath,
  walkFieldSpec,
  type CreateKind,
  type FieldSpec,
  type GvkSelector,
  type WalkOptions,
} from './field-spec.ts';
export {
  FieldEditError,
  isYaml11NonString,
  replaceNode,
  resolvePlainTag,
  setListItems,
  setMapEntry,
  setScalarText,
  setStringScalar,
} from './field-edit.ts';
export {
  parseResourceList,
  processResourceList,
  processResourceListSync,
  stringifyResourceList,
  toWasmGlobal,
  type ProcessOptions,
  type ProcessOutcome,
} from './process.ts';
export { functionDefinition, helpText } from './definition.ts';
export {
  cloneNode,
  copyComments,
  documentNode,
  emitYamlDocument,
  fromJS,
  mapGet,
  mapIndexOf,
  mappingNode,
  newNode,
  sequenceNode,
  strNode,
  syncOrder,
  toJS,
  type NodeKind,
  type NodeStyle,
  type YNode,
} from './nodes.ts';
export { reencodeAsKustomize, snapshotKeyOrder, type KeySnapshot } from './restyle.ts';
export {
  compileGoRegexp,
  GoRegexp,
  GoRegexpError,
  matchGoRegexp,
  quoteMeta,
  type GoRegexpErrorCode,
} from '../src/core/go-regexp.ts';
export { BAD_PATTERN, compileDoublestar, GlobSyntaxError, matchFilepath, type Glob } from '../src/core/glob.ts';
