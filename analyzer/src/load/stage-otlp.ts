import { PLAIN_VALUES, otlpTypes, sqlString, type ValueShapes } from './duckdb-types.js';
import { plainAttributesSql, resourceShapeSql, SHAPE_PROBLEMS, snakeCaseListSql, stagedSpanSql } from './schema.js';

/**
 * SQL that stages every span of `source` (any relation with an OTLP `resourceSpans` column)
 * into `span_structs` in one pass. A record whose `resourceSpans` is missing or null, or holds
 * an entry whose spans are under another name than `scopeSpans` ({@link resourceShapeSql}),
 * becomes one row with `bad = true` (and no span; the latter with its reason in `problem`), so
 * other-shaped JSON is counted in the same scan rather than by reading the file twice. The
 * resource's attributes are kept on the first span of each scope only (enough for the
 * `resources` table, which takes any copy), not written once per span; so are the scope's own
 * attributes (read only by the credential re-scan). A scope attribute written with protobuf value
 * names makes its spans malformed, as such a span attribute does: read as OTLP it would be empty.
 * `line` is the SQL for the input line number of a record (a column of `source`), when known;
 * `shapes`, the value forms `source` is read with (`otlpTypes(shapes)`); with the structured ones
 * every map and nested array is staged as a string value, its JSON text.
 */
export function stageOtlpSql(fileId: number, source: string, line = 'NULL', shapes: ValueShapes = PLAIN_VALUES): string {
  const { span, scopeSpans, resourceSpan } = otlpTypes(shapes);
  const scopeShape = shapes.protobufNames ? `coalesce(shape, CASE WHEN ${snakeCaseListSql('ss.scope.attributes')} THEN ${sqlString(SHAPE_PROBLEMS.snakeValue)} END)` : 'shape';
  const from = {
    line: 'line', bad: 'bad', shape: 'shape', resourceId: 'resource_id', res: 'CASE WHEN si = 0 THEN res END',
    scopeName: 'scope_name', scopeVersion: 'scope_version', scopeAttrs: 'CASE WHEN si = 0 THEN scope_attrs END', ...shapes,
  };
  const res = shapes.structured ? plainAttributesSql('rs.resource.attributes') : 'rs.resource.attributes';
  const scopeAttrs = shapes.structured ? plainAttributesSql('ss.scope.attributes') : 'ss.scope.attributes';
  return `
INSERT INTO span_structs
SELECT ${stagedSpanSql(fileId, 's', from)}
FROM (
  SELECT line, bad, ${scopeShape} AS shape, resource_id, res, ss.scope."name" AS scope_name, ss.scope.version AS scope_version, ${scopeAttrs} AS scope_attrs,
    unnest(CASE WHEN bad THEN [NULL::${span}] ELSE ss.spans END) AS s,
    unnest(CASE WHEN bad THEN [0] ELSE range(len(ss.spans)) END) AS si
  FROM (
    SELECT line, bad, shape, hash(rs.resource.attributes) AS resource_id, ${res} AS res,
      unnest(CASE WHEN bad THEN [NULL::${scopeSpans}] ELSE rs.scopeSpans END) AS ss
    FROM (
      SELECT line, shape, resourceSpans IS NULL OR shape IS NOT NULL AS bad,
        unnest(CASE WHEN resourceSpans IS NULL OR shape IS NOT NULL THEN [NULL::${resourceSpan}] ELSE resourceSpans END) AS rs
      FROM (SELECT ${line} AS line, resourceSpans, ${resourceShapeSql('resourceSpans', shapes.protobufNames)} AS shape FROM ${source})
    )
  )
)`;
}
