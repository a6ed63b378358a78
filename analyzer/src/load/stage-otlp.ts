import { OTLP_RESOURCE_SPAN, OTLP_SCOPE_SPANS, OTLP_SPAN } from './duckdb-types.js';
import { stagedSpanSql } from './schema.js';

/**
 * SQL that stages every span of `source` (any relation with an OTLP `resourceSpans` column)
 * into `span_structs` in one pass. A record whose `resourceSpans` is missing or null becomes one
 * row with `bad = true` (and no span), so other-shaped JSON is counted in the same scan rather
 * than by reading the file twice. The resource's attributes are kept on the first span of each
 * scope only (enough for the `resources` table, which takes any copy), not written once per span.
 * `line` is the SQL for the input line number of a record (a column of `source`), when known.
 */
export function stageOtlpSql(fileId: number, source: string, line = 'NULL'): string {
  return `
INSERT INTO span_structs
SELECT ${stagedSpanSql(fileId, 's', { line: 'line', bad: 'bad', resourceId: 'resource_id', res: 'CASE WHEN si = 0 THEN res END', scopeName: 'scope_name', scopeVersion: 'scope_version' })}
FROM (
  SELECT line, bad, resource_id, res, ss.scope."name" AS scope_name, ss.scope.version AS scope_version,
    unnest(CASE WHEN bad THEN [NULL::${OTLP_SPAN}] ELSE ss.spans END) AS s,
    unnest(CASE WHEN bad THEN [0] ELSE range(len(ss.spans)) END) AS si
  FROM (
    SELECT line, bad, hash(rs.resource.attributes) AS resource_id, rs.resource.attributes AS res,
      unnest(CASE WHEN bad THEN [NULL::${OTLP_SCOPE_SPANS}] ELSE rs.scopeSpans END) AS ss
    FROM (
      SELECT ${line} AS line, resourceSpans IS NULL AS bad,
        unnest(CASE WHEN resourceSpans IS NULL THEN [NULL::${OTLP_RESOURCE_SPAN}] ELSE resourceSpans END) AS rs
      FROM ${source}
    )
  )
)`;
}
