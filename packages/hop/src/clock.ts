import { setTimeout as delay } from 'node:timers/promises';

/**
 * Time source of the hop protocol. Injectable so tests can jump the wall clock forwards and
 * backwards. Lease expiry across processes uses `now()` (wall time, written into the lease);
 * a holder's own deadline uses `monotonic()`, so a wall-clock jump never extends its lease.
 */
export interface Clock {
  /** Wall-clock time in ms since the epoch. */
  now(): number;
  /** Monotonic time in ms (never jumps); only differences are meaningful. */
  monotonic(): number;
  /** Resolve after `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
}

/** The real clock: `Date.now()`, `performance.now()`, `setTimeout`. */
export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  sleep: (ms) => delay(Math.max(0, ms)),
};
