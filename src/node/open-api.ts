/**
 * The Node host's `OpenApiLoader` (src/runtimes/starlark/open-api.ts): reads
 * data/open-api/<schema>.json.br from the krmfn package (shipped through package.json `files`,
 * written by scripts/gen-open-api.mjs), decompresses it with zlib's brotli and parses it, once per
 * schema per process. Called only when a Starlark script first reads `ctx.open_api`.
 */
import { readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import type { OpenApiLoader, OpenApiSchemaId } from '../runtimes/starlark/open-api.ts';
import { krmfnRoot } from './package-root.ts';

const documents = new Map<OpenApiSchemaId, unknown>();

/** Where a schema's document is in the package. */
export function openApiFile(schema: OpenApiSchemaId): string {
  return nodePath.join(krmfnRoot(), 'data', 'open-api', `${schema}.json.br`);
}

/** How many documents this process has read (tests check that untouched scripts read none). */
export function openApiDocumentsLoaded(): number {
  return documents.size;
}

export const nodeOpenApiLoader: OpenApiLoader = (schema) => {
  if (documents.has(schema)) return documents.get(schema);
  let text: string;
  try {
    text = brotliDecompressSync(readFileSync(openApiFile(schema))).toString('utf8');
  } catch (e) {
    throw new Error(`cannot read the ${schema} OpenAPI document: ${(e as Error).message}`, { cause: e });
  }
  const document: unknown = JSON.parse(text);
  documents.set(schema, document);
  return document;
};
