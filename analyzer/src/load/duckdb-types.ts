/**
 * DuckDB type strings for reading trace exports with DuckDB's own JSON reader. Fields that the
 * exporters write either as JSON strings or numbers (64-bit ints, enum numbers) are read as
 * VARCHAR, which DuckDB fills from both; unknown fields are ignored by the reader. Ids are read
 * as JSON, so a number where the hex string belongs stays visible as one (a VARCHAR would turn
 * the number 1234 into the string "1234", a valid-looking hex id).
 */

/** OTLP/JSON `ArrayValue` of scalar values. */
export const OTLP_ARRAY_VALUE = `STRUCT("values" STRUCT(stringValue VARCHAR, intValue VARCHAR, doubleValue DOUBLE, boolValue BOOLEAN)[])`;

/** OTLP/JSON `AnyValue` (kvlist and nested arrays are not read). */
export const OTLP_VALUE = `STRUCT(stringValue VARCHAR, intValue VARCHAR, doubleValue DOUBLE, boolValue BOOLEAN, bytesValue VARCHAR, arrayValue ${OTLP_ARRAY_VALUE})`;

/** OTLP/JSON `KeyValue[]`. */
export const OTLP_ATTRIBUTES = `STRUCT("key" VARCHAR, "value" ${OTLP_VALUE})[]`;

/**
 * One OTLP/JSON span. `links.refType` is not OTLP: the Jaeger loader fills it with the
 * reference type (CHILD_OF, FOLLOWS_FROM); for OTLP it stays NULL.
 */
export const OTLP_SPAN_FIELDS = {
  events: `STRUCT(timeUnixNano VARCHAR, "name" VARCHAR, attributes ${OTLP_ATTRIBUTES})[]`,
  links: `STRUCT(traceId JSON, spanId JSON, refType VARCHAR, attributes ${OTLP_ATTRIBUTES})[]`,
  status: `STRUCT(code VARCHAR, message VARCHAR)`,
} as const;
export const OTLP_SPAN = `STRUCT(traceId JSON, spanId JSON, parentSpanId JSON, "name" VARCHAR, kind VARCHAR, startTimeUnixNano VARCHAR, endTimeUnixNano VARCHAR, attributes ${OTLP_ATTRIBUTES}, events ${OTLP_SPAN_FIELDS.events}, links ${OTLP_SPAN_FIELDS.links}, status ${OTLP_SPAN_FIELDS.status})`;

/** One OTLP/JSON `ScopeSpans`. */
export const OTLP_SCOPE_SPANS = `STRUCT(scope STRUCT("name" VARCHAR, version VARCHAR), spans ${OTLP_SPAN}[])`;
/** One OTLP/JSON `ResourceSpans`. */
export const OTLP_RESOURCE_SPAN = `STRUCT(resource STRUCT(attributes ${OTLP_ATTRIBUTES}), scopeSpans ${OTLP_SCOPE_SPANS}[])`;
/** OTLP/JSON `ResourceSpans[]`, the one top-level field of an export message. */
export const OTLP_RESOURCE_SPANS = `${OTLP_RESOURCE_SPAN}[]`;

/** Jaeger JSON tag: `value` kept as JSON because its type depends on `type`. */
const JAEGER_TAGS = `STRUCT("key" VARCHAR, "type" VARCHAR, "value" JSON)[]`;

/** Jaeger JSON (UI / `/api/traces`) span. */
const JAEGER_SPAN = `STRUCT(traceID JSON, spanID JSON, operationName VARCHAR, "references" STRUCT(refType VARCHAR, traceID JSON, spanID JSON)[], startTime VARCHAR, duration VARCHAR, tags ${JAEGER_TAGS}, logs STRUCT("timestamp" VARCHAR, fields ${JAEGER_TAGS})[], processID VARCHAR)`;

/** Jaeger JSON process map. */
const JAEGER_PROCESSES = `MAP(VARCHAR, STRUCT(serviceName VARCHAR, tags ${JAEGER_TAGS}))`;

/** Jaeger JSON trace object. */
export const JAEGER_TRACE = `STRUCT(traceID VARCHAR, spans ${JAEGER_SPAN}[], processes ${JAEGER_PROCESSES})`;

/** Columns for a Jaeger single trace document. */
export const JAEGER_TRACE_COLUMNS = { traceID: 'VARCHAR', spans: `${JAEGER_SPAN}[]`, processes: JAEGER_PROCESSES };

/** Quote a DuckDB `columns={…}` argument from a record of names to types. */
export function columnsArg(cols: Readonly<Record<string, string>>): string {
  return `{${Object.entries(cols)
    .map(([k, v]) => `${sqlString(k)}: ${sqlString(v)}`)
    .join(', ')}}`;
}

/** A SQL string literal. */
export function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}
