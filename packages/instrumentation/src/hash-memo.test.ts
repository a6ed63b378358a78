import { describe, expect, it } from 'vitest';
import { HashMemo, MAX_MEMO_VALUE_CHARS } from './hash-memo.js';

function counting() {
  const calls: string[] = [];
  return { calls, hasher: { hash: (v: string | Uint8Array) => (calls.push(String(v)), `h(${String(v)})`) } };
}

describe('HashMemo', () => {
  it('hashes an equal cacheable value once and returns the same hash', () => {
    const { calls, hasher } = counting();
    const m = new HashMemo(hasher, 10);
    expect([m.hash('Tokyo', true), m.hash('Tokyo', true)]).toEqual(['h(Tokyo)', 'h(Tokyo)']);
    expect(calls).toEqual(['Tokyo']);
  });

  it('never keeps uncacheable (secret, dirty-tree) or long values', () => {
    const { calls, hasher } = counting();
    const m = new HashMemo(hasher, 10);
    m.hash('CANARY', false);
    m.hash('CANARY', false);
    const long = 'x'.repeat(MAX_MEMO_VALUE_CHARS + 1);
    m.hash(long, true);
    m.hash(long, true);
    expect(calls).toHaveLength(4);
    expect(m.size).toBe(0);
  });

  it('stays within its capacity, and capacity 0 disables it', () => {
    const { hasher } = counting();
    const m = new HashMemo(hasher, 3);
    for (let i = 0; i < 10; i++) m.hash(`v${i}`, true);
    expect(m.size).toBeLessThanOrEqual(3);
    const off = new HashMemo(hasher, 0);
    off.hash('a', true);
    expect(off.size).toBe(0);
  });
});
