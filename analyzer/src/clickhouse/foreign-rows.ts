import { Emitter, LIST_INDEX_PATTERN } from '@argspan/conventions';
import { UNREADABLE_ARGS_RULES, type ForeignLoadStats } from '../foreign/load-foreign.js';
import { ARG_FIELDS, KeyAndLabelNumbers, type RowBatch } from '../foreign/row-batch.js';
import { RUN_ID_KEYS } from '../foreign/run-ids.js';
import { RUN_WINDOW_TRACES } from '../foreign/trace-source.js';
import { CH_TABLES, createTableSql, type ChTable } from './argspan-tables.js';
import type { ChSession } from './client.js';
import { SPANS_FROM_RECORDS } from './log-records.js';
import type { TraceSource } from './source.js';
import { chString } from './sql.js';
import { TsvRows } from './tsv-rows.js';

/**
 * Where other libraries' calls are written before the rules' tables are built from them, as in
 * DuckDB (`ForeignRowTables`): narrow rows — numbers only for the argument leaves, the most rows
 * by far — with each trace id, call, key, label and name given once. Written wide (every leaf
 * repeating its call's ids and names as JSON), the inserts took most of a run and the session
 * gigabytes of memory.
 */
const NARROW_TABLES = {
  traces: { table: 'foreign_traces', columns: [['trace_no', 'UInt32'], ['trace_id', 'String']] },
  calls: {
    table: 'foreign_calls',
    onDisk: true,
    columns: [
      ['call_no', 'UInt32'],
      ['trace_no', 'UInt32'],
      ['span_id', 'String'],
      ['name_no', 'UInt32'],
      ['start_ns', 'Int64'],
      ['end_ns', 'Nullable(Int64)'],
      ['turn_span_id', 'Nullable(String)'],
      ['tool_no', 'UInt32'],
      ['call_id', 'Nullable(String)'],
      ['emitter_no', 'UInt32'],
      ['residency_no', 'UInt32'],
      ['args_count', 'Int64'],
      ['args_bytes', 'Int64'],
      ['source_no', 'UInt32'],
      ['no_evidence', 'Bool'],
    ],
  },
  args: {
    table: 'foreign_args',
    onDisk: true,
    columns: [['call_no', 'UInt32'], ['key_no', 'UInt32'], ['label_no', 'UInt32'], ['bytes', 'UInt32'], ['value_hash', 'FixedString(32)']],
  },
  keys: { table: 'foreign_arg_keys', columns: [['key_no', 'UInt32'], ['key', 'String'], ['leaf', 'String']] },
  labels: {
    table: 'foreign_arg_labels',
    columns: [['label_no', 'UInt32'], ['provenance', 'String'], ['residency', 'String'], ['rule', 'String'], ['denylisted', 'Bool']],
  },
  strings: { table: 'foreign_strings', columns: [['str_no', 'UInt32'], ['str', 'String']] },
  blobs: { table: 'foreign_blobs', onDisk: true, columns: [['trace_no', 'UInt32'], ['span_id', 'String'], ['attribute_no', 'UInt32'], ['call_span_id', 'Nullable(String)']] },
  credentials: { table: 'foreign_arg_credentials', columns: [['call_no', 'UInt32'], ['key_no', 'UInt32'], ['credential_hash', 'String']] },
} as const satisfies Record<string, ChTable>;

type NarrowTable = keyof typeof NARROW_TABLES;

/**
 * The joins' hash tables are the tables written on the right (the dimensions), the narrow rows
 * stream past them. ClickHouse's join reordering (25.12 and later) otherwise made the argument
 * rows the hash table: at 200K spans, 18 s and 2 GB for a join that takes 0.6 s.
 */
const AS_WRITTEN = "SETTINGS query_plan_join_swap_table = 'false'";

/**
 * `INSERT … SELECT`s that build the rules' tables from the narrow ones (names and ids by value again).
 * A call argspan recorded too (same trace and call id: an LLM instrumentation's model span beside
 * argspan's `execute_tool` span) is argspan's call, not a second one (`argspan_recorded`, as in DuckDB's
 * `ForeignRowTables`).
 */
const CALLS_ALL = `
  SELECT c.call_no AS call_no, t.trace_id AS trace_id, c.span_id AS span_id, n.str AS name, c.start_ns AS start_ns, c.end_ns AS end_ns,
    c.turn_span_id AS turn_span_id, tl.str AS tool, c.call_id AS call_id, e.str AS emitter, r.str AS residency, c.args_count AS args_count,
    c.args_bytes AS args_bytes, s.str AS call_source, c.no_evidence AS no_evidence, coalesce(own.run_id, whole.run_id) AS run_id,
    c.call_id IS NOT NULL AND (t.trace_id, assumeNotNull(c.call_id)) IN (SELECT trace_id, assumeNotNull(call_id) FROM tool_calls
      WHERE emitter = ${chString(Emitter.ARGSPAN)} AND call_id IS NOT NULL) AS argspan_recorded
  FROM foreign_calls c JOIN foreign_traces t ON t.trace_no = c.trace_no
    JOIN foreign_strings n ON n.str_no = c.name_no JOIN foreign_strings tl ON tl.str_no = c.tool_no JOIN foreign_strings e ON e.str_no = c.emitter_no
    JOIN foreign_strings r ON r.str_no = c.residency_no JOIN foreign_strings s ON s.str_no = c.source_no
    LEFT JOIN foreign_span_runs own ON own.trace_id = t.trace_id AND own.span_id = c.span_id
    LEFT JOIN foreign_trace_runs whole ON whole.trace_id = t.trace_id`;
const CALLS_RESOLVED = `SELECT * FROM (${CALLS_ALL}) WHERE NOT argspan_recorded`;

const BUILD_STEPS: { table: string; sql: string }[] = [
  {
    table: CH_TABLES.tool_calls.table,
    sql: `INSERT INTO tool_calls (trace_id, span_id, turn_span_id, name, start_ns, end_ns, operation, tool, call_id, run_id, emitter, residency, args_count,
        args_bytes, call_source, no_evidence, went_remote, left_machine, stopped_by_gate, dispatched)
      SELECT trace_id, span_id, turn_span_id, name, start_ns, end_ns, 'execute_tool', tool, call_id, run_id, emitter, residency, args_count,
        args_bytes, call_source, no_evidence, false, false, false, true
      FROM (${CALLS_RESOLVED})
      ${AS_WRITTEN}`,
  },
  {
    // The calls (a few columns of a hundred thousand rows) and the keys and labels (a few hundred)
    // are the hash tables; the argument rows stream past them.
    table: CH_TABLES.tool_args.table,
    sql: `INSERT INTO tool_args (trace_id, span_id, call_span_id, key, leaf, provenance, residency, rule, value_hash, bytes, denylisted,
        tool, call_id, run_id, turn_span_id, emitter, gate_hit_key, has_excerpt, dispatched, went_remote, left_machine)
      SELECT c.trace_id, c.span_id, c.span_id, k.key, k.leaf, l.provenance, l.residency, l.rule, toString(a.value_hash), toInt64(a.bytes), l.denylisted,
        c.tool, c.call_id, c.run_id, c.turn_span_id, c.emitter, concat(c.tool, '.', k.key_without_indices), false, true, false, false
      FROM foreign_args a
        JOIN (SELECT call_no, trace_id, span_id, tool, call_id, run_id, turn_span_id, emitter FROM (${CALLS_RESOLVED})) c ON c.call_no = a.call_no
        JOIN (SELECT key_no, key, leaf, replaceRegexpAll(key, ${chString(LIST_INDEX_PATTERN)}, '') AS key_without_indices FROM foreign_arg_keys) k ON k.key_no = a.key_no
        JOIN foreign_arg_labels l ON l.label_no = a.label_no
      ${AS_WRITTEN}`,
  },
  {
    table: CH_TABLES.argument_blobs.table,
    sql: `INSERT INTO argument_blobs (trace_id, span_id, attribute, call_span_id)
      SELECT t.trace_id, b.span_id, a.str, coalesce(b.call_span_id, b.span_id)
      FROM foreign_blobs b JOIN foreign_traces t ON t.trace_no = b.trace_no JOIN foreign_strings a ON a.str_no = b.attribute_no
      -- An attribute that held only the arguments of calls argspan recorded is no longer an argument blob.
      WHERE (t.trace_id, coalesce(b.call_span_id, b.span_id)) NOT IN (SELECT trace_id, span_id FROM (${CALLS_ALL}) WHERE argspan_recorded)
        OR (t.trace_id, coalesce(b.call_span_id, b.span_id)) IN (SELECT trace_id, span_id FROM tool_calls WHERE emitter <> ${chString(Emitter.ARGSPAN)})
      ${AS_WRITTEN}`,
  },
  {
    table: CH_TABLES.argument_credentials.table,
    sql: `INSERT INTO argument_credentials (trace_id, span_id, key, credential_hash)
      SELECT c.trace_id, c.span_id, k.key, x.credential_hash
      FROM foreign_arg_credentials x
        JOIN (SELECT call_no, trace_id, span_id FROM (${CALLS_RESOLVED})) c ON c.call_no = x.call_no
        JOIN foreign_arg_keys k ON k.key_no = x.key_no
      ${AS_WRITTEN}`,
  },
];

/** The tables of run ids {@link runIdSteps} makes (dropped with the narrow tables). */
const RUN_ID_TABLES = ['foreign_named_runs', 'foreign_span_runs', 'foreign_trace_runs', 'foreign_trace_windows'] as const;

/**
 * The run ids (see {@link RUN_ID_KEYS}) the spans of the traces holding candidate spans
 * (`candidateStarts`, a query of each candidate span's `trace_id` and `start`) name, as DuckDB's `numberTraces` reads them:
 * `foreign_span_runs`, a row per span that names one, and `foreign_trace_runs`, a row per trace
 * whose spans agree on one; and `foreign_trace_windows`, the evidence window of each such trace
 * whose spans agree under every key they name a run by, a trace of two runs being read on its own
 * (`RUN_WINDOW_TRACES` of its run's traces at a time, by the start of their first candidate span,
 * then id, as `numberTraces` numbers them). Read before the spans: a window's traces are classified
 * together.
 */
export function runIdSteps(src: TraceSource, candidateStarts: string): string[] {
  const keys = RUN_ID_KEYS.map((k, rank) => `(${rank}, ${chString(k)})`).join(', ');
  return [
    `CREATE TEMPORARY TABLE foreign_named_runs ENGINE = Memory AS
      SELECT TraceId AS trace_id, SpanId AS span_id, k.1 AS rank, SpanAttributes[k.2] AS run_id
      FROM ${src.table} ARRAY JOIN [${keys}] AS k
      WHERE ${src.where} AND TraceId GLOBAL IN (SELECT trace_id FROM (${candidateStarts}))
        AND hasAny(mapKeys(SpanAttributes), [${RUN_ID_KEYS.map(chString).join(', ')}]) AND SpanAttributes[k.2] != ''${
      // (the spans made from coding agents' records name their session in their attributes)
      src.logRecords
        ? `
      UNION ALL
      SELECT trace_id, span_id, k.1, attributes[k.2]
      FROM ${SPANS_FROM_RECORDS} ARRAY JOIN [${keys}] AS k
      WHERE hasAny(mapKeys(attributes), [${RUN_ID_KEYS.map(chString).join(', ')}]) AND attributes[k.2] != ''`
        : ''}`,
    `CREATE TEMPORARY TABLE foreign_span_runs ENGINE = Memory AS
      SELECT trace_id, span_id, toNullable(argMin(run_id, rank)) AS run_id FROM foreign_named_runs GROUP BY trace_id, span_id`,
    `CREATE TEMPORARY TABLE foreign_trace_runs ENGINE = Memory AS
      SELECT trace_id, toNullable(argMin(run_id, rank)) AS run_id
      FROM (SELECT trace_id, rank, any(run_id) AS run_id FROM foreign_named_runs GROUP BY trace_id, rank HAVING uniqExact(run_id) = 1)
      GROUP BY trace_id`,
    `CREATE TEMPORARY TABLE foreign_trace_windows ENGINE = Memory AS
      SELECT trace_id, run_id, intDiv(row_number() OVER (PARTITION BY run_id ORDER BY start, trace_id) - 1, ${RUN_WINDOW_TRACES}) AS window_no
      FROM foreign_trace_runs r
        JOIN (SELECT trace_id, min(start) AS start FROM (${candidateStarts}) GROUP BY trace_id) s USING (trace_id)
      WHERE trace_id NOT IN (SELECT trace_id FROM foreign_named_runs GROUP BY trace_id, rank HAVING uniqExact(run_id) > 1)`,
  ];
}

/** Rows of a narrow table gathered before they are inserted (about 3 MB of argument rows). */
const INSERT_ROWS = 50_000;

/**
 * Numbers and writes classified rows (`RowBatch`es, in the order they come) as `TabSeparated`
 * rows of the narrow tables, inserted {@link INSERT_ROWS} at a time; {@link finish} builds
 * `tool_calls`, `tool_args`, `argument_blobs` and `argument_credentials` from them inside ClickHouse, with joins.
 */
export class ForeignRowsClickHouse {
  /** Foreign tool calls written, and of those, calls in traces that hold no user text. */
  readonly stats: ForeignLoadStats = { calls: 0, noEvidenceCalls: 0, unreadableArgsCalls: 0 };
  private readonly rows = Object.fromEntries(Object.keys(NARROW_TABLES).map((t) => [t, new TsvRows()])) as Record<NarrowTable, TsvRows>;
  private readonly numbers = new KeyAndLabelNumbers({
    key: (no, key, leaf) => this.rows.keys.uint(no).text(key).text(leaf).end(),
    label: (no, provenance, residency, rule, denylisted) => this.rows.labels.uint(no).text(provenance).text(residency).text(rule).bool(denylisted).end(),
  });
  private readonly stringNos = new Map<string, number>();
  private traces = 0;
  /** The session's queued work (reads, inserts), settled: never rejects. */
  private queue: Promise<void> = Promise.resolve();
  /** The first failure of queued work. */
  private failure: { err: unknown } | undefined;

  private constructor(private readonly session: ChSession) {}

  /** Create the narrow tables (temporary: the session's). */
  static async open(session: ChSession): Promise<ForeignRowsClickHouse> {
    for (const t of Object.values(NARROW_TABLES)) await session.run(createTableSql(t), `creating ${t.table}`);
    return new ForeignRowsClickHouse(session);
  }

  /** Number a trace (the number its batches' rows give). */
  trace(id: string): number {
    const no = this.traces++;
    this.rows.traces.uint(no).text(id).end();
    return no;
  }

  /** Write a batch's rows, its strings, keys, labels and calls numbered for the tables. */
  append(batch: RowBatch): void {
    const stringNo = batch.strings.map((text) => this.stringNo(text));
    const { keyNo, labelNo } = this.numbers.ofBatch(batch);
    const firstCall = this.stats.calls;
    const calls = this.rows.calls;
    for (const [traceNo, spanId, nameNo, endNs, , turnSpanId, toolNo, callId, emitterNo, residencyNo, argsCount, argsBytes, sourceNo, noEvidence, startNs] of batch.calls) {
      const no = this.stats.calls++;
      if (noEvidence) this.stats.noEvidenceCalls++;
      calls.uint(no).uint(traceNo).text(spanId).uint(stringNo[nameNo]!).int(startNs).int(endNs).text(turnSpanId).uint(stringNo[toolNo]!).text(callId);
      calls.uint(stringNo[emitterNo]!).uint(stringNo[residencyNo]!).int(argsCount).int(argsBytes).uint(stringNo[sourceNo]!).bool(noEvidence).end();
    }
    const { args, hashes } = batch;
    const out = this.rows.args;
    for (let i = 0; i < batch.argCount; i++) {
      const at = ARG_FIELDS * i;
      out.uint(firstCall + args[at]!).uint(keyNo[args[at + 1]!]!).uint(labelNo[args[at + 2]!]!).uint(args[at + 3]!).hashHex(hashes, 4 * i).end();
    }
    for (const [traceNo, spanId, attributeNo, callSpanId] of batch.blobs) this.rows.blobs.uint(traceNo).text(spanId).uint(stringNo[attributeNo]!).text(callSpanId).end();
    for (const [callNo, key, hash] of batch.credentials) this.rows.credentials.uint(firstCall + callNo).uint(keyNo[key]!).text(hash).end();
  }

  /**
   * Queue `work` on the session after everything queued before it (a session runs one query at a
   * time); the caller goes on classifying meanwhile. Resolves with its result.
   */
  queued<T>(work: () => Promise<T>): Promise<T> {
    const done = this.queue.then(work);
    this.queue = done.then(
      () => undefined,
      (err: unknown) => {
        this.failure ??= { err };
      },
    );
    return done;
  }

  /**
   * Queue the inserts of the tables' gathered rows: those with at least `atLeast` rows (1: all).
   * Throws the failure of any queued work so far, so a run stops soon after an insert fails.
   */
  insert(atLeast = INSERT_ROWS): void {
    if (this.failure) throw this.failure.err;
    for (const [name, rows] of Object.entries(this.rows) as [NarrowTable, TsvRows][]) {
      if (rows.rows === 0 || rows.rows < atLeast) continue;
      const t = NARROW_TABLES[name];
      const data = rows.take();
      void this.queued(() => this.session.insertTsv(t.table, t.columns.map(([c]) => c), data, 'writing other libraries\' tool calls')).catch(() => undefined);
    }
  }

  /** Insert what is left and build the rules' tables from the narrow ones (and the run ids {@link runIdSteps} read). */
  async finish(): Promise<void> {
    this.insert(1);
    await this.queue;
    if (this.failure) throw this.failure.err;
    if (this.stats.calls === 0 && this.traces === 0) return;
    for (const step of BUILD_STEPS) await this.session.run(step.sql, `adding other libraries' calls to ${step.table}`);
    const notArgspan = `emitter <> ${chString(Emitter.ARGSPAN)}`;
    const [kept] = await this.session.all(
      `SELECT (SELECT count() FROM tool_calls WHERE ${notArgspan}) AS calls, (SELECT countIf(no_evidence) FROM tool_calls WHERE ${notArgspan}) AS no_evidence,
        (SELECT uniqExact(trace_id, span_id, ifNull(call_id, ''), tool) FROM tool_args WHERE ${notArgspan} AND rule IN (${UNREADABLE_ARGS_RULES.map(chString).join(', ')})) AS unreadable`,
      'counting other libraries\' calls',
    );
    this.stats.calls = Number(kept?.calls ?? 0);
    this.stats.noEvidenceCalls = Number(kept?.no_evidence ?? 0);
    this.stats.unreadableArgsCalls = Number(kept?.unreadable ?? 0);
  }

  /** Drop the narrow tables once nothing queued is running (after {@link finish}, or after a failure: a caller's session keeps nothing of the run). */
  async drop(): Promise<void> {
    await this.queue;
    for (const table of [...Object.values(NARROW_TABLES).map((t) => t.table), ...RUN_ID_TABLES]) await this.session.run(`DROP TEMPORARY TABLE IF EXISTS ${table}`, `dropping ${table}`);
  }

  private stringNo(text: string): number {
    let no = this.stringNos.get(text);
    if (no === undefined) {
      this.stringNos.set(text, (no = this.stringNos.size));
      this.rows.strings.uint(no).text(text).end();
    }
    return no;
  }
}
