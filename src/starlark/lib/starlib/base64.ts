/**
 * `load("encoding/base64.star", "base64")`: qri-io/starlib v0.5.0 `encoding/base64/base64.go`.
 * `encode(data, encoding="standard")`, `decode(data, encoding="standard")`; encodings `standard`,
 * `standard_raw`, `url`, `url_raw` (Go's StdEncoding, RawStdEncoding, URLEncoding, RawURLEncoding).
 * Decoding follows Go's `encoding/base64` (newlines ignored, padding checked, errors
 * `illegal base64 data at input byte N`); strings are binary on both sides.
 */
import { Builtin } from '../../value/builtin.ts';
import type { Kwargs, Thread, Value } from '../../value/contract.ts';
import { fail } from '../../value/errors.ts';
import { Module } from '../../value/struct.ts';
import { unpack, wantString } from '../args.ts';
import { quote } from '../../value/string.ts';

const STD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export interface Encoding {
  alphabet: string;
  pad: boolean;
  decodeMap: Int16Array;
}

function encoding(alphabet: string, pad: boolean): Encoding {
  const decodeMap = new Int16Array(256).fill(-1);
  for (let i = 0; i < alphabet.length; i++) decodeMap[alphabet.charCodeAt(i)] = i;
  return { alphabet, pad, decodeMap };
}

export const STANDARD_BASE64 = encoding(STD, true);

const ENCODINGS: Readonly<Record<string, Encoding>> = {
  standard: STANDARD_BASE64,
  standard_raw: encoding(STD, false),
  url: encoding(URL, true),
  url_raw: encoding(URL, false),
};

function select(name: string): Encoding {
  const e = ENCODINGS[name === '' ? 'standard' : name];
  // Upstream formats the starlark.String with %s: its quoted Starlark form.
  if (!e) fail(`unsupported encoding format: ${quote(name)}`);
  return e;
}

export function base64Encode(data: string, enc: Encoding): string {
  const a = enc.alphabet;
  let out = '';
  let i = 0;
  for (; i + 2 < data.length; i += 3) {
    const v = (data.charCodeAt(i) << 16) | (data.charCodeAt(i + 1) << 8) | data.charCodeAt(i + 2);
    out += a[(v >> 18) & 63] + a[(v >> 12) & 63] + a[(v >> 6) & 63] + a[v & 63];
  }
  const rest = data.length - i;
  if (rest > 0) {
    const v = (data.charCodeAt(i) << 16) | (rest === 2 ? data.charCodeAt(i + 1) << 8 : 0);
    out += a[(v >> 18) & 63] + a[(v >> 12) & 63];
    if (rest === 2) out += a[(v >> 6) & 63];
    if (enc.pad) out += rest === 2 ? '=' : '==';
  }
  return out;
}

const corrupt = (at: number): never => fail(`illegal base64 data at input byte ${at}`);
const isNewline = (c: number): boolean => c === 10 || c === 13;

/** Go's `(*Encoding).DecodeString` (non-strict): the decoded bytes or its CorruptInputError. */
export function base64Decode(src: string, enc: Encoding): string {
  let out = '';
  let si = 0;
  while (si < src.length) {
    const buf = [0, 0, 0, 0];
    let dlen = 4;
    let trailing = -1;
    let j = 0;
    for (; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return out;
        if (j === 1 || enc.pad) corrupt(si - j);
        dlen = j;
        break;
      }
      const c = src.charCodeAt(si++);
      const v = c < 256 ? enc.decodeMap[c] : -1;
      if (v >= 0) {
        buf[j] = v;
        continue;
      }
      if (isNewline(c)) {
        j--;
        continue;
      }
      if (!enc.pad || c !== 61) corrupt(si - 1);
      if (j < 2) corrupt(si - 1);
      if (j === 2) {
        while (si < src.length && isNewline(src.charCodeAt(si))) si++;
        if (si === src.length) corrupt(src.length);
        if (src.charCodeAt(si) !== 61) corrupt(si - 1);
        si++;
      }
      while (si < src.length && isNewline(src.charCodeAt(si))) si++;
      if (si < src.length) trailing = si;
      dlen = j;
      break;
    }
    const v = (buf[0] << 18) | (buf[1] << 12) | (buf[2] << 6) | buf[3];
    const bytes = [(v >> 16) & 255, (v >> 8) & 255, v & 255];
    for (let k = 0; k < dlen - 1; k++) out += String.fromCharCode(bytes[k]);
    if (trailing >= 0) corrupt(trailing);
    if (dlen < 4) return out;
  }
  return out;
}

function method(name: string, run: (data: string, enc: Encoding) => string): Builtin {
  return new Builtin(name, (thread: Thread, args: Value[], kwargs: Kwargs) => {
    const { values, labels } = unpack(name, args, kwargs, ['data', 'encoding?'], thread.release);
    const data = wantString(name, labels[0], values[0]!);
    const enc = select(values[1] === undefined ? '' : wantString(name, labels[1], values[1]));
    thread.alloc(2 * data.length);
    return run(data, enc);
  });
}

export const BASE64_MODULE = new Module('base64', {
  encode: method('encode', base64Encode),
  decode: method('decode', base64Decode),
});
