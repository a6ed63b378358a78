import { Enforcement, GateAction, Residency, ResidencyRule, Verdict } from '@argspan/conventions';
import { assumedValuesPhrase } from './gate.js';
import type { CallClassification, EnforcementDecision, GatePolicy } from './types.js';

/** What {@link decideEnforcement} reads of a classification. */
export type EnforcementInput = Pick<CallClassification, 'tool' | 'residency' | 'verdict' | 'reason' | 'gate' | 'failedClosed' | 'limits'>;

/**
 * What the wrapper does with a classified call, first matching row wins (the core README's
 * enforcement table):
 * 1. classification failed closed → deny;
 * 2. the call's residency is in `denyResidencies` (default: secret) → deny — its result would
 *    carry the secret back to the model; so is a call not read whole while `denyResidencies`
 *    is set (leaves past `maxLeaves`, text past `maxStringLength`): padding must not hide `.env`;
 * 3. a tool in `remoteTools` with verdict `refuse`, or with secret, dirty-tree or unknown
 *    arguments → deny — running it sends the arguments off this machine;
 * 4. inferred-field gate `block` → deny; `ask` → hold for the one clarifying question (the gate
 *    applies `inferredAction` to model-inferred values, `noEvidenceAction` to no_evidence ones);
 * 5. verdict `remote-ok` with a remote hop configured → hop;
 * 6. otherwise → run (a `refuse` verdict refuses the remote hop, not a tool on this machine).
 * Pure; the reason names rules, residencies, tools and keys, never a value.
 */
export function decideEnforcement(c: EnforcementInput, policy: GatePolicy, remoteHop: boolean): EnforcementDecision {
  if (c.failedClosed) return { action: Enforcement.DENY, rule: 'fail-closed', reason: `denied: ${c.reason}` };
  if (policy.denyResidencies.includes(c.residency)) {
    return { action: Enforcement.DENY, rule: 'deny-residency', reason: `denied: ${c.reason}; a ${c.residency} call is not dispatched, because its result goes back to the model (denyResidencies)` };
  }
  const unread = c.limits.filter((l) => l === 'leaves' || l === 'string');
  if (policy.denyResidencies.length > 0 && unread.length > 0) {
    const limits = unread.map((l) => (l === 'leaves' ? 'maxLeaves' : 'maxStringLength')).join(', ');
    return {
      action: Enforcement.DENY,
      rule: 'deny-residency',
      reason: `denied: arguments past the flattening limits (rule ${ResidencyRule.FLATTEN_LIMIT}: ${limits}) were not read, so the call cannot be shown free of ${policy.denyResidencies.join(', ')} (denyResidencies)`,
    };
  }
  const remoteTool = policy.remoteTools.includes(c.tool);
  if (remoteTool && (c.verdict === Verdict.REFUSE || !PUBLIC.has(c.residency))) {
    return { action: Enforcement.DENY, rule: 'remote-tool', reason: `denied: ${c.reason}; tool ${c.tool} runs off this machine (remoteTools)` };
  }
  if (c.gate.action === GateAction.BLOCK) {
    const inferred = c.gate.hits.length - (c.gate.noEvidenceHits?.length ?? 0);
    const option = inferred > 0 && policy.inferredAction === 'block' ? 'inferredAction' : 'noEvidenceAction';
    return { action: Enforcement.DENY, rule: 'inferred-field', reason: `denied: ${assumedValuesPhrase(c.gate)} (${option} block)` };
  }
  if (c.gate.action === GateAction.ASK) {
    return { action: Enforcement.HOLD, rule: 'inferred-field', reason: `held for one clarifying question: ${assumedValuesPhrase(c.gate)}` };
  }
  if (c.verdict === Verdict.REMOTE_OK && remoteHop) return { action: Enforcement.HOP, rule: 'remote-ok', reason: `${c.reason}; sent through the remote hop` };
  if (remoteTool) return { action: Enforcement.RUN, rule: 'remote-tool', reason: `${c.reason}; tool ${c.tool} runs off this machine with public arguments` };
  return { action: Enforcement.RUN, rule: 'local-tool', reason: `${c.reason}; runs on this machine` };
}

const PUBLIC: ReadonlySet<string> = new Set([Residency.BULKY_PUBLIC, Residency.TINY_PUBLIC]);
