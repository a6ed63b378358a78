import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { createValueHasher, redactName } from '@argspan/core';
import { loadOrCreateHashKey } from '@argspan/core/internal';
import type { ValueHasher } from '@argspan/core';

/** Environment variable holding the hash key as hex (at least 32 hex digits), shared by processes that must join hashes. */
export const HASH_KEY_ENV = 'ARGSPAN_HASH_KEY';

const byStateDir = new Map<string, Promise<ValueHasher>>();

/**
 * A hash key given in the environment, or undefined. A malformed one throws a RangeError naming
 * the variable (never its value): silently ignoring it would break hash joins unnoticed.
 */
export function hashKeyFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): Uint8Array | undefined {
  const hex = env[HASH_KEY_ENV]?.trim();
  if (hex === undefined || hex === '') return undefined;
  if (!/^(?:[0-9a-fA-F]{2}){16,}$/.test(hex)) {
    throw new RangeError(`argspan: ${HASH_KEY_ENV} must be at least 32 hex digits (an even number of them)`);
  }
  return Buffer.from(hex, 'hex');
}

/**
 * The value hasher: the given key (the configured one, else `ARGSPAN_HASH_KEY`'s, see
 * {@link hashKeyFromEnv}); else the key in `{stateDir}/hash.key` (created on first use, mode 0600); and when the state directory cannot
 * be used (a read-only working directory, a corrupt key file), a per-process key with one warning
 * that hashes will not join across processes — the gate and the spans never depend on the disk.
 * Loading is shared per state directory so every wrapper in a process hashes with the same key.
 * Never rejects.
 */
export function hasherFor(hashKey: Uint8Array | undefined, stateDir: string): Promise<ValueHasher> {
  if (hashKey) return Promise.resolve(createValueHasher(hashKey));
  const dir = resolve(stateDir);
  let p = byStateDir.get(dir);
  if (!p) {
    p = loadOrCreateHashKey(dir).then(createValueHasher, (err: unknown) => {
      const cause = err instanceof Error ? ((err as NodeJS.ErrnoException).code ?? err.name) : 'unknown';
      process.emitWarning(
        `cannot use the hash key in ${redactName(dir)} (${cause}); value hashes use a per-process key and will not join across processes. Set ${HASH_KEY_ENV} or a writable stateDir.`,
        { code: 'ARGSPAN_EPHEMERAL_HASH_KEY' },
      );
      return createValueHasher(randomBytes(32));
    });
    byStateDir.set(dir, p);
  }
  return p;
}
