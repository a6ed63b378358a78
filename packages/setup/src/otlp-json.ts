import type { Attributes, AttributeValue, HrTime, Link } from '@opentelemetry/api';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';

/**
 * OTLP/JSON encoding of finished spans, as the OpenTelemetry Collector's file exporter writes it
 * (pdata's JSON marshaler): lowerCamelCase field names, hex trace/span ids, 64-bit integers
 * (nanosecond timestamps, `intValue`) as decimal strings, enums as numbers, zero-valued fields
 * left out. One call encodes one `ExportTraceServiceRequest`: `{"resourceSpans":[…]}`.
 */
export function encodeOtlpJson(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(toExportRequest(spans));
}

/** The `ExportTraceServiceRequest` object for `spans`, grouped by resource, then by scope. */
export function toExportRequest(spans: readonly ReadableSpan[]): { resourceSpans: unknown[] } {
  const byResource = new Map<ReadableSpan['resource'], Map<string, ReadableSpan[]>>();
  for (const span of spans) {
    let scopes = byResource.get(span.resource);
    if (!scopes) byResource.set(span.resource, (scopes = new Map()));
    const s = span.instrumentationScope;
    const scopeKey = `${s.name}@${s.version ?? ''}:${s.schemaUrl ?? ''}`;
    let list = scopes.get(scopeKey);
    if (!list) scopes.set(scopeKey, (list = []));
    list.push(span);
  }
  const resourceSpans: unknown[] = [];
  for (const [resource, scopes] of byResource) {
    const scopeSpans: unknown[] = [];
    for (const list of scopes.values()) {
      const s = list[0]!.instrumentationScope;
      const scope: Record<string, unknown> = { name: s.name };
      if (s.version) scope.version = s.version;
      const entry: Record<string, unknown> = { scope, spans: list.map(toOtlpSpan) };
      if (s.schemaUrl) entry.schemaUrl = s.schemaUrl;
      scopeSpans.push(entry);
    }
    const rs: Record<string, unknown> = { resource: { attributes: toKeyValues(resource.attributes) }, scopeSpans };
    if (resource.schemaUrl) rs.schemaUrl = resource.schemaUrl;
    resourceSpans.push(rs);
  }
  return { resourceSpans };
}

function toOtlpSpan(span: ReadableSpan): Record<string, unknown> {
  const ctx = span.spanContext();
  const out: Record<string, unknown> = { traceId: ctx.traceId, spanId: ctx.spanId };
  const traceState = ctx.traceState?.serialize();
  if (traceState) out.traceState = traceState;
  const parent = span.parentSpanContext;
  if (parent?.spanId) out.parentSpanId = parent.spanId;
  out.flags = spanFlags(ctx.traceFlags, parent?.isRemote);
  out.name = span.name;
  // The API's SpanKind starts at INTERNAL = 0; OTLP reserves 0 for UNSPECIFIED.
  out.kind = span.kind + 1;
  out.startTimeUnixNano = nanos(span.startTime);
  out.endTimeUnixNano = nanos(span.endTime);
  const attributes = toKeyValues(span.attributes);
  if (attributes.length > 0) out.attributes = attributes;
  if (span.droppedAttributesCount > 0) out.droppedAttributesCount = span.droppedAttributesCount;
  if (span.events.length > 0) out.events = span.events.map(toOtlpEvent);
  if (span.droppedEventsCount > 0) out.droppedEventsCount = span.droppedEventsCount;
  if (span.links.length > 0) out.links = span.links.map(toOtlpLink);
  if (span.droppedLinksCount > 0) out.droppedLinksCount = span.droppedLinksCount;
  const status: Record<string, unknown> = {};
  if (span.status.message) status.message = span.status.message;
  if (span.status.code) status.code = span.status.code;
  out.status = status;
  return out;
}

function toOtlpEvent(e: TimedEvent): Record<string, unknown> {
  const out: Record<string, unknown> = { timeUnixNano: nanos(e.time), name: e.name };
  const attributes = toKeyValues(e.attributes);
  if (attributes.length > 0) out.attributes = attributes;
  if (e.droppedAttributesCount) out.droppedAttributesCount = e.droppedAttributesCount;
  return out;
}

function toOtlpLink(l: Link): Record<string, unknown> {
  const out: Record<string, unknown> = { traceId: l.context.traceId, spanId: l.context.spanId };
  const traceState = l.context.traceState?.serialize();
  if (traceState) out.traceState = traceState;
  const attributes = toKeyValues(l.attributes);
  if (attributes.length > 0) out.attributes = attributes;
  if (l.droppedAttributesCount) out.droppedAttributesCount = l.droppedAttributesCount;
  out.flags = spanFlags(l.context.traceFlags, l.context.isRemote);
  return out;
}

/** OTLP span flags: the W3C trace flags plus the "has is_remote" bit and, when remote, "is_remote". */
function spanFlags(traceFlags: number, isRemote: boolean | undefined): number {
  return (traceFlags & 0xff) | 0x100 | (isRemote ? 0x200 : 0);
}

/** HrTime → decimal string nanoseconds since the epoch (int64 is a string in OTLP/JSON). */
export function nanos(t: HrTime): string {
  return (BigInt(Math.trunc(t[0])) * 1_000_000_000n + BigInt(Math.trunc(t[1]))).toString();
}

function toKeyValues(attributes: Attributes | undefined): { key: string; value: unknown }[] {
  if (!attributes) return [];
  const out: { key: string; value: unknown }[] = [];
  for (const key of Object.keys(attributes)) {
    const v = attributes[key];
    if (v === undefined) continue;
    out.push({ key, value: toAnyValue(v) });
  }
  return out;
}

/** An attribute value as an OTLP `AnyValue`. */
export function toAnyValue(v: AttributeValue | null | undefined): Record<string, unknown> {
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') {
    if (Number.isSafeInteger(v)) return { intValue: String(v) };
    // JSON has no NaN/Infinity; the protobuf JSON mapping spells them as strings.
    return { doubleValue: Number.isFinite(v) ? v : String(v) };
  }
  if (Array.isArray(v)) return { arrayValue: { values: v.map((x) => toAnyValue(x)) } };
  return {};
}
