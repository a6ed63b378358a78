/** Span and event names (shared/DESIGN.md, "Span conventions"). */

export const SpanNamePrefix = {
  TOOL_CALL: 'execute_tool',
  ARGUMENT: 'tool_arg',
  HOP: 'hop',
} as const;

/**
 * Longest tool name or argument key a span name shows, in UTF-16 units: a span name is for grouping
 * and display (backends index it; a 100 KB key made one 100 KB), and the whole name or key is in
 * the span's attributes. A longer one is cut and ends in `…`.
 */
export const MAX_SPAN_NAME_PART = 128;

/** `execute_tool {tool}` */
export function toolCallSpanName(tool: string): string {
  return `${SpanNamePrefix.TOOL_CALL} ${namePart(tool)}`;
}

/** `tool_arg {key}` */
export function argumentSpanName(key: string): string {
  return `${SpanNamePrefix.ARGUMENT} ${namePart(key)}`;
}

/** `hop {tool}` */
export function hopSpanName(tool: string): string {
  return `${SpanNamePrefix.HOP} ${namePart(tool)}`;
}

function namePart(part: string): string {
  if (part.length <= MAX_SPAN_NAME_PART) return part;
  let end = MAX_SPAN_NAME_PART - 1;
  // (never half of a surrogate pair)
  const last = part.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${part.slice(0, end)}…`;
}

/** Hop and lease events, recorded on the tool-call span or its `hop {tool}` child. */
export const HopEvents = {
  CHECKPOINT_WRITTEN: 'argspan.checkpoint.written',
  PROBE: 'argspan.probe',
  LEASE_ACQUIRED: 'argspan.lease.acquired',
  LEASE_RELEASED: 'argspan.lease.released',
  LEASE_EXPIRED: 'argspan.lease.expired',
  LEASE_WAIT: 'argspan.lease.wait',
  QUEUE_ENQUEUED: 'argspan.queue.enqueued',
  QUEUE_DRAINED: 'argspan.queue.drained',
  HOP_DECISION: 'argspan.hop.decision',
  HOP_SENT: 'argspan.hop.sent',
  HOP_COMPLETED: 'argspan.hop.completed',
  HOP_FAILED: 'argspan.hop.failed',
  /** A state file (checkpoint, lease, queue item) was unreadable and moved to quarantine. */
  STATE_QUARANTINED: 'argspan.state.quarantined',
} as const;
export type HopEventName = (typeof HopEvents)[keyof typeof HopEvents];

/** Instrumentation scope name every argspan span is created under. */
export const INSTRUMENTATION_SCOPE = '@argspan/instrumentation';
