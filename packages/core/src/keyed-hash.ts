import { createHmac } from 'node:crypto';
import { HmacSha256 } from './hmac-sha256.js';

/**
 * Keyed value hashing (HMAC-SHA-256). A bare sha256 of a short value (a timezone, a 4-digit
 * PIN) can be brute-forced from an exported trace; a keyed hash cannot without the local key,
 * while equal values still hash equal within one deployment. The key file: `hash-key-file.ts`.
 */
export interface ValueHasher {
  /** Hex HMAC-SHA-256 of the value (truncated to 32 hex chars: enough to join on, short on spans). */
  hash(value: string | Uint8Array): string;
}

/** A {@link ValueHasher} that can also give the hash as numbers (no text to build per value). */
export interface KeyedValueHasher extends ValueHasher {
  /** The same 16 bytes `hash` shows, as four 32-bit words (most significant byte first), written to `out` at `offset`. */
  hashInto(value: string | Uint8Array, out: Uint32Array, offset: number): void;
}

/** Values up to this many characters (or bytes) are hashed in JavaScript; longer ones by Node's native HMAC, faster on long input. */
const SHORT_VALUE = 1024;

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The four words {@link KeyedValueHasher.hashInto} wrote at `offset`, as the 32 hex characters `hash` gives. */
export function hashHex(words: Uint32Array, offset: number): string {
  let hex = '';
  for (let i = offset; i < offset + 4; i++) {
    const w = words[i]!;
    hex += HEX[w >>> 24]! + HEX[(w >>> 16) & 0xff]! + HEX[(w >>> 8) & 0xff]! + HEX[w & 0xff]!;
  }
  return hex;
}

export function createValueHasher(key: Uint8Array): KeyedValueHasher {
  if (key.length < 16) throw new Error(`hash key too short: ${key.length} bytes, need at least 16`);
  const k = Buffer.from(key);
  const hmac = new HmacSha256(k);
  const words = new Uint32Array(4);
  const hashInto = (value: string | Uint8Array, out: Uint32Array, offset: number): void => {
    if (value.length > SHORT_VALUE) {
      const d = createHmac('sha256', k).update(value).digest();
      for (let i = 0; i < 4; i++) out[offset + i] = d.readUInt32BE(4 * i);
    } else if (typeof value === 'string') hmac.digestText(value, out, offset, 4);
    else hmac.digestBytes(value, out, offset, 4);
  };
  return {
    hash(value) {
      hashInto(value, words, 0);
      return hashHex(words, 0);
    },
    hashInto,
  };
}
