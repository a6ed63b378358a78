import { InputError } from './input-error.js';
import type { SpanPath } from './malformed-span-positions.js';

/**
 * Zipkin's JSON v2 spans, read as the OTLP JSON document they come from: a list of spans (what
 * an OpenTelemetry Zipkin exporter sends, Zipkin's `GET /api/v2/trace/{traceId}`, Grafana's trace
 * export of a Zipkin trace) or a list of such lists (`GET /api/v2/traces`). Each span becomes an
 * OTLP span under a resource of its own (`service.name` its `localEndpoint.serviceName`), so a
 * malformed one is named by its place in the list:
 *
 * - `traceId` (16 or 32 hex digits, the short ones left-padded), `id`, `parentId` as the ids;
 * - `timestamp` and `duration` (microseconds) as start and end; `kind` (`CLIENT`, `SERVER`,
 *   `PRODUCER`, `CONSUMER`; absent for a local span) as OTLP's;
 * - `tags` (text, as the exporters write every attribute) as string attributes, but
 *   `otel.status_code` / `error` (the status and its message) and `otel.scope.name` /
 *   `otel.scope.version` (the collector's exporter; `otel.library.*` before) as what they name;
 * - `annotations` as events: the name the value, or `{"name": {attributes}}` as the collector writes an event with attributes;
 * - any other field (`remoteEndpoint`, `debug`, `shared`, a field added later) as `zipkin.<field>` (its JSON), so the credential scan reads it.
 */
export interface ZipkinSpans {
  document: { resourceSpans: unknown[] };
  spanPath: SpanPath;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

const KINDS: Record<string, number> = { CLIENT: 3, SERVER: 2, PRODUCER: 4, CONSUMER: 5 };
const KNOWN = new Set(['traceId', 'id', 'parentId', 'name', 'kind', 'timestamp', 'duration', 'localEndpoint', 'tags', 'annotations']);
const STATUS_TAG = 'otel.status_code';
const ERROR_TAG = 'error';
const SCOPE_TAGS = { name: ['otel.scope.name', 'otel.library.name'], version: ['otel.scope.version', 'otel.library.version'] };

/** Field names of a Zipkin v2 span that tell it from other lists with a `traceId` and an `id` (Langfuse's observations). */
export const ZIPKIN_SPAN_FIELDS = ['localEndpoint', 'remoteEndpoint', 'annotations', 'duration', 'timestamp'];

/** `doc` (a parsed list of Zipkin spans, or of such lists) as OTLP JSON; throws {@link InputError} naming `file` when it is not of that shape. */
export function zipkinSpansOf(doc: unknown, file: string): ZipkinSpans {
  const shape = (what: string) => new InputError([{ file, line: 1, reason: `JSON of another shape: ${what}` }]);
  if (!Array.isArray(doc)) throw shape('Zipkin spans must be a list');
  const nested = doc.length > 0 && Array.isArray(doc[0]);
  const paths: string[] = [];
  const resourceSpans: unknown[] = [];
  const add = (span: unknown, path: string) => {
    if (!isObject(span)) throw shape(`${path} is not a Zipkin span (an object)`);
    paths.push(path);
    resourceSpans.push(otlpResourceSpan(span));
  };
  doc.forEach((entry, t) => {
    if (!nested) return add(entry, `[${t}]`);
    if (!Array.isArray(entry)) throw shape(`[${t}] is not a list of Zipkin spans (a trace of GET /api/v2/traces)`);
    entry.forEach((span, i) => add(span, `[${t}][${i}]`));
  });
  return { document: { resourceSpans }, spanPath: ([r]) => paths[r ?? 0] ?? `[${r}]` };
}

function otlpResourceSpan(z: Json): Json {
  const tags = isObject(z.tags) ? z.tags : {};
  const attributes: Json[] = [];
  let statusCode: number | undefined;
  let statusMessage: string | undefined;
  const scope: Json = {};
  for (const [key, v] of Object.entries(tags)) {
    const text = typeof v === 'string' ? v : JSON.stringify(v);
    if (key === STATUS_TAG && (text === 'OK' || text === 'ERROR')) statusCode = text === 'OK' ? 1 : 2;
    else if (key === ERROR_TAG) {
      statusCode = 2;
      statusMessage = text;
    } else if (SCOPE_TAGS.name.includes(key)) scope.name = text;
    else if (SCOPE_TAGS.version.includes(key)) scope.version = text;
    else attributes.push({ key, value: { stringValue: text } });
  }
  if (z.tags !== undefined && !isObject(z.tags)) attributes.push({ key: 'zipkin.tags', value: { stringValue: JSON.stringify(z.tags) } });
  for (const [field, v] of Object.entries(z)) if (!KNOWN.has(field) && v !== undefined) attributes.push({ key: `zipkin.${field}`, value: { stringValue: typeof v === 'string' ? v : JSON.stringify(v) } });
  const start = micros(z.timestamp);
  const duration = z.duration === undefined ? 0n : micros(z.duration);
  const service = isObject(z.localEndpoint) && typeof z.localEndpoint.serviceName === 'string' ? z.localEndpoint.serviceName : undefined;
  const span: Json = {
    // (left as they are where they are not text: the reader names a malformed span)
    traceId: typeof z.traceId === 'string' && z.traceId.length === 16 ? z.traceId.padStart(32, '0') : z.traceId,
    spanId: z.id,
    ...(z.parentId !== undefined && z.parentId !== null ? { parentSpanId: z.parentId } : {}),
    name: typeof z.name === 'string' ? z.name : '',
    kind: typeof z.kind === 'string' ? (KINDS[z.kind] ?? z.kind) : 1,
    startTimeUnixNano: start === undefined ? (z.timestamp ?? 'absent') : String(start * 1000n),
    endTimeUnixNano: start === undefined || duration === undefined ? z.duration : String((start + duration) * 1000n),
    attributes,
    events: Array.isArray(z.annotations) ? z.annotations.map(otlpEvent) : [],
    ...(statusCode !== undefined ? { status: { code: statusCode, ...(statusMessage !== undefined ? { message: statusMessage } : {}) } } : {}),
  };
  return {
    resource: { attributes: service === undefined ? [] : [{ key: 'service.name', value: { stringValue: service } }] },
    scopeSpans: [{ ...(Object.keys(scope).length ? { scope } : {}), spans: [span] }],
  };
}

/** An annotation as an event: its value the name, or the collector's `{"name": {attributes}}` read as such. */
function otlpEvent(a: unknown): Json {
  if (!isObject(a)) return { timeUnixNano: 'not an annotation', name: '' };
  const at = micros(a.timestamp);
  const value = typeof a.value === 'string' ? a.value : JSON.stringify(a.value) ?? '';
  let name = value;
  const attributes: Json[] = [];
  if (value.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(value);
      const entries = isObject(parsed) ? Object.entries(parsed) : [];
      if (entries.length === 1 && isObject(entries[0]![1])) {
        name = entries[0]![0];
        for (const [key, v] of Object.entries(entries[0]![1])) attributes.push({ key, value: { stringValue: typeof v === 'string' ? v : JSON.stringify(v) } });
      }
    } catch {
      // (an annotation's text that is not JSON is its name)
    }
  }
  return { timeUnixNano: at === undefined ? a.timestamp : String(at * 1000n), name, attributes };
}

/** Microseconds as a non-negative integer, or undefined (then the reader names the time as malformed). */
function micros(v: unknown): bigint | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? BigInt(v) : undefined;
}
