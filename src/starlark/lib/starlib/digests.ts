/**
 * MD5 (RFC 1321), SHA-1 and SHA-256 (FIPS 180-4) over binary strings (one byte per char), as
 * lowercase hex. Synchronous and dependency-free so Starlark builtins can call them in browsers.
 */

function toBlocks(data: string, bigEndian: boolean): Uint32Array {
  const n = data.length;
  const words = (((n + 8) >> 6) + 1) * 16;
  const w = new Uint32Array(words);
  for (let i = 0; i < n; i++) {
    const shift = bigEndian ? 24 - (i % 4) * 8 : (i % 4) * 8;
    w[i >> 2] |= (data.charCodeAt(i) & 255) << shift;
  }
  const i = n;
  w[i >> 2] |= 0x80 << (bigEndian ? 24 - (i % 4) * 8 : (i % 4) * 8);
  const bitsLo = (n * 8) >>> 0;
  const bitsHi = Math.floor(n / 0x20000000) >>> 0;
  if (bigEndian) {
    w[words - 1] = bitsLo;
    w[words - 2] = bitsHi;
  } else {
    w[words - 2] = bitsLo;
    w[words - 1] = bitsHi;
  }
  return w;
}

const hex = (v: number, littleEndian: boolean): string => {
  const x = littleEndian ? ((v & 255) << 24) | (((v >>> 8) & 255) << 16) | (((v >>> 16) & 255) << 8) | (v >>> 24) : v;
  return (x >>> 0).toString(16).padStart(8, '0');
};

const rotl = (x: number, n: number): number => (x << n) | (x >>> (32 - n));

const MD5_S = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
const MD5_K = Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) >>> 0);

export function md5Hex(data: string): string {
  const w = toBlocks(data, false);
  let a0 = 0x67452301,
    b0 = 0xefcdab89,
    c0 = 0x98badcfe,
    d0 = 0x10325476;
  for (let off = 0; off < w.length; off += 16) {
    let a = a0,
      b = b0,
      c = c0,
      d = d0;
    for (let i = 0; i < 64; i++) {
      let f: number, g: number;
      const round = i >> 4;
      if (round === 0) {
        f = (b & c) | (~b & d);
        g = i;
      } else if (round === 1) {
        f = (d & b) | (~d & c);
        g = (5 * i + 1) & 15;
      } else if (round === 2) {
        f = b ^ c ^ d;
        g = (3 * i + 5) & 15;
      } else {
        f = c ^ (b | ~d);
        g = (7 * i) & 15;
      }
      const tmp = d;
      d = c;
      c = b;
      b = (b + rotl((a + f + MD5_K[i] + w[off + g]) | 0, MD5_S[(round << 2) | (i & 3)])) | 0;
      a = tmp;
    }
    a0 = (a0 + a) | 0;
    b0 = (b0 + b) | 0;
    c0 = (c0 + c) | 0;
    d0 = (d0 + d) | 0;
  }
  return [a0, b0, c0, d0].map((v) => hex(v, true)).join('');
}

export function sha1Hex(data: string): string {
  const w = toBlocks(data, true);
  const h = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
  const x = new Int32Array(80);
  for (let off = 0; off < w.length; off += 16) {
    for (let i = 0; i < 16; i++) x[i] = w[off + i]!;
    for (let i = 16; i < 80; i++) x[i] = rotl(x[i - 3] ^ x[i - 8] ^ x[i - 14] ^ x[i - 16], 1);
    let [a, b, c, d, e] = h as [number, number, number, number, number];
    for (let i = 0; i < 80; i++) {
      let f: number, k: number;
      if (i < 20) {
        f = (b & c) | (~b & d);
        k = 0x5a827999;
      } else if (i < 40) {
        f = b ^ c ^ d;
        k = 0x6ed9eba1;
      } else if (i < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = 0x8f1bbcdc;
      } else {
        f = b ^ c ^ d;
        k = 0xca62c1d6;
      }
      const t = (rotl(a, 5) + f + e + k + x[i]) | 0;
      e = d;
      d = c;
      c = rotl(b, 30);
      b = a;
      a = t;
    }
    h[0] = (h[0] + a) | 0;
    h[1] = (h[1] + b) | 0;
    h[2] = (h[2] + c) | 0;
    h[3] = (h[3] + d) | 0;
    h[4] = (h[4] + e) | 0;
  }
  return h.map((v) => hex(v, false)).join('');
}

const SHA256_K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

export function sha256Hex(data: string): string {
  const w = toBlocks(data, true);
  const h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  const x = new Int32Array(64);
  for (let off = 0; off < w.length; off += 16) {
    for (let i = 0; i < 16; i++) x[i] = w[off + i]!;
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(x[i - 15], 7) ^ rotr(x[i - 15], 18) ^ (x[i - 15] >>> 3);
      const s1 = rotr(x[i - 2], 17) ^ rotr(x[i - 2], 19) ^ (x[i - 2] >>> 10);
      x[i] = (x[i - 16] + s0 + x[i - 7] + s1) | 0;
    }
    let [a, b, c, d, e, f, g, hh] = h as [number, number, number, number, number, number, number, number];
    for (let i = 0; i < 64; i++) {
      const S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + SHA256_K[i] + x[i]) | 0;
      const S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    const out = [a, b, c, d, e, f, g, hh];
    for (let i = 0; i < 8; i++) h[i] = (h[i] + out[i]) | 0;
  }
  return h.map((v) => hex(v, false)).join('');
}
