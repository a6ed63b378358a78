import type { AttributeValue } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { OtelAttributes } from '@argspan/conventions';
import { CountingBatchSpanProcessor } from './counting-processor.js';
import type { CountingBatchOptions, SpanLossStats } from './counting-processor.js';
import { FileSpanExporter } from './file-exporter.js';
import { SpillingSpanExporter } from './spill-exporter.js';
import type { FileSpanExporterOptions } from './file-exporter.js';

/** Where spans go: OTLP/HTTP, the embedded file exporter, or both. */
export type ExporterChoice = 'auto' | 'otlp' | 'file' | 'both';

/** Options of {@link setupTracing}. */
export interface SetupTracingOptions {
  /** `service.name` of the resource. @default process.env.OTEL_SERVICE_NAME, else 'argspan-agent' */
  serviceName?: string;
  /** `auto` sends OTLP when an OTLP endpoint variable is set and writes files otherwise. @default 'auto' */
  exporter?: ExporterChoice;
  /** OTLP/HTTP traces URL. @default from OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT + '/v1/traces', else http://localhost:4318/v1/traces */
  otlpUrl?: string;
  /** Time the OTLP exporter gives one export, retries included, in ms. @default 10000 (or OTEL_EXPORTER_OTLP_TIMEOUT) */
  otlpTimeoutMillis?: number;
  /** Options of the embedded file exporter (directory `traces`, 64 MiB rotation). @default {} */
  file?: FileSpanExporterOptions;
  /** Batching and loss-reporting options, per exporter. @default {} (queue 65536, batch 2048, 1 s delay) */
  batch?: CountingBatchOptions;
  /** Register the provider globally (tracer provider, AsyncLocalStorage context manager, W3C propagators). @default true */
  register?: boolean;
  /** Extra resource attributes (a list, e.g. the remote allowlist, as a string array). @default {} */
  resourceAttributes?: Record<string, AttributeValue>;
  /** Environment to read OTEL_* variables from. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
}

/** What {@link setupTracing} returns. */
export interface TracingHandle {
  provider: NodeTracerProvider;
  /** The exporters in use, in the order of `stats()`. */
  exporters: readonly ('otlp' | 'file')[];
  /** The file exporter, when one is in use. */
  fileExporter?: FileSpanExporter;
  /** The OTLP traces URL, when OTLP is in use. */
  otlpUrl?: string;
  /**
   * When OTLP is the only exporter: batches it failed to send are written by the embedded file
   * exporter (`file.directory`, default `traces`) instead — how many spans, and where.
   */
  spill?: { readonly spans: number; readonly directory: string | undefined };
  /** Span counts per exporter (dropped and failed spans are counted, never silent). */
  stats(): SpanLossStats[];
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
  /**
   * Flush and shut down when the process is about to exit (`beforeExit`) or gets SIGINT/SIGTERM
   * (then re-raised so the exit status stays the signal's), waiting at most `timeoutMillis` for a
   * signal's flush. Returns a function that removes the hooks.
   */
  flushOnExit(timeoutMillis?: number): () => void;
}

/**
 * The OTLP/HTTP traces URL from the environment, as the OTLP exporter spec says:
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is used as is, `OTEL_EXPORTER_OTLP_ENDPOINT` gets
 * `/v1/traces` appended. Undefined when neither is set.
 */
export function otlpTracesUrlFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  const specific = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (specific) return specific;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (base) return `${base.replace(/\/+$/, '')}/v1/traces`;
  return undefined;
}

/**
 * Tracing for an app that has no tracer provider: a NodeTracerProvider whose resource carries
 * `service.name`, with a counting batch processor per exporter — OTLP/HTTP (JSON), the embedded
 * file exporter, or both.
 */
export function setupTracing(options: SetupTracingOptions = {}): TracingHandle {
  const env = options.env ?? process.env;
  const envUrl = otlpTracesUrlFromEnv(env);
  const choice = options.exporter ?? 'auto';
  const useOtlp = choice === 'otlp' || choice === 'both' || (choice === 'auto' && (envUrl !== undefined || options.otlpUrl !== undefined));
  const useFile = choice === 'file' || choice === 'both' || (choice === 'auto' && !useOtlp);
  const serviceName = options.serviceName ?? (env.OTEL_SERVICE_NAME?.trim() || 'argspan-agent');

  const exporters: ('otlp' | 'file')[] = [];
  const processors: CountingBatchSpanProcessor[] = [];
  const add = (name: 'otlp' | 'file', exporter: SpanExporter) => {
    exporters.push(name);
    processors.push(new CountingBatchSpanProcessor(exporter, options.batch));
  };
  let otlpUrl: string | undefined;
  let spilling: SpillingSpanExporter | undefined;
  if (useOtlp) {
    otlpUrl = options.otlpUrl ?? envUrl ?? 'http://localhost:4318/v1/traces';
    let otlp: OTLPTraceExporter;
    try {
      otlp = new OTLPTraceExporter(options.otlpTimeoutMillis === undefined ? { url: otlpUrl } : { url: otlpUrl, timeoutMillis: options.otlpTimeoutMillis });
    } catch {
      // (the exporter's own message quotes the URL, which may carry credentials)
      const from = options.otlpUrl !== undefined ? 'options.otlpUrl' : 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / OTEL_EXPORTER_OTLP_ENDPOINT';
      throw new TypeError(`setupTracing: the OTLP endpoint (${from}) is not a valid URL`);
    }
    // With files written anyway ('both'), a failed OTLP batch is already on disk; otherwise spill it there.
    if (useFile) add('otlp', otlp);
    else add('otlp', (spilling = new SpillingSpanExporter(otlp, () => new FileSpanExporter(options.file))));
  }
  let fileExporter: FileSpanExporter | undefined;
  if (useFile) {
    fileExporter = new FileSpanExporter(options.file);
    add('file', fileExporter);
  }

  const resource = defaultResource().merge(
    resourceFromAttributes({ ...options.resourceAttributes, [OtelAttributes.SERVICE_NAME]: serviceName }),
  );
  const provider = new NodeTracerProvider({ resource, spanProcessors: processors });
  if (options.register !== false) provider.register();

  let shutdownOnce: Promise<void> | undefined;
  const shutdown = () => (shutdownOnce ??= provider.shutdown());
  const handle: TracingHandle = {
    provider,
    exporters,
    stats: () => processors.map((p) => p.stats()),
    forceFlush: () => provider.forceFlush(),
    shutdown,
    flushOnExit: (timeoutMillis = 5000) => installExitHooks(shutdown, timeoutMillis, spilling && (() => spilling!.giveUpOnPrimary())),
  };
  if (fileExporter) handle.fileExporter = fileExporter;
  if (spilling) {
    const s = spilling;
    handle.spill = { get spans() { return s.spilled; }, get directory() { return s.spillDirectory; } };
  }
  if (otlpUrl !== undefined) handle.otlpUrl = otlpUrl;
  return handle;
}

/** After giving up on the collector at a signal: how long the spill may take to write what is left. */
const SPILL_AT_EXIT_MS = 1000;

function installExitHooks(shutdown: () => Promise<void>, timeoutMillis: number, giveUpOnCollector?: () => void): () => void {
  const onBeforeExit = () => {
    void shutdown().catch(() => undefined);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    remove();
    // A collector that does not answer must not keep a Ctrl-C waiting for its export timeout: past
    // the deadline, what it holds and what is still queued go to the spill files instead.
    const flushed = shutdown().then(
      () => true,
      () => true,
    );
    const within = (ms: number) => Promise.race([flushed, new Promise<false>((resolve) => setTimeout(() => resolve(false), ms).unref())]);
    void within(timeoutMillis)
      .then(async (done) => {
        if (done || !giveUpOnCollector) return;
        giveUpOnCollector();
        await within(SPILL_AT_EXIT_MS);
      })
      .finally(() => process.kill(process.pid, signal));
  };
  const remove = () => {
    process.off('beforeExit', onBeforeExit);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.once('beforeExit', onBeforeExit);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return remove;
}
