import type { Attributes, Span } from '@opentelemetry/api';
import { ArgAttributes, CallAttributes, GenAiAttributes, OPERATION_EXECUTE_TOOL, gateHitKey } from '@argspan/conventions';
import type { CallClassification, Leaf, LeafClassification } from '@argspan/core';
import { shownName } from '@argspan/core/internal';

/** Everything the `execute_tool` span records at its start, besides the classification. */
export interface CallSpanInput {
  /** argspan's id of the call (the framework's, or generated). */
  callId: string;
  /** Whether `callId` is the framework's own (only then is it `gen_ai.tool.call.id`). */
  frameworkCallId: boolean;
  runId: string;
  /** The application's conversation id (`gen_ai.conversation.id`), when it gave one. */
  conversationId: string | undefined;
  /** `gen_ai.tool.type` and `gen_ai.tool.description` (already redacted: a tool's description comes from whoever wrote the tool), when known. */
  toolType: string | undefined;
  toolDescription: string | undefined;
  /** Leaves emitted as `tool_arg` spans. */
  emitted: number;
  /** Keyed hash of all arguments. */
  argsHash: string;
  /** A remote hop was available for this call but enforcement did not send it through the hop. */
  hopBlocked: boolean;
}

/** A call's id as shown ({@link shownName}); one argspan made (`{runId}:{n}`) is looked at through its run id, which repeats. */
function shownCallId(input: CallSpanInput): string {
  const { callId, runId } = input;
  if (!input.frameworkCallId && callId.startsWith(runId) && /^:\d+$/.test(callId.slice(runId.length))) return shownName(runId) + callId.slice(runId.length);
  return shownName(callId);
}

/** Attributes of the `execute_tool {tool}` span, from the classification (values never appear). */
export function callSpanAttributes(c: CallClassification, input: CallSpanInput): Attributes {
  const attrs: Attributes = {
    [GenAiAttributes.OPERATION_NAME]: OPERATION_EXECUTE_TOOL,
    [GenAiAttributes.TOOL_NAME]: c.tool,
    [CallAttributes.CALL_ID]: shownCallId(input),
    [CallAttributes.RUN_ID]: shownName(input.runId),
    [CallAttributes.ARGS_COUNT]: input.emitted,
    [CallAttributes.ARGS_TRUNCATED]: c.leaves.length - input.emitted + c.droppedLeaves,
    [CallAttributes.ARGS_BYTES]: c.bytes,
    [CallAttributes.ARGS_HASH]: input.argsHash,
    [CallAttributes.RESIDENCY]: c.residency,
    [CallAttributes.VERDICT]: c.verdict,
    [CallAttributes.VERDICT_REASON]: c.reason,
    [CallAttributes.GATE_ACTION]: c.gate.action,
    [CallAttributes.GATE_HITS]: c.gate.hits,
    [CallAttributes.ENFORCEMENT]: c.enforcement.action,
    [CallAttributes.ENFORCEMENT_REASON]: c.enforcement.reason,
    [CallAttributes.BYTES_REDACTED]: bytesAfterRedaction(c),
    [CallAttributes.HOP_BLOCKED]: input.hopBlocked,
    [CallAttributes.FAILED_CLOSED]: c.failedClosed,
  };
  if (input.frameworkCallId) attrs[GenAiAttributes.TOOL_CALL_ID] = shownCallId(input);
  if (input.conversationId !== undefined) attrs[GenAiAttributes.CONVERSATION_ID] = shownName(input.conversationId);
  if (input.toolType !== undefined) attrs[GenAiAttributes.TOOL_TYPE] = input.toolType;
  if (input.toolDescription !== undefined) attrs[GenAiAttributes.TOOL_DESCRIPTION] = input.toolDescription;
  if (c.gate.question !== undefined) attrs[CallAttributes.GATE_QUESTION] = c.gate.question;
  if (c.limits.length > 0) attrs[CallAttributes.ARGS_LIMITS] = c.limits;
  if (c.strippedKeys.length > 0) attrs[CallAttributes.STRIPPED_KEYS] = c.strippedKeys;
  return attrs;
}

/**
 * Write the attributes of one `tool_arg {key}` span onto it, one by one: no intermediate object
 * per argument (there can be thousands per second).
 */
export function setArgSpanAttributes(span: Pick<Span, 'setAttribute'>, label: LeafClassification, valueHash: string, excerpt: string | undefined): void {
  span.setAttribute(ArgAttributes.KEY, label.key);
  span.setAttribute(ArgAttributes.LEAF, label.leaf);
  span.setAttribute(ArgAttributes.PROVENANCE, label.provenance);
  span.setAttribute(ArgAttributes.RESIDENCY, label.residency);
  span.setAttribute(ArgAttributes.RULE, label.rule);
  span.setAttribute(ArgAttributes.VALUE_HASH, valueHash);
  span.setAttribute(ArgAttributes.BYTES, label.bytes);
  span.setAttribute(ArgAttributes.DENYLISTED, label.denylisted);
  if (label.sourceCallId !== undefined) span.setAttribute(ArgAttributes.SOURCE_CALL_ID, shownName(label.sourceCallId));
  if (excerpt !== undefined) span.setAttribute(ArgAttributes.EXCERPT, excerpt);
}

/**
 * Argument bytes after redaction: the bytes of every leaf that would leave the machine as is —
 * secret and dirty-tree leaves are redacted, and keys stripped from a remote hop do not count.
 */
export function bytesAfterRedaction(c: CallClassification): number {
  const stripped = c.strippedKeys.length > 0 ? new Set(c.strippedKeys) : undefined;
  let bytes = 0;
  for (const l of c.leaves) {
    if (l.residency === 'secret' || l.residency === 'dirty-tree') continue;
    if (stripped?.has(l.key)) continue;
    bytes += l.bytes;
  }
  return bytes;
}

/**
 * Indices of the leaves that get a `tool_arg` span, in argument order. Under the cap that is every
 * leaf; over it, the leaves that carry the decision come first (gate hits, denylisted, secret,
 * dirty-tree, unknown, context-retrieved), then the rest in order until the cap is reached.
 */
export function selectArgSpans(c: CallClassification, cap: number): number[] | undefined {
  const n = c.leaves.length;
  if (n <= cap) return undefined;
  const hits = new Set(c.gate.hits);
  const chosen = new Uint8Array(n);
  let count = 0;
  for (let i = 0; i < n && count < cap; i++) {
    if (isEvidence(c.tool, c.leaves[i]!, hits)) {
      chosen[i] = 1;
      count++;
    }
  }
  for (let i = 0; i < n && count < cap; i++) {
    if (!chosen[i]) {
      chosen[i] = 1;
      count++;
    }
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (chosen[i]) out.push(i);
  return out;
}

function isEvidence(tool: string, l: LeafClassification, hits: ReadonlySet<string>): boolean {
  return (
    l.denylisted ||
    l.residency === 'secret' ||
    l.residency === 'dirty-tree' ||
    l.residency === 'unknown' ||
    l.provenance === 'context_retrieved' ||
    hits.has(gateHitKey(tool, l.key))
  );
}

/**
 * The text the call's `argspan.args.hash` is taken over: every flattened leaf's key and value,
 * unambiguously delimited. One keyed hash over it is cheaper than hashing a JSON rendering.
 */
export function argsHashInput(flat: readonly Leaf[]): string {
  let s = '';
  for (const leaf of flat) s += `${leaf.key.length}:${leaf.key}${leaf.text.length}:${leaf.text}`;
  return s;
}
