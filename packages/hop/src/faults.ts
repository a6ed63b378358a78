/**
 * Named points of the protocol where a test may inject a fault (a crash, a pause). The runner
 * calls the `faults` hook at each one; production code passes no hook.
 */

/** Durable writes, each `${kind}:${stage}`. */
export const WRITE_KINDS = [
  'checkpoint-intent',
  'checkpoint-done',
  'checkpoint-queued',
  'checkpoint-local',
  'checkpoint-failed',
  'lease',
  'release',
  'enqueue',
  'queue-done',
] as const;
export type WriteKind = (typeof WRITE_KINDS)[number];

export const WRITE_STAGES = ['before-write', 'after-write', 'after-fsync', 'after-rename', 'after-dir-fsync'] as const;
export type WriteStage = (typeof WRITE_STAGES)[number];

/** Protocol steps between writes. */
export const PROTOCOL_POINTS = [
  'probe:after',
  'lease:after-acquire',
  'send:before',
  'send:after-fence-check',
  'send:after-response',
  'release:after',
  'dequeue:before-unlink',
  'dequeue:after-unlink',
] as const;
export type ProtocolPoint = (typeof PROTOCOL_POINTS)[number];

export type HopFaultPoint = `${WriteKind}:${WriteStage}` | ProtocolPoint;

/** Test hook: called at every fault point; may throw, never return, or kill the process. */
export type FaultHook = (point: HopFaultPoint) => void | Promise<void>;
