/** Span and event names (shared/DESIGN.md, "Span conventions"). */

export const SpanNamePrefix = {
  TOOL_CALL: 'execute_tool',
  ARGUMENT: 'tool_arg',
  HOP: 'hop',
} as const;

/** `execute_tool {tool}` */
export function toolCallSpanName(tool: string): string {
  return `${SpanNamePrefix.TOOL_CALL} ${tool}`;
}

/** `tool_arg {key}` */
export function argumentSpanName(key: string): string {
  return `${SpanNamePrefix.ARGUMENT} ${key}`;
}

/** `hop {tool}` */
export function hopSpanName(tool: string): string {
  return `${SpanNamePrefix.HOP} ${tool}`;
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
