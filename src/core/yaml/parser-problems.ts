/**
 * The problems go-yaml's parser (not its scanner) reports: parserc.go's
 * `yaml_parser_set_parser_error*` calls, the same set at go-yaml/yaml v3.0.1 and v2.4.0. Which side
 * reported a problem decides the line go-yaml prints with it (parser errors are reported one line
 * up), for kpt's reader (src/core/yaml/parser.ts) and starlib's yaml.v2 `yaml.loads`
 * (src/runtimes/starlark/starlib-yaml-errors.ts).
 */
export const GO_YAML_PARSER_PROBLEMS: ReadonlySet<string> = new Set([
  "did not find expected ',' or ']'",
  "did not find expected ',' or '}'",
  "did not find expected '-' indicator",
  'did not find expected <document start>',
  'did not find expected key',
  'did not find expected node content',
  'found duplicate %TAG directive',
  'found duplicate %YAML directive',
  'found incompatible YAML document',
  'found undefined tag handle',
]);
