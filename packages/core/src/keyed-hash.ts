import { createHmac } from 'node:crypto';

/**
 * Keyed value hashing (HMAC-SHA-256). A bare sha256 of a short value (a timezone, a 4-digit
 * PIN) can be brute-forced from an exported trace; a keyed hash cannot without the local key,
 * while equal values still hash equal within one deployment. The key file: `hash-key-file.ts`.
 */
export interface ValueHasher {
  /** Hex HMAC-SHA-256 of the value (truncated to 32 hex chars: enough to join on, short on spans). */
  hash(value: string | Uint8Array): string;
}

export function createValueHasher(key: Uint8Array): ValueHasher {
  if (key.length < 16) throw new Error(`hash key too short: ${key.length} bytes, need at least 16`);
  const k = Buffer.from(key);
  return {
    hash: (value) => createHmac('sha256', k).update(value).digest('hex').slice(0, 32),
  };
}
