/**
 * DuckDB type strings for reading trace exports with DuckDB's own JSON reader. Fields that the
 * exporters write either as JSON strings or numbers (64-bit ints, enum numbers) are read as
 * VARCHAR, which DuckDB fills from both; unknown fields are ignored by the reader. Ids are read
 * as JSON, so a number where the hex string belongs stays visible as one (a VARCHAR would turn
 * the number 1234 into the string "1234", a valid-looking hex id).
 */

/** OTLP/JSON `ArrayValue` of scalar values. */
export const OTLP_ARRAY_VALUE = `STRUCT("values" STRUCT(stringValue VARCHAR, intValue VARCHAR, doubleValue DOUBLE, boolValue BOOLEAN)[])`;

/** OTLP/JSON `AnyValue` (maps and nested arrays are read only where {@link ValueShapes} say a file may hold them). */
const OTLP_VALUE_FIELDS = `stringValue VARCHAR, intValue VARCHAR, doubleValue DOUBLE, boolValue BOOLEAN, bytesValue VARCHAR, arrayValue ${OTLP_ARRAY_VALUE}`;
export const OTLP_VALUE = `STRUCT(${OTLP_VALUE_FIELDS})`;

/** OTLP/JSON `KeyValue[]`. */
export const OTLP_ATTRIBUTES = `STRUCT("key" VARCHAR, "value" ${OTLP_VALUE})[]`;

/**
 * `AnyValue` with its map (`kvlistValue`), and its array as JSON (elements may be maps or arrays):
 * the loader stages a map or such an array as its plain JSON text (see `any-value.ts`), and any
 * other array as {@link OTLP_ARRAY_VALUE} again. Checking the elements of a typed array needs a
 * lambda inside the attributes' lambda, which DuckDB ran a hundred times slower.
 */
const STRUCTURED_VALUE_FIELDS = `stringValue VARCHAR, intValue VARCHAR, doubleValue DOUBLE, boolValue BOOLEAN, bytesValue VARCHAR, arrayValue JSON, kvlistValue JSON`;

/**
 * `json_transform`'s type of an array read as JSON: every field as text, so a value of the wrong
 * type (a string where a double belongs) fails when it is stored as {@link OTLP_ARRAY_VALUE}, as
 * the typed read fails, instead of being read as NULL.
 */
export const ARRAY_VALUE_AS_TEXT = JSON.stringify({ values: [{ stringValue: 'VARCHAR', intValue: 'VARCHAR', doubleValue: 'VARCHAR', boolValue: 'VARCHAR' }] });

/**
 * The protobuf (snake_case) names of `AnyValue`'s fields. Where a file may hold them (see
 * {@link ValueShapes}), attribute values are read with them too, as JSON, only to refuse one
 * written with them: the camelCase fields alone would read it as an empty value.
 */
export const ANY_VALUE_SNAKE_FIELDS = ['string_value', 'int_value', 'double_value', 'bool_value', 'bytes_value', 'array_value', 'kvlist_value'] as const;

/**
 * The names other than `scopeSpans` under which a `ResourceSpans` holds its spans: OTLP before
 * 1.0's (camelCase or protobuf), and the protobuf name of today's. Read as JSON, only to refuse
 * an entry holding them: read for `scopeSpans` alone it holds no span.
 */
export const OTHER_SCOPE_SPANS_FIELDS = {
  preOtlp1: ['instrumentationLibrarySpans', 'instrumentation_library_spans'],
  snakeScopeSpans: ['scope_spans'],
} as const;

/**
 * One OTLP/JSON span's fields besides its attributes, as staged. `links.refType` is not OTLP: the
 * Jaeger loader fills it with the reference type (CHILD_OF, FOLLOWS_FROM); for OTLP it stays NULL.
 */
export const OTLP_SPAN_FIELDS = {
  events: `STRUCT(timeUnixNano VARCHAR, "name" VARCHAR, attributes ${OTLP_ATTRIBUTES})[]`,
  links: `STRUCT(traceId JSON, spanId JSON, refType VARCHAR, attributes ${OTLP_ATTRIBUTES})[]`,
  status: `STRUCT(code VARCHAR, message VARCHAR)`,
} as const;

/**
 * Which of `AnyValue`'s rarer forms a file is read with. Each costs staging time (a tenth to a
 * fifth more at 200,000 spans), so each is read only from a file whose bytes show it may be there.
 */
export interface ValueShapes {
  /** Attribute values (of spans, events, links, resources) with protobuf field names (`"string_value"`): read only to refuse them. */
  protobufNames: boolean;
  /** Maps (`kvlistValue`) and arrays inside arrays, in any attribute list: staged as their plain JSON text. */
  structured: boolean;
}

/** The shapes most files are read with: neither. */
export const PLAIN_VALUES: ValueShapes = { protobufNames: false, structured: false };

/**
 * The OTLP/JSON types a file is read with: a span, a `ScopeSpans`, a `ResourceSpans` and the
 * list of them, the one top-level field of an export message, with the value forms `shapes` say.
 */
export function otlpTypes(shapes: ValueShapes) {
  const base = shapes.structured ? STRUCTURED_VALUE_FIELDS : OTLP_VALUE_FIELDS;
  const value = shapes.protobufNames ? `${base}, ${ANY_VALUE_SNAKE_FIELDS.map((f) => `${f} JSON`).join(', ')}` : base;
  const attributes = `STRUCT("key" VARCHAR, "value" STRUCT(${value}))[]`;
  const events = `STRUCT(timeUnixNano VARCHAR, "name" VARCHAR, attributes ${attributes})[]`;
  const links = `STRUCT(traceId JSON, spanId JSON, refType VARCHAR, attributes ${attributes})[]`;
  const span = `STRUCT(traceId JSON, spanId JSON, parentSpanId JSON, "name" VARCHAR, kind VARCHAR, startTimeUnixNano VARCHAR, endTimeUnixNano VARCHAR, attributes ${attributes}, events ${events}, links ${links}, status ${OTLP_SPAN_FIELDS.status})`;
  const scopeSpans = `STRUCT(scope STRUCT("name" VARCHAR, version VARCHAR, attributes ${attributes}), spans ${span}[])`;
  const otherScopeSpans = Object.values(OTHER_SCOPE_SPANS_FIELDS).flat().map((f) => `${f} JSON`);
  const resourceSpan = `STRUCT(resource STRUCT(attributes ${attributes}), scopeSpans ${scopeSpans}[], ${otherScopeSpans.join(', ')})`;
  return { span, scopeSpans, resourceSpan, resourceSpans: `${resourceSpan}[]` };
}

/** One OTLP/JSON span, `ScopeSpans`, `ResourceSpans`, and `ResourceSpans[]`, as most files are read. */
export const { span: OTLP_SPAN, scopeSpans: OTLP_SCOPE_SPANS, resourceSpan: OTLP_RESOURCE_SPAN, resourceSpans: OTLP_RESOURCE_SPANS } = otlpTypes(PLAIN_VALUES);

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
