import { Emitter, INSTRUMENTATION_SCOPE, ResidencyRule } from '@argspan/conventions';
import type { ClassifyOptions } from '@argspan/core';
import type { Db } from '../db.js';
import { sqlString } from '../load/duckdb-types.js';
import { ATTRS_TEXT_SQL } from '../load/schema.js';
import { phase, type PhaseListener } from '../phases.js';
import { ForeignArgumentRule } from './classify-trace.js';
import { EVIDENCE_KEYS, EVIDENCE_PREFIXES, EVIDENCE_SPAN_NAMES } from './evidence.js';
import { TOOL_SPAN_RECOGNIZERS } from './recognizers/index.js';
import { ForeignRowTables } from './row-tables.js';
import { TraceClassifier, type TraceClassifierOptions } from './trace-classifier.js';
import { candidateTraces, numberTraces } from './trace-source.js';
import { hasEventSql } from './span-json.js';
import { EVIDENCE_EVENT_NAMES } from './event-evidence.js';

/** Attribute keys that make a span worth reading for foreign calls: an emitter's tool-span signature, or evidence. */
export const CANDIDATE_KEYS: readonly string[] = [...new Set([...TOOL_SPAN_RECOGNIZERS.flatMap((r) => r.keys), ...EVIDENCE_KEYS])];
/** Span names that make a span worth reading: tool spans an emitter tells by name only (Logfire's `Function: {name}`), and a coding agent's prompts. */
export const CANDIDATE_SPAN_NAMES: readonly string[] = [...new Set([...TOOL_SPAN_RECOGNIZERS.flatMap((r) => r.spanNames ?? []), ...EVIDENCE_SPAN_NAMES])];

/**
 * Spans worth reading for foreign calls: not argspan's own, and holding a key of an emitter's
 * tool-span signature or one evidence is read from, a tool span's name, or an event the evidence
 * reads (the ClickHouse engine selects the same).
 */
const CANDIDATE_SQL = `(scope_name IS NULL OR scope_name <> ${sqlString(INSTRUMENTATION_SCOPE)})
  AND (list_has_any(attr_keys, [${CANDIDATE_KEYS.map(sqlString).join(', ')}])
    OR "name" IN (${CANDIDATE_SPAN_NAMES.map(sqlString).join(', ')})
    OR list_bool_or(list_transform(attr_keys, lambda k: ${EVIDENCE_PREFIXES.map((p) => `starts_with(k, ${sqlString(p)})`).join(' OR ')}))
    OR ${hasEventSql(EVIDENCE_EVENT_NAMES)})`;

/**
 * How many spans have a copy not analysed (`dropped_copies`, see `DEDUP_SQL`) that may hold a tool
 * call or argument the kept copy does not: a copy that is a candidate ({@link CANDIDATE_SQL}) and
 * differs from the kept one in its name, its attributes (as sorted `key`␂`value` texts, as the
 * copies are ordered) or the events the evidence reads — what the call readers read. Its calls are not read
 * (the kept copy's are): counted, so a report says so. Run right after `DEDUP_SQL`, before GenAI log
 * records become the kept spans' events (ClickHouse's `countCallCopies` compares the rows as exported).
 */
export const CALL_COPIES_SQL = `
SELECT count(DISTINCT (d.trace_id, d.span_id)) AS n
FROM (SELECT * FROM dropped_copies WHERE ${CANDIDATE_SQL}) d JOIN span_structs k ON k.trace_id = d.trace_id AND k.span_id = d.span_id
WHERE d."name" IS DISTINCT FROM k."name" OR ${ATTRS_TEXT_SQL('d')} IS DISTINCT FROM ${ATTRS_TEXT_SQL('k')}
  OR ${messageEventsSql('d')} IS DISTINCT FROM ${messageEventsSql('k')}`;

/** A staged span's (`r`) events the evidence reads, by name and attributes (not time). */
function messageEventsSql(r: string): string {
  return `list_transform(list_filter(coalesce(${r}.events, []), lambda e: e."name" IN (${EVIDENCE_EVENT_NAMES.map(sqlString).join(', ')})), lambda e: {n: e."name", a: e.attributes})`;
}

/** What {@link loadForeignCalls} found. */
export interface ForeignLoadStats {
  /** Foreign tool calls found (tool-execution spans and unexecuted model proposals). */
  calls: number;
  /** Of those, calls in traces that hold no user text: their unasserted values are `no_evidence`. */
  noEvidenceCalls: number;
  /**
   * Of those, calls whose arguments the trace holds in no readable form (not recorded, cut off, not
   * JSON), or only in part (past the flattening limits: 100,000 leaves, 32 levels): what was not
   * read was not checked.
   */
  unreadableArgsCalls: number;
}

/**
 * The rules of a leaf that stands for arguments that could not be read: the one leaf of a call
 * whose blob could not be, the rest past the leaf limit, a subtree nested past the depth limit
 * (each engine quotes them its way; a call counts once however many it has).
 */
export const UNREADABLE_ARGS_RULES: readonly string[] = [...Object.values(ForeignArgumentRule), ResidencyRule.FLATTEN_LIMIT];

/** Spans of unfinished traces held at most while reading in file order (see `candidateTraces`). */
const MAX_HELD_SPANS = 50_000;

/**
 * DuckDB's share of the run's memory limit while classifier threads run: their heaps (about 150 MB
 * at 1M spans) come out of the run's budget. At 1M spans of the benchmark's mix the RSS peak, in
 * this phase, was 2050–2063 MB with DuckDB's whole 1.25 GB, 1903 MB with 1.1 GB (docs/benchmarks.md).
 */
const DUCKDB_SHARE_WHILE_THREADED = 0.88;

/** How {@link loadForeignCalls} reads and classifies. */
export interface ForeignLoadOptions extends Pick<TraceClassifierOptions, 'threads' | 'minThreadedSpans' | 'batchSpans'> {
  onPhase?: PhaseListener;
  /** Spans of unfinished traces held at most while reading in file order. @default 50000 */
  maxHeldSpans?: number;
}

/**
 * Read other libraries' GenAI traces for tool calls, label every argument leaf, and add them to
 * `tool_calls` and `tool_args` (emitter, labels, keyed hashes and byte counts — never a value), so
 * the same rules run over them as over argspan's own spans; and list in `argument_blobs` every
 * attribute that holds (a copy of) a call's arguments. Runs after argspan's tables exist.
 *
 * Traces are classified a batch at a time (see {@link TraceClassifier}: in worker threads when
 * there are enough of them) while this thread reads the spans and writes the rows.
 */
export async function loadForeignCalls(db: Db, hashKey: Uint8Array, policy: ClassifyOptions, options: ForeignLoadOptions = {}): Promise<ForeignLoadStats> {
  const tables = await ForeignRowTables.open(db);
  try {
    const candidateSpans = await phase(options.onPhase, 'foreign calls: candidate traces', () => numberTraces(db, CANDIDATE_SQL));
    if (candidateSpans > 0) {
      await phase(options.onPhase, 'foreign calls: read and classify', async () => {
        const classifier = TraceClassifier.start({ hashKey, policy, candidateSpans, ...options }, (rows) => tables.append(rows));
        const classify = async () => {
          for await (const trace of candidateTraces(db, CANDIDATE_SQL, options.maxHeldSpans ?? MAX_HELD_SPANS)) await classifier.add(trace);
          await classifier.flush();
        };
        try {
          await (classifier.threaded ? db.withMemoryLimitShare(DUCKDB_SHARE_WHILE_THREADED, classify) : classify());
        } finally {
          await classifier.close();
        }
      });
    }
    await phase(options.onPhase, 'foreign calls: tables', () => tables.finish());
    if (tables.stats.calls === 0) return { ...tables.stats, unreadableArgsCalls: 0 };
    const unreadable = await db.one(
      `SELECT count(DISTINCT (trace_id, span_id, coalesce(call_id, ''), tool)) AS n FROM tool_args WHERE emitter <> ${sqlString(Emitter.ARGSPAN)} AND rule IN (${UNREADABLE_ARGS_RULES.map(sqlString).join(', ')})`,
    );
    return { ...tables.stats, unreadableArgsCalls: Number(unreadable.n) };
  } finally {
    tables.close();
    await db.run('DROP TABLE IF EXISTS foreign_traces; DROP TABLE IF EXISTS foreign_run_ids');
  }
}
