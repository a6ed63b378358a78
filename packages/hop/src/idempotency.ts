import { createHash } from 'node:crypto';

/**
 * The idempotency key of a hop: a function of run id, step index and payload fingerprint only,
 * so every retry — after a 409, a timeout, a crash and a reboot — carries the same key. It is
 * handed to the sender and nowhere else: never written to the state directory, never put on a
 * span (neither is any hash of it).
 */
export function idempotencyKey(runId: string, step: number, fingerprint: string): string {
  return createHash('sha256').update(`argspan.hop.v1\0${runId}\0${step}\0${fingerprint}`).digest('hex');
}
