import { resolve } from 'node:path';
import { createValueHasher, loadOrCreateHashKey } from '@argspan/core';
import type { ValueHasher } from '@argspan/core';

const byStateDir = new Map<string, Promise<ValueHasher>>();

/**
 * The value hasher for a config: from the given key, or from `{stateDir}/hash.key` (created on
 * first use, mode 0600). Loading is shared per state directory so every wrapper in a process
 * hashes with the same key.
 */
export function hasherFor(hashKey: Uint8Array | undefined, stateDir: string): Promise<ValueHasher> {
  if (hashKey) return Promise.resolve(createValueHasher(hashKey));
  const dir = resolve(stateDir);
  let p = byStateDir.get(dir);
  if (!p) {
    p = loadOrCreateHashKey(dir).then(createValueHasher);
    // A failed load is not cached: the next call tries again (and fails closed again if it must).
    p.catch(() => byStateDir.delete(dir));
    byStateDir.set(dir, p);
  }
  return p;
}
