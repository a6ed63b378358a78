import {
  BIGINT,
  BOOLEAN,
  DuckDBDataChunk,
  DuckDBTypeId,
  INTEGER,
  UINTEGER,
  VARCHAR,
  type DuckDBAppender,
  type DuckDBConnection,
  type DuckDBType,
  type DuckDBValue,
  type DuckDBIntegerVector,
  type DuckDBUIntegerVector,
  type DuckDBVector,
} from '@duckdb/node-api';
import { Emitter } from '@argspan/conventions';
import type { Db } from '../db.js';
import { sqlString } from '../load/duckdb-types.js';
import { gateHitKeySql } from '../load/schema.js';
import { ARG_FIELDS, KeyAndLabelNumbers, type RowBatch } from './row-batch.js';

/**
 * Where other libraries' calls are kept. Their argument leaves are many (13 per call in typical
 * traces, against one `tool_arg` span per leaf in argspan's own), so they are stored narrow —
 * numbers only, the call's columns once in `foreign_calls`, each key, label and name once — and
 * `tool_args` becomes a view joining them back, beside argspan's own rows (`argspan_tool_args`).
 * Written wide, every leaf copied its call's ids and names: four times the memory and most of the
 * analysis time.
 */
export const FOREIGN_TABLES = [
  'foreign_calls',
  'foreign_calls_resolved',
  'foreign_args',
  'foreign_arg_keys',
  'foreign_arg_labels',
  'foreign_strings',
  'foreign_blobs',
  'foreign_arg_credentials',
  'argspan_tool_args',
] as const;

const DDL = `
CREATE TABLE foreign_calls (call_no INTEGER, trace_no INTEGER, span_id VARCHAR, name_no INTEGER, end_ns BIGINT, file_id INTEGER, turn_span_id VARCHAR, tool_no INTEGER,
  call_id VARCHAR, emitter_no INTEGER, residency_no INTEGER, args_count INTEGER, args_bytes BIGINT, source_no INTEGER, no_evidence BOOLEAN, start_ns BIGINT);
CREATE TABLE foreign_args (call_no INTEGER, key_no INTEGER, label_no INTEGER, h0 UINTEGER, h1 UINTEGER, h2 UINTEGER, h3 UINTEGER, bytes INTEGER);
CREATE TABLE foreign_arg_keys (key_no INTEGER, "key" VARCHAR, leaf VARCHAR);
CREATE TABLE foreign_arg_labels (label_no INTEGER, provenance VARCHAR, residency VARCHAR, rule VARCHAR, denylisted BOOLEAN);
CREATE TABLE foreign_strings (str_no INTEGER, str VARCHAR);
CREATE TABLE foreign_blobs (trace_no INTEGER, span_id VARCHAR, attribute_no INTEGER, call_span_id VARCHAR);
CREATE TABLE foreign_arg_credentials (call_no INTEGER, key_no INTEGER, credential_hash VARCHAR);`;

/**
 * Writes classified rows through a connection of its own (a write on the connection that streams
 * the spans would end that stream), a data chunk per 2048 rows of a table; then adds the calls to
 * `tool_calls` and turns `tool_args` into the view. Calls, keys, labels and the few distinct
 * names (span names, tools, emitters, residencies, sources, attributes) are numbered here: a
 * number crosses into DuckDB where a string would cost a native call per row.
 */
export class ForeignRowTables {
  /** Foreign tool calls written, and of those, calls in traces that hold no user text. */
  readonly stats = { calls: 0, noEvidenceCalls: 0 };
  private readonly calls: ChunkWriter;
  private readonly args: ArgWriter;
  private readonly keys: ChunkWriter;
  private readonly labels: ChunkWriter;
  private readonly strings: ChunkWriter;
  private readonly blobs: ChunkWriter;
  private readonly credentials: ChunkWriter;
  private readonly numbers = new KeyAndLabelNumbers({
    key: (no, key, leaf) => this.keys.row([no, key, leaf]),
    label: (no, provenance, residency, rule, denylisted) => this.labels.row([no, provenance, residency, rule, denylisted]),
  });
  private readonly stringNos = new Map<string, number>();
  private closed = false;

  private constructor(
    private readonly db: Db,
    private readonly conn: DuckDBConnection,
    appenders: Record<'calls' | 'args' | 'keys' | 'labels' | 'strings' | 'blobs' | 'credentials', DuckDBAppender>,
  ) {
    this.calls = new ChunkWriter(appenders.calls, [INTEGER, INTEGER, VARCHAR, INTEGER, BIGINT, INTEGER, VARCHAR, INTEGER, VARCHAR, INTEGER, INTEGER, INTEGER, BIGINT, INTEGER, BOOLEAN, BIGINT]);
    this.args = new ArgWriter(appenders.args);
    this.keys = new ChunkWriter(appenders.keys, [INTEGER, VARCHAR, VARCHAR]);
    this.labels = new ChunkWriter(appenders.labels, [INTEGER, VARCHAR, VARCHAR, VARCHAR, BOOLEAN]);
    this.strings = new ChunkWriter(appenders.strings, [INTEGER, VARCHAR]);
    this.blobs = new ChunkWriter(appenders.blobs, [INTEGER, VARCHAR, INTEGER, VARCHAR]);
    this.credentials = new ChunkWriter(appenders.credentials, [INTEGER, INTEGER, VARCHAR]);
  }

  /** Create the tables. */
  static async open(db: Db): Promise<ForeignRowTables> {
    await db.run(DDL);
    const conn = await db.connect();
    try {
      const appenders = {
        calls: await conn.createAppender('foreign_calls'),
        args: await conn.createAppender('foreign_args'),
        keys: await conn.createAppender('foreign_arg_keys'),
        labels: await conn.createAppender('foreign_arg_labels'),
        strings: await conn.createAppender('foreign_strings'),
        blobs: await conn.createAppender('foreign_blobs'),
        credentials: await conn.createAppender('foreign_arg_credentials'),
      };
      return new ForeignRowTables(db, conn, appenders);
    } catch (err) {
      conn.closeSync();
      throw err;
    }
  }

  /** Write a batch's rows, its strings, keys, labels and calls numbered for the tables. */
  append(batch: RowBatch): void {
    const stringNo = batch.strings.map((text) => this.stringNo(text));
    const { keyNo, labelNo } = this.numbers.ofBatch(batch);
    const firstCall = this.stats.calls;
    for (const c of batch.calls) {
      const no = this.stats.calls++;
      const noEvidence = c[13];
      if (noEvidence) this.stats.noEvidenceCalls++;
      this.calls.row([no, c[0], c[1], stringNo[c[2]]!, c[3], c[4], c[5], stringNo[c[6]]!, c[7], stringNo[c[8]]!, stringNo[c[9]]!, c[10], BigInt(c[11]), stringNo[c[12]]!, noEvidence, c[14]]);
    }
    const { args, hashes } = batch;
    for (let i = 0; i < batch.argCount; i++) {
      const at = ARG_FIELDS * i;
      this.args.row(firstCall + args[at]!, keyNo[args[at + 1]!]!, labelNo[args[at + 2]!]!, hashes, 4 * i, args[at + 3]!);
    }
    for (const b of batch.blobs) this.blobs.row([b[0], b[1], stringNo[b[2]]!, b[3]]);
    for (const [callNo, key, hash] of batch.credentials) this.credentials.row([firstCall + callNo, keyNo[key]!, hash]);
  }

  private stringNo(text: string): number {
    let no = this.stringNos.get(text);
    if (no === undefined) {
      this.stringNos.set(text, (no = this.strings.rows));
      this.strings.row([no, text]);
    }
    return no;
  }

  /**
   * Flush the appenders, close the connection, and add the rows to `argument_blobs`,
   * `argument_credentials`, `tool_calls` and `tool_args`, the traces, runs and names given by value
   * again (`foreign_traces` and `foreign_run_ids`, the caller's temporary tables, and `foreign_strings`).
   */
  async finish(): Promise<void> {
    this.close();
    await this.db.run(`
      CREATE TABLE argument_blobs AS
        SELECT t.trace_id, b.span_id, a.str AS attribute, coalesce(b.call_span_id, b.span_id) AS call_span_id
        FROM foreign_blobs b JOIN foreign_traces t USING (trace_no) JOIN foreign_strings a ON a.str_no = b.attribute_no;
      DROP TABLE foreign_blobs;
      CREATE TABLE argument_credentials (trace_id VARCHAR, span_id VARCHAR, "key" VARCHAR, credential_hash VARCHAR);`);
    if (this.stats.calls === 0) {
      await this.db.run('DROP TABLE foreign_arg_credentials');
      return;
    }
    await this.db.run(`
      CREATE TABLE foreign_calls_resolved AS
        SELECT f.call_no, t.trace_id, f.span_id, n.str AS "name", f.end_ns, f.file_id, f.turn_span_id, tl.str AS tool, f.call_id, e.str AS emitter,
          r.str AS residency, f.args_count, f.args_bytes, s.str AS call_source, f.no_evidence, f.start_ns, coalesce(own.run_id, whole.run_id) AS run_id
        FROM foreign_calls f JOIN foreign_traces t USING (trace_no)
          JOIN foreign_strings n ON n.str_no = f.name_no JOIN foreign_strings tl ON tl.str_no = f.tool_no JOIN foreign_strings e ON e.str_no = f.emitter_no
          JOIN foreign_strings r ON r.str_no = f.residency_no JOIN foreign_strings s ON s.str_no = f.source_no
          LEFT JOIN foreign_run_ids own ON own.trace_id = t.trace_id AND own.span_id = f.span_id
          LEFT JOIN foreign_run_ids whole ON whole.trace_id = t.trace_id AND whole.span_id IS NULL;
      DROP TABLE foreign_calls;
      DROP TABLE foreign_strings;
      ALTER TABLE foreign_calls_resolved RENAME TO foreign_calls;`);
    await this.dropArgspanRecorded();
    await this.db.run(`
      INSERT INTO argument_credentials
        SELECT c.trace_id, c.span_id, k."key", x.credential_hash
        FROM foreign_arg_credentials x JOIN foreign_calls c USING (call_no) JOIN foreign_arg_keys k USING (key_no);
      DROP TABLE foreign_arg_credentials;`);
    await this.db.run(`
      INSERT INTO tool_calls BY NAME
        SELECT trace_id, span_id, turn_span_id, "name", start_ns, end_ns, file_id, 'execute_tool' AS operation, tool, call_id, run_id,
          emitter, residency, args_count, args_bytes, call_source, no_evidence,
          false AS went_remote, false AS left_machine, false AS stopped_by_gate, true AS dispatched
        FROM foreign_calls;
      ALTER TABLE tool_args RENAME TO argspan_tool_args;
      CREATE VIEW tool_args AS
        SELECT * FROM argspan_tool_args
        UNION ALL BY NAME
        SELECT c.trace_id, c.span_id, c.span_id AS call_span_id, k."key", k.leaf, l.provenance, l.residency, l.rule,
          printf('%08x%08x%08x%08x', a.h0, a.h1, a.h2, a.h3) AS value_hash, a.bytes::BIGINT AS bytes, l.denylisted,
          c.tool, c.call_id, c.run_id, c.turn_span_id, c.emitter, c.file_id, false AS has_excerpt, true AS dispatched, false AS went_remote,
          false AS left_machine, ${gateHitKeySql('c.tool', 'k."key"')} AS gate_hit_key
        FROM foreign_args a JOIN foreign_calls c USING (call_no) JOIN foreign_arg_keys k USING (key_no) JOIN foreign_arg_labels l USING (label_no);`);
  }

  /**
   * Drop the foreign calls argspan recorded too (same trace and call id: a model span of an LLM
   * instrumentation beside argspan's own `execute_tool` span). argspan's record, with the gate's
   * decision, is the call; the copy would report a held call as run, or a finding twice. An
   * attribute that held only dropped calls' arguments is no longer an argument blob, so a
   * credential in it is still reported, by attribute.
   */
  private async dropArgspanRecorded(): Promise<void> {
    await this.db.run(`
      CREATE TEMP TABLE foreign_calls_argspan_recorded AS
        SELECT f.call_no, f.no_evidence, f.trace_id, f.span_id FROM foreign_calls f
        JOIN (SELECT DISTINCT trace_id, call_id FROM tool_calls WHERE emitter = ${sqlString(Emitter.ARGSPAN)} AND call_id IS NOT NULL) c
          ON c.trace_id = f.trace_id AND c.call_id = f.call_id`);
    try {
      const dropped = await this.db.one(`SELECT count(*) AS calls, count(*) FILTER (WHERE no_evidence) AS no_evidence FROM foreign_calls_argspan_recorded`);
      if (Number(dropped.calls) === 0) return;
      await this.db.run(`
        DELETE FROM foreign_calls WHERE call_no IN (SELECT call_no FROM foreign_calls_argspan_recorded);
        DELETE FROM foreign_args WHERE call_no IN (SELECT call_no FROM foreign_calls_argspan_recorded);
        DELETE FROM argument_blobs b
          WHERE EXISTS (SELECT 1 FROM foreign_calls_argspan_recorded d WHERE d.trace_id = b.trace_id AND d.span_id = b.call_span_id)
            AND NOT EXISTS (SELECT 1 FROM foreign_calls f WHERE f.trace_id = b.trace_id AND f.span_id = b.call_span_id);`);
      this.stats.calls -= Number(dropped.calls);
      this.stats.noEvidenceCalls -= Number(dropped.no_evidence);
    } finally {
      await this.db.run('DROP TABLE foreign_calls_argspan_recorded');
    }
  }

  /** Flush and close the appenders and the connection (idempotent). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      for (const w of [this.calls, this.args, this.keys, this.labels, this.strings, this.blobs, this.credentials]) w.close();
    } finally {
      this.conn.closeSync();
    }
  }
}

/** Rows per data chunk (DuckDB's vector size). */
const CHUNK_ROWS = 2048;

const ARG_TYPES = [INTEGER, INTEGER, INTEGER, UINTEGER, UINTEGER, UINTEGER, UINTEGER, INTEGER];

/**
 * Appends rows to a table a data chunk at a time: one native call per 2048 rows, not one per value.
 * Values go straight into the chunk's vectors; a chunk of numbers only is reused (its values are
 * all rewritten), one with text is made anew each time (its strings would pile up in it).
 */
class ChunkWriter {
  /** Rows written so far. */
  rows = 0;
  private chunk: DuckDBDataChunk;
  private vectors: DuckDBVector[];
  /** Rows in the current chunk. */
  private filled = 0;
  private readonly reusable: boolean;

  constructor(
    private readonly appender: DuckDBAppender,
    private readonly types: readonly DuckDBType[],
  ) {
    this.reusable = types.every((t) => t.typeId !== DuckDBTypeId.VARCHAR);
    this.chunk = DuckDBDataChunk.create(types, CHUNK_ROWS);
    this.vectors = types.map((_, c) => this.chunk.getColumnVector(c));
  }

  row(values: readonly DuckDBValue[]): void {
    for (let c = 0; c < values.length; c++) this.vectors[c]!.setItem(this.filled, values[c]!);
    this.rows++;
    if (++this.filled === CHUNK_ROWS) this.flush();
  }

  /** Append what is buffered, then flush and close the appender. */
  close(): void {
    closeAfter(this.appender, () => this.flush());
  }

  private flush(): void {
    if (this.filled === 0) return;
    for (const v of this.vectors) v.flush();
    if (this.filled < CHUNK_ROWS) this.chunk.rowCount = this.filled; // the last chunk
    this.appender.appendDataChunk(this.chunk);
    this.filled = 0;
    if (!this.reusable || this.chunk.rowCount < CHUNK_ROWS) {
      this.chunk = DuckDBDataChunk.create(this.types, CHUNK_ROWS);
      this.vectors = this.types.map((_, c) => this.chunk.getColumnVector(c));
    }
  }
}

/** Run `flush` (what a writer still buffers), then flush and close the appender, closing it even when that fails. */
function closeAfter(appender: DuckDBAppender, flush: () => void): void {
  try {
    flush();
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
}

/**
 * `foreign_args` rows (eight numbers per argument leaf, the most rows by far), gathered in typed
 * arrays and moved into the chunk's vectors a column at a time when 2048 are in: no array per
 * row, and each column's writes go through one vector type. The chunk is reused (numbers only).
 */
class ArgWriter {
  private readonly ints = { callNo: new Int32Array(CHUNK_ROWS), keyNo: new Int32Array(CHUNK_ROWS), labelNo: new Int32Array(CHUNK_ROWS), bytes: new Int32Array(CHUNK_ROWS) };
  /** The four hash words of each row, one after another. */
  private readonly hashes = new Uint32Array(4 * CHUNK_ROWS);
  private readonly chunk = DuckDBDataChunk.create(ARG_TYPES, CHUNK_ROWS);
  private readonly vectors = ARG_TYPES.map((_, c) => this.chunk.getColumnVector(c));
  private filled = 0;

  constructor(private readonly appender: DuckDBAppender) {}

  /** Add a row; its hash is the four words of `hashes` at `at`. */
  row(callNo: number, keyNo: number, labelNo: number, hashes: Uint32Array, at: number, bytes: number): void {
    const i = this.filled;
    this.ints.callNo[i] = callNo;
    this.ints.keyNo[i] = keyNo;
    this.ints.labelNo[i] = labelNo;
    this.ints.bytes[i] = bytes;
    const h = 4 * i;
    this.hashes[h] = hashes[at]!;
    this.hashes[h + 1] = hashes[at + 1]!;
    this.hashes[h + 2] = hashes[at + 2]!;
    this.hashes[h + 3] = hashes[at + 3]!;
    if (++this.filled === CHUNK_ROWS) this.flush();
  }

  /** Append what is buffered, then flush and close the appender. */
  close(): void {
    closeAfter(this.appender, () => this.flush());
  }

  private flush(): void {
    const n = this.filled;
    if (n === 0) return;
    const { callNo, keyNo, labelNo, bytes } = this.ints;
    for (const [c, values] of [[0, callNo], [1, keyNo], [2, labelNo], [7, bytes]] as const) {
      const v = this.vectors[c] as DuckDBIntegerVector;
      for (let i = 0; i < n; i++) v.setItem(i, values[i]!);
      v.flush();
    }
    for (let w = 0; w < 4; w++) {
      const v = this.vectors[3 + w] as DuckDBUIntegerVector;
      for (let i = 0; i < n; i++) v.setItem(i, this.hashes[4 * i + w]!);
      v.flush();
    }
    if (n < CHUNK_ROWS) this.chunk.rowCount = n; // the last chunk
    this.appender.appendDataChunk(this.chunk);
    this.filled = 0;
  }
}
