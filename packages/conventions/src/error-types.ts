/**
 * `error.type` values argspan writes on an `execute_tool` span when the gate stopped the call
 * (a tool's own failure records the tool error's class name instead). Low-cardinality, never a value.
 */
export const ErrorType = {
  /** The verdict was `refuse`: the call did not run. */
  REFUSED: 'ArgspanRefusedError',
  /** The inferred-field gate blocked the call (`argspan.gate.action` = `block`). */
  BLOCKED: 'ArgspanBlockedError',
  /** The inferred-field gate asked one clarifying question (`argspan.gate.action` = `ask`). */
  CLARIFICATION: 'ArgspanClarificationError',
  /** A tool threw something that is not an Error, or an Error without a usable name. */
  OTHER: '_OTHER',
} as const;
export type ErrorType = (typeof ErrorType)[keyof typeof ErrorType];
