import { createHmac, randomBytes } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { makeDirectorySync } from './make-directory.js';
import { join } from 'node:path';

/**
 * Keyed value hashing (HMAC-SHA-256). A bare sha256 of a short value (a timezone, a 4-digit
 * PIN) can be brute-forced from an exported trace; a keyed hash cannot without the local key,
 * while equal values still hash equal within one deployment.
 */
export interface ValueHasher {
  /** Hex HMAC-SHA-256 of the value (truncated to 32 hex chars: enough to join on, short on spans). */
  hash(value: string | Uint8Array): string;
}

export const HASH_KEY_FILE = 'hash.key';
const KEY_BYTES = 32;

export function createValueHasher(key: Uint8Array): ValueHasher {
  if (key.length < 16) throw new Error(`hash key too short: ${key.length} bytes, need at least 16`);
  const k = Buffer.from(key);
  return {
    hash: (value) => createHmac('sha256', k).update(value).digest('hex').slice(0, 32),
  };
}

/**
 * Load the local hash key from `stateDir/hash.key`, creating it (32 random bytes, mode 0600,
 * exclusive create so two processes never end up with different keys) on first use.
 */
export async function loadOrCreateHashKey(stateDir: string): Promise<Buffer> {
  const file = join(stateDir, HASH_KEY_FILE);
  makeDirectorySync(stateDir, 0o700);
  try {
    await writeFile(file, randomBytes(KEY_BYTES).toString('hex') + '\n', { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const text = (await readFile(file, 'utf8')).trim();
  if (!/^[0-9a-f]{32,}$/.test(text)) {
    throw new Error(`hash key file ${file} is not hex (corrupt?): delete it to create a new key`);
  }
  await chmod(file, 0o600);
  return Buffer.from(text, 'hex');
}
