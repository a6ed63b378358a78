import { InputError } from './input-error.js';
import type { SpanPath } from './malformed-span-positions.js';

/**
 * A trace as Genkit's telemetry server keeps it for the Developer UI — `.genkit/traces/<trace id>`,
 * and its answer to `GET /api/traces/<trace id>`: `{"traceId", "displayName", "startTime",
 * "endTime", "spans": {"<span id>": span}}` (genkit-tools' `TraceData`, each span the `SpanData`
 * Genkit's `TraceServerExporter` posts) — read as the OTLP JSON document its spans come from. Each
 * span becomes an OTLP span under a resource of its own (the store keeps no resource), so a
 * malformed one is named by its id in the file:
 *
 * - `traceId` (the trace's where a span has none), `spanId`, `parentSpanId` as the ids;
 * - `startTime` and `endTime` (milliseconds since the epoch, with a fraction) as start and end;
 * - `displayName` as the name, `spanKind` (`INTERNAL`, `SERVER`, …) as OTLP's kind, `status` as it is;
 * - `attributes` (a JSON object of text, numbers, flags and lists) as typed attributes, an object
 *   value as its JSON text;
 * - `timeEvents.timeEvent` as events (`annotation.description` the name, its `attributes`);
 * - `instrumentationLibrary` as the scope;
 * - non-empty `links` and any other field (`truncated`, a field added later) as `genkit.<field>`
 *   (its JSON), so the credential scan reads it.
 */
export interface GenkitTrace {
  document: { resourceSpans: unknown[] };
  spanPath: SpanPath;
}

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

const KINDS: Record<string, number> = { INTERNAL: 1, SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 };
/** Fields read as what they are; `sameProcessAsParentSpan` (whether the parent was remote) has no OTLP place and names nothing. */
const KNOWN = new Set(['spanId', 'traceId', 'parentSpanId', 'startTime', 'endTime', 'attributes', 'displayName', 'instrumentationLibrary', 'spanKind', 'sameProcessAsParentSpan', 'status', 'timeEvents']);

/** Whether `doc` is one of Genkit's stored traces: its `traceId` and its spans keyed by id. */
export const isGenkitTrace = (doc: unknown): boolean => isObject(doc) && typeof doc.traceId === 'string' && isObject(doc.spans);

/** `doc` (a parsed Genkit trace) as OTLP JSON; throws {@link InputError} naming `file` when it is not of that shape. */
export function genkitTraceOf(doc: unknown, file: string): GenkitTrace {
  const shape = (what: string) => new InputError([{ file, line: 1, reason: `JSON of another shape: ${what}` }]);
  if (!isObject(doc) || !isObject(doc.spans)) throw shape('the "spans" of a Genkit trace must be an object of spans by id');
  const paths: string[] = [];
  const resourceSpans: unknown[] = [];
  for (const [id, span] of Object.entries(doc.spans)) {
    // (a span id is a hex id the exporter made: named in a problem, it quotes no data)
    const path = /^[0-9a-f]{1,32}$/i.test(id) ? `spans.${id}` : `spans[${paths.length}]`;
    if (!isObject(span)) throw shape(`${path} is not a Genkit span (an object)`);
    paths.push(path);
    resourceSpans.push(otlpResourceSpan(span, doc.traceId));
  }
  return { document: { resourceSpans }, spanPath: ([r]) => paths[r ?? 0] ?? `spans[${r}]` };
}

/**
 * A stored object's `attributes` (a JSON object) as typed OTLP attributes, then each field `isRead`
 * does not take as the attribute `genkit.<field>` (its JSON), so the credential scan reads it.
 */
export function genkitAttributes(g: Json, isRead: (field: string, v: unknown) => boolean): Json[] {
  const attributes = isObject(g.attributes) ? Object.entries(g.attributes).flatMap(([key, v]) => (v === null || v === undefined ? [] : [{ key, value: anyValue(v) }])) : [];
  for (const [field, v] of Object.entries(g)) {
    if ((field === 'attributes' && isObject(v)) || v === undefined || v === null || isRead(field, v)) continue;
    attributes.push({ key: `genkit.${field}`, value: { stringValue: typeof v === 'string' ? v : JSON.stringify(v) } });
  }
  return attributes;
}

function otlpResourceSpan(g: Json, traceId: unknown): Json {
  const attributes = genkitAttributes(g, (field, v) => (KNOWN.has(field) && field !== 'attributes') || (field === 'links' && Array.isArray(v) && v.length === 0));
  const library = isObject(g.instrumentationLibrary) ? g.instrumentationLibrary : undefined;
  const scope: Json = {};
  if (typeof library?.name === 'string') scope.name = library.name;
  if (typeof library?.version === 'string') scope.version = library.version;
  const events = isObject(g.timeEvents) && Array.isArray(g.timeEvents.timeEvent) ? g.timeEvents.timeEvent.map(otlpEvent) : [];
  const span: Json = {
    // (left as they are where they are not text: the reader names a malformed span)
    traceId: g.traceId ?? traceId,
    spanId: g.spanId,
    ...(g.parentSpanId !== undefined && g.parentSpanId !== null && g.parentSpanId !== '' ? { parentSpanId: g.parentSpanId } : {}),
    name: typeof g.displayName === 'string' ? g.displayName : '',
    kind: typeof g.spanKind === 'string' ? (KINDS[g.spanKind] ?? g.spanKind) : 1,
    startTimeUnixNano: nanos(g.startTime) ?? g.startTime ?? 'absent',
    endTimeUnixNano: nanos(g.endTime) ?? g.endTime ?? 'absent',
    attributes,
    events,
    ...(isObject(g.status) ? { status: g.status } : {}),
  };
  return { resource: { attributes: [] }, scopeSpans: [{ ...(Object.keys(scope).length ? { scope } : {}), spans: [span] }] };
}

/** A time event as an OTLP event: its annotation's description the name, its attributes typed. */
function otlpEvent(e: unknown): Json {
  if (!isObject(e)) return { timeUnixNano: 'not a time event', name: '' };
  const annotation = isObject(e.annotation) ? e.annotation : {};
  const attributes = isObject(annotation.attributes) ? Object.entries(annotation.attributes).flatMap(([key, v]) => (v === null || v === undefined ? [] : [{ key, value: anyValue(v) }])) : [];
  return { timeUnixNano: nanos(e.time) ?? e.time ?? 'absent', name: typeof annotation.description === 'string' ? annotation.description : '', attributes };
}

/** An attribute value as OTLP's: text, a flag, a whole number, a double, a list of them; anything else its JSON text. */
export function anyValue(v: unknown): Json {
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isSafeInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  if (Array.isArray(v)) return { arrayValue: { values: v.map((x) => (x === null || typeof x === 'object' ? { stringValue: JSON.stringify(x) } : anyValue(x))) } };
  return { stringValue: JSON.stringify(v) };
}

/**
 * Milliseconds since the epoch (the exporter's `hrTimeToMilliseconds`: a fraction holds the
 * microseconds and nanoseconds) as a nanosecond count: the decimal digits the file holds (a
 * double's shortest text), not the binary fraction's noise; undefined where it is not a
 * non-negative finite number (then the reader names the time as malformed).
 */
export function nanos(ms: unknown): string | undefined {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return undefined;
  const [whole, fraction = ''] = String(ms).split('.');
  if (!/^\d+$/.test(whole!) || !/^\d*$/.test(fraction)) return String(BigInt(Math.round(ms * 1e6)));
  return String(BigInt(whole!) * 1_000_000n + BigInt(fraction.slice(0, 6).padEnd(6, '0')));
}
