import { Enforcement, GateAction, Provenance, RESIDENCY_STRENGTH, Residency, ResidencyRule, Verdict } from '@argspan/conventions';
import { decideEnforcement } from './enforcement.js';
import { flatten } from './flatten.js';
import { decideInferred, decideVerdict, denylistMatcher, resolvePolicy, strongestResidency } from './gate.js';
import { stripToPublicSchema } from './json-schema.js';
import { ProvenanceIndex, tagProvenance } from './provenance.js';
import { labelLeaf } from './residency.js';
import { inheritedRule } from './taint.js';
import { defaultSecretDetector, redactSecrets } from './secrets/index.js';
import type { CallClassification, CallContext, ClassifyOptions, FlattenResult, Leaf, LeafClassification, SecretDetector, ToolCall } from './types.js';

/** Context for {@link classifyCall}: plain inputs, or a prebuilt {@link ProvenanceIndex} kept across a turn. */
export type ClassifyContext = CallContext & { index?: ProvenanceIndex };

/**
 * Classify and gate one tool call: flatten → label residency → tag provenance (a value copied
 * from a secret or dirty-tree source inherits that label) → gate. Pure and
 * synchronous. Never throws: if any stage throws, the call fails closed (verdict `refuse`, action
 * `block`, enforcement `deny`) with a reason naming the stage, never the value or the error text
 * (which may quote it).
 */
export function classifyCall(call: ToolCall, ctx: ClassifyContext = {}, options: ClassifyOptions = {}): CallClassification {
  let stage = 'options';
  let flat: FlattenResult | undefined;
  let tool = typeof call?.tool === 'string' && call.tool !== '' ? call.tool : '(unnamed)';
  const detector = options.detector ?? defaultSecretDetector;
  try {
    const policy = resolvePolicy(options);
    stage = 'flatten';
    flat = flatten(call.args, options.limits);
    stage = 'keys';
    // A credential used as a tool name or an object key is shown redacted wherever the name is shown.
    const secretNames = findSecretNames(tool, flat.leaves, detector);
    if (secretNames.toolRule !== undefined) tool = redactSecrets(tool, detector).text;
    stage = 'provenance-index';
    const index = ctx.index ?? ProvenanceIndex.from(ctx);
    const env = {
      detector,
      bulkyThreshold: policy.bulkyThreshold,
      strictPublic: policy.strictPublic,
      ...(options.dirty ? { dirty: options.dirty } : {}),
      ...(options.committed ? { committed: options.committed } : {}),
    };
    const safeDefaults = new Set(ctx.safeDefaults ?? []);
    const unasserted = ctx.userTextAvailable === false ? Provenance.NO_EVIDENCE : Provenance.MODEL_INFERRED;
    const isDenylisted = denylistMatcher(tool, policy.denyInferred);
    const taintDetector = policy.inheritResidency ? detector : undefined;

    const leaves: LeafClassification[] = [];
    const defaultKeyOf = new Map<LeafClassification, string>();
    for (let i = 0; i < flat.leaves.length; i++) {
      const leaf = flat.leaves[i]!;
      const keyRule = secretNames.keyRules?.[i];
      stage = 'residency';
      const label = labelLeaf(leaf, env, keyRule);
      stage = 'provenance';
      const tag = tagProvenance(leaf, index, ctx.schemaDefaults, unasserted, taintDetector);
      // Residency follows the value: a copy of a secret or dirty-tree source's value keeps that label.
      const inherits = tag.inherited !== undefined && RESIDENCY_STRENGTH[tag.inherited] > RESIDENCY_STRENGTH[label.residency];
      const lc: LeafClassification = {
        key: keyRule === undefined ? leaf.key : redactSecrets(leaf.key, detector).text,
        leaf: keyRule === undefined ? leaf.leaf : redactSecrets(leaf.leaf, detector).text,
        residency: inherits ? tag.inherited! : label.residency,
        provenance: tag.provenance,
        rule: inherits ? inheritedRule(tag.inherited!) : label.rule,
        denylisted: isDenylisted(leaf.key, leaf.leaf),
        bytes: leaf.bytes,
      };
      if (tag.sourceCallId !== undefined) lc.sourceCallId = tag.sourceCallId;
      if (tag.defaultKey !== undefined) defaultKeyOf.set(lc, tag.defaultKey);
      leaves.push(lc);
    }

    stage = 'gate';
    const incomplete = flat.droppedLeaves > 0;
    const residency = secretNames.toolRule !== undefined ? Residency.SECRET : strongestResidency(leaves, incomplete);
    const decisive = leaves.find((l) => l.residency === residency && !(l.rule === ResidencyRule.EMPTY));
    let { verdict, reason } = decideVerdict(tool, residency, decisive, policy);
    if (secretNames.toolRule !== undefined && !decisive) reason = `secret tool name stays local (rule ${secretNames.toolRule})`;
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
      if (secretNames.keyRules) strippedKeys = strippedKeys.map((k) => redactSecrets(k, detector).text);
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
    return failClosed(tool, stage, flat, detector);
  }
}

/**
 * Credentials in the tool name and in the leaves' key paths: the rule that matched the tool name,
 * and per leaf the rule that matched its key (`keyRules` is undefined when no key holds one, the
 * common case). One detector scan over all names at once; only a hit is looked at name by name.
 */
function findSecretNames(tool: string, leaves: readonly Leaf[], detector: SecretDetector): { toolRule?: string; keyRules?: (string | undefined)[] } {
  let all = tool;
  for (const l of leaves) all += '\n' + l.key;
  if (detector.find(all) === undefined) return {};
  const out: { toolRule?: string; keyRules?: (string | undefined)[] } = {};
  const toolRule = detector.find(tool)?.ruleId;
  if (toolRule !== undefined) out.toolRule = toolRule;
  const keyRules = leaves.map((l) => detector.find(l.key)?.ruleId);
  if (keyRules.some((r) => r !== undefined)) out.keyRules = keyRules;
  return out;
}

/**
 * The fail-closed classification: refused, blocked, every leaf unknown. Names the stage, never the
 * value; names and keys holding a credential are shown redacted (with the built-in detector when a
 * custom one is what failed), and if even that fails no leaf is listed.
 */
function failClosed(rawTool: string, stage: string, flat: FlattenResult | undefined, detector: SecretDetector): CallClassification {
  let tool = '(unnamed)';
  let shown: { key: string; leaf: string; bytes: number }[] = [];
  for (const d of detector === defaultSecretDetector ? [detector] : [detector, defaultSecretDetector]) {
    try {
      tool = redactSecrets(rawTool, d).text;
      shown = (flat?.leaves ?? []).map((l) => ({ key: redactSecrets(l.key, d).text, leaf: redactSecrets(l.leaf, d).text, bytes: l.bytes }));
      break;
    } catch {
      shown = [];
    }
  }
  const leaves: LeafClassification[] = shown.map((l) => ({
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
    flat: shown.length > 0 ? (flat?.leaves ?? []) : [],
    limits: flat?.limits ?? [],
    droppedLeaves: flat?.droppedLeaves ?? 0,
    bytes: flat?.bytes ?? 0,
    strippedKeys: [],
    failedClosed: true,
  };
}
