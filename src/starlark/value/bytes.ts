/** Starlark bytes: an immutable byte sequence held as a binary string (one char per byte). */
export class Bytes {
  readonly starlarkType = 'bytes';
  readonly data: string;
  constructor(data: string) {
    this.data = data;
  }
  len(): number {
    return this.data.length;
  }
}
export const isBytes = (x: unknown): x is Bytes => x instanceof Bytes;
