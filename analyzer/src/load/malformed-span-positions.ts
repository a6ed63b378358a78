import type { Db } from '../db.js';
import type { InputProblem } from './input-error.js';

/**
 * Names where a span is in its document from its indexes (0-based, as the staging query numbers
 * the lists it unnests), as a path of field names and indexes: `data[0].spans[1]`. Positions
 * only: never a value from the file (an id or a name may be any text, a credential too).
 */
export type SpanPath = (idx: readonly (number | null)[], line?: number) => string;

/** The paths of the document formats: OTLP's lists, Jaeger's traces, the list of an API answer. */
export const SPAN_PATHS = {
  /** An OTLP JSON document (also a JSON line): `resourceSpans[r].scopeSpans[s].spans[i]`. */
  otlp: (([r, s, i]) => `resourceSpans[${r}].scopeSpans[${s}].spans[${i}]`) as SpanPath,
  /** Jaeger `/api/v3`'s answer, `{"result":{"resourceSpans":…}}`. */
  otlpResult: (([r, s, i]) => `result.resourceSpans[${r}].scopeSpans[${s}].spans[${i}]`) as SpanPath,
  /** An OTLP document with the protobuf field names (renamed before it is read; the lists keep their order). */
  otlpSnakeCase: (([r, s, i]) => `resource_spans[${r}].scope_spans[${s}].spans[${i}]`) as SpanPath,
  /** Jaeger JSON: `data[t].spans[i]`, or `spans[i]` for a single trace (no trace index). */
  jaeger: (([t, i]) => (t === null || t === undefined ? `spans[${i}]` : `data[${t}].spans[${i}]`)) as SpanPath,
  /**
   * An API answer converted to one OTLP document with every item, in order, as a span of
   * `resourceSpans[0].scopeSpans[0]`: item i of the list at `list` (`data`, `runs`; `''` for a
   * document that is the list).
   */
  apiList: (list: string): SpanPath => ([, , i]) => `${list}[${i}]`,
} as const;

/** Positions named per problem (and line) at most; the rest are counted. */
export const POSITIONS_NAMED = 3;

/**
 * The malformed spans of a file, one problem per line (when known) and kind, counted, each naming
 * where its first {@link POSITIONS_NAMED} spans are — but a JSON line that holds one span only
 * is named by its line alone, as before. `sql` selects `line`, `idx` (a span's list indexes, for
 * `path`), `problem` and `spans` (how many its line holds) of every malformed span: the staging
 * query with ordinality (`malformedOtlpSpansSql`, `malformedJaegerSpansSql`), run only for a
 * file staging found malformed spans in.
 */
export async function malformedSpansAt(db: Db, file: string, sql: string, path: SpanPath): Promise<InputProblem[]> {
  const rows = await db.all(`SELECT line, problem, count(*) AS n, bool_and(line IS NOT NULL AND spans = 1) AS alone,
      list(idx ORDER BY idx) FILTER (WHERE rn <= ${POSITIONS_NAMED}) AS firsts
    FROM (SELECT line, CAST(idx AS INTEGER[]) AS idx, problem, spans, row_number() OVER (PARTITION BY line, problem ORDER BY idx) AS rn FROM (${sql}))
    GROUP BY line, problem ORDER BY line NULLS FIRST, min(idx), problem`);
  return rows.map((r) => {
    const n = Number(r.n);
    const at = (r.firsts as (number | null)[][]).map((idx) => path(idx, r.line === null ? undefined : Number(r.line)));
    const what = n === 1 ? 'malformed span' : `${n} malformed spans`;
    const where = r.alone === true ? '' : n === 1 ? `${at[0]}: ` : ` (${n > at.length ? 'first at' : 'at'} ${at.join(', ')})`;
    const reason = n === 1 ? `${where}${what}: ${String(r.problem)}` : `${what}${where}: ${String(r.problem)}`;
    return r.line === null ? { file, reason } : { file, line: Number(r.line), reason };
  });
}
