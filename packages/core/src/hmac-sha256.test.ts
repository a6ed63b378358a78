import { createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HmacSha256 } from './hmac-sha256.js';
import { createValueHasher } from './keyed-hash.js';

const nodeHmac = (key: Uint8Array, value: string | Uint8Array) => createHmac('sha256', key).update(value).digest();

function words(hmac: HmacSha256, value: string | Uint8Array): Buffer {
  const out = new Uint32Array(8);
  if (typeof value === 'string') hmac.digestText(value, out, 0, 8);
  else hmac.digestBytes(value, out, 0, 8);
  const bytes = Buffer.alloc(32);
  out.forEach((w, i) => bytes.writeUInt32BE(w, 4 * i));
  return bytes;
}

// Any UTF-16 code unit, lone surrogates included.
const anyText = (maxLength: number) => fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength });
const keys = fc.oneof(fc.uint8Array({ minLength: 16, maxLength: 200 }), fc.constantFrom(16, 32, 63, 64, 65, 128).map((n) => new Uint8Array(randomBytes(n))));

describe('HmacSha256', () => {
  it('is createHmac("sha256") for every length around the block boundaries', () => {
    const key = randomBytes(32);
    const hmac = new HmacSha256(key);
    for (let n = 0; n <= 300; n++) {
      const bytes = randomBytes(n);
      expect(words(hmac, bytes)).toEqual(nodeHmac(key, bytes));
      const text = 'é'.repeat(n % 7) + 'x'.repeat(n);
      expect(words(hmac, text)).toEqual(nodeHmac(key, text));
    }
  });

  it('is createHmac("sha256") for any key (longer than a block: hashed first) and any text or bytes', () => {
    fc.assert(
      fc.property(keys, fc.oneof(anyText(300), fc.string({ unit: 'binary', maxLength: 100 }), fc.uint8Array({ maxLength: 300 })), (key, value) => {
        expect(words(new HmacSha256(key), value)).toEqual(nodeHmac(key, value));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('createValueHasher', () => {
  it('gives the first 16 bytes of the HMAC as hex and as words, short values and long ones alike', () => {
    const key = randomBytes(32);
    const hasher = createValueHasher(key);
    fc.assert(
      fc.property(fc.oneof(anyText(40), fc.uint8Array({ maxLength: 40 }), fc.integer({ min: 1000, max: 5000 }).map((n) => 'a'.repeat(n))), (value) => {
        const expected = nodeHmac(key, value).subarray(0, 16);
        expect(hasher.hash(value)).toBe(expected.toString('hex'));
        const out = new Uint32Array(6);
        hasher.hashInto(value, out, 1);
        expect([...out]).toEqual([0, ...[0, 1, 2, 3].map((i) => expected.readUInt32BE(4 * i)), 0]);
      }),
      { numRuns: 500 },
    );
  });
});
