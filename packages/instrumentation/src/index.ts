/**
 * @argspan/instrumentation — wraps an agent's tool dispatch so every call is classified, gated
 * and recorded as OpenTelemetry spans (`execute_tool {tool}` with one `tool_arg {key}` child per
 * argument). It uses only `@opentelemetry/api` (a peer dependency) and joins whatever tracer provider
 * the application registered; `@argspan/setup` wires an SDK for an application that has none.
 */
export {
  ArgspanInstrumentation,
  instrumentDispatch,
  wrapTool,
  DEFAULT_MAX_ARG_SPANS,
  DEFAULT_HASH_MEMO_SIZE,
  DEFAULT_MAX_CONTEXT_CHARS,
} from './instrumentation.js';
export { runAgentTurn } from './agent-turn.js';
export type { AgentTurnOptions } from './agent-turn.js';
export { ArgspanSession } from './session.js';
export type { SessionOptions } from './session.js';
export {
  ArgspanGateError,
  ArgspanRefusedError,
  ArgspanBlockedError,
  ArgspanClarificationError,
} from './errors.js';
export { MAX_EXCERPT_CHARS } from './excerpt.js';
export { FAIL_CLOSED_REASON } from './fail-closed.js';
export type {
  ArgspanInstrumentationConfig,
  CallOptions,
  Classifier,
  Dispatch,
  InstrumentedDispatch,
  RemoteHop,
  RemoteHopRequest,
  ToolSchema,
} from './types.js';
export {
  GenAiAttributes,
  OtelAttributes,
  CallAttributes,
  ArgAttributes,
  ErrorType,
  INSTRUMENTATION_SCOPE,
} from '@argspan/conventions';
