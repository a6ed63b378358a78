import type { DecisionReason, HopStep } from './decide.js';
import type { HopDecision } from '@argspan/conventions';
import type { SecretDetector } from '@argspan/core';
import type { Checkpoint } from './checkpoint-store.js';
import type { Clock } from './clock.js';
import type { HopEventSink } from './events.js';
import type { FaultHook } from './faults.js';
import type { HopFs } from './fs-layer.js';
import type { HopSend } from './http-sender.js';
import type { LeaseView } from './lease.js';
import type { ProbeFn, ProbeTarget } from './probe.js';
import type { QuarantineReport } from './quarantine.js';

/** Configuration of {@link createHopRunner}. Everything but `probe` has a safe default. */
export interface HopRunnerOptions {
  /** State directory (checkpoint, lease, queue, quarantine, hash key). @default '.loop-state' (relative to the working directory) */
  stateDir?: string;
  /**
   * Run id; part of every idempotency key. @default the run id of the checkpoint on disk, else a new random UUID
   */
  runId?: string;
  /** The loop's goal, stored redacted in every checkpoint. @default the checkpoint's goal, else '' */
  goal?: string;
  /** How to tell whether the remote is reachable: a TCP(+HTTP) target or your own function. */
  probe: ProbeTarget | ProbeFn;
  /** Time source (inject to test clock jumps). @default systemClock */
  clock?: Clock;
  /** File-system layer (inject to test ENOSPC/EACCES). @default nodeFs */
  fs?: HopFs;
  /** Detector used to redact everything before it is written or sent. @default defaultSecretDetector from @argspan/core */
  detector?: SecretDetector;
  /** Detector run on the redacted payload to find secrets left after redaction. @default the `detector` */
  residualDetector?: SecretDetector;
  /** Key for payload fingerprints (HMAC). @default the state directory's `hash.key` (created on first use) */
  hashKey?: Uint8Array;
  /** Lease lifetime, ms. Must exceed one send (including 409 retries). @default 30000 */
  leaseTtlMs?: number;
  /** Longest a call waits for another holder's lease before returning `wait`, ms. @default leaseTtlMs */
  leaseWaitMs?: number;
  /** Poll interval while waiting for a lease, ms. @default 25 */
  pollMs?: number;
  /** A holder stops trusting its lease this long before it ends, ms. @default min(1000, leaseTtlMs / 10) */
  leaseSafetyMarginMs?: number;
  /** A lease acquired more than this far in the future was written before a backwards clock jump and no longer counts, ms. @default 60000 */
  maxClockSkewMs?: number;
  /**
   * fsync lease files and the directory (on acquire and on release). Off by default: a lease only coordinates
   * processes of the current boot (see README, "Durability of leases"). @default false
   */
  fsyncLease?: boolean;
  /** Default event sink (an OpenTelemetry Span works). Per-call sinks are added to it. */
  span?: HopEventSink;
  /** Called for every state file moved to quarantine (also recorded as an event). */
  onQuarantine?: (report: QuarantineReport) => void;
  /** Test hook called at every named protocol step (crash injection). @default none */
  faults?: FaultHook;
  /** Whether a pid is alive (dead holders' leases are taken over at once). @default process.kill(pid, 0) */
  isProcessAlive?: (pid: number) => boolean;
}

/** One remote hop for {@link HopRunner.runHop}. */
export interface RunHopInput {
  step: HopStep;
  /** What would be sent: a string (redacted as text), or any JSON value (redacted value by value and key by key, then serialised as JSON.stringify would). */
  payload: unknown;
  /** Sends the redacted payload (see `createHttpSender`). */
  send: HopSend;
  /** Event sink for this call (the tool-call span). */
  span?: HopEventSink;
  /** Probe for this call instead of the runner's. */
  probe?: ProbeTarget | ProbeFn;
  /** Flags merged into the checkpoint. */
  flags?: Record<string, boolean>;
}

/** What {@link HopRunner.runHop} did. */
export type HopOutcome =
  | {
      decision: 'remote';
      reason: DecisionReason | 'replayed';
      /** HTTP status (0 when replayed from the checkpoint). */
      status: number;
      /** Response body; when replayed, the redacted copy from the checkpoint. */
      output: string;
      rttMs: number;
      epoch: number;
      /** True when the checkpoint already held this step's result: nothing was sent. */
      replayed: boolean;
      fingerprint: string;
    }
  | { decision: 'local'; reason: DecisionReason | 'replayed'; replayed: boolean; output?: string; fingerprint: string }
  | { decision: 'queue'; reason: DecisionReason | 'replayed'; queueSeq: number; replayed: boolean; fingerprint: string }
  | { decision: 'wait'; reason: DecisionReason; waitedMs: number; fingerprint: string };

/** Input of {@link HopRunner.drainQueue}. */
export interface DrainInput {
  send: HopSend;
  span?: HopEventSink;
  probe?: ProbeTarget | ProbeFn;
  /** Stop after this many items. @default Infinity */
  maxItems?: number;
}

/** One item drained. */
export interface DrainedItem {
  seq: number;
  runId: string;
  step: number;
  status: number;
  /** Redacted response body. */
  output: string;
  /** True when the item had already been sent (before a crash) and was only finished now. */
  finishedOnly: boolean;
}

/** What {@link HopRunner.drainQueue} did. */
export interface DrainReport {
  drained: DrainedItem[];
  /** Items still queued. */
  remaining: number;
  /** Why draining stopped before the queue was empty. */
  stopped?: 'probe-failed' | 'lease-busy' | 'max-items';
}

/** What {@link HopRunner.boot} found. */
export interface BootReport {
  runId: string;
  /** Newest good checkpoint (undefined on a fresh state directory). */
  checkpoint: Checkpoint | undefined;
  /** Step to run next: the checkpoint's step when it was only `intent`, else the one after. */
  resumeStep: number;
  queueDepth: number;
  lease: LeaseView;
  /** Files quarantined while booting. */
  quarantined: QuarantineReport[];
}

export type { HopDecision };
