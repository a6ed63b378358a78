import { BUILTIN_RULES, defaultSecretDetector, type SecretDetector } from '@argspan/core';
import type { Db } from './db.js';
import { sqlString } from './load/duckdb-types.js';

/**
 * Re-scan every string attribute (span, event and resource; a resource hit is reported once, on
 * its first span) for credential shapes with
 * @argspan/core's secret detector, into `credential_hits(trace_id, span_id, scope, key, rule_id)`.
 * DuckDB pre-filters on the rules' literal keywords (the detector's own pre-filter), so only
 * candidate values cross into JavaScript; the detector's regexes decide. The value itself is
 * never stored in the table.
 */
export async function scanCredentials(db: Db, detector: SecretDetector = defaultSecretDetector, keywords: readonly string[] = builtinKeywords()): Promise<number> {
  await db.run(`CREATE TABLE credential_hits (trace_id VARCHAR, span_id VARCHAR, scope VARCHAR, "key" VARCHAR, rule_id VARCHAR)`);
  // One RE2 pass over each value for all keywords (literal alternation), instead of one contains() per keyword.
  const alternation = keywords.map((k) => k.replace(/[\\^$.|?*+()[\]{}-]/g, (c) => `\\${c}`)).join('|');
  // Keywords are matched case-insensitively, as the detector's own pre-filter does.
  const match = (v: string) => (keywords.length === 0 ? `${v} IS NOT NULL` : `regexp_matches(${v}, ${sqlString(alternation)}, 'i')`);
  // Filter each span's own attribute lists first (no unnest of the whole attribute set).
  const candidates = await db.all(`
    SELECT trace_id, span_id, 'span' AS scope, a."key" AS "key", a."value".stringValue AS str_value
    FROM (SELECT trace_id, span_id, unnest(list_filter(attributes, lambda a: ${match('a."value".stringValue')})) AS a FROM span_structs)
    UNION ALL
    SELECT trace_id, span_id, 'event', a."key", a."value".stringValue
    FROM (SELECT trace_id, span_id, unnest(list_filter(flatten(list_transform(events, lambda e: e.attributes)), lambda a: ${match('a."value".stringValue')})) AS a
      FROM span_structs WHERE len(events) > 0)
    UNION ALL
    SELECT s.trace_id, s.span_id, 'resource', r."key", r.str_value FROM resource_attributes r
    JOIN (SELECT resource_id, min(trace_id) AS trace_id, arg_min(span_id, trace_id || span_id) AS span_id FROM spans GROUP BY resource_id) s USING (resource_id)
    WHERE r."type" = 'string' AND (${match('r.str_value')})`);
  const appender = await db.conn.createAppender('credential_hits');
  let hits = 0;
  for (const c of candidates) {
    const finding = detector.find(String(c.str_value));
    if (!finding) continue;
    appender.appendVarchar(String(c.trace_id));
    appender.appendVarchar(String(c.span_id));
    appender.appendVarchar(String(c.scope));
    appender.appendVarchar(String(c.key));
    appender.appendVarchar(finding.ruleId);
    appender.endRow();
    hits += 1;
  }
  appender.closeSync();
  return hits;
}

/** The built-in rules' keywords; empty (scan everything) if any rule has none. */
function builtinKeywords(): string[] {
  if (BUILTIN_RULES.some((r) => r.keywords.length === 0)) return [];
  return [...new Set(BUILTIN_RULES.flatMap((r) => r.keywords))];
}
