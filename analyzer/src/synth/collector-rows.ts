/**
 * What the OpenTelemetry Collector's `clickhouseexporter` writes for OTLP spans: its default
 * `otel_traces` table and one row per span, built from OTLP/JSON as the exporter builds it from
 * the decoded OTLP message (exporter_traces.go at v0.140: hex ids, `SPAN_KIND_…` /
 * `STATUS_CODE_…` names, every attribute value as pcommon's `Value.AsString()`); and for OTLP log
 * records its `otel_logs` table, a row per record (exporter_logs.go). Used by the ClickHouse tests
 * and benchmark to put the project's traces and logs where the collector would; never by the
 * analyzer's read path.
 */
import { readFileSync } from 'node:fs';
import { camelKeys, otlpDocumentOf } from '../load/converted-documents.js';
import { isGenkitTrace } from '../load/genkit-trace.js';

/**
 * The exporter's default DDL for `otel_traces` (internal/sql_templates/traces_table.sql, with
 * the default MergeTree engine and no TTL).
 */
export function otelTracesDdl(table = 'otel_traces'): string {
  return `CREATE TABLE IF NOT EXISTS ${table} (
    Timestamp DateTime64(9) CODEC(Delta, ZSTD(1)),
    TraceId String CODEC(ZSTD(1)),
    SpanId String CODEC(ZSTD(1)),
    ParentSpanId String CODEC(ZSTD(1)),
    TraceState String CODEC(ZSTD(1)),
    SpanName LowCardinality(String) CODEC(ZSTD(1)),
    SpanKind LowCardinality(String) CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    ResourceAttributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
    ScopeName String CODEC(ZSTD(1)),
    ScopeVersion String CODEC(ZSTD(1)),
    SpanAttributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
    Duration UInt64 CODEC(ZSTD(1)),
    StatusCode LowCardinality(String) CODEC(ZSTD(1)),
    StatusMessage String CODEC(ZSTD(1)),
    Events Nested (
      Timestamp DateTime64(9),
      Name LowCardinality(String),
      Attributes Map(LowCardinality(String), String)
    ) CODEC(ZSTD(1)),
    Links Nested (
      TraceId String,
      SpanId String,
      TraceState String,
      Attributes Map(LowCardinality(String), String)
    ) CODEC(ZSTD(1)),
    INDEX idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1,
    INDEX idx_res_attr_key mapKeys(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_res_attr_value mapValues(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_span_attr_key mapKeys(SpanAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_span_attr_value mapValues(SpanAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_duration Duration TYPE minmax GRANULARITY 1
  ) ENGINE = MergeTree()
  PARTITION BY toDate(Timestamp)
  ORDER BY (ServiceName, SpanName, toDateTime(Timestamp))
  SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1`;
}

/** One `otel_traces` row as JSONEachRow (times as `seconds.nanoseconds` text, which DateTime64(9) parses exactly). */
export interface ExporterRow {
  Timestamp: string;
  TraceId: string;
  SpanId: string;
  ParentSpanId: string;
  TraceState: string;
  SpanName: string;
  SpanKind: string;
  ServiceName: string;
  ResourceAttributes: Record<string, string>;
  ScopeName: string;
  ScopeVersion: string;
  SpanAttributes: Record<string, string>;
  Duration: string;
  StatusCode: string;
  StatusMessage: string;
  'Events.Timestamp': string[];
  'Events.Name': string[];
  'Events.Attributes': Record<string, string>[];
  'Links.TraceId': string[];
  'Links.SpanId': string[];
  'Links.TraceState': string[];
  'Links.Attributes': Record<string, string>[];
}

type Json = Record<string, unknown>;

const SPAN_KINDS = ['SPAN_KIND_UNSPECIFIED', 'SPAN_KIND_INTERNAL', 'SPAN_KIND_SERVER', 'SPAN_KIND_CLIENT', 'SPAN_KIND_PRODUCER', 'SPAN_KIND_CONSUMER'];
const STATUS_CODES = ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR'];

/** An API answer (Phoenix's spans, Langfuse's observations) as the OTLP document the analyzer's reader makes of it; anything else as it is. */
function asOtlpDocument(document: unknown): unknown {
  const d = document as Json | null;
  if (Array.isArray(d) || Array.isArray(d?.runs)) return otlpDocumentOf('langsmith-runs', d, 'API answer');
  if (isGenkitTrace(d)) return otlpDocumentOf('genkit-trace', d, 'Genkit trace');
  if (d === null || typeof d !== 'object' || !Array.isArray(d.data)) return document;
  if ('next_cursor' in d) return otlpDocumentOf('phoenix-otlp-spans', d, 'API answer');
  if ('meta' in d) return otlpDocumentOf('langfuse-observations', d, 'API answer');
  return document;
}

/** The rows of every span in one OTLP/JSON document (`resourceSpans`, or protobuf field names as Phoenix writes them). */
export function exporterRows(document: unknown): ExporterRow[] {
  const doc = camelKeys(asOtlpDocument(document)) as Json;
  const rows: ExporterRow[] = [];
  for (const rs of list(doc.resourceSpans)) {
    const resourceAttrs = list((rs.resource as Json | undefined)?.attributes);
    const service = resourceAttrs.find((a) => a.key === 'service.name');
    const serviceName = typeof (service?.value as Json | undefined)?.stringValue === 'string' ? String((service!.value as Json).stringValue) : '';
    for (const ss of list(rs.scopeSpans)) {
      const scope = (ss.scope ?? {}) as Json;
      for (const span of list(ss.spans)) {
        const start = BigInt(String(span.startTimeUnixNano ?? 0));
        const end = BigInt(String(span.endTimeUnixNano ?? 0));
        const events = list(span.events);
        const links = list(span.links);
        const status = (span.status ?? {}) as Json;
        rows.push({
          Timestamp: nanosText(start),
          TraceId: hexId(span.traceId),
          SpanId: hexId(span.spanId),
          ParentSpanId: hexId(span.parentSpanId),
          TraceState: String(span.traceState ?? ''),
          SpanName: String(span.name ?? ''),
          SpanKind: enumName(span.kind, SPAN_KINDS, 'SPAN_KIND_'),
          ServiceName: serviceName,
          ResourceAttributes: attributeMap(resourceAttrs),
          ScopeName: String(scope.name ?? ''),
          ScopeVersion: String(scope.version ?? ''),
          SpanAttributes: attributeMap(list(span.attributes)),
          // The exporter writes end - start; a span that ends before it starts wraps in UInt64.
          Duration: String(BigInt.asUintN(64, end - start)),
          StatusCode: enumName(status.code, STATUS_CODES, 'STATUS_CODE_'),
          StatusMessage: String(status.message ?? ''),
          'Events.Timestamp': events.map((e) => nanosText(BigInt(String(e.timeUnixNano ?? 0)))),
          'Events.Name': events.map((e) => String(e.name ?? '')),
          'Events.Attributes': events.map((e) => attributeMap(list(e.attributes))),
          'Links.TraceId': links.map((l) => hexId(l.traceId)),
          'Links.SpanId': links.map((l) => hexId(l.spanId)),
          'Links.TraceState': links.map((l) => String(l.traceState ?? '')),
          'Links.Attributes': links.map((l) => attributeMap(list(l.attributes))),
        });
      }
    }
  }
  return rows;
}

/** The rows of an OTLP JSON-lines file (one document per line) or of one OTLP/JSON document. */
export function exporterRowsOfFile(file: string): ExporterRow[] {
  const text = readFileSync(file, 'utf8');
  if (/\.jsonl$/.test(file)) return text.split('\n').filter((l) => l.trim()).flatMap((l) => exporterRows(JSON.parse(l)));
  return exporterRows(JSON.parse(text));
}

/** pcommon `Value.AsString()` of an OTLP/JSON AnyValue, as the exporter stores every attribute. */
export function asString(value: unknown): string {
  const v = (value ?? {}) as Json;
  if (typeof v.stringValue === 'string') return v.stringValue;
  if (typeof v.boolValue === 'boolean') return String(v.boolValue);
  if (v.intValue !== undefined && v.intValue !== null) return BigInt(String(v.intValue)).toString();
  if (v.doubleValue !== undefined && v.doubleValue !== null) return String(Number(v.doubleValue));
  if (typeof v.bytesValue === 'string') return v.bytesValue;
  if (v.arrayValue !== undefined && v.arrayValue !== null) return goJson(list((v.arrayValue as Json).values).map(asRaw));
  if (v.kvlistValue !== undefined && v.kvlistValue !== null) return goJson(rawMap(list((v.kvlistValue as Json).values)));
  return '';
}

/** pcommon `Value.AsRaw()`: what the exporter's JSON of arrays and maps is made of. */
function asRaw(value: unknown): unknown {
  const v = (value ?? {}) as Json;
  if (typeof v.stringValue === 'string') return v.stringValue;
  if (typeof v.boolValue === 'boolean') return v.boolValue;
  if (v.intValue !== undefined && v.intValue !== null) return BigInt(String(v.intValue));
  if (v.doubleValue !== undefined && v.doubleValue !== null) return Number(v.doubleValue);
  if (typeof v.bytesValue === 'string') return v.bytesValue;
  if (v.arrayValue !== undefined && v.arrayValue !== null) return list((v.arrayValue as Json).values).map(asRaw);
  if (v.kvlistValue !== undefined && v.kvlistValue !== null) return rawMap(list((v.kvlistValue as Json).values));
  return null;
}

function rawMap(kvs: Json[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of kvs) out[String(kv.key)] = asRaw(kv.value);
  return out;
}

/** Go's encoding/json: HTML-sensitive characters and U+2028/2029 escaped; map keys sorted; 64-bit ints exact. */
function goJson(v: unknown): string {
  const text = JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `\u0000int:${x}` : sortedKeys(x)));
  return text
    .replace(/"\\u0000int:(-?\d+)"/g, '$1')
    .replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function sortedKeys(x: unknown): unknown {
  if (x === null || typeof x !== 'object' || Array.isArray(x)) return x;
  return Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Attributes as the exporter's Map(String, String): the last of duplicate keys wins, as in a Go map. */
function attributeMap(attrs: Json[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of attrs) out[String(a.key)] = asString(a.value);
  return out;
}

function list(v: unknown): Json[] {
  return Array.isArray(v) ? (v.filter((x) => x !== null && typeof x === 'object') as Json[]) : [];
}

/** Lower-case hex, empty for an absent or all-zero id (traceutil.*IDToHexOrEmptyString). */
function hexId(v: unknown): string {
  const s = typeof v === 'string' ? v.toLowerCase() : '';
  return /^0*$/.test(s) ? '' : s;
}

function enumName(v: unknown, names: readonly string[], prefix: string): string {
  if (typeof v === 'number') return names[v] ?? '';
  if (typeof v === 'string') {
    const name = v.toUpperCase().startsWith(prefix) ? v.toUpperCase() : `${prefix}${v.toUpperCase()}`;
    return names.includes(name) ? name : '';
  }
  return names[0]!;
}

/**
 * Unix nanoseconds as `seconds.nanoseconds` text, the seconds at least 10 digits: ClickHouse reads
 * fewer (a span started at 0, an SDK that never set the time) as the start of a date and refuses it.
 */
function nanosText(ns: bigint): string {
  const s = ns / 1_000_000_000n;
  return `${String(s).padStart(10, '0')}.${String(ns - s * 1_000_000_000n).padStart(9, '0')}`;
}

/**
 * The exporter's DDL for `otel_logs` (internal/sqltemplates/logs_table.sql, the default MergeTree
 * engine) with the `EventName` column, as the repository's ClickHouse creates it
 * (`deploy/clickhouse/otel_logs.sql`, read here: one schema for the stack and the tests), named
 * `table` and without its TTL (the fixtures' records are years old); `eventName: false` leaves the
 * column out, as the exporter's own `create_schema` creates the table.
 */
export function otelLogsDdl(table = 'otel_logs', { eventName = true }: { eventName?: boolean } = {}): string {
  const ddl = readFileSync(new URL('../../../deploy/clickhouse/otel_logs.sql', import.meta.url), 'utf8')
    .replace(/^--.*\n/gm, '')
    .replace('otel.otel_logs', table)
    .replace(/^TTL .*\n/m, '');
  return eventName ? ddl : ddl.replace(/^ *EventName .*\n/m, '');
}

/** One `otel_logs` row as JSONEachRow (`TimestampTime` is the table's default). */
export interface ExporterLogRow {
  Timestamp: string;
  TraceId: string;
  SpanId: string;
  TraceFlags: number;
  SeverityText: string;
  SeverityNumber: number;
  ServiceName: string;
  Body: string;
  ResourceSchemaUrl: string;
  ResourceAttributes: Record<string, string>;
  ScopeSchemaUrl: string;
  ScopeName: string;
  ScopeVersion: string;
  ScopeAttributes: Record<string, string>;
  LogAttributes: Record<string, string>;
  EventName: string;
}

const SEVERITY_NUMBERS = ['UNSPECIFIED', 'TRACE', 'TRACE2', 'TRACE3', 'TRACE4', 'DEBUG', 'DEBUG2', 'DEBUG3', 'DEBUG4', 'INFO', 'INFO2', 'INFO3', 'INFO4', 'WARN', 'WARN2', 'WARN3', 'WARN4', 'ERROR', 'ERROR2', 'ERROR3', 'ERROR4', 'FATAL', 'FATAL2', 'FATAL3', 'FATAL4'];

/**
 * The rows of every log record in one OTLP/JSON logs document (`resourceLogs`), as the exporter
 * writes them (exporter_logs.go): the time, else the observed time; hex ids (empty when absent);
 * the body as `Body().AsString()` (a string as it is, a map or list as Go's JSON of it); every
 * attribute as `AsString()`; the service name from the resource; the record's event name.
 */
export function exporterLogRows(document: unknown): ExporterLogRow[] {
  const doc = camelKeys(document) as Json;
  const rows: ExporterLogRow[] = [];
  for (const rl of list(doc.resourceLogs)) {
    const resourceAttrs = list((rl.resource as Json | undefined)?.attributes);
    const service = resourceAttrs.find((a) => a.key === 'service.name');
    for (const sl of list(rl.scopeLogs)) {
      const scope = (sl.scope ?? {}) as Json;
      for (const r of list(sl.logRecords)) {
        const time = BigInt(String(r.timeUnixNano ?? 0));
        const severity = r.severityNumber;
        rows.push({
          Timestamp: nanosText(time === 0n ? BigInt(String(r.observedTimeUnixNano ?? 0)) : time),
          TraceId: hexId(r.traceId),
          SpanId: hexId(r.spanId),
          TraceFlags: Number(r.flags ?? 0) & 0xff,
          SeverityText: String(r.severityText ?? ''),
          SeverityNumber: typeof severity === 'number' ? severity : Math.max(0, SEVERITY_NUMBERS.indexOf(String(severity ?? '').replace(/^SEVERITY_NUMBER_/, ''))),
          ServiceName: service ? asString(service.value) : '',
          Body: asString(r.body),
          ResourceSchemaUrl: String(rl.schemaUrl ?? ''),
          ResourceAttributes: attributeMap(resourceAttrs),
          ScopeSchemaUrl: String(sl.schemaUrl ?? ''),
          ScopeName: String(scope.name ?? ''),
          ScopeVersion: String(scope.version ?? ''),
          ScopeAttributes: attributeMap(list(scope.attributes)),
          LogAttributes: attributeMap(list(r.attributes)),
          EventName: String(r.eventName ?? ''),
        });
      }
    }
  }
  return rows;
}

/** The log rows of an OTLP logs file: one document, or JSON lines (traces lines among them left out). */
export function exporterLogRowsOfFile(file: string): ExporterLogRow[] {
  const text = readFileSync(file, 'utf8');
  if (/\.jsonl$/.test(file)) return text.split('\n').filter((l) => l.trim()).flatMap((l) => exporterLogRows(JSON.parse(l)));
  return exporterLogRows(JSON.parse(text));
}
