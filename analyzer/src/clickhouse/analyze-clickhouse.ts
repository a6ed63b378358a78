import { randomBytes } from 'node:crypto';
import { ResourceAttributes } from '@argspan/conventions';
import { DEFAULT_DENY_RESIDENCIES, readBaselineOption, ruleStats } from '../analyze.js';
import { collectOverview } from '../overview/collect-overview.js';
import { phase } from '../phases.js';
import { loadRules } from '../rules/rule-file.js';
import type { AnalysisResult, ClickHouseAnalyzeOptions } from '../types.js';
import { UsageError } from '../usage-error.js';
import { CH_TABLES, argspanTableSteps, createTableSql, spansSql } from './argspan-tables.js';
import { ChSession, connectClickHouse, describeUrl } from './client.js';
import { scanCredentialsClickHouse } from './credential-scan.js';
import { countCallCopies, loadForeignCallsClickHouse } from './foreign.js';
import { DEFAULT_LOGS_TABLE, LOG_RECORD_SPANS, SPANS_FROM_RECORDS, gatherLogRecords, unjoinableProblem, unnamedProblem } from './log-records.js';
import { runRulesClickHouse } from './run-rules.js';
import { openSource, type TraceSource } from './source.js';
import { DROPPED_COPIES, findSpanCopies, notDroppedSql } from './span-copies.js';
import { attrValue, chString, jsonArrayValues } from './sql.js';

/** How long after `until` a claimed trace's spans are read, unless `maxTraceDurationMs` says otherwise. */
export const DEFAULT_MAX_TRACE_DURATION_MS = 3_600_000;

/** Rules that read `spans` get it (as large as the window); the others never pay for it. */
const READS_SPANS = /\b(FROM|JOIN)\s+spans\b/i;

/**
 * The same analysis as {@link analyze}, inside ClickHouse: the collector exporter's traces table
 * (`otel_traces`, or a Distributed table over it), the run's traces chosen by `since` / `until`,
 * and the GenAI log records of those traces in its logs table beside it (`otel_logs`, when there
 * is one: see `log-records.ts`).
 * The derived tables are temporary tables of one session; the rules are the same files; the
 * result, the baseline and the errors are those of `analyze()` (`UsageError` for a server that
 * cannot be reached, is too old, or has no such table; `RuleError` for a rule ClickHouse refuses).
 */
export async function analyzeClickHouse(options: ClickHouseAnalyzeOptions): Promise<AnalysisResult> {
  const started = performance.now();
  const rules = loadRules(options.rulesDirs ?? []).filter((r) => options.reports || r.kind !== 'report');
  const baselineEntries = options.baseline ? readBaselineOption(options.baseline) : [];
  const suppress = new Set(baselineEntries.map((e) => e.fingerprint));
  const database = options.database ?? 'default';
  const table = options.table ?? 'otel_traces';
  if (options.since && options.until && options.since >= options.until) throw new UsageError('--since', 'must be before --until');
  if (!options.client && !options.url) throw new UsageError('--clickhouse-url', 'is needed with --engine clickhouse');
  const client = options.client ?? connectClickHouse(options.url!, database);
  const session = new ChSession(client, options.url ? describeUrl(options.url) : 'ClickHouse');
  const made: string[] = [];
  try {
    const traces = await phase(options.onPhase, 'source', () =>
      openSource(session, database, table, {
        ...(options.since ? { since: options.since } : {}),
        ...(options.until ? { until: options.until } : {}),
        maxTraceDurationMs: options.maxTraceDurationMs ?? DEFAULT_MAX_TRACE_DURATION_MS,
      }),
    );
    if (traces.where !== '1') made.push('run_traces');
    const logsTable = options.logsTable ?? DEFAULT_LOGS_TABLE;
    const read = await phase(options.onPhase, 'log records', () =>
      gatherLogRecords(session, database, logsTable, options.logsTable !== undefined, traces, { since: options.since, until: options.until }),
    );
    const logs = read && (read.records > 0 || read.agentRecords > 0) ? read : undefined;
    if (logs) made.push(LOG_RECORD_SPANS);
    // Copies of a span (a retried export, overlapping exports): counted, and of differing copies one chosen, as in DuckDB.
    const copies = await phase(options.onPhase, 'dedup', () => findSpanCopies(session, traces));
    if (copies.table) made.push(DROPPED_COPIES);
    const src: TraceSource = { ...traces, logRecords: logs !== undefined, droppedCopies: copies.conflicts > 0, ...(read && read.records + read.others > 0 ? { scannedLogRecords: read.scannedLogRecords } : {}) };
    const callCopies = copies.conflicts > 0 ? await countCallCopies(session, src) : 0;
    const logsSource = `clickhouse ${database}.${logsTable}`;
    const skipped = [
      ...(read?.unjoinable ? [unjoinableProblem(logsSource, read.unjoinable)] : []),
      ...(read?.unnamed ? [unnamedProblem(logsSource, `${database}.${logsTable}`, read.unnamed)] : []),
    ];
    // The overview names each turn by its span.
    const needsSpans = options.overview === true || rules.some((r) => READS_SPANS.test(r.sql));
    for (const t of Object.values(CH_TABLES)) {
      if (t.table === 'spans' && !needsSpans) continue;
      await session.run(createTableSql(t), `creating ${t.table}`);
      made.push(t.table);
    }
    // One key for the run: a credential's hash in credential_hits and in an argument's must agree.
    const hashKey = options.hashKey ?? randomBytes(32);
    await phase(options.onPhase, 'credential scan', () => scanCredentialsClickHouse(session, src, hashKey));
    await phase(options.onPhase, 'argspan tables', async () => {
      for (const step of argspanTableSteps(src)) await phase(options.onPhase, `argspan tables: ${step.table}`, () => session.run(step.sql, `building ${step.table}`));
    });
    const denyResidencies = options.denyResidencies ?? DEFAULT_DENY_RESIDENCIES;
    const foreign = await phase(options.onPhase, 'foreign calls', () =>
      loadForeignCallsClickHouse(session, src, hashKey, { remoteAllowlist: options.remoteAllowlist ?? [], denyResidencies }),
    );
    await phase(options.onPhase, 'policy', () => buildPolicyTables(session, src, options.remoteAllowlist ?? [], denyResidencies));
    if (needsSpans) await phase(options.onPhase, 'spans', () => session.run(spansSql(src), 'building spans'));
    const run = await runRulesClickHouse(session, src, rules, options.onPhase);
    const findings = run.findings.filter((f) => !suppress.has(f.fingerprint));
    const baseline = options.baseline;
    const overview = options.overview
      ? await phase(options.onPhase, 'overview', () =>
          collectOverview(
            { all: (sql) => session.all(sql, 'gathering the report overview'), quantile: (e, q) => `quantileExactInclusive(${q})(${e})` },
            run.findings,
            baseline ? { file: baseline, entries: baselineEntries } : undefined,
          ),
        )
      : undefined;
    return {
      findings,
      ...(options.baseline ? { suppressed: run.findings.filter((f) => suppress.has(f.fingerprint)) } : {}),
      rules,
      ...(overview ? { overview } : {}),
      stats: {
        files: 0,
        source: `clickhouse ${database}.${table}${windowText(options)}`,
        spans: copies.spans + (logs ? logs.spansFromRecords + logs.agentSpans : 0),
        duplicate_spans: copies.duplicates,
        conflicting_spans: copies.conflicts,
        conflicting_call_spans: callCopies,
        malformed_lines: skipped.length,
        skipped,
        ...(logs && logs.records > 0 ? { log_records: logs.records, spans_from_log_records: logs.spansFromRecords } : {}),
        ...(read?.others ? { other_log_records: read.others } : {}),
        ...(logs && logs.agentRecords > 0 ? { agent_log_records: logs.agentRecords } : {}),
        ...ruleStats(rules, run, findings, foreign, started),
      },
    };
  } finally {
    if (options.client) {
      // A caller's session outlives the run: leave nothing of it behind.
      for (const t of made.reverse()) await session.run(`DROP TEMPORARY TABLE IF EXISTS ${t}`, `dropping ${t}`).catch(() => undefined);
    } else {
      // Closing the client ends the session, and ClickHouse drops its temporary tables.
      await client.close();
    }
  }
}

function windowText(o: ClickHouseAnalyzeOptions): string {
  if (!o.since && !o.until) return '';
  return `, traces starting ${o.since ? `from ${o.since.toISOString()}` : ''}${o.since && o.until ? ' ' : ''}${o.until ? `before ${o.until.toISOString()}` : ''}`;
}

/**
 * `remote_allowlist` (the option's tools and every `argspan.remote.allowlist` resource attribute of
 * the spans analysed: a dropped copy's resource sets no policy) and `deny_residencies`, as DuckDB's.
 */
async function buildPolicyTables(session: ChSession, src: TraceSource, tools: readonly string[], denyResidencies: readonly string[]): Promise<void> {
  const key = ResourceAttributes.REMOTE_ALLOWLIST;
  const v = attrValue('ResourceAttributes', key);
  await session.run(
    `INSERT INTO remote_allowlist SELECT DISTINCT tool FROM (
      SELECT arrayJoin(CAST([${tools.map(chString).join(', ')}] AS Array(String))) AS tool
      UNION ALL
      SELECT arrayJoin(if(isValidJSON(v) AND JSONType(v) = 'Array', ${jsonArrayValues('v')}, [v])) AS tool
      FROM (SELECT DISTINCT ${v} AS v FROM ${src.table} WHERE ${src.where} AND mapContains(ResourceAttributes, ${chString(key)}) ${notDroppedSql(src)}${
        src.logRecords ? `
        UNION DISTINCT
        SELECT ${attrValue('resource', key)} FROM ${SPANS_FROM_RECORDS} WHERE mapContains(resource, ${chString(key)})` : ''}))`,
    'building remote_allowlist',
  );
  await session.insert('deny_residencies', denyResidencies.map((residency) => ({ residency })), 'building deny_residencies');
}
