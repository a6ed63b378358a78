/**
 * @argspan/setup — OpenTelemetry SDK wiring for an agent that has no tracer provider of its own,
 * kept apart from `@argspan/instrumentation` (which needs only `@opentelemetry/api`), as
 * opentelemetry-js-contrib keeps SDK setup apart from its instrumentations.
 */
export { setupTracing, otlpTracesUrlFromEnv } from './setup.js';
export type { SetupTracingOptions, TracingHandle, ExporterChoice } from './setup.js';
export { FileSpanExporter, listSpanFiles } from './file-exporter.js';
export type { FileSpanExporterOptions } from './file-exporter.js';
export { CountingBatchSpanProcessor } from './counting-processor.js';
export type { CountingBatchOptions, SpanLossStats } from './counting-processor.js';
export { encodeOtlpJson } from './otlp-json.js';
