import { createValueHasher, defaultSecretDetector, type SecretDetector } from '@argspan/core';
import { builtinPrefilter, findCredentials, firstHit, NameScope, prefilterPattern, shownKey } from '../credential-scan.js';
import type { ChRow, ChSession } from './client.js';
import { LogRecordCredentials, LogRecordScope } from '../log-record-credentials.js';
import { LOG_RECORD_BODY_KEY } from '../load/otlp-logs.js';
import { LOG_RECORD_SPANS, SPANS_FROM_RECORDS } from './log-records.js';
import { chString } from './sql.js';
import type { TraceSource } from './source.js';

/**
 * The credential re-scan in ClickHouse, into `credential_hits` as DuckDB's `scanCredentials`
 * writes it: ClickHouse pre-filters on the detector's keywords (one case-insensitive match per
 * span over all its values joined by a control character, then value by value), so only candidate
 * values cross to JavaScript, where the detector's regexes decide; the value is never stored (a row
 * per distinct credential of a text, known by the keyed hash of its text under `hashKey`, as in DuckDB).
 * Every attribute of the exporter's maps is text, so array and number attributes are scanned as
 * the exporter wrote them (DuckDB scans string values, and arrays as their JSON text). A resource hit is reported once per
 * distinct resource, on its first span (the earliest, then by trace and span id), as in DuckDB; so is a hit in
 * the instrumentation scope's name or version, once per distinct text. The exporter's traces table
 * has no column for the scope's attributes (its logs and metrics tables have one): the exporter
 * drops them, so they cannot be scanned here. Older exporters wrote the scope's name and version
 * as the span attributes `otel.scope.name` / `otel.scope.version`, scanned as any span attribute.
 * GenAI log records (`log-records.ts`) are scanned as their spans' events (the body as the event
 * attribute it becomes), and a span made from its records by its resource and scope, as in DuckDB.
 */
/** A span's start time in nanoseconds, as DuckDB's `start_ns` holds it. */
const START_NS = 'toUnixTimestamp64Nano(Timestamp)';
/** Its end, as DuckDB's `end_ns`. */
const END_NS = 'toInt64(toUnixTimestamp64Nano(Timestamp) + Duration)';
/**
 * The first span of a group (its `TraceId`, `SpanId`; `start_ns`, last in a row): the earliest, a span without a start
 * time (0) after every one with one, then by trace and span id, as DuckDB's scan picks it.
 */
const firstSpan = (c: 'TraceId' | 'SpanId' | 'start_ns') => `argMin(${c}, (start_ns = 0, start_ns, TraceId, SpanId))`;
const FIRST_SPAN = `${firstSpan('TraceId')}, ${firstSpan('SpanId')}`;

export async function scanCredentialsClickHouse(session: ChSession, src: TraceSource, hashKey: Uint8Array, detector: SecretDetector = defaultSecretDetector): Promise<number> {
  const hasher = createValueHasher(hashKey);
  const prefilter = builtinPrefilter();
  // The pattern (some 12 KB) is written once, as a WITH alias the UNION's branches and subqueries
  // share (enable_global_with_statement): inlined at each of its twenty uses, the query outgrew
  // ClickHouse's max_query_size (256 KiB).
  const withPattern = prefilter.length ? `WITH ${chString(`(?i)(${prefilterPattern(prefilter)})`)} AS credential_prefilter\n` : '';
  const match = (v: string) => (prefilter.length ? `match(${v}, credential_prefilter)` : '1');
  const anyValue = (values: string) => match(`arrayStringConcat(${values}, char(1))`);
  const T = src.table;
  const hits: ChRow[] = [];
  // Every copy of a span is read (a credential only in a copy not analysed is still reported), each hit once.
  const seen = new Set<string>();
  const check = (row: ChRow) => {
    const found = findCredentials(row.scope, String(row.v), detector, hasher);
    for (let i = 0; i < found.length; i++) {
      if (!firstHit(seen, row.trace_id, row.span_id, row.scope, shownKey(row.scope, row.k, detector), found[i]!)) continue;
      hits.push({ trace_id: row.trace_id, span_id: row.span_id, scope: row.scope, key: shownKey(row.scope, row.k, detector), rule_id: found[i]!.ruleId, credential_hash: found[i]!.hash, hit_no: i + 1, start_ns: row.start_ns, end_ns: row.end_ns });
    }
  };
  // A span's events or links (nested columns `list`, never empty in `marker` when there are some): each attribute map, one row per value.
  const nestedScan = (list: 'Events' | 'Links', marker: string, scope: string, keyScope: string) => `
    SELECT TraceId, SpanId, ${chString(scope)}, k, v, ${START_NS}, ${END_NS}
    FROM (SELECT TraceId, SpanId, Timestamp, Duration, ${list}.Attributes AS maps FROM ${T}
      WHERE ${src.where} AND notEmpty(${list}.${marker}) AND ${anyValue(`arrayFlatten(arrayMap(m -> mapValues(m), ${list}.Attributes))`)})
    ARRAY JOIN maps AS attrs ARRAY JOIN mapKeys(attrs) AS k, mapValues(attrs) AS v
    WHERE ${match('v')}
    UNION ALL
    SELECT TraceId, SpanId, ${chString(keyScope)}, k, k, ${START_NS}, ${END_NS}
    FROM (SELECT TraceId, SpanId, Timestamp, Duration, arrayFlatten(arrayMap(m -> mapKeys(m), ${list}.Attributes)) AS ks FROM ${T}
      WHERE ${src.where} AND notEmpty(${list}.${marker}) AND ${anyValue('ks')})
    ARRAY JOIN ks AS k
    WHERE ${match('k')}`;
  // The spans' GenAI log records are their events; the spans made from them have a resource and scope of their own; a coding agent's record, its attributes.
  const recordScan = src.logRecords
    ? `
    UNION ALL
    SELECT trace_id, span_id, 'event', k, v, start_ns, end_ns
    FROM (SELECT trace_id, span_id, start_ns, end_ns, arrayJoin(events).attributes AS attrs FROM ${LOG_RECORD_SPANS}
      WHERE ${anyValue('arrayFlatten(arrayMap(e -> mapValues(e.attributes), events))')})
    ARRAY JOIN mapKeys(attrs) AS k, mapValues(attrs) AS v
    WHERE ${match('v')}
    UNION ALL
    SELECT trace_id, span_id, ${chString(NameScope.EVENT_ATTRIBUTE_KEY)}, k, k, start_ns, end_ns
    FROM (SELECT trace_id, span_id, start_ns, end_ns, arrayFlatten(arrayMap(e -> mapKeys(e.attributes), events)) AS ks FROM ${LOG_RECORD_SPANS} WHERE ${anyValue('ks')})
    ARRAY JOIN ks AS k
    WHERE ${match('k')}
    UNION ALL
    SELECT trace_id, span_id, 'span', k, v, start_ns, end_ns
    FROM (SELECT trace_id, span_id, start_ns, end_ns, attributes FROM ${LOG_RECORD_SPANS} WHERE notEmpty(attributes) AND ${anyValue('mapValues(attributes)')})
    ARRAY JOIN mapKeys(attributes) AS k, mapValues(attributes) AS v
    WHERE ${match('v')}
    UNION ALL
    SELECT trace_id, span_id, ${chString(NameScope.ATTRIBUTE_KEY)}, k, k, start_ns, end_ns
    FROM (SELECT trace_id, span_id, start_ns, end_ns, attributes FROM ${LOG_RECORD_SPANS} WHERE notEmpty(attributes) AND ${anyValue('mapKeys(attributes)')})
    ARRAY JOIN mapKeys(attributes) AS k
    WHERE ${match('k')}`
    : '';
  /** The rows of the traces table in the window, with the spans made from log records beside them: `columns` of each. */
  const allSpans = (columns: string, recordColumns: string) =>
    src.logRecords ? `(SELECT ${columns} FROM ${T} WHERE ${src.where} UNION ALL SELECT ${recordColumns} FROM ${SPANS_FROM_RECORDS})` : `(SELECT ${columns} FROM ${T} WHERE ${src.where})`;
  const resources = allSpans(`TraceId, SpanId, ${START_NS} AS start_ns, ResourceAttributes`, 'trace_id, span_id, start_ns, resource');
  const scopes = allSpans(`TraceId, SpanId, ${START_NS} AS start_ns, ScopeName, ScopeVersion`, "trace_id, span_id, start_ns, ifNull(scope_name, ''), ifNull(scope_version, '')");
  await session.each(
    `${withPattern}SELECT TraceId AS trace_id, SpanId AS span_id, 'span' AS scope, k, v, ${START_NS} AS start_ns, ${END_NS} AS end_ns
    FROM (SELECT TraceId, SpanId, Timestamp, Duration, SpanAttributes FROM ${T} WHERE ${src.where} AND ${anyValue('mapValues(SpanAttributes)')})
    ARRAY JOIN mapKeys(SpanAttributes) AS k, mapValues(SpanAttributes) AS v
    WHERE ${match('v')}
    UNION ALL ${nestedScan('Events', 'Name', 'event', NameScope.EVENT_ATTRIBUTE_KEY)}
    UNION ALL ${nestedScan('Links', 'SpanId', 'link', NameScope.LINK_ATTRIBUTE_KEY)}
    UNION ALL
    SELECT TraceId, SpanId, ${chString(NameScope.EVENT_NAME)}, NULL, event_name, ${START_NS}, ${END_NS}
    FROM (SELECT TraceId, SpanId, Timestamp, Duration, Events.Name AS names FROM ${T} WHERE ${src.where} AND ${anyValue('Events.Name')})
    ARRAY JOIN names AS event_name
    WHERE ${match('event_name')}
    UNION ALL
    SELECT TraceId, SpanId, scope, NULL, text, ${START_NS}, ${END_NS}
    FROM (SELECT TraceId, SpanId, Timestamp, Duration, SpanName, StatusMessage FROM ${T} WHERE ${src.where} AND ${match(`concat(SpanName, char(1), StatusMessage)`)})
    ARRAY JOIN [${chString(NameScope.SPAN_NAME)}, ${chString(NameScope.STATUS_MESSAGE)}] AS scope, [SpanName, StatusMessage] AS text
    WHERE ${match('text')}
    UNION ALL
    SELECT TraceId, SpanId, ${chString(NameScope.ATTRIBUTE_KEY)}, k, k, ${START_NS}, ${END_NS}
    FROM (SELECT TraceId, SpanId, Timestamp, Duration, SpanAttributes FROM ${T} WHERE ${src.where} AND ${anyValue('mapKeys(SpanAttributes)')})
    ARRAY JOIN mapKeys(SpanAttributes) AS k
    WHERE ${match('k')}
${recordScan}
    UNION ALL
    SELECT ${FIRST_SPAN}, 'resource', k, v, ${firstSpan('start_ns')}, NULL
    FROM ${resources} ARRAY JOIN mapKeys(ResourceAttributes) AS k, mapValues(ResourceAttributes) AS v
    WHERE ${anyValue('mapValues(ResourceAttributes)')} AND ${match('v')}
    GROUP BY cityHash64(mapKeys(ResourceAttributes), mapValues(ResourceAttributes)), k, v
    UNION ALL
    SELECT ${FIRST_SPAN}, ${chString(NameScope.RESOURCE_ATTRIBUTE_KEY)}, k, k, ${firstSpan('start_ns')}, NULL
    FROM ${resources} ARRAY JOIN mapKeys(ResourceAttributes) AS k
    WHERE ${anyValue('mapKeys(ResourceAttributes)')} AND ${match('k')}
    GROUP BY cityHash64(mapKeys(ResourceAttributes), mapValues(ResourceAttributes)), k${src.scopeColumns ? `
    UNION ALL
    SELECT ${FIRST_SPAN}, scope, NULL, text, ${firstSpan('start_ns')}, NULL
    FROM ${scopes} ARRAY JOIN [${chString(NameScope.SCOPE_NAME)}, ${chString(NameScope.SCOPE_VERSION)}] AS scope, [ScopeName, ScopeVersion] AS text
    WHERE ${match('concat(ScopeName, char(1), ScopeVersion)')} AND text <> '' AND ${match('text')}
    GROUP BY scope, text` : ''}
    SETTINGS enable_global_with_statement = 1`,
    're-scanning attributes for credentials',
    check,
  );
  await session.insert('credential_hits', hits, 'writing credential hits');
  if (src.scannedLogRecords) await scanLogRecords(session, src.scannedLogRecords, withPattern, anyValue, match, new LogRecordCredentials(hasher, detector));
  return hits.length;
}

/**
 * The log records of the run (`scannedLogRecords`): of an application's own records (`App`) the
 * body, as `log.body`, each attribute and its key; of every record, GenAI ones too, the resource's
 * attributes and keys and the instrumentation scope's name, version, attributes and keys;
 * pre-filtered in ClickHouse as the span values are, read by the detector into
 * `log_record_credential_hits` (see `log-record-credentials.ts`), as DuckDB's load does.
 */
async function scanLogRecords(
  session: ChSession,
  scannedLogRecords: string,
  withPattern: string,
  anyValue: (values: string) => string,
  match: (v: string) => string,
  found: LogRecordCredentials,
): Promise<void> {
  const nullIfEmpty = (v: unknown) => (v === '' || v === null || v === undefined ? null : String(v));
  // Parallel arrays of each text's scope, key and text: a map's values then its keys. A GenAI
  // record's own texts are its messages, read as such, not here.
  const own = (list: string) => `if(App, ${list}, [])`;
  const parts: [scopes: string, keys: string, texts: string][] = [
    [`[${chString(LogRecordScope.RECORD)}]`, `[${chString(LOG_RECORD_BODY_KEY)}]`, '[Body]'].map(own) as [string, string, string],
    ...(
      [
        ['LogAttributes', LogRecordScope.RECORD, LogRecordScope.ATTRIBUTE_KEY],
        ['ResourceAttributes', LogRecordScope.RESOURCE, LogRecordScope.RESOURCE_ATTRIBUTE_KEY],
        ['ScopeAttributes', LogRecordScope.SCOPE, LogRecordScope.SCOPE_ATTRIBUTE_KEY],
      ] as const
    ).flatMap(([map, valueScope, keyScope]): [string, string, string][] => {
      const texts: [string, string, string][] = [
        [`arrayMap(k -> ${chString(valueScope)}, mapKeys(${map}))`, `mapKeys(${map})`, `mapValues(${map})`],
        [`arrayMap(k -> ${chString(keyScope)}, mapKeys(${map}))`, `mapKeys(${map})`, `mapKeys(${map})`],
      ];
      return map === 'LogAttributes' ? texts.map((t) => t.map(own) as [string, string, string]) : texts;
    }),
    [`[${chString(LogRecordScope.SCOPE_NAME)}, ${chString(LogRecordScope.SCOPE_VERSION)}]`, "['', '']", '[ScopeName, ScopeVersion]'],
  ];
  const concat = (i: 0 | 1 | 2) => `arrayConcat(${parts.map((p) => p[i]).join(', ')})`;
  const unkeyed: ReadonlySet<string> = new Set([LogRecordScope.SCOPE_NAME, LogRecordScope.SCOPE_VERSION]);
  await session.each(
    `${withPattern}SELECT TraceId, SpanId, ns, s, k, v
    FROM (SELECT TraceId, SpanId, toString(toUnixTimestamp64Nano(Timestamp)) AS ns, ${concat(0)} AS ss, ${concat(1)} AS ks, ${concat(2)} AS vs
      FROM ${scannedLogRecords} WHERE ${anyValue('vs')})
    ARRAY JOIN ss AS s, ks AS k, vs AS v
    WHERE v <> '' AND ${match('v')}`,
    'scanning the log records for credentials',
    // (a record without a time has Timestamp 0 in the exporter's table: no time, as in DuckDB)
    (row) => {
      const scope = String(row.s) as LogRecordScope;
      found.text(nullIfEmpty(row.TraceId), nullIfEmpty(row.SpanId), row.ns === '0' ? null : String(row.ns), [scope, unkeyed.has(scope) ? null : String(row.k), String(row.v)]);
    },
  );
  await session.insert('log_record_credential_hits', found.rows(), 'writing log record credential hits');
}
