import { Emitter, HopEvents, Provenance, ResidencyRule } from '@argspan/conventions';
import { redactKeyPath } from '@argspan/core';
import { shownName } from '@argspan/core/internal';
import type { BaselineEntry } from '../baseline.js';
import type { Row } from '../db.js';
import { sqlString } from '../load/duckdb-types.js';
import type { Finding } from '../rules/run-rules.js';
import type { CallCounts, HopEventRow, HopRow, RunOverview, RunRow, TurnFieldRow } from './types.js';

/**
 * What the overview needs of an engine (DuckDB or ClickHouse): the rows of a query over its
 * derived tables (`tool_calls`, `tool_args`, `hop_events`, `spans`), written in the SQL both
 * speak, and the one aggregate they spell differently.
 */
export interface OverviewQueries {
  all(sql: string): Promise<Row[]>;
  /** SQL for the `q` quantile of `expr`, interpolated linearly between the closest ranks; NULL over no rows. */
  quantile(expr: string, q: number): string;
}

// The queries run in both engines. In ClickHouse an alias is visible in the whole query, so an
// alias that another expression's column would resolve to has a name of its own (`turn_n`, not
// `n`), and a qualified column is named by an alias (else its name keeps the table's).

/** How many rows of each list the report carries; totals are always exact. */
export const OVERVIEW_LIMITS = { runs: 200, turns: 100, tools: 50, hops: 100 } as const;

const INFERRED = sqlString(Provenance.MODEL_INFERRED);
/**
 * A `tool_args` row that is an argument: not the one leaf of a call with no arguments (`{}`: `$`,
 * rule `empty`), which is there so the call has a row and holds nothing the model chose (as
 * report_run_summary and report_invented_fields_by_turn count). An empty value under a key is an argument.
 */
const ARGUMENT = `NOT coalesce("key" = '$' AND rule = ${sqlString(ResidencyRule.EMPTY)}, false)`;
const NO_EVIDENCE = sqlString(Provenance.NO_EVIDENCE);
const HELD = `stopped_by_gate AND (enforcement = 'hold' OR (enforcement IS NULL AND gate_action = 'ask'))`;
const DENIED = `stopped_by_gate AND NOT (enforcement = 'hold' OR (enforcement IS NULL AND gate_action = 'ask'))`;
/** A call argspan's gate judged: of another library's, whether it was held, denied or went remote is not known. */
const GATED = `emitter = ${sqlString(Emitter.ARGSPAN)}`;

/**
 * Per call: its run (the trace when it has no run id), and its argument counts by provenance.
 * Another library's model span can propose several calls (one span, one run): its leaves are
 * counted on the first of them only, not once per call.
 */
const PER_CALL = `WITH leaves AS (
    SELECT trace_id, call_span_id, count(*) AS leaves, count(*) FILTER (WHERE provenance = ${INFERRED}) AS inferred,
      count(*) FILTER (WHERE provenance = ${NO_EVIDENCE}) AS unevidenced
    FROM tool_args WHERE ${ARGUMENT} GROUP BY trace_id, call_span_id)
  SELECT c.*, coalesce(c.run_id, c.trace_id) AS run_key, coalesce(l.leaves, 0) AS leaves, coalesce(l.inferred, 0) AS inferred,
    coalesce(l.unevidenced, 0) AS unevidenced
  FROM (SELECT *, row_number() OVER (PARTITION BY trace_id, span_id) AS nth_on_span FROM tool_calls) c
  LEFT JOIN leaves l ON l.trace_id = c.trace_id AND l.call_span_id = c.span_id AND c.nth_on_span = 1`;

const TOTALS_SQL = `WITH per_call AS (${PER_CALL})
SELECT count(DISTINCT run_key) AS runs, count(DISTINCT (trace_id, turn_span_id)) AS turns, count(*) AS tool_calls,
  (SELECT count(*) FROM tool_args WHERE ${ARGUMENT}) AS arguments, coalesce(sum(inferred), 0) AS model_inferred, coalesce(sum(unevidenced), 0) AS no_evidence,
  count(*) FILTER (WHERE ${GATED}) AS gated, count(*) FILTER (WHERE ${HELD}) AS held, count(*) FILTER (WHERE ${DENIED}) AS denied, count(*) FILTER (WHERE went_remote) AS remote
FROM per_call`;

const RUNS_SQL = `WITH per_call AS (${PER_CALL})
SELECT run_key AS run_id, count(*) AS tool_calls, sum(leaves) AS arguments, sum(inferred) AS model_inferred, sum(unevidenced) AS no_evidence,
  count(*) FILTER (WHERE ${GATED}) AS gated, count(*) FILTER (WHERE ${HELD}) AS held, count(*) FILTER (WHERE ${DENIED}) AS denied,
  count(*) FILTER (WHERE went_remote) AS remote, count(*) OVER () AS total
FROM per_call GROUP BY run_key
ORDER BY sum(inferred) + sum(unevidenced) DESC, count(*) FILTER (WHERE stopped_by_gate) DESC, run_key LIMIT ${OVERVIEW_LIMITS.runs}`;

/** The turns with the most invented or unevidenced values, then their rows by tool and key. */
const TURNS_SQL = `WITH fields AS (
    SELECT trace_id, turn_span_id, any_value(run_id) AS field_run_id, tool, "key", provenance, count(*) AS n
    FROM tool_args WHERE provenance IN (${INFERRED}, ${NO_EVIDENCE}) AND ${ARGUMENT} GROUP BY trace_id, turn_span_id, tool, "key", provenance),
  turns AS (
    SELECT trace_id, turn_span_id, sum(n) AS turn_n, min(field_run_id) AS turn_run_id, count(*) OVER () AS total
    FROM fields GROUP BY trace_id, turn_span_id ORDER BY turn_n DESC, trace_id, turn_span_id NULLS FIRST LIMIT ${OVERVIEW_LIMITS.turns})
SELECT f.trace_id AS trace_id, f.turn_span_id AS turn_span_id, s."name" AS turn, t.turn_run_id AS run_id, f.tool AS tool, f."key" AS "key",
  f.provenance AS provenance, f.n AS count, t.total AS total, t.turn_n AS turn_total
FROM fields f JOIN turns t ON t.trace_id = f.trace_id AND t.turn_span_id IS NOT DISTINCT FROM f.turn_span_id
LEFT JOIN spans s ON s.trace_id = f.trace_id AND s.span_id = f.turn_span_id
ORDER BY t.turn_n DESC, f.trace_id, f.turn_span_id NULLS FIRST, f.n DESC, f.tool, f."key", f.provenance`;

const RESIDENCY_SQL = `WITH tools AS (
    SELECT coalesce(tool, '') AS tool_name, count(*) AS n, count(*) OVER () AS total FROM tool_args WHERE ${ARGUMENT} GROUP BY tool_name ORDER BY n DESC, tool_name LIMIT ${OVERVIEW_LIMITS.tools})
SELECT t.tool_name AS tool_name, coalesce(a.residency, 'unknown') AS residency_label, count(*) AS arguments, t.total AS total
FROM tool_args a JOIN tools t ON t.tool_name = coalesce(a.tool, '') WHERE ${ARGUMENT}
GROUP BY t.tool_name, t.n, t.total, residency_label ORDER BY t.n DESC, t.tool_name, residency_label`;

const EV = (name: string) => sqlString(name);
/** Whether any row of the group meets `cond` (ClickHouse has no `bool_or`). */
const any = (cond: string) => `count(*) FILTER (WHERE ${cond}) > 0`;
/** One row per hop (the events of one tool call, or of the span that carries them when no call is known). */
const HOPS_SQL = `WITH ev AS (SELECT *, coalesce(call_span_id, span_id) AS hop_span_id FROM hop_events WHERE time_ns IS NOT NULL),
  hops AS (
    SELECT trace_id, hop_span_id, any_value(tool) AS tool, any_value(run_id) AS run_id, min(time_ns) AS t0,
      ${any(`"name" = ${EV(HopEvents.HOP_COMPLETED)}`)} AS completed, ${any(`"name" = ${EV(HopEvents.HOP_FAILED)}`)} AS failed,
      ${any(`"name" = ${EV(HopEvents.QUEUE_ENQUEUED)}`)} AS queued,
      max(rtt_ms) FILTER (WHERE "name" = ${EV(HopEvents.HOP_COMPLETED)}) AS rtt_ms,
      max(rtt_ms) FILTER (WHERE "name" = ${EV(HopEvents.PROBE)}) AS probe_rtt_ms,
      count(*) FILTER (WHERE "name" = ${EV(HopEvents.HOP_SENT)}) AS attempts
    FROM ev GROUP BY trace_id, hop_span_id)`;

const hopTotalsSql = (quantile: OverviewQueries['quantile']) => `${HOPS_SQL}
SELECT count(*) AS total, count(*) FILTER (WHERE completed) AS completed, count(*) FILTER (WHERE failed AND NOT completed) AS failed,
  ${quantile('rtt_ms', 0.5)} AS p50, ${quantile('rtt_ms', 0.95)} AS p95 FROM hops`;

const HOP_ROWS_SQL = `${HOPS_SQL},
  shown AS (SELECT * FROM hops ORDER BY t0, trace_id, hop_span_id LIMIT ${OVERVIEW_LIMITS.hops})
SELECT h.trace_id AS trace_id, h.hop_span_id AS hop_span_id, h.tool AS tool, h.run_id AS run_id, h.completed AS completed, h.failed AS failed,
  h.queued AS queued, h.rtt_ms AS rtt_ms, h.probe_rtt_ms AS probe_rtt_ms, h.attempts AS attempts,
  e."name" AS event, (e.time_ns - h.t0) / 1e6 AS at_ms, e.rtt_ms AS event_rtt_ms, e.http_status, coalesce(e.reason, e.decision) AS detail
FROM shown h JOIN ev e ON e.trace_id = h.trace_id AND e.hop_span_id = h.hop_span_id
ORDER BY h.t0, h.trace_id, h.hop_span_id, e.time_ns, e.event_index`;

/** A string from the traces with any credential shape, glued into a name too, replaced by its marker (as findings are). */
const text = (v: unknown): string | null => (v === null || v === undefined ? null : shownName(String(v)));
/** An argument's key path, redacted as {@link redactKeyPath} does (a credential split across its keys too). */
const keyText = (v: unknown): string | null => (v === null || v === undefined ? null : redactKeyPath(String(v)));
const num = (v: unknown): number => Number(v ?? 0);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
/** A quantile to a nanosecond of a millisecond: the engines interpolate in different orders (2.85 and 2.8499999999999996). */
const quantileOrNull = (v: unknown): number | null => {
  const n = numOrNull(v);
  return n === null || Number.isNaN(n) ? null : Math.round(n * 1e6) / 1e6;
};

/**
 * Gather the report overview from the loaded tables. `allFindings` are the run's findings before
 * the baseline suppressed any.
 */
export async function collectOverview(
  db: OverviewQueries,
  allFindings: readonly Finding[],
  baseline?: { file: string; entries: readonly BaselineEntry[] },
): Promise<RunOverview> {
  const [t = {}] = await db.all(TOTALS_SQL);
  const runRows = await db.all(RUNS_SQL);
  const turnRows = await db.all(TURNS_SQL);
  const residencyRows = await db.all(RESIDENCY_SQL);
  const [hopTotals = {}] = await db.all(hopTotalsSql(db.quantile));
  const hopRows = await db.all(HOP_ROWS_SQL);
  const emitterRows = await db.all(`SELECT emitter, count(*) AS calls FROM tool_calls GROUP BY emitter ORDER BY calls DESC, emitter`);
  const overview: RunOverview = {
    totals: { runs: num(t.runs), turns: num(t.turns), ...callCounts(t) },
    emitters: emitterRows.map((r) => ({ emitter: text(r.emitter) ?? '', calls: num(r.calls) })),
    runs: { rows: runRows.map(runRow), total: num(runRows[0]?.total) },
    turns: {
      rows: turnRows.map(turnRow),
      total_turns: num(turnRows[0]?.total),
      shown_turns: new Set(turnRows.map((r) => `${r.trace_id}/${r.turn_span_id}`)).size,
    },
    residency_by_tool: {
      rows: residencyRows.map((r) => ({ tool: text(r.tool_name) ?? '', residency: text(r.residency_label) ?? 'unknown', arguments: num(r.arguments) })),
      total_tools: num(residencyRows[0]?.total),
      shown_tools: new Set(residencyRows.map((r) => r.tool_name)).size,
    },
    hops: {
      total: num(hopTotals.total),
      completed: num(hopTotals.completed),
      failed: num(hopTotals.failed),
      rtt_p50_ms: quantileOrNull(hopTotals.p50),
      rtt_p95_ms: quantileOrNull(hopTotals.p95),
      rows: hopRowsOf(hopRows),
    },
  };
  if (baseline) {
    const found = new Set(allFindings.map((f) => f.fingerprint));
    overview.baseline = {
      file: shownName(baseline.file),
      still_present: baseline.entries.filter((e) => found.has(e.fingerprint)).length,
      fixed: baseline.entries
        .filter((e) => !found.has(e.fingerprint))
        .map((e) => ({ fingerprint: e.fingerprint, rule: shownName(e.rule), trace_id: text(e.trace_id), span_id: text(e.span_id), tool: text(e.tool), key: keyText(e.key) })),
    };
  }
  return overview;
}

function callCounts(r: Row): CallCounts {
  return {
    tool_calls: num(r.tool_calls),
    arguments: num(r.arguments),
    model_inferred: num(r.model_inferred),
    no_evidence: num(r.no_evidence),
    gated: num(r.gated),
    held: num(r.held),
    denied: num(r.denied),
    remote: num(r.remote),
  };
}

function runRow(r: Row): RunRow {
  return { run_id: text(r.run_id) ?? '', ...callCounts(r) };
}

function turnRow(r: Row): TurnFieldRow {
  return {
    trace_id: text(r.trace_id) ?? '',
    turn_span_id: text(r.turn_span_id),
    turn: text(r.turn),
    run_id: text(r.run_id),
    tool: text(r.tool) ?? '',
    key: keyText(r.key) ?? '',
    provenance: r.provenance === Provenance.NO_EVIDENCE ? 'no_evidence' : 'model_inferred',
    count: num(r.count),
  };
}

const EVENT_PREFIX = 'argspan.';

/** Rows of {@link HOP_ROWS_SQL} (one per event, hops in order) as one {@link HopRow} per hop. */
function hopRowsOf(rows: readonly Row[]): HopRow[] {
  const hops: HopRow[] = [];
  let current: HopRow | undefined;
  for (const r of rows) {
    if (!current || current.trace_id !== r.trace_id || current.span_id !== r.hop_span_id) {
      current = {
        trace_id: String(r.trace_id),
        span_id: String(r.hop_span_id),
        tool: text(r.tool),
        run_id: text(r.run_id),
        outcome: r.completed ? 'completed' : r.failed ? 'failed' : r.queued ? 'queued' : 'open',
        probe_rtt_ms: numOrNull(r.probe_rtt_ms),
        rtt_ms: numOrNull(r.rtt_ms),
        attempts: num(r.attempts),
        events: [],
      };
      hops.push(current);
    }
    const name = String(r.event);
    const event: HopEventRow = {
      event: name.startsWith(EVENT_PREFIX) ? name.slice(EVENT_PREFIX.length) : name,
      at_ms: Math.round(Number(r.at_ms) * 1000) / 1000,
      rtt_ms: numOrNull(r.event_rtt_ms),
      http_status: numOrNull(r.http_status),
      detail: text(r.detail),
    };
    current.events.push(event);
  }
  return hops;
}
