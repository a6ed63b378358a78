import { createHmac } from 'node:crypto';

/** Derives idempotency keys for one deployment. */
export type IdempotencyKeyer = (runId: string, step: number, fingerprint: string) => string;

/**
 * The idempotency key of a hop: a function of run id, step index and payload fingerprint only,
 * so every retry — after a 409, a timeout, a crash and a reboot — carries the same key. It is
 * keyed (HMAC with a sub-key of the local hash key): run id, step and fingerprint are all on
 * spans, so an unkeyed hash of them could be recomputed by anyone who reads the traces. The key
 * is handed to the sender and nowhere else: never written to the state directory, never put on a
 * span (neither is any hash of it).
 */
export function createIdempotencyKeyer(hashKey: Uint8Array): IdempotencyKeyer {
  const subKey = createHmac('sha256', Buffer.from(hashKey)).update('argspan.hop.idempotency-key.v1').digest();
  return (runId, step, fingerprint) => createHmac('sha256', subKey).update(`${runId}\0${step}\0${fingerprint}`).digest('hex');
}
