import {
  DEFAULT_DENY_INFERRED,
  GateAction,
  Provenance,
  RESIDENCY_ORDER,
  RESIDENCY_STRENGTH,
  Residency,
  ResidencyRule,
  Verdict,
  gateHitKey,
  keyWithoutIndices,
} from '@argspan/conventions';
import { isInheritedRule } from './taint.js';
import type { GateOutcome, GatePolicy, LeafClassification } from './types.js';

export const DEFAULT_GATE_POLICY: Readonly<GatePolicy> = {
  remoteAllowlist: [],
  remoteTools: [],
  denyResidencies: [Residency.SECRET],
  denyInferred: DEFAULT_DENY_INFERRED,
  inferredAction: 'ask',
  noEvidenceAction: 'log',
  bulkyThreshold: 8192,
  strictPublic: false,
  secretSourceTools: [],
  inheritResidency: true,
};

/**
 * Fill in a policy from partial options, validating what would otherwise fail open. Throws a
 * `RangeError` or `TypeError` naming the option (never a value it could not read).
 */
export function resolvePolicy(options: Partial<GatePolicy> = {}): GatePolicy {
  const d = DEFAULT_GATE_POLICY;
  // Plain property reads: this runs on every tool call.
  const policy: GatePolicy = {
    remoteAllowlist: options.remoteAllowlist ?? d.remoteAllowlist,
    remoteTools: options.remoteTools ?? d.remoteTools,
    denyResidencies: options.denyResidencies ?? d.denyResidencies,
    denyInferred: options.denyInferred ?? d.denyInferred,
    inferredAction: options.inferredAction ?? d.inferredAction,
    noEvidenceAction: options.noEvidenceAction ?? d.noEvidenceAction,
    bulkyThreshold: options.bulkyThreshold ?? d.bulkyThreshold,
    strictPublic: options.strictPublic ?? d.strictPublic,
    secretSourceTools: options.secretSourceTools ?? d.secretSourceTools,
    inheritResidency: options.inheritResidency ?? d.inheritResidency,
  };
  if (!Number.isFinite(policy.bulkyThreshold) || policy.bulkyThreshold < 1) {
    throw new RangeError('bulkyThreshold must be a positive number');
  }
  if (policy.inferredAction !== 'ask' && policy.inferredAction !== 'block') {
    throw new RangeError('inferredAction must be "ask" or "block"');
  }
  if (policy.noEvidenceAction !== 'ask' && policy.noEvidenceAction !== 'block' && policy.noEvidenceAction !== 'log') {
    throw new RangeError('noEvidenceAction must be "ask", "block" or "log"');
  }
  if (typeof policy.inheritResidency !== 'boolean') throw new TypeError('inheritResidency must be a boolean');
  for (const name of ['remoteAllowlist', 'remoteTools', 'denyInferred', 'secretSourceTools'] as const) {
    if (!Array.isArray(policy[name])) throw new TypeError(`${name} must be an array of strings`);
  }
  if (!Array.isArray(policy.denyResidencies) || policy.denyResidencies.some((r) => !RESIDENCY_SET.has(r))) {
    // A misspelt label would silently let a secret through.
    throw new RangeError(`denyResidencies must hold residency labels (${RESIDENCY_ORDER.join(', ')})`);
  }
  return policy;
}

const RESIDENCY_SET: ReadonlySet<string> = new Set(RESIDENCY_ORDER);

/** A leaf of no value: null, "", an empty list or object (labelled `unknown`, rule `empty`). */
function isEmptyLeaf(l: LeafClassification): boolean {
  return l.residency === Residency.UNKNOWN && l.bytes === 0 && l.rule === ResidencyRule.EMPTY;
}

/** The strongest label among leaves that carry bytes (an empty leaf has nothing to leave the machine). */
export function strongestResidency(leaves: readonly LeafClassification[], incomplete: boolean): Residency {
  let best: Residency | undefined = incomplete ? Residency.UNKNOWN : undefined;
  for (const l of leaves) {
    if (isEmptyLeaf(l)) continue;
    if (best === undefined || RESIDENCY_STRENGTH[l.residency] > RESIDENCY_STRENGTH[best]) best = l.residency;
  }
  return best ?? Residency.UNKNOWN;
}

/**
 * The placement table, first matching row wins: secret → local; dirty-tree → local; a tool outside
 * the remote allowlist → refuse (its remote hop); unknown → local (unknown never means yes);
 * bulky-public → remote-ok; tiny-public → local (cheaper here). The verdict says where the call
 * may run; what the wrapper then does is {@link decideEnforcement}'s answer.
 */
export function decideVerdict(
  tool: string,
  residency: Residency,
  decisive: LeafClassification | undefined,
  policy: GatePolicy,
): { verdict: Verdict; reason: string } {
  const from = decisive?.sourceCallId !== undefined && isInheritedRule(decisive.rule) ? `, copied from the result of call ${decisive.sourceCallId}` : '';
  const at = decisive ? ` (rule ${decisive.rule} at ${decisive.key}${from})` : '';
  if (residency === Residency.SECRET) return { verdict: Verdict.LOCAL, reason: `secret argument stays local${at}` };
  if (residency === Residency.DIRTY_TREE) return { verdict: Verdict.LOCAL, reason: `uncommitted work-tree content stays local${at}` };
  if (!policy.remoteAllowlist.includes(tool)) {
    return { verdict: Verdict.REFUSE, reason: `remote hop refused: tool ${tool} is not in the remote allowlist` };
  }
  switch (residency) {
    case Residency.UNKNOWN:
      return { verdict: Verdict.LOCAL, reason: `residency unknown, kept local${at}` };
    case Residency.BULKY_PUBLIC:
      return { verdict: Verdict.REMOTE_OK, reason: `bulky-public arguments may go remote${at}` };
    default:
      return { verdict: Verdict.LOCAL, reason: 'tiny-public arguments prefer local' };
  }
}

/**
 * A matcher for the inferred denylist of one call: a leaf is listed by its leaf name (any case, with
 * or without `_` or `-` between its words: `account_id` lists `accountId`, `AccountID` and
 * `account-id`; `timezone` lists `time_zone`; a name written with dots by its last part:
 * `event.timezone`, `billing.accountId`), full key, key without indices, or `tool.key`. Built
 * once per call, asked once per leaf.
 */
export function denylistMatcher(tool: string, denyInferred: readonly string[]): (key: string, leaf: string) => boolean {
  const sets = denylistSets(denyInferred);
  const { keys } = sets;
  // `tool.key` entries for this tool, as keys: a lookup, with no string built per leaf.
  const toolKeys = keys.size === 0 ? keys : keysOfTool(keys, tool);
  if (keys.size === 0) return (_key, leaf) => listsLeafNameOnce(sets, leaf);
  return (key, leaf) => {
    if (listsLeafNameOnce(sets, leaf) || keys.has(key) || toolKeys.has(key)) return true;
    if (!key.includes('[')) return false;
    const bare = keyWithoutIndices(key);
    return keys.has(bare) || toolKeys.has(bare);
  };
}

/** Leaf names judged per denylist at most, then the memo starts afresh. */
const LISTED_LEAVES_LIMIT = 65_536;

/** {@link listsLeafName} for the denylist's sets, each leaf name judged once (agents repeat their keys: lower-casing and the `_`/`-` strip ran on every leaf). */
function listsLeafNameOnce(sets: DenylistSets, leaf: string): boolean {
  const memo = sets.listedLeaves;
  if (!memo) return listsLeafName(sets.lower, leaf);
  let listed = memo.get(leaf);
  if (listed === undefined) {
    if (memo.size >= LISTED_LEAVES_LIMIT) memo.clear();
    listed = listsLeafName(sets.lower, leaf);
    memo.set(leaf, listed);
  }
  return listed;
}

/** Whether the denylist's names (see {@link denylistName}) list a leaf name, or the last part of a dotted one (`event.timezone`). */
function listsLeafName(names: ReadonlySet<string>, leaf: string): boolean {
  if (names.has(denylistName(leaf))) return true;
  const dot = leaf.lastIndexOf('.');
  return dot >= 0 && dot < leaf.length - 1 && names.has(denylistName(leaf.slice(dot + 1)));
}

/** A name as the denylist compares leaf names: lower-cased, without `_` or `-` (`accountId`, `account_id` → `accountid`). */
function denylistName(name: string): string {
  const lower = name.toLowerCase();
  return lower.includes('_') || lower.includes('-') ? lower.replace(/[_-]/g, '') : lower;
}

/**
 * The denylist as lookup sets, built once per policy list (a policy is reused for every call):
 * every entry as {@link denylistName} writes it (leaf names match in any case and word style), and the
 * entries that can only be keys (they hold a `.` or `[`; a plain name could be a key too, so those
 * are in both).
 */
interface DenylistSets {
  lower: ReadonlySet<string>;
  keys: ReadonlySet<string>;
  /** Whether `lower` lists a leaf name, by leaf name (see {@link listsLeafNameOnce}); only for a frozen list's cached sets (a mutable list's are built per call, so a memo would only cost). */
  listedLeaves?: Map<string, boolean>;
}
const DENYLIST_SETS = new WeakMap<readonly string[], DenylistSets>();

function denylistSets(denyInferred: readonly string[]): DenylistSets {
  let sets = DENYLIST_SETS.get(denyInferred);
  if (!sets) {
    // A frozen list cannot change under the cache; a caller's mutable array is re-read every call.
    const frozen = Object.isFrozen(denyInferred);
    sets = { lower: new Set(denyInferred.map(denylistName)), keys: new Set(denyInferred.filter((e) => /[.[]/.test(e))), ...(frozen ? { listedLeaves: new Map<string, boolean>() } : {}) };
    if (frozen) DENYLIST_SETS.set(denyInferred, sets);
  }
  return sets;
}

function keysOfTool(keys: ReadonlySet<string>, tool: string): ReadonlySet<string> {
  const prefix = `${tool}.`;
  const out = new Set<string>();
  for (const k of keys) if (k.startsWith(prefix)) out.add(k.slice(prefix.length));
  return out;
}

/** Whether a leaf is on the inferred denylist (see {@link denylistMatcher}). */
export function isDenylisted(tool: string, key: string, leaf: string, denyInferred: readonly string[]): boolean {
  return denylistMatcher(tool, denyInferred)(key, leaf);
}

/**
 * The inferred-field table: model_inferred on a denylisted leaf → block or ask one clarifying
 * question naming the field(s) (`inferredAction`); model_inferred elsewhere, or an empty value
 * (null, "", [] or {}) anywhere → log only;
 * schema_default on a denylisted leaf → allowed only where the default is marked safe; no_evidence
 * (the user's words cannot be seen) on a denylisted leaf → `noEvidenceAction`: log only, ask or block.
 */
export function decideInferred(
  tool: string,
  leaves: readonly LeafClassification[],
  policy: GatePolicy,
  isSafeDefault: (leaf: LeafClassification) => boolean,
): GateOutcome {
  let fields: Map<string, AskedField> | undefined;
  let noEvidence: Set<string> | undefined;
  let block = false;
  for (const l of leaves) {
    // An empty value (null, "", [] or {}: OpenAI's strict schemas send null for a field not given) asserts nothing to ask about.
    if (!l.denylisted || isEmptyLeaf(l)) continue;
    const unseen = l.provenance === Provenance.NO_EVIDENCE;
    const assumed = unseen
      ? policy.noEvidenceAction !== 'log'
      : l.provenance === Provenance.MODEL_INFERRED || (l.provenance === Provenance.SCHEMA_DEFAULT && !isSafeDefault(l));
    if (!assumed) continue;
    // One guessed element flags its list: the hit names the list (`email.send.to`), once.
    const hit = gateHitKey(tool, l.key);
    fields ??= new Map();
    if (unseen) (noEvidence ??= new Set()).add(hit);
    if ((unseen ? policy.noEvidenceAction : policy.inferredAction) === 'block') block = true;
    if (!fields.has(hit)) fields.set(hit, { field: hit.slice(tool.length + 1), leaf: l.leaf, list: l.key !== keyWithoutIndices(l.key) });
  }
  if (!fields) return { action: GateAction.ALLOW, hits: [] };
  const hits = [...fields.keys()];
  const out: GateOutcome = block ? { action: GateAction.BLOCK, hits } : { action: GateAction.ASK, hits };
  // A value seen in no evidence is the subset that gives the question its wording.
  const unseenOnly = noEvidence !== undefined && noEvidence.size === hits.length;
  if (noEvidence) out.noEvidenceHits = hits.filter((h) => noEvidence.has(h));
  if (!block) out.question = clarifyingQuestion(tool, [...fields.values()], unseenOnly);
  return out;
}

/**
 * The assumed values a gate outcome names, for reasons and error messages: `model-inferred value on
 * a, b` and/or `value with no evidence of who gave it on c`. Keys only, never values.
 */
export function assumedValuesPhrase(gate: Pick<GateOutcome, 'hits' | 'noEvidenceHits'>): string {
  const unseen = new Set(gate.noEvidenceHits ?? []);
  const inferred = gate.hits.filter((h) => !unseen.has(h));
  const parts: string[] = [];
  if (inferred.length > 0) parts.push(`model-inferred value on ${inferred.join(', ')}`);
  if (unseen.size > 0) parts.push(`value with no evidence of who gave it on ${[...unseen].join(', ')}`);
  return parts.join('; ');
}

/** A field the clarifying question asks about. */
export interface AskedField {
  /** The key without list indices (`to`, `attendee.email`). */
  field: string;
  /** Its leaf name (`to`, `email`), which picks the words the question uses. */
  leaf: string;
  /** True when the model guessed an element of a list (the question asks for several). */
  list: boolean;
}

/** What a denylisted leaf is called in a question, when its key name is not plain English. */
const FIELD_NOUNS: Readonly<Record<string, string>> = {
  timezone: 'time zone',
  tz: 'time zone',
  account_id: 'account',
  email: 'email address',
  to: 'recipient',
  cc: 'recipient',
  bcc: 'recipient',
  recipients: 'recipient',
};

function fieldPhrase(f: AskedField): string {
  const leaf = f.leaf.toLowerCase();
  const singular = FIELD_NOUNS[leaf] ?? leaf.replace(/[_-]+/g, ' ');
  const noun = f.list ? plural(singular) : singular;
  return noun === f.field ? `\`${f.field}\`` : `${noun} (\`${f.field}\`)`;
}

function plural(noun: string): string {
  if (/(s|x|z|ch|sh)$/.test(noun)) return `${noun}es`;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

/**
 * One question naming the field(s) the model assumed, never their values: "Before I run
 * email.send: which recipients (`to`) should I use? You did not give them, so I will not guess."
 * Where the user's words cannot be seen (`noEvidence`), it does not claim they were not given:
 * "… I could not confirm that you gave it, so I will not guess."
 */
export function clarifyingQuestion(tool: string, fields: readonly AskedField[], noEvidence = false): string {
  const phrases = fields.map(fieldPhrase);
  const list = phrases.length === 1 ? phrases[0]! : `${phrases.slice(0, -1).join(', ')} and ${phrases[phrases.length - 1]!}`;
  const them = phrases.length === 1 && !fields[0]!.list ? 'it' : 'them';
  const why = noEvidence ? `I could not confirm that you gave ${them}` : `You did not give ${them}`;
  return `Before I run ${tool}: which ${list} should I use? ${why}, so I will not guess.`;
}
