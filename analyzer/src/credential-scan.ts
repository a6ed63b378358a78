import type { DuckDBBigIntVector, DuckDBVarCharVector } from '@duckdb/node-api';
import { BUILTIN_RULES, createValueHasher, defaultSecretDetector, findInName, redactName, type SecretDetector, type ValueHasher } from '@argspan/core';
import { DEFAULT_IGNORABLE_RANGES, SPELLING_CALLS, escapedKeywordSpellings } from '@argspan/core/internal';
import { credentialHits, type CredentialHit } from './credential-identity.js';
import type { Db } from './db.js';
import { sqlString } from './load/duckdb-types.js';
import { attrListSql } from './load/schema.js';
import { phase, type PhaseListener } from './phases.js';

/**
 * Re-scan every string attribute and array of values (span, event, link, resource and instrumentation
 * scope; a resource or scope hit is reported once, on its first span), and the scope's name and version, for credential shapes with
 * @argspan/core's secret detector, into `credential_hits(trace_id, span_id, scope, key, rule_id,
 * credential_hash, hit_no, start_ns, end_ns)`: a row per distinct credential of a text, numbered in the order found
 * (`hit_no` 1 is the text's first), with its span's start and end times (the rule names a credential's
 * earliest place: a resource or scope hit has no end), each known by the keyed hash of its text (`hashKey`, the run's:
 * the hash an argument holding the same credential gets, see `credential-identity.ts`).
 * DuckDB pre-filters on the rules' literal keywords (the detector's own pre-filter) or their
 * `prefilter`, first with
 * one match per span over all its values, then value by value for the few spans left, so only
 * candidate values cross into JavaScript; the detector's regexes decide. The value itself is
 * never stored in the table.
 */
export async function scanCredentials(
  db: Db,
  hashKey: Uint8Array,
  detector: SecretDetector = defaultSecretDetector,
  prefilter: readonly string[] = builtinPrefilter(),
  onPhase?: PhaseListener,
): Promise<number> {
  await db.run(`CREATE TABLE credential_hits (trace_id VARCHAR, span_id VARCHAR, scope VARCHAR, "key" VARCHAR, rule_id VARCHAR, credential_hash VARCHAR, hit_no INTEGER, start_ns BIGINT, end_ns BIGINT)`);
  const hasher = createValueHasher(hashKey);
  // The spans, and the copies of a span not kept where copies differ (`DEDUP_SQL`'s `dropped_copies`):
  // a credential in a copy not analysed is still reported, on the span's ids.
  const dropped = await hasDroppedCopies(db);
  const spans = dropped ? '(SELECT * FROM span_structs UNION ALL BY NAME SELECT * FROM dropped_copies)' : 'span_structs';
  // One RE2 pass over each value for all keywords (an alternation), instead of one contains() per keyword.
  const alternation = prefilterPattern(prefilter);
  // Keywords are matched case-insensitively, as the detector's own pre-filter does.
  const match = (v: string) => (prefilter.length === 0 ? `${v} IS NOT NULL` : `regexp_matches(${v}, ${sqlString(alternation)}, 'i')`);
  // First one match per span over all its string values joined by a control character (no
  // keyword holds one, so no match can straddle two values): almost every span is ruled out by
  // that single call. Only the spans left have their values filtered one by one. A span's string
  // values are staged as a plain list (`attr_str`), so no lambda builds it here.
  const anyValue = (list: string) => (prefilter.length === 0 ? 'true' : match(`array_to_string(${list}, chr(1))`));
  // An array of values is scanned as its JSON text, as the Collector's ClickHouse exporter stores it.
  const ARRAY_TEXT = (arr: string) => `CASE WHEN ${arr} IS NOT NULL THEN to_json(arr_values(${arr}))::VARCHAR END`;
  // Events and links hold attribute lists of one shape; each list is unnested only for spans whose
  // strings pass the pre-filter or that hold an array among them.
  const nestedAttrs = (list: 'events' | 'links') => `flatten(list_transform(${list}, lambda e: e.attributes))`;
  // A value is its string, its bytes (base64, which the detector decodes) or its array's JSON text.
  const nestedValue = `coalesce(a."value".stringValue, a."value".bytesValue, ${ARRAY_TEXT('a."value".arrayValue')})`;
  const nestedScan = (list: 'events' | 'links', scope: string, keyScope: string) => `
    SELECT trace_id, span_id, ${sqlString(scope)}, a."key", ${nestedValue}, start_ns, end_ns
    FROM (SELECT trace_id, span_id, start_ns, end_ns, unnest(${nestedAttrs(list)}) AS a FROM ${spans}
      WHERE len(${list}) > 0 AND (${anyValue(attrListSql('attr_str', nestedAttrs(list)))}
        OR list_bool_or(list_transform(${nestedAttrs(list)}, lambda a: a."value".arrayValue IS NOT NULL OR a."value".bytesValue IS NOT NULL))))
    WHERE ${match(nestedValue)}
    UNION ALL
    SELECT trace_id, span_id, ${sqlString(keyScope)}, k, k, start_ns, end_ns
    FROM (SELECT trace_id, span_id, start_ns, end_ns, unnest(list_transform(${nestedAttrs(list)}, lambda a: a."key")) AS k FROM ${spans}
      WHERE len(${list}) > 0 AND ${anyValue(`list_transform(${nestedAttrs(list)}, lambda a: a."key")`)})
    WHERE ${match('k')}`;
  // The per-value match runs in a plain filter after the unnest: inside a lambda under UNNEST,
  // DuckDB evaluates it row by row and compiles the pattern again for every span.
  // The candidates are streamed a chunk at a time: on prose-heavy traces (other libraries' prompts)
  // most values hold a short keyword, and holding them all as row objects took gigabytes.
  const hits: { trace_id: unknown; span_id: unknown; scope: unknown; key: string | null; hit: CredentialHit; no: number; start: unknown; end: unknown }[] = [];
  const seen = new Set<string>();
  const add = (traceId: unknown, spanId: unknown, scope: unknown, key: unknown, start: unknown, end: unknown, found: readonly CredentialHit[]) => {
    for (let i = 0; i < found.length; i++) if (firstHit(seen, traceId, spanId, scope, shownKey(scope, key, detector), found[i]!)) hits.push({ trace_id: traceId, span_id: spanId, scope, key: shownKey(scope, key, detector), hit: found[i]!, no: i + 1, start, end });
  };
  await phase(onPhase, 'credential scan: pre-filter', async () => {
    const result = await db.conn.stream(`
    SELECT trace_id, span_id, 'span' AS scope, "key", str_value, start_ns, end_ns
    FROM (SELECT trace_id, span_id, start_ns, end_ns, unnest(attr_keys) AS "key", unnest(attr_str) AS str_value FROM ${spans} WHERE ${anyValue('attr_str')})
    WHERE ${match('str_value')}
    UNION ALL
    SELECT trace_id, span_id, 'span', "key", arr_text, start_ns, end_ns
    FROM (SELECT trace_id, span_id, start_ns, end_ns, "key", ${ARRAY_TEXT('arr')} AS arr_text
      FROM (SELECT trace_id, span_id, start_ns, end_ns, unnest(attr_keys) AS "key", unnest(attr_arr) AS arr FROM ${spans} WHERE attr_arr IS NOT NULL))
    WHERE arr_text IS NOT NULL AND ${match('arr_text')}
    UNION ALL
    SELECT trace_id, span_id, 'span', "key", bytes_value, start_ns, end_ns
    FROM (SELECT trace_id, span_id, start_ns, end_ns, unnest(attr_keys) AS "key", unnest(attr_bytes) AS bytes_value FROM ${spans} WHERE attr_bytes IS NOT NULL)
    WHERE bytes_value IS NOT NULL AND ${match('bytes_value')}
    UNION ALL ${nestedScan('events', 'event', NameScope.EVENT_ATTRIBUTE_KEY)}
    UNION ALL ${nestedScan('links', 'link', NameScope.LINK_ATTRIBUTE_KEY)}
    UNION ALL
    SELECT trace_id, span_id, ${sqlString(NameScope.EVENT_NAME)}, NULL, event_name, start_ns, end_ns
    FROM (SELECT trace_id, span_id, start_ns, end_ns, unnest(list_transform(events, lambda e: e."name")) AS event_name FROM ${spans}
      WHERE len(events) > 0 AND ${anyValue('list_transform(events, lambda e: e."name")')})
    WHERE ${match('event_name')}
    UNION ALL
    SELECT trace_id, span_id, scope, NULL, text, start_ns, end_ns
    FROM (SELECT trace_id, span_id, start_ns, end_ns, unnest([${sqlString(NameScope.SPAN_NAME)}, ${sqlString(NameScope.STATUS_MESSAGE)}]) AS scope, unnest(["name", status_message]) AS text
      FROM ${spans} WHERE ${match(`concat_ws(chr(1), "name", status_message)`)})
    WHERE ${match('text')}
    UNION ALL
    SELECT trace_id, span_id, ${sqlString(NameScope.ATTRIBUTE_KEY)}, "key", "key", start_ns, end_ns
    FROM (SELECT trace_id, span_id, start_ns, end_ns, unnest(attr_keys) AS "key" FROM ${spans} WHERE ${anyValue('attr_keys')})
    WHERE ${match('"key"')}`);
    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      const [traceIds, spanIds, scopes, keys, values] = [0, 1, 2, 3, 4].map((c) => chunk.getColumnVector(c) as DuckDBVarCharVector);
      const [starts, ends] = [5, 6].map((c) => chunk.getColumnVector(c) as DuckDBBigIntVector);
      for (let i = 0; i < chunk.rowCount; i++) {
        const scope = scopes!.getItem(i);
        add(traceIds!.getItem(i), spanIds!.getItem(i), scope, keys!.getItem(i), starts!.getItem(i), ends!.getItem(i), findCredentials(scope, String(values!.getItem(i)), detector, hasher));
      }
    }
  });
  // A resource hit is reported on the resource's first span (of every copy: as ClickHouse, which
  // reads every row), looked up only for resources that hit. A resource only dropped copies carry
  // (`dropped_resource_attributes`) is read too.
  const resourceAttributes = dropped ? '(SELECT * FROM resource_attributes UNION ALL SELECT * FROM dropped_resource_attributes)' : 'resource_attributes';
  const resourceHits = (
    await db.all(`SELECT resource_id, 'resource' AS scope, "key", str_value FROM (SELECT resource_id, "key",
        CASE "type" WHEN 'string' THEN str_value WHEN 'bytes' THEN str_value WHEN 'array' THEN to_json(arr_value)::VARCHAR END AS str_value
      FROM ${resourceAttributes}) WHERE str_value IS NOT NULL AND (${match('str_value')})
      UNION ALL
      SELECT resource_id, ${sqlString(NameScope.RESOURCE_ATTRIBUTE_KEY)}, "key", "key" FROM ${resourceAttributes} WHERE ${match('"key"')}`)
  )
    .map((c) => ({ resource_id: c.resource_id, scope: String(c.scope), key: c.key, found: findCredentials(c.scope, String(c.str_value), detector, hasher) }))
    .filter((c) => c.found.length > 0);
  if (resourceHits.length) {
    const ids = [...new Set(resourceHits.map((c) => String(c.resource_id)))].join(', ');
    const first = await db.all(`SELECT resource_id, ${FIRST_SPAN_SQL} FROM ${spans} WHERE resource_id IN (${ids}) GROUP BY resource_id`);
    const byResource = new Map(first.map((r) => [String(r.resource_id), r]));
    for (const c of resourceHits) {
      const span = byResource.get(String(c.resource_id));
      if (span) add(span.trace_id, span.span_id, c.scope, c.key, span.start_ns, null, c.found);
    }
  }
  // The instrumentation scope (its name, version and attributes) is shared by many spans: a hit is
  // reported once per distinct text, on the first span of that scope. Only the scopes whose texts
  // pass the pre-filter are joined back to their spans; a scope's attributes are staged on the
  // first span of each scope block only, so that list is short.
  const scopeHits = await db.all(`
    WITH scopes AS (SELECT DISTINCT scope_name, scope_version FROM ${spans}),
    hit_scopes AS (SELECT scope_name, scope_version FROM scopes WHERE ${match(`concat_ws(chr(1), scope_name, scope_version)`)})
    SELECT ${FIRST_SPAN_SQL}, scope, NULL AS "key", text
    FROM (SELECT trace_id, span_id, start_ns, unnest([${sqlString(NameScope.SCOPE_NAME)}, ${sqlString(NameScope.SCOPE_VERSION)}]) AS scope, unnest([s.scope_name, s.scope_version]) AS text
      FROM ${spans} s SEMI JOIN hit_scopes h ON s.scope_name IS NOT DISTINCT FROM h.scope_name AND s.scope_version IS NOT DISTINCT FROM h.scope_version)
    WHERE text IS NOT NULL AND ${match('text')}
    GROUP BY scope, text
    UNION ALL
    SELECT ${FIRST_SPAN_SQL}, scope, "key", text
    FROM (SELECT trace_id, span_id, start_ns, unnest(['scope', ${sqlString(NameScope.SCOPE_ATTRIBUTE_KEY)}]) AS scope, a."key" AS "key", unnest([${nestedValue}, a."key"]) AS text
      FROM (SELECT trace_id, span_id, start_ns, unnest(scope_attrs) AS a FROM ${spans} WHERE len(scope_attrs) > 0))
    WHERE text IS NOT NULL AND ${match('text')}
    GROUP BY scope, "key", text`);
  for (const c of scopeHits) add(c.trace_id, c.span_id, c.scope, c.key, c.start_ns, null, findCredentials(c.scope, String(c.text), detector, hasher));
  const appender = await db.conn.createAppender('credential_hits');
  for (const h of hits) {
    for (const v of [h.trace_id, h.span_id, h.scope, h.key, h.hit.ruleId, h.hit.hash]) {
      if (v === null) appender.appendNull();
      else appender.appendVarchar(String(v));
    }
    appender.appendInteger(h.no);
    for (const ns of [h.start, h.end]) {
      if (ns === null || ns === undefined) appender.appendNull();
      else appender.appendBigInt(BigInt(ns as bigint));
    }
    appender.endRow();
  }
  appender.closeSync();
  return hits.length;
}

/**
 * The first span of a group, as `trace_id, span_id, start_ns`: the earliest, a span without a start
 * time after every one with one, then by trace and span id (ClickHouse's scan picks it alike).
 */
const FIRST_SPAN_SQL = ['trace_id', 'span_id', 'start_ns'].map((c) => `arg_min(${c}, (coalesce(start_ns, 0) = 0, start_ns, trace_id, span_id)) AS ${c}`).join(', ');

/** Whether the load kept aside copies of spans that differ from the one kept (see `DEDUP_SQL`). */
async function hasDroppedCopies(db: Db): Promise<boolean> {
  const t = await db.all(`SELECT 1 FROM duckdb_tables() WHERE table_name = 'dropped_copies' AND NOT temporary`);
  return t.length > 0 && Number((await db.one('SELECT count(*) AS n FROM dropped_copies')).n) > 0;
}

/**
 * Whether a hit is the first of its span, scope, key, rule and credential (recording it in
 * `seen`): the copies of a span read by the re-scan (a kept one and a differing one, see
 * `DEDUP_SQL`) often hold the same credential in the same attribute, reported once.
 */
export function firstHit(seen: Set<string>, traceId: unknown, spanId: unknown, scope: unknown, key: string | null, hit: CredentialHit): boolean {
  const id = JSON.stringify([traceId, spanId, scope, key, hit.ruleId, hit.hash]);
  if (seen.has(id)) return false;
  seen.add(id);
  return true;
}

/**
 * Where else than an attribute value a credential is found (`credential_hits.scope`, besides
 * `span`, `event`, `link`, `resource` and `scope`, the instrumentation scope's attributes): the
 * span's name, its status message, an attribute's key, the instrumentation scope's name and version. A
 * tool or run name of another library's call is often the span's name (Langfuse, LangSmith).
 */
export const NameScope = {
  SPAN_NAME: 'span name',
  STATUS_MESSAGE: 'status message',
  ATTRIBUTE_KEY: 'attribute key',
  EVENT_NAME: 'event name',
  EVENT_ATTRIBUTE_KEY: 'event attribute key',
  LINK_ATTRIBUTE_KEY: 'link attribute key',
  RESOURCE_ATTRIBUTE_KEY: 'resource attribute key',
  SCOPE_NAME: 'scope name',
  SCOPE_VERSION: 'scope version',
  SCOPE_ATTRIBUTE_KEY: 'scope attribute key',
} as const;

const NAME_SCOPES = new Set<unknown>(Object.values(NameScope));

/**
 * The credentials of a re-scanned text of `scope`, each once, in the order found: in a name, a
 * status message or a key, one glued to the rest counts too (`execute_tool deploy_ghp_…`, see
 * `findInName`: the first); in a value, every one the detector finds.
 */
export function findCredentials(scope: unknown, text: string, detector: SecretDetector, hasher: ValueHasher): CredentialHit[] {
  if (!NAME_SCOPES.has(scope)) return credentialHits(text, detector.findAll(text), hasher, detector);
  const f = findInName(text, detector);
  return f ? credentialHits(text, [f], hasher, detector) : [];
}

/**
 * The key a finding in a place without one is named by, so that its fingerprint (rule, trace,
 * span, tool, key) tells it from a credential elsewhere on the same span: the attribute OpenTelemetry
 * defines for that field where exporters without the field carry it (`otel.scope.name`,
 * `otel.status_description`, `event.name`), `span.name` for the span's name.
 */
const PLACE_KEYS: ReadonlyMap<unknown, string> = new Map([
  [NameScope.SPAN_NAME, 'span.name'],
  [NameScope.STATUS_MESSAGE, 'otel.status_description'],
  [NameScope.EVENT_NAME, 'event.name'],
  [NameScope.SCOPE_NAME, 'otel.scope.name'],
  [NameScope.SCOPE_VERSION, 'otel.scope.version'],
]);

/**
 * The `key` a hit of `scope` is recorded under: its attribute's key, any credential in it
 * redacted, or for a name, a status message or a scope's version the key that names that place.
 */
export function shownKey(scope: unknown, key: unknown, detector: SecretDetector): string | null {
  return key === null || key === undefined ? (PLACE_KEYS.get(scope) ?? null) : redactName(String(key), detector);
}

/**
 * A run of base64 that may encode text: 24 characters (18 bytes, room for a key and its value)
 * whose every fourth character, from the run's first, can start base64 of ASCII (`A`–`Z`, `a`–`f`:
 * the top bit of each group's first byte is 0). The detector decodes such runs and scans the text
 * (a file read through an API that answers in base64, a `.env` in a Kubernetes secret), where no
 * keyword is left to pass the pre-filter. Case-sensitive; hex ids and paths rarely pass it.
 */
export const BASE64_TEXT_RUN = '(?-i:(?:[A-Za-f][A-Za-z0-9+/]{3}){6})';

/**
 * A run of hex that may encode text: 16 bytes, each printable ASCII (high digit 2-7) or a tab or
 * line break (`09`, `0a`, `0d`), as the detector's hex decoding requires of a run's start (a
 * `.env` dumped by `xxd -p`, a token written by `.hex()`). Hashes and ids fail it: their pairs'
 * high digits are random. Matched case-insensitively with the rest.
 */
export const HEX_TEXT_RUN = '(?:[2-7][0-9a-f]|0[9ad]){16}';

/**
 * A run of four printable ASCII characters each written as a JSON `\u00XX` escape or a `\xNN` or
 * three-digit octal `\NNN` byte escape (C's, Python's, `printf`'s): a token spelled so
 * (`\u0067\u0068\u0070\u005f…`, as an encoder escaping every character writes it;
 * `printf '\x67\x68\x70\x5f…'`, `printf '\147\150…'`) holds no keyword as
 * written; the detector reads it through its escapes. Text escapes only non-ASCII characters and
 * controls so (`\u00e9`, `\x1b[31m`), which this does not match. The backslash is written `\x5c`:
 * DuckDB rewrites an alternation of literals before RE2 sees it, and reads `\\u` there as an escape.
 */
export const ESCAPED_TEXT_RUN = String.raw`(?:\x5c(?:u00|x)[2-7][0-9a-f]){4}|(?:\x5c(?:0[4-7]|1[0-7])[0-7]){4}`;

/** Variation selectors (VS1-16, VS17-256): a run of eight is looked for apart, one alone is an emoji's presentation. */
const SELECTORS: readonly (readonly [number, number])[] = [[0xfe00, 0xfe0f], [0xe0100, 0xe01ef]];

/** Invisible characters (the core's default-ignorable ranges but the variation selectors) as an RE2 class body. */
const INVISIBLE_CLASS = DEFAULT_IGNORABLE_RANGES.flatMap(([first, last]) => {
  let parts: [number, number][] = [[first, last]];
  for (const [s, e] of SELECTORS) parts = parts.flatMap(([a, b]): [number, number][] => (e < a || s > b ? [[a, b]] : [...(a < s ? [[a, s - 1] as [number, number]] : []), ...(b > e ? [[e + 1, b] as [number, number]] : [])]));
  return parts;
})
  .map(([a, b]) => (a === b ? re2Char(a) : `${re2Char(a)}-${re2Char(b)}`))
  .join('');

/** A literal for RE2 in DuckDB, each character but a letter or digit as a class of its own (`bytes[(][[]`): see {@link ESCAPED_TEXT_RUN}. */
function re2Literal(literal: string): string {
  return literal.replace(/[^0-9a-z]/gi, (c) => ('\\]^'.includes(c) ? `\\x${c.charCodeAt(0).toString(16)}` : `[${c}]`));
}

function re2Char(cp: number): string {
  return `\\x{${cp.toString(16).toUpperCase()}}`;
}

/**
 * Text hiding a credential from a scan as written, as the detector reads it (`decodeHiddenCharacters`):
 * invisible characters between two token characters (`ghp_ab\u200bcd`), four tag characters,
 * fullwidth or mathematical letters and digits in a row, a run of eight variation selectors (data
 * behind an emoji), or JSON's `\u` escape of an invisible character between token characters (Python's
 * `json.dumps` writes them so). An emoji's joiner or presentation selector beside other characters does not pass.
 */
export const HIDDEN_TEXT_RUN = [
  String.raw`[0-9a-z_+/=-][${INVISIBLE_CLASS}]+[0-9a-z_+/=-]`,
  String.raw`[\x{E0020}-\x{E007E}]{4}`,
  String.raw`[\x{FF10}-\x{FF5A}\x{1D400}-\x{1D7FF}]{4}`,
  String.raw`[\x{FE00}-\x{FE0F}\x{E0100}-\x{E01EF}]{8}`,
  String.raw`[0-9a-z_+/=-]\x5cu(?:00ad|200[b-f]|206[0-4]|feff)[0-9a-z_+/=-]`,
].join('|');

/**
 * Text spelling a credential out, as the detector reads it (`decodeSpelledCharacters`): a numeric
 * character reference to a token character (`&#103;`, `&#x67;`), a call that turns a list of
 * codes into text or a `chr()` call (`String.fromCharCode(`, `bytes([`, `[]byte{`, `CHAR(`), or two
 * string literals joined by ` +`, ` .` or ` ..` (a space before the operator, as the detector's
 * keywords have it). Special characters are written as classes: DuckDB rewrites an alternation of
 * literals before RE2 sees it (see {@link ESCAPED_TEXT_RUN}).
 */
export const SPELLED_TEXT_RUN = [
  '&#(?:x0*(?:2[b-f]|3[0-9a-f]|[4-7][0-9a-f])(?:[^0-9a-f]|$)|0*(?:4[3-9]|[5-9][0-9]|1[01][0-9]|12[0-2])(?:[^0-9]|$))',
  SPELLING_CALLS.map(re2Literal).join('|'),
  String.raw`" (?:[+]|[.][.]?)[ \t\r\n]*"`,
  String.raw`' (?:[+]|[.][.]?)[ \t\r\n]*'`,
].join('|');

/**
 * The RE2 pattern a value must match to be read by the detector, matched case-insensitively
 * (DuckDB's `'i'`, ClickHouse's `(?i)`): a keyword of `prefilter`, a {@link BASE64_TEXT_RUN}, a
 * {@link HEX_TEXT_RUN}, an {@link ESCAPED_TEXT_RUN}, a {@link HIDDEN_TEXT_RUN} or a
 * {@link SPELLED_TEXT_RUN}. Only for a non-empty `prefilter` (an empty one reads every value).
 */
export function prefilterPattern(prefilter: readonly string[]): string {
  return [...prefilter, BASE64_TEXT_RUN, HEX_TEXT_RUN, ESCAPED_TEXT_RUN, HIDDEN_TEXT_RUN, SPELLED_TEXT_RUN].join('|');
}

/**
 * The built-in rules' pre-filter as regex sources: a rule's `prefilter` where it has one (a bare
 * Discord token, whose keywords are 90 three-letter starts), else its keywords as literals, with
 * the spellings a keyword holding a quote has inside JSON strings (a Docker config's `"auth"` is
 * `\"auth\"` in a JSON-encoded argument). Empty (scan everything) if a rule has neither.
 */
export function builtinPrefilter(): string[] {
  if (BUILTIN_RULES.some((r) => r.keywords.length === 0 && r.prefilter === undefined)) return [];
  const literal = (k: string) => k.replace(/[\\^$.|?*+()[\]{}-]/g, (c) => `\\${c}`);
  const spellings = (k: string) => [k, ...escapedKeywordSpellings(k)].map(literal);
  return [...new Set(BUILTIN_RULES.flatMap((r) => (r.prefilter === undefined ? r.keywords.flatMap(spellings) : [r.prefilter])))];
}
