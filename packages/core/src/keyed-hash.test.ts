import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createValueHasher } from './keyed-hash.js';

describe('keyed value hashing', () => {
  it('is not a bare sha256, is stable per key and differs across keys', () => {
    const h1 = createValueHasher(Buffer.alloc(32, 1));
    const h2 = createValueHasher(Buffer.alloc(32, 2));
    expect(h1.hash('UTC')).toBe(h1.hash('UTC'));
    expect(h1.hash('UTC')).not.toBe(h2.hash('UTC'));
    expect(createHash('sha256').update('UTC').digest('hex')).not.toContain(h1.hash('UTC'));
  });

  it('rejects a key that is too short', () => {
    expect(() => createValueHasher(Buffer.alloc(4))).toThrow(/too short/);
  });
});
