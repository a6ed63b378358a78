/**
 * @argspan/conventions — the contract between argspan's instrumentation and its analyzer:
 * span names, attribute keys and label values. Change both sides and shared/DESIGN.md together.
 */
export { GenAiAttributes, OtelAttributes, CallAttributes, ArgAttributes, EventAttributes, McpAttributes, ResourceAttributes } from './attributes.js';
export { ErrorType } from './error-types.js';
export {
  SpanNamePrefix,
  toolCallSpanName,
  argumentSpanName,
  hopSpanName,
  MAX_SPAN_NAME_PART,
  HopEvents,
  INSTRUMENTATION_SCOPE,
} from './span-names.js';
export type { HopEventName } from './span-names.js';
export {
  RESIDENCY_ORDER,
  RESIDENCY_STRENGTH,
  Residency,
  PROVENANCE_VALUES,
  Provenance,
  VERDICT_VALUES,
  Verdict,
  GATE_ACTION_VALUES,
  GateAction,
  ENFORCEMENT_VALUES,
  Emitter,
  Enforcement,
  OPERATION_EXECUTE_TOOL,
  OPERATION_INVOKE_AGENT,
  HOP_DECISION_VALUES,
  DEFAULT_DENY_INFERRED,
  ResidencyRule,
} from './values.js';
export type { HopDecision } from './values.js';
export { LIST_INDEX_PATTERN, keyWithoutIndices, gateHitKey } from './gate-hit.js';
