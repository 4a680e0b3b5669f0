/**
 * The whole playground state in the URL fragment: JSON → deflate-raw (CompressionStream) →
 * base64url, as `#s=<data>`. Binary files (wasm) are carried as base64 under a `b64:` prefix.
 */
export interface SharedState {
  files: Record<string, string | Uint8Array>;
  selected?: string;
}

function toBase64Url(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const b = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
  return out;
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const res = new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(stream));
  return new Uint8Array(await res.arrayBuffer());
}

export async function encodeState(state: SharedState): Promise<string> {
  const files: Record<string, string> = {};
  for (const [p, v] of Object.entries(state.files)) files[p] = typeof v === 'string' ? v : `b64:${toBase64Url(v)}`;
  const json = new TextEncoder().encode(JSON.stringify({ v: 1, files, selected: state.selected }));
  return 's=' + toBase64Url(await pipe(json, new CompressionStream('deflate-raw')));
}

export async function decodeState(hash: string): Promise<SharedState | undefined> {
  const m = /(?:^#?|&)s=([A-Za-z0-9_-]+)/.exec(hash);
  if (!m) return undefined;
  const json = new TextDecoder().decode(await pipe(fromBase64Url(m[1]!), new DecompressionStream('deflate-raw')));
  const parsed = JSON.parse(json) as { v: number; files: Record<string, string>; selected?: string };
  const files: Record<string, string | Uint8Array> = {};
  for (const [p, v] of Object.entries(parsed.files)) files[p] = v.startsWith('b64:') ? fromBase64Url(v.slice(4)) : v;
  return parsed.selected ? { files, selected: parsed.selected } : { files };
}
