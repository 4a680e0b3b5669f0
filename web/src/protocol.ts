/** Messages between the playground page and its engine Worker. */
export interface RenderJob {
  id: number;
  files: Record<string, string | Uint8Array>;
  /** Fixed clock (epoch ms) so output is deterministic. */
  now: number;
  timeoutMs: number;
  allowWasm: boolean;
}

export interface ResultView {
  /** Image or exec string of the function that reported it. */
  fn: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  resource?: string;
  field?: string;
  file?: string;
  index?: number;
}

export interface RenderReply {
  id: number;
  ok: boolean;
  /** The package after rendering (text files), or the input when the render failed. */
  files: Record<string, string>;
  results: ResultView[];
  /** What `krmfn render` would print on stderr. */
  log: string;
  error?: { message: string; file?: string; line?: number };
  ms: number;
}
