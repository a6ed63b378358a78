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

/** True when a process with this pid exists (EPERM counts as alive). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
