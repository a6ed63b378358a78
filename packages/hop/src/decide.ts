import type { HopDecision } from '@argspan/conventions';
import type { ProbeResult } from './probe.js';

/** What the caller knows about one loop step. */
export interface HopStep {
  /** Step index of the loop (0-based, increasing). */
  index: number;
  /** The step must run locally, whatever else holds. @default false */
  localOnly?: boolean;
  /** Never send a payload that still holds a secret after redaction. @default true */
  forbidRemoteSecrets?: boolean;
  /** The step needs remote capacity (a bigger model, a remote tool); otherwise local is preferred. @default false */
  needRemoteCapacity?: boolean;
  /**
   * The caller's own verdict that the payload still holds a secret after redaction (for example
   * the classifier labelled a leaf `secret`). When unset the runner checks the redacted payload
   * with its residual detector.
   */
  secretsLeft?: boolean;
}

/** Why `decide` answered as it did (one reason per rule, in precedence order). */
export type DecisionReason = 'local-only' | 'secrets-left' | 'probe-failed' | 'lease-live' | 'need-remote-capacity' | 'prefer-local';

/** The lease facts `decide` needs. An expired lease is not live: decide again with a fresh probe. */
export interface LeaseFacts {
  live: boolean;
}

/**
 * Seed 001 `decide(step, probe, lease)`, first matching rule wins:
 * localOnly → local; secrets left after redaction and forbidRemoteSecrets → local;
 * probe failed → queue; live lease → wait; needRemoteCapacity → remote; else local.
 */
export function decide(
  step: HopStep & { secretsLeft: boolean },
  probe: Pick<ProbeResult, 'ok'>,
  lease: LeaseFacts,
): { decision: HopDecision; reason: DecisionReason } {
  if (step.localOnly) return { decision: 'local', reason: 'local-only' };
  if (step.secretsLeft && (step.forbidRemoteSecrets ?? true)) return { decision: 'local', reason: 'secrets-left' };
  if (!probe.ok) return { decision: 'queue', reason: 'probe-failed' };
  if (lease.live) return { decision: 'wait', reason: 'lease-live' };
  if (step.needRemoteCapacity) return { decision: 'remote', reason: 'need-remote-capacity' };
  return { decision: 'local', reason: 'prefer-local' };
}
