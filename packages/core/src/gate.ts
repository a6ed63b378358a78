import {
  DEFAULT_DENY_INFERRED,
  GateAction,
  Provenance,
  RESIDENCY_STRENGTH,
  Residency,
  ResidencyRule,
  Verdict,
} from '@argspan/conventions';
import type { GateOutcome, GatePolicy, LeafClassification } from './types.js';

export const DEFAULT_GATE_POLICY: Readonly<GatePolicy> = {
  remoteAllowlist: [],
  localTools: [],
  denyInferred: DEFAULT_DENY_INFERRED,
  inferredAction: 'ask',
  bulkyThreshold: 8192,
  strictPublic: false,
};

/** Fill in a policy from partial options, validating what would otherwise fail open. */
export function resolvePolicy(options: Partial<GatePolicy> = {}): GatePolicy {
  const d = DEFAULT_GATE_POLICY;
  // Plain property reads: this runs on every tool call.
  const policy: GatePolicy = {
    remoteAllowlist: options.remoteAllowlist ?? d.remoteAllowlist,
    localTools: options.localTools ?? d.localTools,
    denyInferred: options.denyInferred ?? d.denyInferred,
    inferredAction: options.inferredAction ?? d.inferredAction,
    bulkyThreshold: options.bulkyThreshold ?? d.bulkyThreshold,
    strictPublic: options.strictPublic ?? d.strictPublic,
  };
  if (!Number.isFinite(policy.bulkyThreshold) || policy.bulkyThreshold < 1) {
    throw new RangeError(`bulkyThreshold must be a positive number, got ${String(policy.bulkyThreshold)}`);
  }
  if (policy.inferredAction !== 'ask' && policy.inferredAction !== 'block') {
    throw new RangeError(`inferredAction must be "ask" or "block", got ${JSON.stringify(policy.inferredAction)}`);
  }
  return policy;
}

/** The strongest label among leaves that carry bytes (an empty leaf has nothing to leave the machine). */
export function strongestResidency(leaves: readonly LeafClassification[], incomplete: boolean): Residency {
  let best: Residency | undefined = incomplete ? Residency.UNKNOWN : undefined;
  for (const l of leaves) {
    if (l.residency === Residency.UNKNOWN && l.bytes === 0 && l.rule === ResidencyRule.EMPTY) continue;
    if (best === undefined || RESIDENCY_STRENGTH[l.residency] > RESIDENCY_STRENGTH[best]) best = l.residency;
  }
  return best ?? Residency.UNKNOWN;
}

/**
 * Seed 000's residency table: secret → local, dirty-tree → local, unknown → local (unknown never
 * means yes); a bulky-public call may go remote only for a tool on the remote allowlist, otherwise
 * its remote hop is refused (tools declared local simply run here); tiny-public prefers local.
 */
export function decideVerdict(
  tool: string,
  residency: Residency,
  decisive: LeafClassification | undefined,
  policy: GatePolicy,
): { verdict: Verdict; reason: string } {
  const at = decisive ? ` (rule ${decisive.rule} at ${decisive.key})` : '';
  switch (residency) {
    case Residency.SECRET:
      return { verdict: Verdict.LOCAL, reason: `secret argument stays local${at}` };
    case Residency.DIRTY_TREE:
      return { verdict: Verdict.LOCAL, reason: `uncommitted work-tree content stays local${at}` };
    case Residency.UNKNOWN:
      return { verdict: Verdict.LOCAL, reason: `residency unknown, kept local${at}` };
    case Residency.BULKY_PUBLIC:
      if (policy.localTools.includes(tool)) return { verdict: Verdict.LOCAL, reason: `bulky-public argument on local tool ${tool}` };
      if (!policy.remoteAllowlist.includes(tool)) {
        return { verdict: Verdict.REFUSE, reason: `remote hop refused: tool ${tool} is not in the remote allowlist` };
      }
      return { verdict: Verdict.REMOTE_OK, reason: `bulky-public arguments may go remote${at}` };
    case Residency.TINY_PUBLIC:
      return { verdict: Verdict.LOCAL, reason: 'tiny-public arguments prefer local' };
  }
}

/**
 * A matcher for the inferred denylist of one call: a leaf is listed by its leaf name (any case),
 * full key, key without indices, or `tool.key`. Built once per call, asked once per leaf.
 */
export function denylistMatcher(tool: string, denyInferred: readonly string[]): (key: string, leaf: string) => boolean {
  const exact = new Set(denyInferred);
  const lower = new Set(denyInferred.map((e) => e.toLowerCase()));
  return (key, leaf) => {
    if (lower.has(leaf.toLowerCase()) || exact.has(key) || exact.has(`${tool}.${key}`)) return true;
    if (!key.includes('[')) return false;
    const bare = key.replace(/\[\d+\]/g, '');
    return exact.has(bare) || exact.has(`${tool}.${bare}`);
  };
}

/** Whether a leaf is on the inferred denylist (see {@link denylistMatcher}). */
export function isDenylisted(tool: string, key: string, leaf: string, denyInferred: readonly string[]): boolean {
  return denylistMatcher(tool, denyInferred)(key, leaf);
}

/**
 * Seed 002's inferred-field table: model_inferred on a denylisted leaf → block or ask one
 * clarifying question naming the field(s); model_inferred elsewhere → log only; schema_default on a
 * denylisted leaf → allowed only where the default is marked safe.
 */
export function decideInferred(
  tool: string,
  leaves: readonly LeafClassification[],
  policy: GatePolicy,
  isSafeDefault: (leaf: LeafClassification) => boolean,
): GateOutcome {
  const hits: string[] = [];
  for (const l of leaves) {
    if (!l.denylisted) continue;
    const assumed =
      l.provenance === Provenance.MODEL_INFERRED || (l.provenance === Provenance.SCHEMA_DEFAULT && !isSafeDefault(l));
    // One guessed element flags its list: the hit names the list (`email.send.to`), once.
    if (assumed) hits.push(`${tool}.${l.key.replace(/\[\d+\]/g, '')}`);
  }
  const unique = [...new Set(hits)];
  if (unique.length === 0) return { action: GateAction.ALLOW, hits: [] };
  if (policy.inferredAction === 'block') return { action: GateAction.BLOCK, hits: unique };
  return { action: GateAction.ASK, hits: unique, question: clarifyingQuestion(tool, unique) };
}

/** One question naming the field(s) the model assumed; never their values. */
export function clarifyingQuestion(tool: string, hits: readonly string[]): string {
  const fields = hits.map((h) => h.slice(tool.length + 1));
  const list = fields.length === 1 ? fields[0]! : `${fields.slice(0, -1).join(', ')} and ${fields[fields.length - 1]!}`;
  const noun = fields.length === 1 ? 'value' : 'values';
  return `Before I run ${tool}: which ${list} should I use? You did not give the ${noun}, so I will not guess.`;
}
