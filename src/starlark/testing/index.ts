/**
 * The Starlark test harness: chunked `.star` test files (docs/starlark.md, "Test files"). Browser-safe; file
 * access for `load()` is a host callback.
 */
export { splitChunks, chunkOptions, CHUNK_OPTION_NAMES } from './chunks.ts';
export type { Chunk, ChunkOptionName } from './chunks.ts';
export { parseExpectations, TestHarnessError } from './expectations.ts';
export type { Expectation } from './expectations.ts';
export { unquoteGoString } from './go-string.ts';
export { compileRe2 } from './re2.ts';
export type { Re2Result } from './re2.ts';
export { createAssertModule, floatsClose } from './assert-module.ts';
export type { AssertModule, AssertReporter } from './assert-module.ts';
export { harnessFixtures, HasFields, Fibonacci } from './fixtures.ts';
export { runTestFile, chunkKey, chunkTitle, dialectOf } from './run-file.ts';
export type { ChunkFailure, ChunkOutcome, ChunkStatus, FileOutcome, TestHost } from './run-file.ts';
export { formatReport, formatChunk, formatSummary, tally } from './format.ts';
export type { Tally } from './format.ts';
export { HARNESS_MODULES } from './modules.ts';
