import { PLAIN_VALUES, otlpTypes, sqlString, type ValueShapes } from './duckdb-types.js';
import { plainAttributesSql, resourceShapeSql, SHAPE_PROBLEMS, snakeCaseListSql, stagedProblemSql, stagedSpanSql } from './schema.js';

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
  const from = {
    line: 'line', bad: 'bad', shape: 'shape', resourceId: 'resource_id', res: 'CASE WHEN si = 0 THEN res END',
    scopeName: 'scope_name', scopeVersion: 'scope_version', scopeAttrs: 'CASE WHEN si = 0 THEN scope_attrs END', ...shapes,
  };
  return `
INSERT INTO span_structs
SELECT ${stagedSpanSql(fileId, 's', from)}
FROM ${otlpSpansSql(source, line, shapes, false)}`;
}

/**
 * SQL: where in `source` (read as {@link stageOtlpSql} reads it) each malformed span is — its `line`, `idx`,
 * its indexes `[resourceSpans entry, scopeSpans entry, span]` (0-based) — its `problem`, by
 * the very expression staging decides it with, and how many `spans` its record (line or document) holds. Run only for a file staging found malformed spans in.
 */
export function malformedOtlpSpansSql(source: string, line = 'NULL', shapes: ValueShapes = PLAIN_VALUES): string {
  return `SELECT line, [ri, ssi, si] AS idx, problem, spans FROM (SELECT line, ri, ssi, si, bad, ${stagedProblemSql('s', { shape: 'shape', ...shapes })} AS problem,
    count(*) OVER (PARTITION BY line) AS spans
  FROM ${otlpSpansSql(source, line, shapes, true)}) WHERE NOT bad AND problem IS NOT NULL`;
}

/**
 * The relation of {@link stageOtlpSql}: one row per span `s` (with its index `si` in its scope's
 * list), or per bad record; `indexed` adds the indexes of its `resourceSpans` entry (`ri`) and
 * `scopeSpans` entry (`ssi`), which only the diagnosis of malformed spans reads.
 */
function otlpSpansSql(source: string, line: string, shapes: ValueShapes, indexed: boolean): string {
  const { span, scopeSpans, resourceSpan } = otlpTypes(shapes);
  const scopeShape = shapes.protobufNames ? `coalesce(shape, CASE WHEN ${snakeCaseListSql('ss.scope.attributes')} THEN ${sqlString(SHAPE_PROBLEMS.snakeValue)} END)` : 'shape';
  const res = shapes.structured ? plainAttributesSql('rs.resource.attributes') : 'rs.resource.attributes';
  const scopeAttrs = shapes.structured ? plainAttributesSql('ss.scope.attributes') : 'ss.scope.attributes';
  /** An index column beside an unnest of `list`, 0 for a bad record's one row. */
  const index = (list: string, name: string, bad = 'bad') => (indexed ? `, unnest(CASE WHEN ${bad} THEN [0] ELSE range(len(${list})) END) AS ${name}` : '');
  const carried = (...names: string[]) => (indexed ? names.map((n) => `${n}, `).join('') : '');
  return `(
  SELECT ${carried('ri', 'ssi')}line, bad, ${scopeShape} AS shape, resource_id, res, ss.scope."name" AS scope_name, ss.scope.version AS scope_version, ${scopeAttrs} AS scope_attrs,
    unnest(CASE WHEN bad THEN [NULL::${span}] ELSE ss.spans END) AS s,
    unnest(CASE WHEN bad THEN [0] ELSE range(len(ss.spans)) END) AS si
  FROM (
    SELECT ${carried('ri')}line, bad, shape, hash(rs.resource.attributes) AS resource_id, ${res} AS res,
      unnest(CASE WHEN bad THEN [NULL::${scopeSpans}] ELSE rs.scopeSpans END) AS ss${index('rs.scopeSpans', 'ssi')}
    FROM (
      SELECT line, shape, resourceSpans IS NULL OR shape IS NOT NULL AS bad,
        unnest(CASE WHEN resourceSpans IS NULL OR shape IS NOT NULL THEN [NULL::${resourceSpan}] ELSE resourceSpans END) AS rs${index('resourceSpans', 'ri', 'resourceSpans IS NULL OR shape IS NOT NULL')}
      FROM (SELECT ${line} AS line, resourceSpans, ${resourceShapeSql('resourceSpans', shapes.protobufNames)} AS shape FROM ${source})
    )
  )
)`;
}
