import type { ClickHouseClient } from '@clickhouse/client';
import type { Residency } from '@argspan/conventions';
import type { InputProblem } from './load/input-error.js';
import type { PhaseListener } from './phases.js';
import type { Rule } from './rules/rule-file.js';
import type { Finding } from './rules/run-rules.js';
import type { RunOverview } from './overview/types.js';

/** What a run judges by and reports, whatever the engine. */
export interface RuleRunOptions {
  /** Extra rule folders; each `*.sql` file in them is a rule. @default [] */
  rulesDirs?: readonly string[];
  /** Also run the informational `report` rules (parent-span joins, run summary, lineage). @default false */
  reports?: boolean;
  /** Tools allowed to hop remotely, added to any `argspan.remote.allowlist` resource attribute. @default [] */
  remoteAllowlist?: readonly string[];
  /**
   * Residencies the gate's policy denies (`GatePolicy.denyResidencies`): a dispatched call with
   * such an argument is a finding. Give the policy the agents ran with. @default ['secret']
   */
  denyResidencies?: readonly Residency[];
  /**
   * Key of the value hashes of other libraries' tool-call arguments (argspan's own spans carry
   * their own). Give the agents' `ARGSPAN_HASH_KEY` to join them with argspan's hashes.
   * @default a random key per run
   */
  hashKey?: Uint8Array;
  /** Baseline file: findings whose fingerprint it lists are suppressed. @default undefined */
  baseline?: string;
  /**
   * Also gather the overview the HTML report shows (runs, per-turn guessed fields, residency per
   * tool, hop timeline, baseline comparison) as `result.overview`. @default false
   */
  overview?: boolean;
  /**
   * Called after each phase (`stage`, `dedup`, `normalise`, `argspan tables`, `credential scan`,
   * `rule <id>`, …) with its wall and CPU milliseconds, for profiling. @default undefined
   */
  onPhase?: PhaseListener;
}

/** Options of {@link analyze}: trace exports read into DuckDB. */
export interface AnalyzeOptions extends RuleRunOptions {
  /** Files, directories (walked for *.json*, *.gz, *.zst) and globs to load. */
  paths: readonly string[];
  /** Analyse the readable rest of damaged input and report what was skipped. @default false */
  allowPartial?: boolean;
  /** Largest JSON line accepted, in bytes. @default 16777216 (DuckDB's default maximum object size) */
  maxLineBytes?: number;
  /** Keep the DuckDB database in this file instead of in memory (its analyzer tables are replaced). @default undefined */
  dbPath?: string;
  /**
   * DuckDB's memory limit: tables beyond it spill to a temporary directory (removed after the
   * run), so peak memory stays bounded whatever the input size. DuckDB's JSON reader keeps about
   * twice `maxLineBytes` of buffer per thread, so keep it well above `threads` x 2 x `maxLineBytes`.
   * @default '1.25GB'
   */
  memoryLimit?: string;
  /**
   * DuckDB worker threads, and the worker threads (up to 4) that classify other libraries' tool
   * calls; with 1, or under 20,000 candidate spans, those are classified in the main thread.
   * @default os.availableParallelism()
   */
  threads?: number;
  /** Write every normalised table to `<dir>/<table>.parquet`. @default undefined */
  exportParquetDir?: string;
  /** Called before each file is loaded. @default undefined */
  onProgress?: (index: number, total: number, file: string) => void;
}

/** Options of {@link analyzeClickHouse}: the collector exporter's traces table, analysed where it lives. */
export interface ClickHouseAnalyzeOptions extends RuleRunOptions {
  /** The server's HTTP interface, `http[s]://[user:password@]host:port` (else CLICKHOUSE_USER / CLICKHOUSE_PASSWORD). One of `url` and `client`. */
  url?: string;
  /**
   * A connected client instead of `url` (the tests' in-process engine); its session must keep
   * temporary tables between queries. The run drops the tables it made and leaves it open.
   */
  client?: ClickHouseClient;
  /** Database of the traces table. @default 'default' */
  database?: string;
  /** The exporter's traces table (or a Distributed table over it). @default 'otel_traces' */
  table?: string;
  /**
   * The exporter's logs table in the same database, whose GenAI log records (the messages the
   * official OpenTelemetry instrumentations log) are read as their spans' events. A table named
   * here must exist. @default 'otel_logs', read when it exists
   */
  logsTable?: string;
  /** Analyse the traces whose first span starts at or after this instant. @default the table's beginning */
  since?: Date;
  /** …and before this one. @default no end */
  until?: Date;
  /** A claimed trace's spans are read up to this long after `until`. @default 3600000 (one hour) */
  maxTraceDurationMs?: number;
}

/** Run statistics (the `stats` object of the JSON report). */
export interface AnalysisStats {
  files: number;
  /** Where the spans were read when not from files: `clickhouse <database>.<table>` and the window. */
  source?: string;
  spans: number;
  /** Span copies dropped as duplicates (same trace and span id), identical or not. */
  duplicate_spans: number;
  /**
   * Of the spans, those whose copies differ in content (overlapping exports of two tools, a
   * re-export after an attribute processor, an id collision): one copy is analysed, chosen by its
   * content (analyzer/README.md, "Duplicate spans"); a credential in any copy is still reported.
   */
  conflicting_spans: number;
  /**
   * Of those, spans whose copy not analysed may hold another library's tool call or argument the
   * analysed copy does not: a copy the call readers would read that differs from the analysed one
   * in its name, attributes or message events. Its calls are not analysed; a credential in it is
   * still reported.
   */
  conflicting_call_spans: number;
  /** Lines, messages or files skipped under allow-partial. */
  malformed_lines: number;
  skipped: InputProblem[];
  rules_run: number;
  rules_skipped: { rule: string; reason: string }[];
  /** Findings suppressed by the baseline. */
  suppressed: number;
  /** Tool calls read from other libraries' traces (GenAI conventions, OpenInference, OpenLLMetry, …). */
  foreign_calls: number;
  /**
   * Of those, calls in traces that hold no user text (prompt capture is opt-in in every library):
   * their unasserted arguments are `no_evidence`, neither the user's nor known guesses.
   */
  no_evidence_calls: number;
  /**
   * Of those, calls whose arguments the trace holds in no readable form — not recorded (argument
   * capture is opt-in too), cut off by an attribute length limit, or not JSON: nothing in them was
   * checked (each is one `unknown` leaf whose rule says why).
   */
  unreadable_args_calls: number;
  /**
   * GenAI log records read from OTLP logs exports (messages and the model's tool calls, as the
   * official OpenTelemetry instrumentations record them), each made an event of the span it names;
   * present when there were any.
   */
  log_records?: number;
  /** Of the spans, those known only from their log records: the logs were given without the trace export that holds them. */
  spans_from_log_records?: number;
  /**
   * Log records of those exports (in ClickHouse, of the run's traces, and those without a trace id
   * of the window's time) that are no GenAI message event — an application's own logs: scanned for
   * credentials (their bodies, attributes and keys, resources and instrumentation scopes: `credential_in_log_record`), not read as tool calls
   * or messages; present when there were any.
   */
  other_log_records?: number;
  /**
   * Coding agents' log records (Claude Code's `claude_code.tool_result` and `user_prompt`, Gemini
   * CLI's `gemini_cli.tool_call` and `user_prompt`) read from OTLP logs exports, each as a span of
   * its own (they carry no span to join); present when there were any (in ClickHouse, those of the
   * logs table read as `otel_logs`' GenAI records are: of the run's traces, or of the window's time).
   */
  agent_log_records?: number;
  /** Wall time of the whole analysis, milliseconds. */
  time_ms: number;
}

export interface AnalysisResult {
  findings: Finding[];
  /** The findings the baseline suppressed (what a baseline written from this run keeps); present when a baseline was given. */
  suppressed?: Finding[];
  rules: Rule[];
  stats: AnalysisStats;
  /** What the HTML report shows beyond the findings; present when `overview` was asked for. */
  overview?: RunOverview;
}
