import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ClickHouseClient } from '@clickhouse/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOG_BODY_ATTRIBUTE } from '../load/otlp-logs.js';
import { chdbClient } from '../synth/chdb-client.js';
import { exporterLogRowsOfFile, exporterRowsOfFile, otelLogsDdl, otelTracesDdl, type ExporterLogRow } from '../synth/collector-rows.js';
import { UsageError } from '../usage-error.js';
import { DEFAULT_MAX_TRACE_DURATION_MS } from './analyze-clickhouse.js';
import { ChSession } from './client.js';
import { LOG_RECORD_SPANS, gatherLogRecords, unnamedProblem } from './log-records.js';
import { openSource, type TraceWindow } from './source.js';

// The GenAI log records of the exporter's logs table, gathered a row per span: what the foreign
// classification, the re-scan and `spans` read beside the traces table (parity.test.ts compares
// the findings with DuckDB's).
const FOREIGN = fileURLToPath(new URL('../../../fixtures/traces/foreign/', import.meta.url));
const TRACES = `${FOREIGN}otel-python-openai-v2-weather.traces.json`;
const LOGS = `${FOREIGN}otel-python-openai-v2-weather.logs.json`;

/** Each span's record names, in the export's order: the instrumentation writes a call's messages at one instant. */
function namesInFile(): Record<string, string[]> {
  const doc = JSON.parse(readFileSync(LOGS, 'utf8')) as { resourceLogs: { scopeLogs: { logRecords: { spanId: string; eventName: string }[] }[] }[] };
  const out: Record<string, string[]> = {};
  for (const r of doc.resourceLogs.flatMap((rl) => rl.scopeLogs.flatMap((sl) => sl.logRecords))) (out[r.spanId] ??= []).push(r.eventName);
  return out;
}

let client: ClickHouseClient;
let session: ChSession;

beforeAll(() => {
  client = chdbClient(':memory:');
  session = new ChSession(client, 'chdb');
});
beforeEach(async () => {
  for (const t of ['otel_traces', 'otel_logs', 'old_logs', 'not_logs', LOG_RECORD_SPANS]) await client.command({ query: `DROP ${t === LOG_RECORD_SPANS ? 'TEMPORARY ' : ''}TABLE IF EXISTS ${t}` });
  await client.command({ query: otelTracesDdl() });
});
afterAll(async () => {
  await client.close();
});

const insertLogs = (rows: ExporterLogRow[] | Omit<ExporterLogRow, 'EventName'>[], table = 'otel_logs') => client.insert({ table, values: rows, format: 'JSONEachRow' });

async function gather(table = 'otel_logs', named = false, window: Pick<TraceWindow, 'since' | 'until'> = {}) {
  const src = await openSource(session, 'default', 'otel_traces', { maxTraceDurationMs: DEFAULT_MAX_TRACE_DURATION_MS, ...window });
  return gatherLogRecords(session, 'default', table, named, src, window);
}

const spansRead = () =>
  session.all(
    `SELECT span_id, arrayMap(e -> e.name, events) AS names, arrayMap(e -> e.attributes[${`'${LOG_BODY_ATTRIBUTE}'`}], events) AS bodies, records, in_traces
    FROM ${LOG_RECORD_SPANS} ORDER BY span_id`,
    'reading',
  );

describe('the GenAI log records of the exporter\'s logs table', () => {
  it('become their spans\' events in the order written, the body as the message, each record once though the exporter inserted it twice', async () => {
    await client.command({ query: otelLogsDdl() });
    const rows = exporterLogRowsOfFile(LOGS);
    // An application's own log line in the same span: not a GenAI record, counted and left. A GenAI record written outside any span: counted, not read.
    await insertLogs([...rows, { ...rows[0]!, EventName: '', LogAttributes: {}, Body: 'GET /weather 200' }, { ...rows[1]!, TraceId: '', SpanId: '' }]);
    await insertLogs(rows); // the batch again: a retried export
    const read = await gather();
    expect(read).toEqual({ records: 2 * rows.length, spansFromRecords: 2, agentRecords: 0, agentSpans: 0, unjoinable: 1, unnamed: 0, others: 1, scannedLogRecords: expect.any(String) });
    const spans = await spansRead();
    const expected = namesInFile();
    expect(spans.map((s) => [s.span_id, s.names, Number(s.records), s.in_traces])).toEqual(Object.entries(expected).sort().map(([id, names]) => [id, names, 2 * names.length, 0]));
    // The body is Go's JSON of the record's map, which the message readers parse.
    const bodies = spans.flatMap((s) => s.bodies as string[]);
    expect(bodies.every((b) => typeof JSON.parse(b) === 'object')).toBe(true);
  });

  it('are of spans in the traces table when it holds them, and only of the window\'s traces', async () => {
    await client.command({ query: otelLogsDdl() });
    await client.insert({ table: 'otel_traces', values: exporterRowsOfFile(TRACES), format: 'JSONEachRow' });
    await insertLogs(exporterLogRowsOfFile(LOGS));
    expect(await gather()).toMatchObject({ spansFromRecords: 0 });
    expect((await spansRead()).map((s) => s.in_traces)).toEqual([1, 1]);
    await client.command({ query: `DROP TEMPORARY TABLE ${LOG_RECORD_SPANS}` });
    // The traces start on 2024-11-04: a window of the day after claims none, and reads none of their records.
    // (and an application's own line written outside any span that day: scanned and counted by the window of its time)
    await insertLogs([{ ...exporterLogRowsOfFile(LOGS)[0]!, TraceId: '' }, { ...exporterLogRowsOfFile(LOGS)[0]!, TraceId: '', SpanId: '', EventName: '', LogAttributes: {}, Body: 'GET /health 200' }]);
    const day = (d: string, next: string) => ({ since: new Date(`${d}T00:00:00Z`), until: new Date(`${next}T00:00:00Z`) });
    expect(await gather('otel_logs', false, day('2024-11-05', '2024-11-06'))).toEqual({ records: 0, spansFromRecords: 0, agentRecords: 0, agentSpans: 0, unjoinable: 0, unnamed: 0, others: 0, scannedLogRecords: expect.any(String) });
    expect(await session.all(`SELECT name FROM system.tables WHERE is_temporary AND name = '${LOG_RECORD_SPANS}'`, 'listing')).toEqual([]);
    await client.command({ query: 'DROP TEMPORARY TABLE IF EXISTS run_traces' });
    expect(await gather('otel_logs', false, day('2024-11-04', '2024-11-05'))).toEqual({ records: 9, spansFromRecords: 0, agentRecords: 0, agentSpans: 0, unjoinable: 1, unnamed: 0, others: 1, scannedLogRecords: expect.any(String) });
    await client.command({ query: 'DROP TEMPORARY TABLE IF EXISTS run_traces' });
    // A bound a DateTime cannot hold (before 1970, after 2106) bounds none of its days: the records are read
    // (a toDateTime of it wrapped around, and the window read no record, reporting the run clean).
    for (const window of [{ since: new Date('1900-01-01T00:00:00Z') }, { since: new Date('1969-12-31T00:00:00Z') }, { since: new Date('2024-11-04T00:00:00Z'), until: new Date('2106-02-08T00:00:00Z') }]) {
      await client.command({ query: `DROP TEMPORARY TABLE IF EXISTS ${LOG_RECORD_SPANS}` });
      await client.command({ query: 'DROP TEMPORARY TABLE IF EXISTS run_traces' });
      expect(await gather('otel_logs', false, window)).toMatchObject({ records: 9 });
    }
  });

  it('of coding agents (no trace id): a span each, read by the window of their time, the same record inserted twice once, never an application\'s', async () => {
    await client.command({ query: 'DROP TEMPORARY TABLE IF EXISTS run_traces' });
    await client.command({ query: otelLogsDdl() });
    const claude = `${FOREIGN}derived/claude-code-tool-details-planted.logs.json`;
    const rows = exporterLogRowsOfFile(claude);
    await insertLogs([...rows, ...rows]);
    // The export is of 2026-08-11: the prompt-less events (hook, API requests) are an application's records; the prompt, the three tool results and the refused call's decision spans.
    const day = (d: string, next: string) => ({ since: new Date(`${d}T00:00:00Z`), until: new Date(`${next}T00:00:00Z`) });
    expect(await gather('otel_logs', false, day('2026-08-11', '2026-08-12'))).toMatchObject({ records: 0, agentRecords: 10, agentSpans: 5, others: 6, unjoinable: 0 });
    const spans = await session.all(`SELECT name, toUInt8(length(events)) AS events, attributes['tool_name'] AS tool, in_traces FROM ${LOG_RECORD_SPANS} ORDER BY start_ns, name`, 'reading');
    expect(spans.map((r) => [r.name, r.events, r.tool, r.in_traces])).toEqual([
      ['claude_code.user_prompt', 0, '', 0],
      ['claude_code.tool_result', 0, 'Read', 0],
      ['claude_code.tool_result', 0, 'Bash', 0],
      ['claude_code.tool_result', 0, 'mcp_tool', 0],
      ['claude_code.tool_decision', 0, 'Bash', 0],
    ]);
    await client.command({ query: `DROP TEMPORARY TABLE ${LOG_RECORD_SPANS}` });
    await client.command({ query: 'DROP TEMPORARY TABLE IF EXISTS run_traces' });
    expect(await gather('otel_logs', false, day('2026-08-12', '2026-08-13'))).toMatchObject({ records: 0, agentRecords: 0, agentSpans: 0, others: 0 });
  });

  it('are named by the event.name attribute where the exporter has no EventName column (older exporters)', async () => {
    await client.command({ query: otelLogsDdl('old_logs', { eventName: false }) });
    const rows = exporterLogRowsOfFile(LOGS).map(({ EventName, ...row }, i) => (i === 0 ? { ...row, LogAttributes: { ...row.LogAttributes, 'event.name': EventName } } : row));
    await insertLogs(rows, 'old_logs');
    // The other eight carry their name in OTLP's eventName alone, which such a table does not keep: counted, with the way to keep it.
    expect(await gather('old_logs', true)).toEqual({ records: 1, spansFromRecords: 1, agentRecords: 0, agentSpans: 0, unjoinable: 0, unnamed: 8, others: 0, scannedLogRecords: expect.any(String) });
    expect(unnamedProblem('clickhouse default.old_logs', 'default.old_logs', 8).reason).toMatch(/^8 log record\(s\) with GenAI attributes but no event name, not read: .*ALTER TABLE default\.old_logs ADD COLUMN EventName/);
  });

  it('are none, silently, when the default logs table does not exist; a table the user named must exist and be the exporter\'s', async () => {
    expect(await gather()).toBeUndefined();
    await expect(gather('otel_logs', true)).rejects.toThrow(UsageError);
    await expect(gather('otel_logs', true)).rejects.toThrow(/--logs-table.*default\.otel_logs does not exist/);
    await client.command({ query: 'CREATE TABLE not_logs (Timestamp DateTime64(9), TraceId String, SpanId String, ResourceAttributes Map(String, String)) ENGINE = MergeTree ORDER BY Timestamp' });
    await expect(gather('not_logs', true)).rejects.toThrow(/not the collector exporter's logs table: no column Body, LogAttributes$/);
    // Even as the default: a table of that name that is not the exporter's is not read as no logs.
    await client.command({ query: 'RENAME TABLE not_logs TO otel_logs' });
    await expect(gather()).rejects.toThrow(/no column Body, LogAttributes$/);
  });
});
