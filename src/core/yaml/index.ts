/** The YAML layer: kpt-exact reading and writing of package files (docs/yaml-output.md). */
export { parseYamlFile } from './parse.ts';
export type { ParsedFile, ParseOptions, SeqIndent } from './parse.ts';
export { emitYamlDocument, emitYamlFile } from './emit.ts';
export { resolvePlainTag } from './resolve.ts';
export { emitJsonFile } from './json.ts';
export { copyComments, normalizeAfterFunction, syncOrder } from './comments.ts';
