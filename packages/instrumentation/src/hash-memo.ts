import type { ValueHasher } from '@argspan/core';

/** Values longer than this are never memoised (keeps the memo's memory small and bounded). */
export const MAX_MEMO_VALUE_CHARS = 512;

/**
 * Keyed hashes of recently seen values. Agents repeat values across calls (the same attendee,
 * path, repository, account), and an HMAC costs microseconds, so equal values are hashed once.
 * Bounded: when `capacity` values are held the memo starts over. Callers never memoise secret
 * or dirty-tree values, so the memo holds only values that may appear in an excerpt anyway,
 * and only in this process's memory.
 */
export class HashMemo {
  private readonly memo = new Map<string, string>();

  constructor(
    private readonly hasher: ValueHasher,
    private readonly capacity: number,
  ) {}

  /** The keyed hash of `text`; memoised only when `cacheable` and the value is short. */
  hash(text: string, cacheable: boolean): string {
    if (!cacheable || this.capacity === 0 || text.length > MAX_MEMO_VALUE_CHARS) return this.hasher.hash(text);
    let h = this.memo.get(text);
    if (h === undefined) {
      h = this.hasher.hash(text);
      if (this.memo.size >= this.capacity) this.memo.clear();
      this.memo.set(text, h);
    }
    return h;
  }

  /** Values currently memoised. */
  get size(): number {
    return this.memo.size;
  }
}
