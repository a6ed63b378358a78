import { Enforcement, GateAction, Provenance, RESIDENCY_STRENGTH, Residency, ResidencyRule, Verdict } from '@argspan/conventions';
import { decideEnforcement } from './enforcement.js';
import { snapshotArgs, snapshotFailureReason } from './snapshot.js';
import { flatten, hasNoArguments } from './flatten.js';
import { nameDetectorOf, nameRule, redactKeyPath, shownPath, splitCredentialKeys, splitCredentialKeysOf, type HiddenKey } from './key-path-secrets.js';
import { decideInferred, decideVerdict, denylistMatcher, resolvePolicy, strongestResidency } from './gate.js';
import { stripToPublicSchema } from './json-schema.js';
import { ProvenanceIndex, tagProvenance } from './provenance.js';
import { labelLeaf, type ResidencyLabel } from './residency.js';
import { isSecretKeyName } from './secret-key-names.js';
import { namesSecretFile } from './secret-file-names.js';
import { carriesTaint, inheritedRule, type InheritedResidency } from './taint.js';
import { defaultSecretDetector, redactName } from './secrets/index.js';
import type { CallClassification, CallContext, ClassifyOptions, FlattenResult, Leaf, LeafClassification, PathSegment, SecretDetector, ToolCall } from './types.js';

/** Context for {@link classifyCall}: plain inputs, or a prebuilt {@link ProvenanceIndex} kept across a turn. */
export type ClassifyContext = CallContext & { index?: ProvenanceIndex };

/**
 * Classify and gate one tool call: flatten → label residency → tag provenance (a value copied
 * from a secret or dirty-tree source inherits that label) → gate. Pure and
 * synchronous. What is judged is the arguments as JSON sends them (see {@link snapshotArgs}: a
 * `toJSON` honoured, a Map `{}`, binary data as its bytes), read once. Never throws: if any stage
 * throws — a getter, proxy trap or `toJSON` of the arguments, a BigInt, a cycle, a tool name that
 * is not a string — the call fails closed (verdict `refuse`, action `block`, enforcement `deny`)
 * with a reason naming the stage, never the value or the error text (which may quote it).
 */
export function classifyCall(call: ToolCall, ctx: ClassifyContext = {}, options: ClassifyOptions = {}): CallClassification {
  let tool: unknown;
  let args: unknown;
  try {
    tool = call.tool;
    args = call.args;
  } catch {
    return failClosed('(unnamed)', 'call', undefined, nameDetectorOf(options.detector ?? defaultSecretDetector));
  }
  let copy: unknown;
  try {
    copy = snapshotArgs(args);
  } catch (err) {
    const c = failClosed(typeof tool === 'string' ? tool : '(unnamed)', 'snapshot', undefined, nameDetectorOf(options.detector ?? defaultSecretDetector));
    return withReason(c, snapshotFailureReason(err));
  }
  return classifySnapshot({ tool: tool as string, args: copy }, ctx, options);
}

/**
 * {@link classifyCall} for arguments that are already plain JSON data — {@link snapshotArgs}'s copy,
 * or what `JSON.parse` gives — so they are not copied again.
 */
export function classifySnapshot(call: ToolCall, ctx: ClassifyContext = {}, options: ClassifyOptions = {}): CallClassification {
  let stage = 'options';
  let flat: FlattenResult | undefined;
  let tool = typeof call?.tool === 'string' && call.tool !== '' ? call.tool : '(unnamed)';
  const detector = options.detector ?? defaultSecretDetector;
  const names = nameDetectorOf(detector);
  // (no tool name is '(unnamed)'; a name that is not a string — an object whose toString says
  // one thing to the gate and another to a dispatcher — is nothing to judge a call by)
  if (call?.tool !== undefined && call.tool !== null && typeof call.tool !== 'string') return failClosed(tool, 'tool name', undefined, names);
  try {
    const policy = resolvePolicy(options);
    stage = 'flatten';
    flat = flatten(call.args, options.limits);
    stage = 'keys';
    // A credential used as a tool name or an object key is shown redacted wherever the name is shown.
    const secretNames = findSecretNames(tool, flat.leaves, names);
    if (secretNames.toolRule !== undefined) tool = redactName(tool, names);
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
    // A call with no arguments has nothing the model could have guessed, whatever the denylist says of `$`.
    const isDenylisted = hasNoArguments(flat.leaves) ? () => false : denylistMatcher(tool, policy.denyInferred);
    const taintDetector = policy.inheritResidency ? detector : undefined;

    const leaves: LeafClassification[] = [];
    const defaultKeyOf = new Map<LeafClassification, string>();
    const keys = new KeySegments(index, taintDetector);
    for (let i = 0; i < flat.leaves.length; i++) {
      const leaf = flat.leaves[i]!;
      const keyRule = secretNames.keyRules?.[i];
      stage = 'residency';
      let label = labelLeaf(leaf, env, keyRule);
      stage = 'keys';
      // Object keys that are values: inside a credential slot, copied from a secret source, naming a secret file.
      const keyed = keys.judge(leaf.path);
      if (keyed !== undefined && RESIDENCY_STRENGTH[keyed.residency] > RESIDENCY_STRENGTH[label.residency]) label = keyed;
      stage = 'provenance';
      const tag = tagProvenance(leaf, index, ctx.schemaDefaults, unasserted, taintDetector);
      // Residency follows the value: a copy of a secret or dirty-tree source's value keeps that label.
      const inherits = tag.inherited !== undefined && RESIDENCY_STRENGTH[tag.inherited] > RESIDENCY_STRENGTH[label.residency];
      const hidden = mergeHidden(keyed?.hidden, secretNames.splitKeys?.[i]);
      const shown = hidden === undefined ? leaf : shownPath(leaf.path, hidden);
      const lc: LeafClassification = {
        key: keyRule === undefined ? shown.key : redactName(shown.key, names),
        leaf: keyRule === undefined ? shown.leaf : redactName(shown.leaf, names),
        residency: inherits ? tag.inherited! : label.residency,
        provenance: tag.provenance,
        rule: inherits ? inheritedRule(tag.inherited!) : label.rule,
        denylisted: isDenylisted(leaf.key, leaf.leaf),
        bytes: leaf.bytes,
      };
      if (hidden !== undefined) lc.hiddenKeys = hidden.map((h) => h.at);
      if (keyed?.sourceCallId !== undefined && !inherits) lc.sourceCallId = keyed.sourceCallId;
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
      if (secretNames.keyRules) strippedKeys = strippedKeys.map((k) => redactKeyPath(k, names));
    }

    stage = 'enforcement';
    const enforcement = decideEnforcement({ tool, residency, verdict, reason, gate, failedClosed: false, limits: flat.limits }, policy, options.remoteHop === true);

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
    return failClosed(tool, stage, flat, names);
  }
}

/** The keys hidden by both judgements, by position (the first rule named for a key shown). */
function mergeHidden(a: readonly HiddenKey[] | undefined, b: readonly HiddenKey[] | undefined): HiddenKey[] | undefined {
  if (b === undefined) return a === undefined ? undefined : [...a];
  if (a === undefined) return [...b];
  const byAt = new Map<number, string>();
  for (const h of [...a, ...b]) if (!byAt.has(h.at)) byAt.set(h.at, h.rule);
  return [...byAt].sort((x, y) => x[0] - y[0]).map(([at, rule]) => ({ at, rule }));
}

/** Words of an object key that names a field (`value`, `apiKey`, `access_key`), not a value used as a key. */
const FIELD_NAME = /^[A-Za-z]+(?:[-_][A-Za-z]+)*$/;

/** Whether an object key inside a credential slot reads as a field name (kept) rather than a value (hidden): letters, at most four camel-case words, 32 characters. */
function isFieldName(key: string): boolean {
  if (key.length > 32 || !FIELD_NAME.test(key)) return false;
  let humps = 0;
  for (let i = 1; i < key.length; i++) if (key.charCodeAt(i) <= 90 && key.charCodeAt(i) >= 65 && key.charCodeAt(i - 1) >= 97) humps++;
  return humps <= 3;
}

/**
 * The object keys of one call's leaves judged as values, each distinct key once: a key inside a
 * credential slot (`{"password": {"hunter2": true}}`) that does not read as a field name is part
 * of the credential; a key copied from a secret or dirty-tree source's result inherits its label;
 * a key naming a secret file (`{"/app/.env": "read"}`) makes its leaf secret as a value would.
 * Hidden keys are shown as redaction markers wherever the leaf's key is shown.
 */
class KeySegments {
  /** Keys copied from a labelled source, by key: asked of this call's index once per key. */
  private readonly copied = new Map<string, Copied | undefined>();

  constructor(
    private readonly index: ProvenanceIndex,
    private readonly taintDetector: SecretDetector | undefined,
  ) {}

  judge(path: readonly PathSegment[]): KeyedLabel | undefined {
    let verdict: KeyedLabel | undefined;
    let inSlot = false;
    for (let at = 0; at < path.length; at++) {
      const key = path[at];
      if (typeof key !== 'string') continue;
      const facts = keyFacts(key);
      if (inSlot && !facts.fieldName) {
        verdict = hide(verdict, at, ResidencyRule.SECRET_KEY_NAME);
        continue;
      }
      if (facts.mayCarryTaint && this.taintDetector !== undefined) {
        const copy = this.copiedFrom(key, this.taintDetector);
        if (copy?.residency === Residency.SECRET) verdict = hide(verdict, at, ResidencyRule.INHERITED_SECRET, copy.sourceCallId);
        else if (copy !== undefined) verdict = raise(verdict, copy.residency, inheritedRule(copy.residency), copy.sourceCallId);
      }
      if (facts.secretFile) verdict = raise(verdict, Residency.SECRET, ResidencyRule.SECRET_FILE_NAME);
      inSlot ||= facts.secretSlot;
    }
    return verdict;
  }

  /** The label a key copied from a labelled source's result inherits, if it was copied from one. */
  private copiedFrom(key: string, detector: SecretDetector): Copied | undefined {
    if (this.copied.has(key)) return this.copied.get(key);
    const found = this.index.find(key, detector);
    const copy = found?.source === 'context' && found.inherited !== undefined ? { residency: found.inherited, ...(found.callId !== undefined ? { sourceCallId: found.callId } : {}) } : undefined;
    this.copied.set(key, copy);
    return copy;
  }
}

/** What an object key is, whatever the call: judged once per key (agents repeat their keys). */
interface KeyFacts {
  fieldName: boolean;
  secretSlot: boolean;
  secretFile: boolean;
  /** Long and varied enough to be a copy of a secret (see `carriesTaint`). */
  mayCarryTaint: boolean;
}

type Copied = { residency: InheritedResidency; sourceCallId?: string };

/** A leaf's label from its keys, with the keys hidden as values. */
type KeyedLabel = ResidencyLabel & { hidden?: { at: number; rule: string }[]; sourceCallId?: string };

/** Key facts by key, bounded: emptied when full. */
const KEY_FACTS = new Map<string, KeyFacts>();
const KEY_FACTS_LIMIT = 65_536;

function keyFacts(key: string): KeyFacts {
  let facts = KEY_FACTS.get(key);
  if (facts === undefined) {
    if (KEY_FACTS.size >= KEY_FACTS_LIMIT) KEY_FACTS.clear();
    facts = { fieldName: isFieldName(key), secretSlot: isSecretKeyName(key), secretFile: namesSecretFile(key), mayCarryTaint: carriesTaint(key) };
    KEY_FACTS.set(key, facts);
  }
  return facts;
}

/** `verdict`, raised to `residency` (by `rule`) when that is stronger; its hidden keys kept. */
function raise(verdict: KeyedLabel | undefined, residency: Residency, rule: string, sourceCallId?: string): KeyedLabel {
  if (verdict !== undefined && RESIDENCY_STRENGTH[verdict.residency] >= RESIDENCY_STRENGTH[residency]) return verdict;
  const raised: KeyedLabel = { residency, rule };
  if (verdict?.hidden !== undefined) raised.hidden = verdict.hidden;
  if (sourceCallId !== undefined) raised.sourceCallId = sourceCallId;
  return raised;
}

/** `verdict` raised to secret, with the key at `at` hidden as a value (by `rule`). */
function hide(verdict: KeyedLabel | undefined, at: number, rule: string, sourceCallId?: string): KeyedLabel {
  const raised = raise(verdict, Residency.SECRET, rule, sourceCallId);
  (raised.hidden ??= []).push({ at, rule });
  return raised;
}

/**
 * Credentials in the tool name and in the leaves' key paths: the rule that matched the tool name,
 * and per leaf the rule that matched its key path, in one key or split across its keys (`keyRules`
 * is undefined when no key holds one, the common case). Names are judged once each (`nameRule`).
 */
function findSecretNames(tool: string, leaves: readonly Leaf[], detector: SecretDetector): SecretNames {
  const out: SecretNames = {};
  const toolRule = nameRule(tool, detector);
  if (toolRule !== undefined) out.toolRule = toolRule;
  for (let i = 0; i < leaves.length; i++) {
    let rule = nameRule(leaves[i]!.key, detector);
    const split = splitCredentialKeysOf(leaves[i]!.key, leaves[i]!.path, detector);
    if (split !== undefined) {
      (out.splitKeys ??= new Array<HiddenKey[] | undefined>(leaves.length).fill(undefined))[i] = split;
      rule ??= split[0]!.rule;
    }
    if (rule !== undefined) (out.keyRules ??= new Array<string | undefined>(leaves.length).fill(undefined))[i] = rule;
  }
  return out;
}

/** Credentials in a call's names: its tool's, each leaf's key path (by leaf), and the keys that hold one only together. */
interface SecretNames {
  toolRule?: string;
  keyRules?: (string | undefined)[];
  splitKeys?: (HiddenKey[] | undefined)[];
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
      tool = redactName(rawTool, d);
      shown = (flat?.leaves ?? []).map((l) => {
        const split = splitCredentialKeys(l.path, d);
        const names = split === undefined ? l : shownPath(l.path, split);
        return { key: redactName(names.key, d), leaf: redactName(names.leaf, d), bytes: l.bytes };
      });
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
  const reason =
    stage === 'tool name'
      ? `fail-closed: the tool name is not a string (rule ${ResidencyRule.FAIL_CLOSED})`
      : `fail-closed: classification stage "${stage}" threw (rule ${ResidencyRule.FAIL_CLOSED})`;
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

/** A fail-closed classification with another reason (its enforcement's too). */
function withReason(c: CallClassification, reason: string): CallClassification {
  return { ...c, reason, enforcement: { ...c.enforcement, reason: `denied: ${reason}` } };
}
