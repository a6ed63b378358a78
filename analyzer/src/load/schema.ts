import { OtelAttributes } from '@argspan/conventions';
import { OTLP_ATTRIBUTES, OTLP_SPAN, sqlString } from './duckdb-types.js';

/**
 * Staging tables (TEMP, dropped after normalisation). Every loader, whatever the input format,
 * ends with rows in `raw_spans` (one OTLP-shaped span struct per row) and `raw_resources`.
 */
export const STAGING_DDL = `
CREATE TEMP TABLE raw_spans (file_id INTEGER, bad BOOLEAN, trace_id VARCHAR, span_id VARCHAR, resource_id UBIGINT, res ${OTLP_ATTRIBUTES}, scope_name VARCHAR, scope_version VARCHAR, s ${OTLP_SPAN});
CREATE TABLE files (file_id INTEGER PRIMARY KEY, path VARCHAR, format VARCHAR, compression VARCHAR, spans_read BIGINT, skipped INTEGER);
CREATE TEMP MACRO norm_id(x, n) AS CASE WHEN x IS NULL OR trim(x) = '' THEN NULL WHEN length(trim(x)) < n THEN lpad(lower(trim(x)), n, '0') ELSE lower(trim(x)) END;
CREATE TEMP MACRO attr_type(v) AS CASE WHEN v.stringValue IS NOT NULL THEN 'string' WHEN v.boolValue IS NOT NULL THEN 'bool'
  WHEN v.intValue IS NOT NULL THEN 'int' WHEN v.doubleValue IS NOT NULL THEN 'double' WHEN v.arrayValue IS NOT NULL THEN 'array'
  WHEN v.bytesValue IS NOT NULL THEN 'bytes' ELSE 'empty' END;
CREATE TEMP MACRO attr_array(v) AS list_transform(v.arrayValue."values", lambda x: coalesce(x.stringValue, x.intValue, CAST(x.doubleValue AS VARCHAR), CAST(x.boolValue AS VARCHAR)));
CREATE TEMP MACRO span_kind(k) AS CASE upper(replace(coalesce(k, '0'), 'SPAN_KIND_', ''))
  WHEN '1' THEN 'internal' WHEN 'INTERNAL' THEN 'internal' WHEN '2' THEN 'server' WHEN 'SERVER' THEN 'server'
  WHEN '3' THEN 'client' WHEN 'CLIENT' THEN 'client' WHEN '4' THEN 'producer' WHEN 'PRODUCER' THEN 'producer'
  WHEN '5' THEN 'consumer' WHEN 'CONSUMER' THEN 'consumer' ELSE 'unspecified' END;
CREATE TEMP MACRO status_code(c) AS CASE upper(replace(coalesce(c, '0'), 'STATUS_CODE_', ''))
  WHEN '1' THEN 'ok' WHEN 'OK' THEN 'ok' WHEN '2' THEN 'error' WHEN 'ERROR' THEN 'error' ELSE 'unset' END;
`;

/**
 * Drop rows that carry no span (bad lines are counted before this), then keep the first copy of
 * every span seen more than once (same trace id and span id, e.g. from overlapping exports).
 */
export const DEDUP_SQL = `
DELETE FROM raw_spans WHERE s IS NULL OR trace_id IS NULL OR span_id IS NULL;
CREATE TEMP TABLE dup_keys AS SELECT trace_id, span_id FROM raw_spans GROUP BY ALL HAVING count(*) > 1;
DELETE FROM raw_spans WHERE rowid IN (
  SELECT rid FROM (SELECT r.rowid AS rid, row_number() OVER (PARTITION BY r.trace_id, r.span_id ORDER BY r.rowid) AS rn
    FROM raw_spans r SEMI JOIN dup_keys d ON r.trace_id = d.trace_id AND r.span_id = d.span_id) WHERE rn > 1);
DROP TABLE dup_keys;
`;

/** Typed attribute value columns, shared by span, event, link and resource attribute tables. */
const VALUE_COLUMNS = `"key" VARCHAR, "type" VARCHAR, str_value VARCHAR, int_value BIGINT, dbl_value DOUBLE, bool_value BOOLEAN, arr_value VARCHAR[]`;
const valueSelect = (a: string) =>
  `${a}."key" AS "key", attr_type(${a}."value") AS "type", coalesce(${a}."value".stringValue, ${a}."value".bytesValue) AS str_value,
   TRY_CAST(${a}."value".intValue AS BIGINT) AS int_value, ${a}."value".doubleValue AS dbl_value, ${a}."value".boolValue AS bool_value,
   attr_array(${a}."value") AS arr_value`;

/**
 * The normalised schema (see analyzer/README.md, "Schema"). Built once after every file is
 * staged: ids normalised to lower-case hex (Jaeger's short ids left-padded), duplicate spans
 * (same trace id and span id, e.g. from overlapping exports) kept once (first seen wins),
 * parent ids resolved, attributes long/narrow with typed values.
 */
export const NORMALISE_SQL = `
CREATE TABLE resources AS
  SELECT resource_id, any_value(res) AS attrs FROM raw_spans GROUP BY resource_id;
CREATE TABLE resource_attributes (resource_id UBIGINT, ${VALUE_COLUMNS});
INSERT INTO resource_attributes SELECT resource_id, ${valueSelect('a')} FROM (SELECT resource_id, unnest(attrs) AS a FROM resources);
ALTER TABLE resources DROP COLUMN attrs;
ALTER TABLE resources ADD COLUMN service_name VARCHAR;
UPDATE resources r SET service_name = (SELECT str_value FROM resource_attributes ra WHERE ra.resource_id = r.resource_id AND ra."key" = ${sqlString(OtelAttributes.SERVICE_NAME)} LIMIT 1);

CREATE TABLE spans AS
  SELECT d.trace_id, d.span_id, norm_id(s.parentSpanId, 16) AS parent_span_id, s."name" AS "name", span_kind(s.kind) AS kind,
    TRY_CAST(s.startTimeUnixNano AS BIGINT) AS start_ns, TRY_CAST(s.endTimeUnixNano AS BIGINT) AS end_ns,
    TRY_CAST(s.endTimeUnixNano AS BIGINT) - TRY_CAST(s.startTimeUnixNano AS BIGINT) AS duration_ns,
    status_code(s.status.code) AS status_code, s.status.message AS status_message,
    r.service_name, d.scope_name, d.scope_version, d.resource_id, d.file_id
  FROM raw_spans d LEFT JOIN resources r USING (resource_id);

CREATE TABLE span_attributes (trace_id VARCHAR, span_id VARCHAR, ${VALUE_COLUMNS});
INSERT INTO span_attributes SELECT trace_id, span_id, ${valueSelect('a')} FROM (SELECT trace_id, span_id, unnest(s.attributes) AS a FROM raw_spans);

CREATE TEMP TABLE stage_events AS
  SELECT trace_id, span_id, unnest(range(len(s.events))) AS event_index, unnest(s.events) AS e FROM raw_spans WHERE len(s.events) > 0;
CREATE TABLE events AS
  SELECT trace_id, span_id, CAST(event_index AS INTEGER) AS event_index, e."name" AS "name", TRY_CAST(e.timeUnixNano AS BIGINT) AS time_ns FROM stage_events;
CREATE TABLE event_attributes (trace_id VARCHAR, span_id VARCHAR, event_index INTEGER, ${VALUE_COLUMNS});
INSERT INTO event_attributes SELECT trace_id, span_id, event_index, ${valueSelect('a')} FROM (SELECT trace_id, span_id, event_index, unnest(e.attributes) AS a FROM stage_events);

CREATE TABLE links AS
  SELECT trace_id, span_id, CAST(link_index AS INTEGER) AS link_index, norm_id(l.traceId, 32) AS linked_trace_id, norm_id(l.spanId, 16) AS linked_span_id,
    coalesce(l.refType, 'LINK') AS ref_type
  FROM (SELECT trace_id, span_id, unnest(range(len(s.links))) AS link_index, unnest(s.links) AS l FROM raw_spans WHERE len(s.links) > 0);

`;

/** Drop the staging tables once every derived table is built. */
export const CLEANUP_SQL = `
DROP TABLE stage_events;
DROP TABLE raw_spans;
`;
