import { BUILTIN_RULES, defaultSecretDetector, type SecretDetector } from '@argspan/core';
import type { Db } from './db.js';
import { sqlString } from './load/duckdb-types.js';

/**
 * Re-scan every string attribute (span, event and resource) for credential shapes with
 * @argspan/core's secret detector, into `credential_hits(trace_id, span_id, scope, key, rule_id)`.
 * DuckDB pre-filters on the rules' literal keywords (the detector's own pre-filter), so only
 * candidate values cross into JavaScript; the detector's regexes decide. The value itself is
 * never stored in the table.
 */
export async function scanCredentials(db: Db, detector: SecretDetector = defaultSecretDetector, keywords: readonly string[] = builtinKeywords()): Promise<number> {
  await db.run(`CREATE TABLE credential_hits (trace_id VARCHAR, span_id VARCHAR, scope VARCHAR, "key" VARCHAR, rule_id VARCHAR)`);
  const filter = keywords.length === 0 ? 'true' : keywords.map((k) => `contains(str_value, ${sqlString(k)})`).join(' OR ');
  const candidates = await db.all(`
    SELECT trace_id, span_id, 'span' AS scope, "key", str_value FROM span_attributes WHERE "type" = 'string' AND (${filter})
    UNION ALL SELECT trace_id, span_id, 'event', "key", str_value FROM event_attributes WHERE "type" = 'string' AND (${filter})
    UNION ALL SELECT s.trace_id, s.span_id, 'resource', r."key", r.str_value FROM resource_attributes r JOIN spans s USING (resource_id)
      WHERE r."type" = 'string' AND (${filter.replaceAll('str_value', 'r.str_value')})`);
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
