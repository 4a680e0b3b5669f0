/**
 * What `krmfn serve` serves: the engine's function calls and package renders, behind an interface
 * so the HTTP layer (server.ts) knows nothing about the engine and tests can count calls.
 */
import type { KptVersion } from '../../core/kpt-version.ts';
import type { FunctionResultList } from '../../core/result.ts';

export interface RunRequest {
  image: string;
  /** Serialized ResourceList (YAML or JSON). */
  input: Uint8Array;
  format: 'yaml' | 'json';
  signal: AbortSignal;
  /** Epoch ms. */
  deadline: number;
}

export interface RunResponse {
  exitCode: number;
  /** Output ResourceList, in the request's format. */
  stdout: Uint8Array;
  stderr: string;
}

export interface RenderRequest {
  /** Package files by relative slash path; the package root is the archive root. */
  files: Map<string, Uint8Array>;
  /** The kpt release to imitate (validated by the handler); default: the server's. */
  kptVersion?: KptVersion;
  signal: AbortSignal;
  deadline: number;
}

export interface RenderResponse {
  ok: boolean;
  /** The rendered package (all files, as they would be on disk after `krmfn render`). */
  files: Map<string, Uint8Array>;
  results: FunctionResultList;
  /** What `krmfn render` would print on stderr. */
  log: string;
  error?: string;
}

/**
 * The JSON body of `POST /v1/render` (docs/serve.md): a `RenderResponse` with the files as UTF-8
 * text by path; `error` only on a failed render.
 */
export interface RenderResponseJson {
  ok: boolean;
  error?: string;
  files: Record<string, string>;
  results: FunctionResultList;
  log: string;
}

export interface FunctionInfo {
  name: string;
  images: readonly string[];
  summary: string;
  [key: string]: unknown;
}

export interface FunctionService {
  functions(): FunctionInfo[];
  run(req: RunRequest): Promise<RunResponse>;
  render(req: RenderRequest): Promise<RenderResponse>;
}
