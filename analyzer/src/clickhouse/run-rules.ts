import { redactErrorMessage } from '../duckdb-error.js';
import { phase, type PhaseListener } from '../phases.js';
import { RuleError, type Rule } from '../rules/rule-file.js';
import { findingsOf, type RuleRun } from '../rules/run-rules.js';
import { UsageError } from '../usage-error.js';
import { SESSION_SETTINGS, clickHouseErrorType, serverFailure, type ChRow, type ChSession } from './client.js';
import { chIdent } from './sql.js';

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
export async function runRulesClickHouse(session: ChSession, rules: readonly Rule[], onPhase?: PhaseListener): Promise<RuleRun> {
  const skipped: RuleRun['skipped'] = [];
  const rows: ChRow[] = [];
  for (const rule of rules) {
    const empty: string[] = [];
    for (const table of rule.requires) {
      const [r] = await session.all(`SELECT count() AS n FROM ${chIdent(table)}`, `counting ${table}`).catch(() => [{ n: 0 }]);
      if (Number(r?.n ?? 0) === 0) empty.push(table);
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
      const type = clickHouseErrorType(err);
      if (!type || !QUERY_ERRORS.has(type)) {
        const failure = serverFailure(err, session.server, `running rule ${rule.id}`);
        if (failure instanceof UsageError) throw failure;
      }
      throw new RuleError(rule.file, `rule ${rule.id} failed in ClickHouse (it must return trace_id, span_id, tool, key, reason): ${ruleFailure(err, type)}`);
    }
  }
  return { findings: findingsOf(rows, new Map(rules.map((r) => [r.id, r]))), skipped };
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
