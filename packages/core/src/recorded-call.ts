import { RESIDENCY_ORDER } from '@argspan/conventions';
import type { Residency } from '@argspan/conventions';
import { redactName } from './secrets/redact.js';
import type { CallContext, ContextEntry, GatePolicy, ToolCall } from './types.js';

/** The policy fields a policy file or a recorded call's `policy` may hold (snake_case). */
const POLICY_FIELDS: readonly string[] = [
  'remote_allowlist',
  'remote_tools',
  'deny_residencies',
  'deny_inferred',
  'inferred_action',
  'no_evidence_action',
  'strict_public',
  'secret_source_tools',
  'inherit_residency',
  'bulky_threshold',
];

/**
 * One recorded tool call in the JSON-lines format `argspan classify` reads:
 * `{"tool", "args", "call_id", "user_text", "context": [strings | {call_id, content, residency}], "schema_defaults",
 * "safe_defaults", "public_schema_keys", "user_text_available", "dirty": [paths]}` plus the policy fields of
 * {@link parsePolicyFields}. Unknown fields are ignored.
 */
export interface RecordedCall {
  call: ToolCall;
  context: CallContext;
  policy: Partial<GatePolicy>;
  /** Repo-relative dirty paths given inline; when absent the caller computes them from a repository. */
  dirty?: string[];
}

/** Thrown for a line that is not a valid recorded call; the message names the field, never a value. */
export class RecordedCallError extends Error {
  override name = 'RecordedCallError';
}

function stringArray(v: unknown, field: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new RecordedCallError(`"${field}" must be an array of strings`);
  return v as string[];
}

/** Validate a parsed JSON value as a recorded call. */
export function parseRecordedCall(value: unknown): RecordedCall {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new RecordedCallError('expected a JSON object');
  const o = value as Record<string, unknown>;
  if (typeof o.tool !== 'string' || o.tool === '') throw new RecordedCallError('"tool" must be a non-empty string');
  if (!('args' in o)) throw new RecordedCallError('"args" is missing');

  const context: CallContext = {};
  if (o.user_text !== undefined && o.user_text !== null) {
    if (typeof o.user_text === 'string') context.userText = o.user_text;
    else context.userText = stringArray(o.user_text, 'user_text')!;
  }
  if (o.context !== undefined && o.context !== null) {
    if (!Array.isArray(o.context)) throw new RecordedCallError('"context" must be an array');
    context.context = o.context.map((c, i): ContextEntry | string => {
      if (typeof c === 'string') return c;
      if (c && typeof c === 'object' && 'content' in c) {
        const { call_id: id, content, residency } = c as { call_id?: unknown; content: unknown; residency?: unknown };
        if (id !== undefined && typeof id !== 'string') throw new RecordedCallError(`"context[${i}].call_id" must be a string`);
        if (residency !== undefined && !(RESIDENCY_ORDER as readonly unknown[]).includes(residency)) {
          throw new RecordedCallError(`"context[${i}].residency" must be a residency label (${RESIDENCY_ORDER.join(', ')})`);
        }
        const entry: ContextEntry = { content };
        if (id !== undefined) entry.callId = id;
        if (residency !== undefined) entry.residency = residency as Residency;
        return entry;
      }
      throw new RecordedCallError(`"context[${i}]" must be a string or {"call_id", "content", "residency"}`);
    });
  }
  if (o.schema_defaults !== undefined && o.schema_defaults !== null) {
    if (typeof o.schema_defaults !== 'object' || Array.isArray(o.schema_defaults)) throw new RecordedCallError('"schema_defaults" must be an object');
    context.schemaDefaults = o.schema_defaults as Record<string, unknown>;
  }
  if (o.user_text_available !== undefined && o.user_text_available !== null) {
    if (typeof o.user_text_available !== 'boolean') throw new RecordedCallError('"user_text_available" must be a boolean');
    context.userTextAvailable = o.user_text_available;
  }
  const safe = stringArray(o.safe_defaults, 'safe_defaults');
  if (safe) context.safeDefaults = safe;
  const publicKeys = stringArray(o.public_schema_keys, 'public_schema_keys');
  if (publicKeys) context.publicSchemaKeys = publicKeys;

  const policy = parsePolicyFields(o);
  const call: ToolCall = { tool: o.tool, args: o.args };
  if (typeof o.call_id === 'string') call.callId = o.call_id;
  const dirty = stringArray(o.dirty, 'dirty');
  return dirty ? { call, context, policy, dirty } : { call, context, policy };
}

/**
 * Refuse a field a policy object (a policy file: policy fields only) has no name for: a typo
 * (`infered_action`) or the API's camelCase (`inferredAction`) would leave the gate on its default,
 * saying nothing. The field is named redacted (a key may hold a credential), never its value.
 */
export function checkPolicyFieldNames(o: Readonly<Record<string, unknown>>): void {
  for (const key of Object.keys(o)) {
    if (POLICY_FIELDS.includes(key)) continue;
    const snake = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const hint = POLICY_FIELDS.includes(snake) ? `; did you mean "${snake}"?` : `; the fields are ${POLICY_FIELDS.join(', ')}`;
    throw new RecordedCallError(`unknown policy field ${JSON.stringify(redactName(key).slice(0, 64))}${hint}`);
  }
}

/**
 * The policy fields of a recorded call or a policy file (`argspan classify --policy FILE`), in
 * the snake_case both use: `remote_allowlist`, `remote_tools`, `deny_residencies`,
 * `deny_inferred`, `inferred_action`, `no_evidence_action`, `strict_public`, `bulky_threshold`,
 * `secret_source_tools`, `inherit_residency`. Absent fields stay
 * absent (the defaults apply); a wrong type throws {@link RecordedCallError} naming the field.
 */
export function parsePolicyFields(o: Readonly<Record<string, unknown>>): Partial<GatePolicy> {
  const policy: Partial<GatePolicy> = {};
  const allow = stringArray(o.remote_allowlist, 'remote_allowlist');
  if (allow) policy.remoteAllowlist = allow;
  const remote = stringArray(o.remote_tools, 'remote_tools');
  if (remote) policy.remoteTools = remote;
  const denyRes = stringArray(o.deny_residencies, 'deny_residencies');
  if (denyRes) {
    const bad = denyRes.find((r) => !(RESIDENCY_ORDER as readonly string[]).includes(r));
    if (bad !== undefined) throw new RecordedCallError(`"deny_residencies" must hold residency labels (${RESIDENCY_ORDER.join(', ')})`);
    policy.denyResidencies = denyRes as Residency[];
  }
  const deny = stringArray(o.deny_inferred, 'deny_inferred');
  if (deny) policy.denyInferred = deny;
  if (o.inferred_action !== undefined) {
    if (o.inferred_action !== 'ask' && o.inferred_action !== 'block') throw new RecordedCallError('"inferred_action" must be "ask" or "block"');
    policy.inferredAction = o.inferred_action;
  }
  if (o.no_evidence_action !== undefined) {
    if (o.no_evidence_action !== 'ask' && o.no_evidence_action !== 'block' && o.no_evidence_action !== 'log') {
      throw new RecordedCallError('"no_evidence_action" must be "ask", "block" or "log"');
    }
    policy.noEvidenceAction = o.no_evidence_action;
  }
  if (o.strict_public !== undefined) {
    if (typeof o.strict_public !== 'boolean') throw new RecordedCallError('"strict_public" must be a boolean');
    policy.strictPublic = o.strict_public;
  }
  const sources = stringArray(o.secret_source_tools, 'secret_source_tools');
  if (sources) policy.secretSourceTools = sources;
  if (o.inherit_residency !== undefined) {
    if (typeof o.inherit_residency !== 'boolean') throw new RecordedCallError('"inherit_residency" must be a boolean');
    policy.inheritResidency = o.inherit_residency;
  }
  if (o.bulky_threshold !== undefined) {
    if (typeof o.bulky_threshold !== 'number' || !Number.isInteger(o.bulky_threshold) || o.bulky_threshold < 1) {
      throw new RecordedCallError('"bulky_threshold" must be a positive integer');
    }
    policy.bulkyThreshold = o.bulky_threshold;
  }
  return policy;
}
