import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClickHouseClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Db } from '../db.js';
import { loadForeignCalls } from '../foreign/load-foreign.js';
import { DEFAULT_MAX_LINE_BYTES } from '../load/load-file.js';
import { loadTraces } from '../load/load-traces.js';
import { chdbClient } from '../synth/chdb-client.js';
import { exporterRowsOfFile, otelTracesDdl } from '../synth/collector-rows.js';
import { writeForeignTraces } from '../synth/foreign-traces.js';
import { DEFAULT_MAX_TRACE_DURATION_MS } from './analyze-clickhouse.js';
import { CH_TABLES, createTableSql } from './argspan-tables.js';
import { ChSession } from './client.js';
import { loadForeignCallsClickHouse } from './foreign.js';
import { openSource } from './source.js';

// Both engines classify other libraries' calls with the same code and keep their argument rows
// narrow: the rows ClickHouse joins into tool_args equal those DuckDB joins back, value hashes
// included, whether classified inline or in worker threads.
const work = mkdtempSync(join(tmpdir(), 'argspan-ch-foreign-'));
const file = join(work, 'foreign.jsonl');
const hashKey = new Uint8Array(32).fill(7);
const COLUMNS = `trace_id, span_id, "key", leaf, provenance, residency, rule, value_hash, bytes::VARCHAR AS bytes, denylisted, tool, call_id, run_id, emitter`;
let client: ClickHouseClient;
let duckRows: unknown[];
let duckCredentials: unknown[];
const CREDENTIALS = `SELECT trace_id, span_id, "key", credential_hash FROM argument_credentials ORDER BY ALL`;

beforeAll(async () => {
  await writeForeignTraces(file, 3_000, 11, 3);
  const db = await Db.open();
  try {
    await loadTraces(db, [file], { allowPartial: false, maxLineBytes: DEFAULT_MAX_LINE_BYTES });
    await loadForeignCalls(db, hashKey, {}, { threads: 1 });
    duckRows = await db.all(`SELECT ${COLUMNS} FROM tool_args WHERE emitter <> 'argspan' ORDER BY ALL`);
    duckCredentials = await db.all(CREDENTIALS);
  } finally {
    db.close();
  }
  client = chdbClient(':memory:');
  await client.command({ query: otelTracesDdl() });
  await client.insert({ table: 'otel_traces', values: exporterRowsOfFile(file), format: 'JSONEachRow' });
});
afterAll(async () => {
  await client.close();
  rmSync(work, { recursive: true, force: true });
});

/**
 * ClickHouse's `tool_args` rows for the file, classified with `threads` (worker threads from the
 * first span when 2), the spans read in passes of about `spansPerBucket`.
 */
async function clickHouseRows(threads: number, spansPerBucket?: number): Promise<unknown[]> {
  const session = new ChSession(client, 'chdb');
  const src = await openSource(session, 'default', 'otel_traces', { maxTraceDurationMs: DEFAULT_MAX_TRACE_DURATION_MS });
  for (const t of [CH_TABLES.tool_calls, CH_TABLES.tool_args, CH_TABLES.argument_blobs, CH_TABLES.argument_credentials]) {
    await session.run(`DROP TEMPORARY TABLE IF EXISTS ${t.table}`, 'dropping');
    await session.run(createTableSql(t), 'creating');
  }
  await loadForeignCallsClickHouse(session, src, hashKey, {}, { threads, minThreadedSpans: 0, ...(spansPerBucket ? { spansPerBucket } : {}) });
  // The narrow tables the rows went through are gone: a caller's session keeps only the rules' tables.
  expect(await session.all("SELECT name FROM system.tables WHERE is_temporary AND startsWith(name, 'foreign_')", 'listing')).toEqual([]);
  // The rows of calls and argument leaves are kept on disk, compressed, not in the session's memory.
  const kept = await session.all(
    "SELECT name, engine, toUInt8(total_rows > 0) AS filled FROM system.tables WHERE is_temporary AND name IN ('argument_blobs', 'tool_args', 'tool_calls') ORDER BY name",
    'listing',
  );
  expect(kept).toEqual(['argument_blobs', 'tool_args', 'tool_calls'].map((name) => ({ name, engine: 'MergeTree', filled: 1 })));
  // The credentials of secret arguments, by the same keyed hashes.
  expect(await session.all(CREDENTIALS.replace('"key"', 'key'), 'reading')).toEqual(duckCredentials);
  return session.all(`SELECT ${COLUMNS.replace('bytes::VARCHAR AS bytes', 'toString(bytes) AS bytes')} FROM tool_args ORDER BY ALL`, 'reading');
}

describe('other libraries\' calls in ClickHouse', () => {
  it('writes the same argument rows as DuckDB, inline and in worker threads, in one pass or several', async () => {
    expect(duckRows.length).toBeGreaterThan(10_000);
    // Runs named on the call's own span (OpenInference's session.id) and only on the trace's root (the GenAI conversation id); none in Vercel's.
    const runs = (emitter: string) => new Set((duckRows as { emitter: string; run_id: string | null }[]).filter((r) => r.emitter === emitter).map((r) => r.run_id === null));
    expect([runs('openinference'), runs('genai-semconv'), runs('vercel-ai')]).toEqual([new Set([false]), new Set([false]), new Set([true])]);
    const normal = (rows: unknown[]) => rows.map((r) => JSON.stringify(Object.values(r as object)));
    const want = normal(duckRows).sort();
    expect(normal(await clickHouseRows(1)).sort()).toEqual(want);
    expect(normal(await clickHouseRows(2)).sort()).toEqual(want);
    expect(normal(await clickHouseRows(2, 500)).sort()).toEqual(want);
  });
});
