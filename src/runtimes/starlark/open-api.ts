/**
 * Which OpenAPI document `ctx.open_api` holds in each released tag of the catalog's `starlark`
 * function, and the seam through which a host supplies it (builtins/docs/starlark.md, "ctx.open_api").
 *
 * Upstream the value is kyaml's global schema (`openapi.Schema()`: `{"definitions": …}` with the
 * definitions of the Kubernetes swagger document kyaml embeds, then kustomize's own
 * kustomizationapi definitions), at the kyaml version each tag pins in functions/go/starlark/go.mod:
 * v1.19.1 for v0.1.0 (kyaml v0.10.13), v1.20.4 for v0.1.1–v0.2.2 (kyaml v0.10.20, v0.10.21 and
 * the 2021-06-30 pseudo-version), v1.21.2 for v0.3.0–v0.5.1 (kyaml v0.11.1, v0.13.3, the
 * 2022-04-18 pseudo-version and v0.19.0): `StarlarkProfile.openApi` (./versions.ts). scripts/gen-open-api.mjs writes one document per
 * schema; the core never reads files: a host hands in an `OpenApiLoader` (the Node edge reads
 * data/open-api/, src/node/open-api.ts), called only when a script first reads `ctx.open_api`.
 */

/** One embedded schema (the file data/open-api/<id>.json.br). */
export type OpenApiSchemaId = 'kubernetes-v1.19.1' | 'kubernetes-v1.20.4' | 'kubernetes-v1.21.2';

/** Every schema, oldest first. */
export const OPEN_API_SCHEMAS: readonly OpenApiSchemaId[] = Object.freeze([
  'kubernetes-v1.19.1',
  'kubernetes-v1.20.4',
  'kubernetes-v1.21.2',
]);

/**
 * Answers the document (`{"definitions": {...}}` as JSON data) of one schema, synchronously:
 * a script's read of `ctx.open_api` cannot wait. Throwing an `Error` fails the script with its
 * message; answering `undefined` leaves `ctx.open_api` an empty dict.
 */
export type OpenApiLoader = (schema: OpenApiSchemaId) => unknown;
