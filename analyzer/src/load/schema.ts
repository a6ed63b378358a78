import { LIST_INDEX_PATTERN, OtelAttributes } from '@argspan/conventions';
import { ANY_VALUE_JSON_FUNCTION } from './any-value.js';
import { ANY_VALUE_SNAKE_FIELDS, ARRAY_VALUE_AS_TEXT, OTHER_SCOPE_SPANS_FIELDS, OTLP_ARRAY_VALUE, OTLP_ATTRIBUTES, OTLP_SPAN_FIELDS, sqlString } from './duckdb-types.js';

const spanField = (f: keyof typeof OTLP_SPAN_FIELDS) => OTLP_SPAN_FIELDS[f];

/**
 * A span's attributes as staged: one list per OTLP `AnyValue` field, all in the attribute list's
 * order (element i of each list is attribute i), instead of the OTLP list of key/value structs.
 * Readers take only the lists they need: the derived tables pick typed values from plain lists
 * by a position found in `attr_keys`, the credential re-scan reads `attr_str`, and only
 * `span_attributes` zips them all back into rows. The OTLP list of nested value structs was
 * read back whole (every field of every attribute, with its nested array) whatever a query
 * needed, and each field it did need cost a lambda over the list, per query.
 * `attr_arr` holds the raw `arrayValue` (NULL unless the attribute is an array). The `sparse`
 * lists (doubles, bytes and arrays: most spans have none) are staged as NULL instead of a list of NULLs
 * when no attribute of the span has that field, which keeps them out of memory; a missing list
 * reads as NULL at every position, and UNNEST pads it with NULLs.
 */
export const ATTR_LISTS = {
  attr_keys: { type: 'VARCHAR[]', field: '"key"', sparse: false },
  attr_str: { type: 'VARCHAR[]', field: '"value".stringValue', sparse: false },
  attr_int: { type: 'VARCHAR[]', field: '"value".intValue', sparse: false },
  attr_dbl: { type: 'DOUBLE[]', field: '"value".doubleValue', sparse: true },
  attr_bool: { type: 'BOOLEAN[]', field: '"value".boolValue', sparse: false },
  attr_bytes: { type: 'VARCHAR[]', field: '"value".bytesValue', sparse: true },
  attr_arr: { type: `${OTLP_ARRAY_VALUE}[]`, field: '"value".arrayValue', sparse: true },
} as const;

/** Name of one staged attribute list. */
export type AttrList = keyof typeof ATTR_LISTS;

/** SQL for the staged attribute list `name` of an OTLP attribute list `l` (e.g. `s.attributes`, `e.attributes`). */
export function attrListSql(name: AttrList, l: string): string {
  return `list_transform(${l}, lambda a: a.${ATTR_LISTS[name].field})`;
}

const ATTR_LIST_NAMES = Object.keys(ATTR_LISTS) as AttrList[];

/** {@link attrListSql} as staged: a sparse list is NULL when none of the span's attributes has its field. */
function stagedAttrListSql(name: AttrList, l: string, structured: boolean): string {
  const field = (structured ? STRUCTURED_FIELDS[name] : undefined) ?? `a.${ATTR_LISTS[name].field}`;
  const list = `list_transform(${l}, lambda a: ${field})`;
  return ATTR_LISTS[name].sparse ? `CASE WHEN list_bool_or(list_transform(${l}, lambda a: (${field}) IS NOT NULL)) THEN ${list} END` : list;
}

/**
 * SQL: whether an array `AnyValue` read as JSON (`t`) is a well-formed array of scalars: an object
 * whose `values` (if any) is a list of objects, none a map or an array (`"kvlistValue":` and
 * `"arrayValue":` can only be keys: inside a string their quotes are escaped). Any other array goes
 * to the any-value function, which converts a map-holding one and refuses a malformed one.
 */
const scalarArraySql = (t: string) =>
  `(json_type(${t}) = 'OBJECT' AND NOT contains(${t}::VARCHAR, '"kvlistValue":') AND NOT contains(${t}::VARCHAR, '"arrayValue":')
    AND coalesce(json_type(${t}, '$.values'), 'NULL') IN ('ARRAY', 'NULL') AND coalesce(list_distinct(json_type(${t}, '$.values[*]')), []) IN ([], ['OBJECT']))`;

/**
 * SQL: the input of the any-value function for an `AnyValue` `v` read with the structured shapes
 * whose field `field` (`kvlistValue` or `arrayValue`, JSON) is set: that field, with any other
 * field that can hold text set beside it (malformed), so nothing hides behind it.
 */
function anyValueInputSql(v: string, field: 'kvlistValue' | 'arrayValue'): string {
  const also = (f: string, json: boolean) => `coalesce(',"${f}":' || ${json ? `${v}.${f}::VARCHAR` : `to_json(${v}.${f})::VARCHAR`}, '')`;
  const beside = field === 'kvlistValue' ? also('arrayValue', true) : '';
  return `'{"${field}":' || ${v}.${field}::VARCHAR || ${beside ? `${beside} || ` : ''}${also('stringValue', false)} || ${also('bytesValue', false)} || '}'`;
}

/**
 * With the structured shapes (see `ValueShapes`), the staged lists' elements that differ: a map,
 * or an array holding maps or arrays, is a string value, its plain JSON text (`any-value.ts`, by
 * the function the database registers); any other array is read from its JSON text. The CASE
 * sits inside `json_transform`: DuckDB may evaluate a CASE's branches for every row in nested
 * lambdas, and an array of another shape must not reach it.
 */
const STRUCTURED_FIELDS: Partial<Record<AttrList, string>> = {
  attr_str: `CASE WHEN a."value".kvlistValue IS NOT NULL THEN ${ANY_VALUE_JSON_FUNCTION}(${anyValueInputSql('a."value"', 'kvlistValue')})
    WHEN a."value".arrayValue IS NOT NULL AND NOT ${scalarArraySql('a."value".arrayValue')} THEN ${ANY_VALUE_JSON_FUNCTION}(${anyValueInputSql('a."value"', 'arrayValue')})
    ELSE a."value".stringValue END`,
  attr_arr: `json_transform(CASE WHEN ${scalarArraySql('a."value".arrayValue')} THEN a."value".arrayValue END, ${sqlString(ARRAY_VALUE_AS_TEXT)})`,
};

/** SQL: the gate's hit key of argument `k` of `tool` (list indexes dropped). Inline where a view uses it: views must not depend on TEMP macros. */
export function gateHitKeySql(tool: string, k: string): string {
  return `${tool} || '.' || regexp_replace(${k}, ${sqlString(LIST_INDEX_PATTERN)}, '', 'g')`;
}

/** One span event (an element of a span's `events`): what a GenAI log record is staged as, in `log_events`. */
export const LOG_EVENT_TYPE = spanField('events').replace(/\[\]$/, '');

/** The name of a span argspan knows only from its log records: an OTLP logs export read without the traces that hold the span. */
export const LOG_RECORD_SPAN_NAME = 'gen_ai log records';

/**
 * SQL: the GenAI log records of `log_events` (see `otlp-logs.ts`) as events of the spans they
 * name, after their own, by time (a record exported twice read once), in `shares` statements,
 * each the records of a share of the spans (by a hash of their ids); `log_spans` holds the spans
 * no input holds — the logs read without the trace export — which `stageSpans` stages as spans of
 * their own, named {@link LOG_RECORD_SPAN_NAME}, with the records' resource (`log_resources`)
 * and scope, from their first record to their last. Runs once every file is staged and
 * de-duplicated.
 */
export function attachLogEventsSql(shares: number): { shares: string[]; stageSpans: string } {
  const share = (k: number) => `CREATE OR REPLACE TEMP TABLE log_groups AS
  SELECT trace_id, span_id, list(e ORDER BY time_ns NULLS LAST, file_id, seq) AS events, min(time_ns) AS start_ns, max(time_ns) AS end_ns,
    arg_min(file_id, seq) AS file_id, arg_min(resource_no, seq) AS resource_no, arg_min(scope_name, seq) AS scope_name, arg_min(scope_version, seq) AS scope_version
  FROM (SELECT *, row_number() OVER (PARTITION BY trace_id, span_id, e ORDER BY file_id, seq) AS copy FROM log_events${shares > 1 ? ` WHERE hash(trace_id, span_id) % ${shares} = ${k}` : ''}) WHERE copy = 1
  GROUP BY trace_id, span_id;
UPDATE span_structs SET events = list_concat(coalesce(span_structs.events, []), g.events) FROM log_groups g
  WHERE span_structs.trace_id = g.trace_id AND span_structs.span_id = g.span_id;
${k === 0 ? 'CREATE OR REPLACE TEMP TABLE log_spans AS' : 'INSERT INTO log_spans'} SELECT * FROM log_groups g WHERE NOT EXISTS (SELECT 1 FROM span_structs s WHERE s.trace_id = g.trace_id AND s.span_id = g.span_id);
DROP TABLE log_groups;`;
  return {
    shares: Array.from({ length: shares }, (_, k) => share(k)),
    stageSpans: `INSERT INTO span_structs BY NAME
  SELECT l.file_id, false AS bad, trace_id, span_id, ${sqlString(LOG_RECORD_SPAN_NAME)} AS "name", 'unspecified' AS kind, start_ns, end_ns, 'unset' AS status_code,
    r.resource_id, r.res, scope_name, scope_version, ${ATTR_LIST_NAMES.map((n) => `[]::${ATTR_LISTS[n].type} AS ${n}`).join(', ')}, events, [] AS links
  FROM log_spans l JOIN log_resources r ON r.file_id = l.file_id AND r.resource_no = l.resource_no;
DROP TABLE log_spans;
DROP TABLE log_events;
DROP TABLE log_resources;`,
  };
}

/**
 * The staging table every loader writes, whatever the input format: `span_structs`, one span
 * per row, its scalar fields already normalised as the loader reads them (ids lower-case hex,
 * kind and status as labels, times as integers), its attributes as the {@link ATTR_LISTS} and
 * its events and links as the OTLP-shaped lists. It stays (de-duplicated) as the one copy of the
 * spans: `spans`, `span_attributes` and `event_attributes` are views over it, so they cost
 * nothing until a query reads them. {@link stagedSpanSql} is the row every loader inserts.
 */
export const STAGING_DDL = `
CREATE TABLE span_structs (file_id INTEGER, line INTEGER, bad BOOLEAN, problem VARCHAR, trace_id VARCHAR, span_id VARCHAR, parent_span_id VARCHAR, "name" VARCHAR,
  kind VARCHAR, start_ns BIGINT, end_ns BIGINT, status_code VARCHAR, status_message VARCHAR,
  resource_id UBIGINT, res ${OTLP_ATTRIBUTES}, scope_name VARCHAR, scope_version VARCHAR, scope_attrs ${OTLP_ATTRIBUTES},
  ${ATTR_LIST_NAMES.map((n) => `${n} ${ATTR_LISTS[n].type}`).join(', ')},
  events ${spanField('events')}, links ${spanField('links')});
CREATE TABLE log_events (file_id INTEGER, seq BIGINT, trace_id VARCHAR, span_id VARCHAR, time_ns BIGINT,
  resource_no INTEGER, scope_name VARCHAR, scope_version VARCHAR, e ${LOG_EVENT_TYPE});
CREATE TABLE log_resources (file_id INTEGER, resource_no INTEGER, resource_id UBIGINT, res ${OTLP_ATTRIBUTES});
CREATE TABLE log_record_credential_hits (file_id INTEGER, trace_id VARCHAR, span_id VARCHAR, scope VARCHAR, "key" VARCHAR, rule_id VARCHAR, credential_hash VARCHAR, records INTEGER, first_time VARCHAR);
CREATE TABLE files (file_id INTEGER PRIMARY KEY, path VARCHAR, format VARCHAR, compression VARCHAR, spans_read BIGINT, skipped INTEGER);
CREATE TEMP MACRO hex_id(j, n) AS CASE WHEN length(j::VARCHAR) = n + 2 AND regexp_full_match(j::VARCHAR, '"[0-9a-fA-F]+"') AND ltrim(j::VARCHAR, '"0') <> '' THEN lower((j::VARCHAR)[2:-2]) END;
-- Not a 64-bit integer: no integer at all, or a number with a fraction (DuckDB's cast would round 5.5 to 6).
CREATE TEMP MACRO bad_int(v) AS TRY_CAST(v AS BIGINT) IS NULL OR coalesce(TRY_CAST(v AS DOUBLE) <> trunc(TRY_CAST(v AS DOUBLE)), false);
CREATE TEMP MACRO bad_time(t) AS t IS NOT NULL AND (bad_int(t) OR TRY_CAST(t AS BIGINT) < 0);
CREATE TEMP MACRO arr_values(arr) AS ${arrValuesSql('arr')};
-- A list attribute as Jaeger writes it (and the tools converting OTLP to it): a string of its JSON. Anything else: NULL.
CREATE TEMP MACRO json_text_list(s) AS CASE WHEN json_valid(s) AND json_type(s) = 'ARRAY' THEN json_extract_string(s, '$[*]') END;
CREATE TEMP MACRO gate_hit_key(tool, k) AS ${gateHitKeySql('tool', 'k')};
CREATE TEMP MACRO span_kind(k) AS CASE replace(upper(coalesce(k, '0')), 'SPAN_KIND_', '')
  WHEN '0' THEN 'unspecified' WHEN 'UNSPECIFIED' THEN 'unspecified'
  WHEN '1' THEN 'internal' WHEN 'INTERNAL' THEN 'internal' WHEN '2' THEN 'server' WHEN 'SERVER' THEN 'server'
  WHEN '3' THEN 'client' WHEN 'CLIENT' THEN 'client' WHEN '4' THEN 'producer' WHEN 'PRODUCER' THEN 'producer'
  WHEN '5' THEN 'consumer' WHEN 'CONSUMER' THEN 'consumer' END;
CREATE TEMP MACRO status_code(c) AS CASE replace(upper(coalesce(c, '0')), 'STATUS_CODE_', '')
  WHEN '0' THEN 'unset' WHEN 'UNSET' THEN 'unset' WHEN '1' THEN 'ok' WHEN 'OK' THEN 'ok' WHEN '2' THEN 'error' WHEN 'ERROR' THEN 'error' END;
`;

/**
 * Why a staged span is malformed, checked in this order; NULL for a well-formed span. Ids follow
 * the OTLP/JSON mapping: hex strings (either case) of 32 (trace) or 16 (span) digits, not all
 * zero; a JSON number is not an id. 64-bit times and int attributes may be strings or numbers, but must be integers;
 * kind and status code are the enum's name or number. A wrong type is never read as "absent".
 */
export const SPAN_PROBLEMS = {
  traceId: 'span without a valid trace id (hex digits in a string, not all zero: 32 in OTLP)',
  spanId: 'span without a valid span id (hex digits in a string, not all zero: 16 in OTLP)',
  parentSpanId: 'parent span id is neither empty nor a valid span id',
  startTime: 'start time is not a non-negative 64-bit integer',
  endTime: 'end time is not a non-negative 64-bit integer',
  kind: 'kind is not a span kind (SPAN_KIND_… or 0-5)',
  status: 'status code is not a status code (STATUS_CODE_… or 0-2)',
  link: 'link without a valid trace id and span id',
  eventTime: 'event time is not a non-negative 64-bit integer',
  intValue: 'an attribute\'s intValue is not a 64-bit integer',
} as const;

/**
 * Why a record (a JSON line, or a whole document) is not the OTLP JSON the loaders read, though
 * it parses: its spans are where the OTLP struct type does not look, and would be read as none,
 * or its attributes as empty. The whole record is bad (`bad`, with the reason in `problem`), as a
 * line of another shape is: its file and line are named, and under allow-partial it is skipped.
 */
export const SHAPE_PROBLEMS = {
  preOtlp1: 'OTLP JSON from before OTLP 1.0 ("instrumentationLibrarySpans"): not supported; expected "scopeSpans" (export with an OpenTelemetry SDK or collector of 2022 or later)',
  snakeScopeSpans: 'JSON of another shape: a "resourceSpans" entry holds "scope_spans" (the protobuf field name) where OTLP/JSON has "scopeSpans"',
  snakeValue: 'JSON of another shape: an attribute value holds "string_value" or another protobuf field name where OTLP/JSON has "stringValue", "intValue", …',
} as const;

/**
 * SQL: the {@link SHAPE_PROBLEMS} reason of an OTLP `resourceSpans` list `rs` an entry of which
 * holds its spans under another name than `scopeSpans`, or (with `protobufNames`, read with them)
 * a resource attribute value with a protobuf field name; NULL when none does.
 */
export function resourceShapeSql(rs: string, protobufNames = false): string {
  const holds = (fields: readonly string[]) => `list_bool_or(list_transform(${rs}, lambda r: r.scopeSpans IS NULL AND coalesce(${fields.map((f) => `r.${f}`).join(', ')}) IS NOT NULL))`;
  const kinds = Object.entries(OTHER_SCOPE_SPANS_FIELDS) as [keyof typeof OTHER_SCOPE_SPANS_FIELDS, readonly string[]][];
  const snakeResource = protobufNames ? `WHEN list_bool_or(list_transform(${rs}, lambda r: ${snakeCaseListSql('r.resource.attributes')})) THEN ${sqlString(SHAPE_PROBLEMS.snakeValue)}` : '';
  return `CASE ${kinds.map(([kind, fields]) => `WHEN ${holds(fields)} THEN ${sqlString(SHAPE_PROBLEMS[kind])}`).join(' ')} ${snakeResource} END`;
}

/** SQL: an AnyValue `v` that has none of the camelCase value fields but a protobuf (snake_case) one. */
function snakeCaseValueSql(v: string): string {
  const camel = ['stringValue', 'intValue', 'doubleValue', 'boolValue', 'bytesValue', 'arrayValue'];
  return `${camel.map((f) => `${v}.${f} IS NULL`).join(' AND ')} AND coalesce(${ANY_VALUE_SNAKE_FIELDS.map((f) => `${v}.${f}`).join(', ')}) IS NOT NULL`;
}

/** SQL: whether an attribute list `l` (read with the protobuf value names) holds a value written with them. */
export function snakeCaseListSql(l: string): string {
  return `coalesce(list_bool_or(list_transform(${l}, lambda a: ${snakeCaseValueSql('a."value"')})), false)`;
}

/**
 * With `protobufNames`, `s` was read with them (see `ValueShapes`): its attribute values, and its
 * events' and links', are checked for the protobuf field names too.
 */
function spanProblemSql(s: string, protobufNames: boolean): string {
  const p = (k: keyof typeof SPAN_PROBLEMS) => sqlString(SPAN_PROBLEMS[k]);
  const snake = `${snakeCaseListSql(`${s}.attributes`)}
    OR coalesce(list_bool_or(list_transform(${s}.events, lambda e: ${snakeCaseListSql('e.attributes')})), false)
    OR coalesce(list_bool_or(list_transform(${s}.links, lambda k: ${snakeCaseListSql('k.attributes')})), false)`;
  return `CASE WHEN ${s} IS NULL THEN NULL
    ${protobufNames ? `WHEN ${snake} THEN ${sqlString(SHAPE_PROBLEMS.snakeValue)}` : ''}
    WHEN hex_id(${s}.traceId, 32) IS NULL THEN ${p('traceId')}
    WHEN hex_id(${s}.spanId, 16) IS NULL THEN ${p('spanId')}
    WHEN ${s}.parentSpanId IS NOT NULL AND ${s}.parentSpanId::VARCHAR <> '""' AND hex_id(${s}.parentSpanId, 16) IS NULL THEN ${p('parentSpanId')}
    WHEN bad_time(${s}.startTimeUnixNano) THEN ${p('startTime')}
    WHEN bad_time(${s}.endTimeUnixNano) THEN ${p('endTime')}
    WHEN span_kind(${s}.kind) IS NULL THEN ${p('kind')}
    WHEN status_code(${s}.status.code) IS NULL THEN ${p('status')}
    WHEN len(${s}.links) > 0 AND list_bool_or(list_transform(${s}.links, lambda l: hex_id(l.traceId, 32) IS NULL OR hex_id(l.spanId, 16) IS NULL)) THEN ${p('link')}
    WHEN len(${s}.events) > 0 AND list_bool_or(list_transform(${s}.events, lambda e: bad_time(e.timeUnixNano))) THEN ${p('eventTime')}
    WHEN list_bool_or(list_transform(${s}.attributes, lambda a: a."value".intValue IS NOT NULL AND bad_int(a."value".intValue))) THEN ${p('intValue')}
  END`;
}

/**
 * The column list of one `span_structs` row, from an OTLP-shaped span struct `s` and where its
 * resource and scope come from: the loaders differ only in those, and the normalisation (ids,
 * kind, status, times) and the checks of {@link SPAN_PROBLEMS} happen once, here, while the file
 * is read. `line` is the input line when the loader knows it (the line-by-line read), else NULL;
 * `shape`, the {@link SHAPE_PROBLEMS} reason of a bad record, when the loader checks one;
 * `protobufNames` and `structured`, that `s` was read with those value forms (see `ValueShapes`).
 */
export function stagedSpanSql(
  fileId: number,
  s: string,
  from: Record<'line' | 'bad' | 'resourceId' | 'res' | 'scopeName' | 'scopeVersion' | 'scopeAttrs', string> & { shape?: string; protobufNames?: boolean; structured?: boolean },
): string {
  return `${fileId}, ${from.line}, ${from.bad}, ${stagedProblemSql(s, from)}, hex_id(${s}.traceId, 32), hex_id(${s}.spanId, 16), hex_id(${s}.parentSpanId, 16), ${s}."name",
  span_kind(${s}.kind), TRY_CAST(${s}.startTimeUnixNano AS BIGINT), TRY_CAST(${s}.endTimeUnixNano AS BIGINT), status_code(${s}.status.code), ${s}.status.message,
  ${from.resourceId}, ${from.res}, ${from.scopeName}, ${from.scopeVersion}, ${from.scopeAttrs},
  ${ATTR_LIST_NAMES.map((n) => stagedAttrListSql(n, `${s}.attributes`, from.structured ?? false)).join(', ')},
  ${from.structured ? plainListsSql(`${s}.events`) : `${s}.events`}, ${from.structured ? plainListsSql(`${s}.links`) : `${s}.links`}`;
}

/**
 * SQL: the `problem` column of {@link stagedSpanSql} — the record's `shape` problem, else the
 * span's {@link SPAN_PROBLEMS} reason, else NULL. The query naming where malformed spans are
 * (`malformed-span-positions.ts`) selects this same expression, so it finds exactly the spans staging found.
 */
export function stagedProblemSql(s: string, from: { shape?: string; protobufNames?: boolean }): string {
  const spanProblem = spanProblemSql(s, from.protobufNames ?? false);
  return from.shape ? `coalesce(${from.shape}, ${spanProblem})` : spanProblem;
}

/**
 * SQL: an attribute list `l` read with the structured shapes (see `ValueShapes`), its maps and
 * arrays holding maps or arrays made string values (see {@link STRUCTURED_FIELDS}). Every other
 * value stays as it is; the extra fields are dropped when the list is stored as the plain OTLP type.
 */
export function plainAttributesSql(l: string): string {
  return `list_transform(${l}, lambda a: struct_update(a, "value" := struct_update(a."value", stringValue := ${STRUCTURED_FIELDS.attr_str}, arrayValue := ${STRUCTURED_FIELDS.attr_arr})))`;
}

/** SQL: a span's `events` or `links` list `l` read with the structured shapes, each one's attributes made plain. */
function plainListsSql(l: string): string {
  // No CASE around it: unifying the branches' types would cast the raw list's JSON arrays to structs.
  return `list_transform(${l}, lambda e: struct_update(e, attributes := ${plainAttributesSql('e.attributes')}))`;
}

/**
 * SQL: a staged span's content, every column a loader fills from the span but its ids and where it
 * was read (`file_id`, `line`) and what only the first span of a resource or scope block carries
 * (`res`, `scope_attrs`: `resource_id` is the resource's content): equal for identical copies.
 */
const CONTENT_HASH_SQL = (r: string) =>
  `hash(${['parent_span_id', '"name"', 'kind', 'start_ns', 'end_ns', 'status_code', 'status_message', 'resource_id', 'scope_name', 'scope_version', ...ATTR_LIST_NAMES, 'events', 'links']
    .map((c) => `${r}.${c}`)
    .join(', ')})`;

/**
 * SQL: the text of a staged span's attributes as ClickHouse's `KEEP_ORDER` reads them from the
 * exporter's map: each attribute `key`␂`value`, the value as text (an int in decimal, a whole
 * double without a fraction, an array as its JSON text), sorted, joined by ␁. An array of numbers
 * or booleans is JSON of strings here (`["1"]`) where the exporter writes `[1]`: copies that tie on
 * their attribute counts and differ only there may be chosen differently by the two engines.
 */
export const ATTRS_TEXT_SQL = (r: string) => `array_to_string(list_sort(list_transform(${r}.attr_keys, lambda k, i: k || chr(2) || ${ATTR_VALUE_TEXT_SQL(r, 'i')})), chr(1))`;

/** SQL: the text of the staged span `r`'s attribute `i` (1-based) as the exporter's map holds it (see {@link ATTRS_TEXT_SQL}); '' for an empty value. */
export const ATTR_VALUE_TEXT_SQL = (r: string, i: string) =>
  `coalesce(${r}.attr_str[${i}], coalesce(TRY_CAST(${r}.attr_int[${i}] AS BIGINT)::VARCHAR, ${r}.attr_int[${i}]), ${r}.attr_bool[${i}]::VARCHAR,
    CASE WHEN ${r}.attr_dbl[${i}] = trunc(${r}.attr_dbl[${i}]) AND abs(${r}.attr_dbl[${i}]) < 1e15 THEN ${r}.attr_dbl[${i}]::BIGINT::VARCHAR ELSE ${r}.attr_dbl[${i}]::VARCHAR END, ${r}.attr_bytes[${i}], to_json(arr_values(${r}.attr_arr[${i}]))::VARCHAR, '')`;

/**
 * Drop rows that carry no span (bad lines are counted before this), then keep one copy of every
 * span seen more than once (same trace id and span id). Identical copies (a retried export) are
 * one span: the first read is kept, as any would do. Of copies that differ (overlapping exports
 * of two tools, a re-export after an attribute processor, an id collision), the kept one is chosen
 * by content, whatever the files' order, as ClickHouse chooses (`clickhouse/span-copies.ts`,
 * `KEEP_ORDER`): the most span attributes, then the most events, then the smallest text of its
 * sorted attributes ({@link ATTRS_TEXT_SQL}), then the name, start and end, then the content hash.
 * One row of each other version is kept aside in `dropped_copies` (same columns), which the
 * credential re-scan reads too: a credential in a copy not analysed is still reported. The
 * resource a dropped row carried (`res` is on the first span of a resource block only) is kept in
 * `dropped_res` for {@link NORMALISE_SQL}: a resource of kept spans joins `resources`, one only
 * dropped copies carry goes to `dropped_resource_attributes`, which only the re-scan reads.
 */
export const DEDUP_SQL = `
DELETE FROM span_structs WHERE bad OR problem IS NOT NULL OR trace_id IS NULL OR span_id IS NULL;
CREATE TEMP TABLE dup_keys AS SELECT trace_id, span_id FROM span_structs GROUP BY ALL HAVING count(*) > 1;
CREATE TEMP TABLE dup_copies AS
  SELECT rid, trace_id, span_id, content,
    row_number() OVER (PARTITION BY trace_id, span_id ORDER BY n_attrs DESC, n_events DESC, attrs_text, name_text, start_at, end_at, content, rid) AS rn
  FROM (SELECT r.rowid AS rid, r.trace_id, r.span_id, ${CONTENT_HASH_SQL('r')} AS content, len(r.attr_keys) AS n_attrs, len(coalesce(r.events, [])) AS n_events,
      ${ATTRS_TEXT_SQL('r')} AS attrs_text, coalesce(r."name", '') AS name_text, coalesce(r.start_ns, 0) AS start_at, coalesce(r.end_ns, 0) AS end_at
    FROM span_structs r SEMI JOIN dup_keys d ON r.trace_id = d.trace_id AND r.span_id = d.span_id);
CREATE TABLE dropped_copies AS SELECT * FROM span_structs WHERE rowid IN (
  SELECT min(c.rid) FROM dup_copies c JOIN dup_copies k ON k.rn = 1 AND k.trace_id = c.trace_id AND k.span_id = c.span_id
  WHERE c.content <> k.content GROUP BY c.trace_id, c.span_id, c.content);
CREATE TEMP TABLE dropped_res AS
  SELECT resource_id, any_value(res) AS res FROM span_structs WHERE res IS NOT NULL AND rowid IN (SELECT rid FROM dup_copies WHERE rn > 1) GROUP BY resource_id;
DELETE FROM span_structs WHERE rowid IN (SELECT rid FROM dup_copies WHERE rn > 1);
DROP TABLE dup_keys;
DROP TABLE dup_copies;
`;

/** SQL for the type name of an OTLP AnyValue struct (inline: views must not depend on TEMP macros). */
export function attrTypeSql(v: string): string {
  return `CASE WHEN ${v}.stringValue IS NOT NULL THEN 'string' WHEN ${v}.boolValue IS NOT NULL THEN 'bool'
  WHEN ${v}.intValue IS NOT NULL THEN 'int' WHEN ${v}.doubleValue IS NOT NULL THEN 'double' WHEN ${v}.arrayValue IS NOT NULL THEN 'array'
  WHEN ${v}.bytesValue IS NOT NULL THEN 'bytes' ELSE 'empty' END`;
}

/** SQL for the elements of an array AnyValue as text. */
export function attrArraySql(v: string): string {
  return arrValuesSql(`${v}.arrayValue`);
}

/** SQL for the elements of an OTLP `arrayValue` struct as text. */
export function arrValuesSql(arr: string): string {
  // (a whole double as its digits, `1` not `1.0`, as the collector's exporter writes it: one element, one text in both engines)
  const dbl = `CASE WHEN x.doubleValue = trunc(x.doubleValue) AND abs(x.doubleValue) < 1e21 THEN CAST(CAST(x.doubleValue AS HUGEINT) AS VARCHAR) ELSE CAST(x.doubleValue AS VARCHAR) END`;
  return `list_transform(${arr}."values", lambda x: coalesce(x.stringValue, x.intValue, ${dbl}, CAST(x.boolValue AS VARCHAR)))`;
}

/** One row per span event: trace_id, span_id, event_index, e (the event struct). */
export const EVENTS = `SELECT trace_id, span_id, unnest(range(len(events))) AS event_index, unnest(events) AS e FROM span_structs WHERE len(events) > 0`;

/** Typed attribute value columns, shared by span, event, link and resource attribute tables. */
const VALUE_COLUMNS = `"key" VARCHAR, "type" VARCHAR, str_value VARCHAR, int_value BIGINT, dbl_value DOUBLE, bool_value BOOLEAN, arr_value VARCHAR[]`;
const valueSelect = (a: string) =>
  `${a}."key" AS "key", ${attrTypeSql(`${a}."value"`)} AS "type", coalesce(${a}."value".stringValue, ${a}."value".bytesValue) AS str_value,
   TRY_CAST(${a}."value".intValue AS BIGINT) AS int_value, ${a}."value".doubleValue AS dbl_value, ${a}."value".boolValue AS bool_value,
   ${attrArraySql(`${a}."value"`)} AS arr_value`;

/**
 * The normalised schema (see analyzer/README.md, "Schema"). Built once after every file is
 * staged: ids normalised to lower-case hex (Jaeger's short ids left-padded), duplicate spans
 * (same trace id and span id) already kept once ({@link DEDUP_SQL}),
 * parent ids resolved, attributes long/narrow with typed values.
 */
export const NORMALISE_SQL = `
CREATE TABLE resources AS
  SELECT resource_id, any_value(res) AS attrs FROM (
    SELECT resource_id, res FROM span_structs
    UNION ALL SELECT d.resource_id, d.res FROM dropped_res d WHERE d.resource_id IN (SELECT resource_id FROM span_structs))
  GROUP BY resource_id;
CREATE TABLE resource_attributes (resource_id UBIGINT, ${VALUE_COLUMNS});
INSERT INTO resource_attributes SELECT resource_id, ${valueSelect('a')} FROM (SELECT resource_id, unnest(attrs) AS a FROM resources);
ALTER TABLE resources DROP COLUMN attrs;
CREATE TABLE dropped_resource_attributes (resource_id UBIGINT, ${VALUE_COLUMNS});
INSERT INTO dropped_resource_attributes SELECT resource_id, ${valueSelect('a')} FROM (
  SELECT d.resource_id, unnest(d.res) AS a FROM dropped_res d ANTI JOIN span_structs s ON s.resource_id = d.resource_id);
ALTER TABLE resources ADD COLUMN service_name VARCHAR;
UPDATE resources r SET service_name = (SELECT str_value FROM resource_attributes ra WHERE ra.resource_id = r.resource_id AND ra."key" = ${sqlString(OtelAttributes.SERVICE_NAME)} LIMIT 1);
DROP TABLE dropped_res;

CREATE VIEW spans AS
  SELECT d.trace_id, d.span_id, d.parent_span_id, d."name", d.kind, d.start_ns, d.end_ns, d.end_ns - d.start_ns AS duration_ns,
    d.status_code, d.status_message, r.service_name, d.scope_name, d.scope_version, d.resource_id, d.file_id
  FROM span_structs d LEFT JOIN resources r USING (resource_id);

CREATE VIEW span_attributes AS
  SELECT trace_id, span_id, attr_keys AS "key",
    CASE WHEN attr_str IS NOT NULL THEN 'string' WHEN attr_bool IS NOT NULL THEN 'bool' WHEN attr_int IS NOT NULL THEN 'int'
      WHEN attr_dbl IS NOT NULL THEN 'double' WHEN attr_arr IS NOT NULL THEN 'array' WHEN attr_bytes IS NOT NULL THEN 'bytes' ELSE 'empty' END AS "type",
    coalesce(attr_str, attr_bytes) AS str_value, TRY_CAST(attr_int AS BIGINT) AS int_value, attr_dbl AS dbl_value, attr_bool AS bool_value,
    ${arrValuesSql('attr_arr')} AS arr_value
  FROM (SELECT trace_id, span_id, ${ATTR_LIST_NAMES.map((n) => `unnest(${n}) AS ${n}`).join(', ')} FROM span_structs);

CREATE TABLE events AS
  SELECT trace_id, span_id, CAST(event_index AS INTEGER) AS event_index, e."name" AS "name", TRY_CAST(e.timeUnixNano AS BIGINT) AS time_ns
  FROM (${EVENTS});
CREATE VIEW event_attributes AS
  SELECT trace_id, span_id, CAST(event_index AS INTEGER) AS event_index, ${valueSelect('a')}
  FROM (SELECT trace_id, span_id, event_index, unnest(e.attributes) AS a FROM (${EVENTS}));

CREATE TABLE links AS
  SELECT trace_id, span_id, CAST(link_index AS INTEGER) AS link_index, hex_id(l.traceId, 32) AS linked_trace_id, hex_id(l.spanId, 16) AS linked_span_id,
    coalesce(l.refType, 'LINK') AS ref_type
  FROM (SELECT trace_id, span_id, unnest(range(len(links))) AS link_index, unnest(links) AS l FROM span_structs WHERE len(links) > 0);

`;

/** Drop staging-only columns once every derived table is built. */
export const CLEANUP_SQL = `
ALTER TABLE span_structs DROP COLUMN bad;
ALTER TABLE span_structs DROP COLUMN problem;
ALTER TABLE span_structs DROP COLUMN line;
ALTER TABLE span_structs DROP COLUMN res;
ALTER TABLE dropped_copies DROP COLUMN bad;
ALTER TABLE dropped_copies DROP COLUMN problem;
ALTER TABLE dropped_copies DROP COLUMN line;
ALTER TABLE dropped_copies DROP COLUMN res;
`;
