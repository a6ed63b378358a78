import { readFileSync } from 'node:fs';

let cached: string | undefined;

/**
 * This machine's boot id (Linux `/proc/sys/kernel/random/boot_id`). A lease written under another
 * boot id belongs to a process that died with that boot. `unknown` when the platform has none:
 * then dead holders are never detected and leases simply expire.
 */
export function currentBootId(): string {
  if (cached !== undefined) return cached;
  try {
    cached = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || 'unknown';
  } catch {
    cached = 'unknown';
  }
  return cached;
}

export { isProcessAlive } from '@argspan/core/internal';
