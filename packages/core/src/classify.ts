import { Enforcement, GateAction, Provenance, Residency, ResidencyRule, Verdict } from '@argspan/conventions';
import { decideEnforcement } from './enforcement.js';
import { flatten } from './flatten.js';
import { decideInferred, decideVerdict, denylistMatcher, resolvePolicy, strongestResidency } from './gate.js';
import { stripToPublicSchema } from './json-schema.js';
import { ProvenanceIndex, tagProvenance } from './provenance.js';
import { labelResidency } from './residency.js';
import { defaultSecretDetector } from './secrets/index.js';
import type { CallClassification, CallContext, ClassifyOptions, FlattenResult, LeafClassification, ToolCall } from './types.js';

/** Context for {@link classifyCall}: plain inputs, or a prebuilt {@link ProvenanceIndex} kept across a turn. */
export type ClassifyContext = CallContext & { index?: ProvenanceIndex };

/**
 * Classify and gate one tool call: flatten → label residency → tag provenance → gate. Pure and
 * synchronous. Never throws: if any stage throws, the call fails closed (verdict `refuse`, action
 * `block`, enforcement `deny`) with a reason naming the stage, never the value or the error text
 * (which may quote it).
 */
export function classifyCall(call: ToolCall, ctx: ClassifyContext = {}, options: ClassifyOptions = {}): CallClassification {
  let stage = 'options';
  let flat: FlattenResult | undefined;
  const tool = typeof call?.tool === 'string' && call.tool !== '' ? call.tool : '(unnamed)';
  try {
    const policy = resolvePolicy(options);
    stage = 'flatten';
    flat = flatten(call.args, options.limits);
    stage = 'provenance-index';
    const index = ctx.index ?? ProvenanceIndex.from(ctx);
    const env = {
      detector: options.detector ?? defaultSecretDetector,
      bulkyThreshold: policy.bulkyThreshold,
      strictPublic: policy.strictPublic,
      ...(options.dirty ? { dirty: options.dirty } : {}),
      ...(options.committed ? { committed: options.committed } : {}),
    };
    const safeDefaults = new Set(ctx.safeDefaults ?? []);
    const isDenylisted = denylistMatcher(tool, policy.denyInferred);

    const leaves: LeafClassification[] = [];
    const defaultKeyOf = new Map<LeafClassification, string>();
    for (const leaf of flat.leaves) {
      stage = 'residency';
      const label = labelResidency(leaf, env);
      stage = 'provenance';
      const tag = tagProvenance(leaf, index, ctx.schemaDefaults);
      const lc: LeafClassification = {
        key: leaf.key,
        leaf: leaf.leaf,
        residency: label.residency,
        provenance: tag.provenance,
        rule: label.rule,
        denylisted: isDenylisted(leaf.key, leaf.leaf),
        bytes: leaf.bytes,
      };
      if (tag.sourceCallId !== undefined) lc.sourceCallId = tag.sourceCallId;
      if (tag.defaultKey !== undefined) defaultKeyOf.set(lc, tag.defaultKey);
      leaves.push(lc);
    }

    stage = 'gate';
    const incomplete = flat.droppedLeaves > 0;
    const residency = strongestResidency(leaves, incomplete);
    const decisive = leaves.find((l) => l.residency === residency && !(l.rule === ResidencyRule.EMPTY));
    let { verdict, reason } = decideVerdict(tool, residency, decisive, policy);
    if (incomplete && residency === Residency.UNKNOWN && !decisive) {
      reason = `residency unknown, kept local (rule ${ResidencyRule.FLATTEN_LIMIT}: ${flat.droppedLeaves} leaves past maxLeaves)`;
    }
    const gate = decideInferred(tool, leaves, policy, (l) => {
      const k = defaultKeyOf.get(l);
      return k !== undefined && (safeDefaults.has(k) || safeDefaults.has(l.key) || safeDefaults.has(l.leaf));
    });

    let strippedKeys: string[] = [];
    if (verdict === Verdict.REMOTE_OK && ctx.publicSchemaKeys) {
      stage = 'strip';
      strippedKeys = stripToPublicSchema(call.args, ctx.publicSchemaKeys).stripped;
    }

    stage = 'enforcement';
    const enforcement = decideEnforcement({ tool, residency, verdict, reason, gate, failedClosed: false }, policy, options.remoteHop === true);

    return {
      tool,
      residency,
      verdict,
      reason,
      gate,
      enforcement,
      leaves,
      flat: flat.leaves,
      limits: flat.limits,
      droppedLeaves: flat.droppedLeaves,
      bytes: flat.bytes,
      strippedKeys,
      failedClosed: false,
    };
  } catch {
    return failClosed(tool, stage, flat);
  }
}

/** The fail-closed classification: refused, blocked, every leaf unknown. Names the stage, never the value. */
function failClosed(tool: string, stage: string, flat: FlattenResult | undefined): CallClassification {
  const leaves: LeafClassification[] = (flat?.leaves ?? []).map((l) => ({
    key: l.key,
    leaf: l.leaf,
    residency: Residency.UNKNOWN,
    provenance: Provenance.MODEL_INFERRED,
    rule: ResidencyRule.FAIL_CLOSED,
    denylisted: false,
    bytes: l.bytes,
  }));
  const reason = `fail-closed: classification stage "${stage}" threw (rule ${ResidencyRule.FAIL_CLOSED})`;
  return {
    tool,
    residency: Residency.UNKNOWN,
    verdict: Verdict.REFUSE,
    reason,
    gate: { action: GateAction.BLOCK, hits: [] },
    enforcement: { action: Enforcement.DENY, rule: 'fail-closed', reason: `denied: ${reason}` },
    leaves,
    flat: flat?.leaves ?? [],
    limits: flat?.limits ?? [],
    droppedLeaves: flat?.droppedLeaves ?? 0,
    bytes: flat?.bytes ?? 0,
    strippedKeys: [],
    failedClosed: true,
  };
}
