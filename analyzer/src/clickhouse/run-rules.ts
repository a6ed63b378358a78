import { Emitter, INSTRUMENTATION_SCOPE } from '@argspan/conventions';
import { redactErrorMessage } from '../duckdb-error.js';
import { phase, type PhaseListener } from '../phases.js';
import { RuleError, type Rule } from '../rules/rule-file.js';
import { findingsOf, type RuleRun } from '../rules/run-rules.js';
import { UsageError } from '../usage-error.js';
import { SESSION_SETTINGS, clickHouseErrorType, serverFailure, type ChRow, type ChSession } from './client.js';
import type { TraceSource } from './source.js';
import { chIdent, chString } from './sql.js';
import { TsvRows } from './tsv-rows.js';

/** ClickHouse errors about a query's text (its names, syntax, types): shown for a rule, since they are about the rule file. */
const QUERY_ERRORS = new Set([
  'SYNTAX_ERROR',
  'UNKNOWN_IDENTIFIER',
  'UNKNOWN_TABLE',
  'UNKNOWN_FUNCTION',
  'UNKNOWN_AGGREGATE_FUNCTION',
  'NUMBER_OF_ARGUMENTS_DOESNT_MATCH',
  'ILLEGAL_TYPE_OF_ARGUMENT',
  'NO_COMMON_TYPE',
  'NOT_AN_AGGREGATE',
  'ILLEGAL_AGGREGATION',
  'AMBIGUOUS_IDENTIFIER',
  'AMBIGUOUS_COLUMN_NAME',
  'INVALID_JOIN_ON_EXPRESSION',
  'NOT_IMPLEMENTED',
  'UNSUPPORTED_METHOD',
]);

/**
 * Run each rule's query — the same file DuckDB runs — over the session's temporary tables, in
 * the fixed result shape. A rule whose query fails is a {@link RuleError} naming its file; the
 * server's own failures (memory, network) stay what {@link serverFailure} makes of them.
 */
export async function runRulesClickHouse(session: ChSession, src: TraceSource, rules: readonly Rule[], onPhase?: PhaseListener): Promise<RuleRun> {
  const skipped: RuleRun['skipped'] = [];
  const rows: ChRow[] = [];
  for (const rule of rules) {
    if (rule.appliesWhen !== undefined && !(await applies(session, rule, rule.appliesWhen))) continue;
    const empty: string[] = [];
    for (const table of rule.requires) {
      if ((await requiredRows(session, rule, table)) === 0) empty.push(table);
    }
    if (empty.length) {
      skipped.push({ rule: rule.id, reason: `needs ${empty.join(', ')}, which is empty` });
      continue;
    }
    const sql = `SELECT CAST(r.trace_id AS Nullable(String)) AS trace_id, CAST(r.span_id AS Nullable(String)) AS span_id,
      CAST(r.tool AS Nullable(String)) AS tool, CAST(r."key" AS Nullable(String)) AS "key", CAST(r.reason AS Nullable(String)) AS reason
    FROM (${rule.sql}\n) AS r`;
    try {
      await phase(onPhase, `rule ${rule.id}`, async () => {
        const rs = await session.client.query({ query: sql, format: 'JSONEachRow', clickhouse_settings: SESSION_SETTINGS });
        for (const row of await rs.json<ChRow>()) rows.push({ ...row, rule: rule.id });
      });
    } catch (err) {
      throw ruleQueryError(err, session, rule, `rule ${rule.id}`, 'failed in ClickHouse (it must return trace_id, span_id, tool, key, reason)');
    }
  }
  const emitters = await phase(onPhase, 'findings', () => emittersOf(session, src, rows));
  for (const row of rows) row.emitter = emitters.get(`${String(row.trace_id)}\t${String(row.span_id)}`) ?? null;
  return { findings: findingsOf(rows, new Map(rules.map((r) => [r.id, r]))), skipped };
}

/**
 * Who recorded each finding's span, by `trace_id\tspan_id`, as DuckDB's `runRules` joins it: the
 * emitter of the tool calls on the span, else argspan when its scope wrote the span. The spans
 * are sent once as a small table (shipped to the shards with `GLOBAL IN`); `tool_calls` and the
 * traces table are each read once against it.
 */
async function emittersOf(session: ChSession, src: TraceSource, rows: readonly ChRow[]): Promise<Map<string, string>> {
  const spans = new Map<string, [string, string]>();
  for (const r of rows) {
    if (r.trace_id !== null && r.trace_id !== undefined && r.span_id !== null && r.span_id !== undefined) spans.set(`${String(r.trace_id)}\t${String(r.span_id)}`, [String(r.trace_id), String(r.span_id)]);
  }
  const found = new Map<string, string>();
  if (spans.size === 0) return found;
  const tsv = new TsvRows();
  for (const [trace, span] of spans.values()) tsv.text(trace).text(span).end();
  await session.run('CREATE TEMPORARY TABLE finding_spans (trace_id String, span_id String) ENGINE = Memory', 'creating finding_spans');
  try {
    await session.insertTsv('finding_spans', ['trace_id', 'span_id'], tsv.take(), 'writing the findings\' spans');
    const named = await session.all(
      `SELECT trace_id, span_id, any(emitter) AS emitter, 0 AS rank FROM tool_calls WHERE (trace_id, span_id) IN finding_spans GROUP BY trace_id, span_id
      UNION ALL
      SELECT TraceId AS trace_id, SpanId AS span_id, ${chString(Emitter.ARGSPAN)} AS emitter, 1 AS rank FROM ${src.table}
        WHERE ${src.where} AND ${src.scopeName} = ${chString(INSTRUMENTATION_SCOPE)} AND (TraceId, SpanId) GLOBAL IN finding_spans`,
      'reading who recorded the findings\' spans',
    );
    // The calls' emitter first.
    for (const r of named.sort((a, b) => Number(b.rank) - Number(a.rank))) found.set(`${String(r.trace_id)}\t${String(r.span_id)}`, String(r.emitter));
  } finally {
    await session.run('DROP TEMPORARY TABLE IF EXISTS finding_spans', 'dropping finding_spans');
  }
  return found;
}

/** A query error's first line (about the rule's text); any other error by its type only: its message may quote the data. */
function ruleFailure(err: unknown, type: string | undefined): string {
  if (type && QUERY_ERRORS.has(type)) {
    // ClickHouse names the identifiers and types of the rule's own text; the query it echoes after "In scope" is cut.
    const first = (err instanceof Error ? err.message : String(err)).split('\n', 1)[0]!;
    return first.replace(/^.*?DB::Exception: /, '').replace(/\.? In scope .*$/, '').slice(0, 300);
  }
  return type ? `ClickHouse error ${type} (its message is withheld: it may quote the data)` : redactErrorMessage(err);
}

/** Whether a rule's `applies_when` query returns a row (as DuckDB's `runRules` asks); a query ClickHouse refuses is a broken rule. */
async function applies(session: ChSession, rule: Rule, query: string): Promise<boolean> {
  try {
    const rs = await session.client.query({ query: `SELECT count() AS n FROM (SELECT 1 FROM (${query}\n) AS q LIMIT 1) AS a`, format: 'JSONEachRow', clickhouse_settings: SESSION_SETTINGS });
    const [r] = await rs.json<ChRow>();
    return Number(r?.n ?? 0) > 0;
  } catch (err) {
    throw ruleQueryError(err, session, rule, `rule ${rule.id}'s applies_when query`, 'failed in ClickHouse');
  }
}

/**
 * What to throw for a query of a rule (`query`, as the messages name it) that failed: the server's
 * own failure (memory, network) as {@link serverFailure} makes it, else a {@link RuleError} naming
 * the rule's file.
 */
function ruleQueryError(err: unknown, session: ChSession, rule: Rule, query: string, failed: string): Error {
  const type = clickHouseErrorType(err);
  if (!type || !QUERY_ERRORS.has(type)) {
    const failure = serverFailure(err, session.server, `running ${query}`);
    if (failure instanceof UsageError) return failure;
  }
  return new RuleError(rule.file, `${query} ${failed}: ${ruleFailure(err, type)}`);
}

/** Rows of the table a rule `requires`; a name no table has is a broken rule (a typo), never skipped as if that table were empty. */
async function requiredRows(session: ChSession, rule: Rule, table: string): Promise<number> {
  try {
    const rs = await session.client.query({ query: `SELECT count() AS n FROM ${chIdent(table)}`, format: 'JSONEachRow', clickhouse_settings: SESSION_SETTINGS });
    const [r] = await rs.json<ChRow>();
    return Number(r?.n ?? 0);
  } catch (err) {
    if (clickHouseErrorType(err) === 'UNKNOWN_TABLE') throw new RuleError(rule.file, `rule ${rule.id} requires "${table}", which no table or view is named`);
    throw serverFailure(err, session.server, `counting ${table}`);
  }
}
