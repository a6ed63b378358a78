import type { BaselineEntry } from '../baseline.js';

/**
 * What the HTML report shows beyond the findings, gathered by SQL over the loaded tables while
 * the database is open (`analyze({ overview: true })`). Names, keys, run ids and turn names come
 * from the traces: every string is passed through the secret redaction before it lands here, and
 * none of it is an argument value (the tables hold labels, counts and keyed hashes only).
 */
export interface RunOverview {
  totals: OverviewTotals;
  /** Tool calls by who wrote them (`argspan`, `genai-semconv`, …). */
  emitters: { emitter: string; calls: number }[];
  /** Runs, those with the most guessed values first. */
  runs: { rows: RunRow[]; total: number };
  /** Per turn, tool and key: how many values were invented (`model_inferred`) or had no evidence (`no_evidence`). */
  turns: { rows: TurnFieldRow[]; total_turns: number; shown_turns: number };
  /** Argument leaves per tool and residency label (tools with the most leaves first). */
  residency_by_tool: { rows: { tool: string; residency: string; arguments: number }[]; total_tools: number; shown_tools: number };
  hops: HopOverview;
  /** Present when the run was compared with a baseline. */
  baseline?: BaselineComparison;
}

/** What the overview counts of a set of tool calls (all of them, or one run's). */
export interface CallCounts {
  tool_calls: number;
  arguments: number;
  model_inferred: number;
  no_evidence: number;
  /**
   * Of the calls, those argspan's own gate judged (its spans): `held`, `denied` and `remote` count
   * these. Another library's trace does not say whether a call was held, denied or went remote.
   */
  gated: number;
  held: number;
  denied: number;
  remote: number;
}

export interface OverviewTotals extends CallCounts {
  /** Distinct run ids (a call without one counts its trace as its run). */
  runs: number;
  turns: number;
}

export interface RunRow extends CallCounts {
  run_id: string;
}

export interface TurnFieldRow {
  trace_id: string;
  turn_span_id: string | null;
  /** The turn span's name, when the trace holds it. */
  turn: string | null;
  run_id: string | null;
  tool: string;
  key: string;
  provenance: 'model_inferred' | 'no_evidence';
  count: number;
}

export interface HopOverview {
  total: number;
  completed: number;
  failed: number;
  /** Median and 95th percentile of the completed round trips, milliseconds (null without any). */
  rtt_p50_ms: number | null;
  rtt_p95_ms: number | null;
  /** The first hops by time, with their events; `total` says how many there were. */
  rows: HopRow[];
}

export interface HopRow {
  trace_id: string;
  /** The tool-call span the events belong to (or the span that carries them). */
  span_id: string;
  tool: string | null;
  run_id: string | null;
  /** `completed`, `failed`, `queued` or `open` (no outcome recorded). */
  outcome: 'completed' | 'failed' | 'queued' | 'open';
  probe_rtt_ms: number | null;
  rtt_ms: number | null;
  attempts: number;
  events: HopEventRow[];
}

export interface HopEventRow {
  /** Event name without the `argspan.` prefix: `checkpoint.written`, `probe`, `lease.acquired`, `hop.sent`, … */
  event: string;
  /** Milliseconds since the hop's first event. */
  at_ms: number;
  rtt_ms: number | null;
  http_status: number | null;
  /** The event's reason or decision label (`remote`, `unreachable`, `send-error`, …). */
  detail: string | null;
}

export interface BaselineComparison {
  file: string;
  /** Findings of this run the baseline accepted (suppressed). */
  still_present: number;
  /** Baseline entries this run no longer finds. */
  fixed: BaselineEntry[];
}
