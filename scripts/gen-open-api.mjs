// Generates data/open-api/<id>.json.br: the value `ctx.open_api` holds in the catalog's starlark
// function, per Kubernetes schema the function's kyaml embeds (builtins/docs/starlark.md, "ctx.open_api").
//
// Upstream (kubernetes-sigs/kustomize kyaml/openapi/openapi.go, `initSchema`/`parse`/`Schema()` at
// each kyaml version a starlark tag pins): the global schema is `{"definitions": …}` holding the
// definitions of the embedded Kubernetes swagger document and then kustomize's own
// kustomizationapi/swagger.json (later keys win); the function converts it with `json.Marshal`,
// yaml.v3 and starlib's `util.Marshal`. The Kubernetes document is a go-bindata asset (gzip in a
// Go string literal, kubernetesapi/<version>/swagger.go): JSON up to kyaml v0.13.3, gnostic
// protobuf (swagger.pb, converted by kube-openapi's `Swagger.FromGnostic`) from the 2022-04-18
// pseudo-version. A marshalled go-openapi `spec.Schema` keeps every non-empty schema field, every
// `x-` extension and `$ref` as written, and drops empty strings, lists, maps and false booleans.
//
// Every kyaml version below is converted independently; versions sharing an `id` must give the
// same document (checked here: the JSON and the protobuf sources of Kubernetes v1.21.2 included).
//
// Reads git mirrors (no network): KUSTOMIZE_GIT (default /work/.mirror/kubernetes-sigs+kustomize/repo)
// and GNOSTIC_GIT (google/gnostic, for openapiv2/OpenAPIv2.proto at v0.6.9).
// protobufjs comes with @grpc/proto-loader (a dependency); the go-bindata literal and go-openapi's
// omissions are a few lines each, so they are written here rather than pulled in.
// Run: node scripts/gen-open-api.mjs [--check]   (--check compares with the files on disk)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { gunzipSync, brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import protobuf from 'protobufjs';
import { parse as parseYaml } from 'yaml';

const KUSTOMIZE = process.env.KUSTOMIZE_GIT ?? '/work/.mirror/kubernetes-sigs+kustomize/repo';
const GNOSTIC = process.env.GNOSTIC_GIT ?? '/work/.mirror/google+gnostic/repo';
const OUT = 'data/open-api';
const KUSTOMIZATION = 'kyaml/openapi/kustomizationapi/swagger.json';

/** Each kyaml version a starlark tag pins (functions/go/starlark/go.mod at the tag). */
const SOURCES = [
  { id: 'kubernetes-v1.19.1', kyaml: 'kyaml/v0.10.13', asset: 'v1191/swagger.go', format: 'json' },
  { id: 'kubernetes-v1.20.4', kyaml: 'kyaml/v0.10.20', asset: 'v1204/swagger.go', format: 'json' },
  { id: 'kubernetes-v1.20.4', kyaml: 'kyaml/v0.10.21', asset: 'v1204/swagger.go', format: 'json' },
  { id: 'kubernetes-v1.20.4', kyaml: '02d14d724aa6', asset: 'v1204/swagger.go', format: 'json' },
  { id: 'kubernetes-v1.21.2', kyaml: 'kyaml/v0.11.1', asset: 'v1212/swagger.go', format: 'json' },
  { id: 'kubernetes-v1.21.2', kyaml: 'kyaml/v0.13.3', asset: 'v1212/swagger.go', format: 'json' },
  { id: 'kubernetes-v1.21.2', kyaml: '9d5491c2e20c', asset: 'v1212/swagger.go', format: 'pb' },
  { id: 'kubernetes-v1.21.2', kyaml: 'kyaml/v0.19.0', asset: 'v1_21_2/swagger.go', format: 'pb' },
];

const git = (repo, spec) => execFileSync('git', ['-C', repo, 'show', spec], { maxBuffer: 1 << 28 });

/** The bytes of go-bindata's asset: the first `[]byte("…")` Go string literal, gunzipped. */
function bindataAsset(goSource) {
  const text = goSource.toString('latin1');
  const m = /\[\]byte\("((?:[^"\\]|\\.)*)"\)/.exec(text);
  if (!m) throw new Error('no go-bindata literal');
  const s = m[1];
  const bytes = [];
  const simple = { n: 10, t: 9, r: 13, '\\': 92, '"': 34 };
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '\\') {
      bytes.push(s.charCodeAt(i));
      continue;
    }
    const e = s[++i];
    if (e === 'x') {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (e in simple) bytes.push(simple[e]);
    else throw new Error(`unexpected escape \\${e}`);
  }
  return gunzipSync(Buffer.from(bytes));
}

const isEmpty = (v) =>
  v === undefined ||
  v === null ||
  v === '' ||
  v === false ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0);

/** Schema-valued fields (go-openapi SchemaProps): normalised recursively. */
function normaliseSchema(s) {
  const out = {};
  for (const [k, v] of Object.entries(s)) {
    if (k.toLowerCase().startsWith('x-')) {
      out[k] = v; // extensions are kept as decoded, empty or not
      continue;
    }
    let w = v;
    if (k === 'properties' || k === 'definitions' || k === 'patternProperties')
      w = Object.fromEntries(Object.entries(v).map(([n, x]) => [n, normaliseSchema(x)]));
    else if (k === 'items' || k === 'allOf' || k === 'anyOf' || k === 'oneOf')
      w = Array.isArray(v) ? v.map(normaliseSchema) : normaliseSchema(v);
    else if (k === 'additionalProperties' || k === 'not')
      w = typeof v === 'object' && v !== null ? normaliseSchema(v) : v;
    else if (k === 'type' && Array.isArray(v) && v.length === 1) w = v[0];
    if (k === 'additionalProperties' && w === false) {
      out[k] = false; // SchemaOrBool marshals `false`, not omitted
      continue;
    }
    if (!isEmpty(w)) out[k] = w;
  }
  return out;
}

function definitionsFromJson(bytes) {
  const doc = JSON.parse(bytes.toString('utf8'));
  return Object.fromEntries(Object.entries(doc.definitions ?? {}).map(([k, v]) => [k, normaliseSchema(v)]));
}

let gnosticDocument;
function definitionsFromProto(bytes) {
  if (!gnosticDocument) {
    const root = new protobuf.Root();
    root.addJSON(protobuf.common.get('google/protobuf/any.proto').nested);
    protobuf.parse(git(GNOSTIC, 'v0.6.9:openapiv2/OpenAPIv2.proto').toString('utf8'), root, { keepCase: true });
    gnosticDocument = root.lookupType('openapi.v2.Document');
  }
  const doc = gnosticDocument.toObject(gnosticDocument.decode(bytes), { defaults: false, longs: Number });
  const out = {};
  for (const named of doc.definitions?.additional_properties ?? []) out[named.name] = fromGnostic(named.value ?? {});
  return out;
}

/** kube-openapi pkg/validation/spec/gnostic.go `Schema.FromGnostic`, then json.Marshal's omissions. */
function fromGnostic(g) {
  const s = {};
  for (const ext of g.vendor_extension ?? []) s[ext.name] = ext.value ? parseYaml(ext.value.yaml ?? '') : null;
  if (g.discriminator) s.discriminator = g.discriminator;
  if (g.read_only) s.readOnly = true;
  if (g.description) s.description = g.description;
  if (g.example) s.example = parseYaml(g.example.yaml ?? '');
  if (g._ref) s.$ref = g._ref;
  const type = g.type?.value ?? [];
  if (type.length === 1) s.type = type[0];
  else if (type.length > 1) s.type = type;
  if (g.format) s.format = g.format;
  if (g.title) s.title = g.title;
  if (g.default) s.default = parseYaml(g.default.yaml ?? '');
  for (const [from, to] of [
    ['maximum', 'maximum'],
    ['minimum', 'minimum'],
    ['max_length', 'maxLength'],
    ['min_length', 'minLength'],
    ['max_items', 'maxItems'],
    ['min_items', 'minItems'],
    ['multiple_of', 'multipleOf'],
    ['max_properties', 'maxProperties'],
    ['min_properties', 'minProperties'],
  ])
    if (g[from]) s[to] = g[from];
  if (g.exclusive_maximum) s.exclusiveMaximum = true;
  if (g.exclusive_minimum) s.exclusiveMinimum = true;
  if (g.pattern) s.pattern = g.pattern;
  if (g.unique_items) s.uniqueItems = true;
  if (g.enum?.length) s.enum = g.enum.map((a) => parseYaml(a.yaml ?? ''));
  if (g.required?.length) s.required = g.required;
  if (g.items) {
    const items = (g.items.schema ?? []).map(fromGnostic);
    s.items = items.length === 1 ? items[0] : items.length ? items : null;
  }
  if (g.all_of?.length) s.allOf = g.all_of.map(fromGnostic);
  if (g.properties?.additional_properties?.length)
    s.properties = Object.fromEntries(
      g.properties.additional_properties.map((n) => [n.name, fromGnostic(n.value ?? {})]),
    );
  if (g.additional_properties) {
    const a = g.additional_properties;
    s.additionalProperties = a.schema ? fromGnostic(a.schema) : a.boolean === true;
  }
  return s;
}

/** Object keys sorted at every level: one deterministic order (the image's is Go's random map order). */
function sortKeys(v) {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sortKeys(v[k])]),
  );
}

const documents = new Map();
for (const src of SOURCES) {
  const asset = bindataAsset(git(KUSTOMIZE, `${src.kyaml}:kyaml/openapi/kubernetesapi/${src.asset}`));
  const kubernetes = src.format === 'json' ? definitionsFromJson(asset) : definitionsFromProto(asset);
  const kustomize = definitionsFromJson(git(KUSTOMIZE, `${src.kyaml}:${KUSTOMIZATION}`));
  const text = JSON.stringify(sortKeys({ definitions: { ...kubernetes, ...kustomize } }));
  const count = Object.keys({ ...kubernetes, ...kustomize }).length;
  console.log(`${src.kyaml} (${src.format}): ${src.id}, ${count} definitions, ${text.length} bytes`);
  const seen = documents.get(src.id);
  if (seen !== undefined && seen.text !== text) {
    const a = JSON.parse(seen.text).definitions;
    const b = JSON.parse(text).definitions;
    const differ = Object.keys({ ...a, ...b }).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
    throw new Error(
      `${src.kyaml} differs from ${seen.from} for ${src.id}: ${differ.length} definitions, e.g. ${differ.slice(0, 5).join(', ')}`,
    );
  }
  documents.set(src.id, { text, from: src.kyaml });
}

const check = process.argv.includes('--check');
mkdirSync(OUT, { recursive: true });
for (const [id, { text }] of documents) {
  const file = `${OUT}/${id}.json.br`;
  if (check) {
    const onDisk = existsSync(file) ? brotliDecompressSync(readFileSync(file)).toString('utf8') : '';
    if (onDisk !== text) throw new Error(`${file} is stale: run node scripts/gen-open-api.mjs`);
    continue;
  }
  const packed = brotliCompressSync(Buffer.from(text), {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_SIZE_HINT]: text.length,
    },
  });
  writeFileSync(file, packed);
  console.log(`${file}: ${packed.length} bytes (from ${text.length})`);
}
