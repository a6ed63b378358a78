/**
 * HMAC-SHA-256 (RFC 2104, FIPS 180-4) of short messages, for hashing every argument leaf.
 *
 * Node's `createHmac` builds a native object per message: for the short values arguments hold,
 * that costs twice the hashing itself. Here the key's inner and outer pad blocks are compressed
 * once, and a message of up to 55 bytes then takes two compressions and no allocation; ASCII
 * text that short is read into the block from its char codes (no UTF-8 encoding), and the outer
 * block is built from the inner digest's words. The result is the same function as
 * `createHmac('sha256', key)`; the tests compare the two.
 */

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const INITIAL_STATE = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);

/** The message schedule, reused by every compression (one thread runs one at a time). */
const W = new Int32Array(64);

/** One SHA-256 compression of the 64-byte block at `bytes[at]` into `state`. */
function compress(state: Int32Array, bytes: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++) {
    const j = at + 4 * i;
    W[i] = (bytes[j]! << 24) | (bytes[j + 1]! << 16) | (bytes[j + 2]! << 8) | bytes[j + 3]!;
  }
  compressSchedule(state);
}

/** One SHA-256 compression of the block whose 16 words are already in `W[0, 16)`. */
function compressSchedule(state: Int32Array): void {
  for (let i = 16; i < 64; i++) {
    const w15 = W[i - 15]!;
    const w2 = W[i - 2]!;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
  }
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  let e = state[4]!;
  let f = state[5]!;
  let g = state[6]!;
  let h = state[7]!;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}

/**
 * Pad `bytes[0, length)` as a SHA-256 message that follows `prefixBytes` already-compressed bytes,
 * and compress it into `state`. `bytes` must have room for the padding (72 bytes past `length`).
 */
function finish(state: Int32Array, bytes: Uint8Array, length: number, prefixBytes: number): void {
  let end = length;
  bytes[end++] = 0x80;
  while (end % 64 !== 56) bytes[end++] = 0;
  const bits = (prefixBytes + length) * 8;
  const high = Math.floor(bits / 0x100000000);
  for (let shift = 24; shift >= 0; shift -= 8) bytes[end++] = (high >>> shift) & 0xff;
  for (let shift = 24; shift >= 0; shift -= 8) bytes[end++] = (bits >>> shift) & 0xff;
  for (let at = 0; at < end; at += 64) compress(state, bytes, at);
}

/** SHA-256 of `bytes`, as its eight state words. */
function sha256Words(bytes: Uint8Array): Int32Array {
  const padded = new Uint8Array(bytes.length + 72);
  padded.set(bytes);
  const state = new Int32Array(INITIAL_STATE);
  finish(state, padded, bytes.length, 0);
  return state;
}

/** HMAC-SHA-256 with one key, for many messages. */
export class HmacSha256 {
  private readonly inner = new Int32Array(8);
  private readonly outer = new Int32Array(8);
  private readonly state = new Int32Array(8);
  private buffer = new Uint8Array(256);
  private readonly encoder = new TextEncoder();

  constructor(key: Uint8Array) {
    let k = key;
    if (k.length > 64) {
      const words = sha256Words(k);
      k = new Uint8Array(32);
      for (let i = 0; i < 8; i++) writeWord(k, 4 * i, words[i]!);
    }
    const pad = new Uint8Array(64);
    for (let i = 0; i < 64; i++) pad[i] = (k[i] ?? 0) ^ 0x36;
    this.inner.set(INITIAL_STATE);
    compress(this.inner, pad, 0);
    for (let i = 0; i < 64; i++) pad[i] = (k[i] ?? 0) ^ 0x5c;
    this.outer.set(INITIAL_STATE);
    compress(this.outer, pad, 0);
  }

  /**
   * Write the first `count` (at most 8) 32-bit words of HMAC(key, text as UTF-8) to `out` at
   * `offset`, most significant byte first (word 0 is digest bytes 0–3). A lone surrogate is
   * encoded as U+FFFD, as Node encodes a string.
   */
  digestText(text: string, out: Uint32Array, offset: number, count: number): void {
    if (text.length <= SHORT_ASCII && this.digestShortAscii(text, out, offset, count)) return;
    if (this.buffer.length < 3 * text.length + 72) this.buffer = new Uint8Array(3 * text.length + 72);
    const { written } = this.encoder.encodeInto(text, this.buffer);
    this.digest(this.buffer, written, out, offset, count);
  }

  /** {@link digestText} of bytes. */
  digestBytes(bytes: Uint8Array, out: Uint32Array, offset: number, count: number): void {
    if (this.buffer.length < bytes.length + 72) this.buffer = new Uint8Array(bytes.length + 72);
    this.buffer.set(bytes);
    this.digest(this.buffer, bytes.length, out, offset, count);
  }

  /**
   * {@link digestText} of ASCII text that fits one block with its padding, read into the message
   * schedule straight from its char codes (no UTF-8 buffer); false, having written nothing to
   * `out`, when the text is not ASCII.
   */
  private digestShortAscii(text: string, out: Uint32Array, offset: number, count: number): boolean {
    const n = text.length;
    W.fill(0, 0, 16);
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c > 0x7f) return false;
      W[i >> 2] = W[i >> 2]! | (c << (24 - 8 * (i & 3)));
    }
    W[n >> 2] = W[n >> 2]! | (0x80 << (24 - 8 * (n & 3)));
    // The length in bits, after the 64-byte inner pad block (it fits the low word).
    W[15] = (64 + n) * 8;
    const state = this.state;
    state.set(this.inner);
    compressSchedule(state);
    this.outerDigest(out, offset, count);
    return true;
  }

  private digest(message: Uint8Array, length: number, out: Uint32Array, offset: number, count: number): void {
    const state = this.state;
    state.set(this.inner);
    finish(state, message, length, 64);
    this.outerDigest(out, offset, count);
  }

  /**
   * The outer hash of the inner digest in `state`: its one block is the digest's eight words,
   * then the padding of a 96-byte message (768 bits, after the 64-byte pad block).
   */
  private outerDigest(out: Uint32Array, offset: number, count: number): void {
    const state = this.state;
    for (let i = 0; i < 8; i++) W[i] = state[i]!;
    W[8] = 0x80000000 | 0;
    W.fill(0, 9, 15);
    W[15] = 768;
    state.set(this.outer);
    compressSchedule(state);
    for (let i = 0; i < count; i++) out[offset + i] = state[i]! >>> 0;
  }
}

/** Longest text read by char code into one block: 55 bytes leave room for the 0x80 byte and the 8-byte length. */
const SHORT_ASCII = 55;

function writeWord(bytes: Uint8Array, at: number, word: number): void {
  bytes[at] = word >>> 24;
  bytes[at + 1] = (word >>> 16) & 0xff;
  bytes[at + 2] = (word >>> 8) & 0xff;
  bytes[at + 3] = word & 0xff;
}
