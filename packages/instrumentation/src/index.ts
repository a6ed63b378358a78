/**
 * @argspan/instrumentation — wraps an agent's tool dispatch so every call is classified, gated
 * and recorded as OpenTelemetry spans (`execute_tool {tool}` with one `tool_arg {key}` child per
 * argument). The wrapper uses only `@opentelemetry/api`; `setupTracing` and the exporters use the SDK.
 */
export {
  ArgspanInstrumentation,
  instrumentDispatch,
  wrapTool,
  DEFAULT_MAX_ARG_SPANS,
  DEFAULT_HASH_MEMO_SIZE,
  DEFAULT_MAX_CONTEXT_CHARS,
} from './instrumentation.js';
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
export { setupTracing, otlpTracesUrlFromEnv } from './export/setup.js';
export type { SetupTracingOptions, TracingHandle, ExporterChoice } from './export/setup.js';
export { FileSpanExporter, listSpanFiles } from './export/file-exporter.js';
export type { FileSpanExporterOptions } from './export/file-exporter.js';
export { CountingBatchSpanProcessor } from './export/counting-processor.js';
export type { CountingBatchOptions, SpanLossStats } from './export/counting-processor.js';
export { encodeOtlpJson } from './export/otlp-json.js';
export {
  GenAiAttributes,
  OtelAttributes,
  CallAttributes,
  ArgAttributes,
  ErrorType,
  INSTRUMENTATION_SCOPE,
} from '@argspan/conventions';
