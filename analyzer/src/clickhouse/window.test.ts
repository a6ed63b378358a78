import { fileURLToPath } from 'node:url';
import type { ClickHouseClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chdbClient } from '../synth/chdb-client.js';
import { exporterRowsOfFile, otelLogsDdl, otelTracesDdl, type ExporterLogRow, type ExporterRow } from '../synth/collector-rows.js';
import { analyzeClickHouse } from './analyze-clickhouse.js';

// A nightly window over a table partitioned by day (the exporter's PARTITION BY toDate(Timestamp)):
// each trace is analysed by the window its first span starts in, whole, even when it runs past
// midnight into the next partition; the queries read only the window's partitions and never the
// columns no rule needs (ClickHouse's own EXPLAIN says what each read touches).
const TOKYO = fileURLToPath(new URL('../../../fixtures/traces/tokyo-invite.jsonl', import.meta.url));
const DAY = 86_400_000_000_000n;
const START = 1764460800000000000n; // the fixture's first span: 2025-11-30T00:00:00Z
const day = (n: number) => new Date(Date.UTC(2025, 10, 30 + n));

/** The Tokyo trace moved by `shiftNs`, with its own trace id (`tag` as the id's first digits). */
function copyOfTokyo(tag: string, shiftNs: bigint): ExporterRow[] {
  const move = (t: string) => {
    const [s, ns] = t.split('.') as [string, string];
    const total = BigInt(s) * 1_000_000_000n + BigInt(ns) + shiftNs;
    return `${total / 1_000_000_000n}.${String(total % 1_000_000_000n).padStart(9, '0')}`;
  };
  const id = (t: string) => (t ? tag + t.slice(tag.length) : t);
  return exporterRowsOfFile(TOKYO).map((r) => ({
    ...r,
    TraceId: id(r.TraceId),
    Timestamp: move(r.Timestamp),
    'Events.Timestamp': r['Events.Timestamp'].map(move),
    'Links.TraceId': r['Links.TraceId'].map(id),
  }));
}

/** Columns no rule reads: a query of the ClickHouse path that reads one of them reads too much. */
// (StatusMessage and ScopeVersion are read: the credential re-scan looks at them.)
const NEVER_READ = ['TraceState', 'SpanKind', 'ServiceName', 'StatusCode', 'Links.TraceState'];

let client: ClickHouseClient;
/** EXPLAIN indexes = 1 of every query the run sent that reads otel_traces, taken just before it ran. */
const explained: { sql: string; plan: string }[] = [];

/** The client, with every statement that reads the traces table explained first (while the temporary tables it uses exist). */
function explainingClient(inner: ClickHouseClient): ClickHouseClient {
  const explain = async (sql: string) => {
    if (!sql.includes('otel_traces') || /^\s*(SELECT name FROM system|TRUNCATE|DROP)/.test(sql)) return;
    const select = sql.replace(/^\s*INSERT INTO \w+( \([^)]*\))?\s*/, '').replace(/^\s*CREATE TEMPORARY TABLE \w+ ENGINE = [^\n]*?\bAS\s+/, '');
    const rs = await inner.query({ query: `EXPLAIN indexes = 1 ${select}`, format: 'TabSeparatedRaw' });
    explained.push({ sql, plan: await rs.text() });
  };
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if ((prop === 'query' || prop === 'command') && typeof v === 'function') {
        return async (params: { query: string }) => {
          await explain(params.query);
          return (v as (p: unknown) => unknown).call(target, params);
        };
      }
      return v;
    },
  });
}

beforeAll(async () => {
  client = chdbClient(':memory:');
  await client.command({ query: 'DROP TABLE IF EXISTS otel_traces' });
  await client.command({ query: otelTracesDdl() });
  const copies: [string, bigint][] = [
    ['0001', 1n * DAY],
    ['0002', 2n * DAY],
    // Starts 0.1 s before midnight of day 3: its calendar.create call and arguments land on day 3's partition.
    ['0003', 3n * DAY - 100_000_000n],
    ['0004', 3n * DAY + 3_600_000_000_000n],
    ['0005', 4n * DAY],
  ];
  await client.insert({ table: 'otel_traces', values: copies.flatMap(([tag, shift]) => copyOfTokyo(tag, shift)), format: 'JSONEachRow' });
  await client.command({ query: 'DROP TABLE IF EXISTS window_logs' });
  await client.command({ query: otelLogsDdl('window_logs') });
  await client.insert({ table: 'window_logs', values: copies.flatMap(([tag, shift]) => recordsOfCopy(tag, shift)), format: 'JSONEachRow' });
});

/**
 * A GenAI log record of each Tokyo copy (`tag`, moved by `shiftNs`): one on its agent span, and
 * one naming a span the traces table does not hold, at the trace's start.
 */
function recordsOfCopy(tag: string, shiftNs: bigint): ExporterLogRow[] {
  const first = copyOfTokyo(tag, shiftNs)[0]!;
  const record = (spanId: string): ExporterLogRow => ({
    Timestamp: first.Timestamp, TraceId: first.TraceId, SpanId: spanId, TraceFlags: 1, SeverityText: '', SeverityNumber: 0, ServiceName: 'agent',
    Body: '{"content":"Invite Kenji to lunch in Tokyo"}', ResourceSchemaUrl: '', ResourceAttributes: { 'service.name': 'agent' }, ScopeSchemaUrl: '',
    ScopeName: 'opentelemetry.instrumentation.openai_v2', ScopeVersion: '2.1b0', ScopeAttributes: {}, LogAttributes: { 'gen_ai.system': 'openai' }, EventName: 'gen_ai.user.message',
  });
  return [record(first.SpanId), record('ffffffffffff0001')];
}

afterAll(async () => {
  await client.command({ query: 'DROP TABLE IF EXISTS window_logs' });
  await client.command({ query: 'DROP TABLE IF EXISTS otel_traces' });
  await client.close();
});

describe('--since / --until over a table partitioned by day', () => {
  it('analyses each trace in the window its first span starts in, whole, and no other', async () => {
    const all = await analyzeClickHouse({ client });
    const traces = (r: Awaited<ReturnType<typeof analyzeClickHouse>>) => [...new Set(r.findings.map((f) => f.trace_id!.slice(0, 4)))].sort();
    expect(traces(all)).toEqual(['0001', '0002', '0003', '0004', '0005']);

    const day2 = await analyzeClickHouse({ client, since: day(2), until: day(3) });
    expect(traces(day2)).toEqual(['0002', '0003']);
    // The trace that crossed midnight is read whole: the same findings as in the run over everything
    // (but their fingerprints: findings of one rule, tool and key are counted within each run's window).
    const of = (r: typeof all, tag: string) => r.findings.filter((f) => f.trace_id!.startsWith(tag)).map(({ fingerprint: _, ...f }) => f);
    expect(of(day2, '0003')).toEqual(of(all, '0003'));
    expect(of(day2, '0003').some((f) => f.tool === 'calendar.create')).toBe(true);
    expect(day2.stats.spans).toBe(20);

    const day3 = await analyzeClickHouse({ client, since: day(3), until: day(4) });
    expect(traces(day3)).toEqual(['0004']);
    expect(day3.stats.source).toBe('clickhouse default.otel_traces, traces starting from 2025-12-03T00:00:00.000Z before 2025-12-04T00:00:00.000Z');
  });

  it('a window as wide as DateTime64 holds (1900 to 2262-04-11) reads every trace: the look-back and the read-past stay in range', async () => {
    const all = await analyzeClickHouse({ client });
    const widest = await analyzeClickHouse({ client, since: new Date('1900-01-01T00:00:00Z'), until: new Date('2262-04-11T23:30:00Z') });
    expect(widest.findings).toEqual(all.findings);
    expect(widest.stats.spans).toBe(all.stats.spans);
  });

  it('reads only the window\'s partitions, and never a column no rule needs', async () => {
    explained.length = 0;
    await analyzeClickHouse({ client: explainingClient(client), since: day(2), until: day(3) });
    expect(explained.length).toBeGreaterThanOrEqual(6);
    for (const { sql, plan } of explained) {
      // One block per read step (the plan may draw a tree in front of each line).
      const reads = plan.split(/\n(?=[^\n]*ReadFromMergeTree \()/).filter((b) => b.split('\n', 1)[0]!.includes('ReadFromMergeTree (default.otel_traces)'));
      expect(reads.length, sql).toBeGreaterThan(0);
      for (const read of reads) {
        const output = /Output: (.*)/.exec(read)![1]!.split(', ');
        expect(output.filter((c) => NEVER_READ.includes(c)), sql).toEqual([]);
        // Four days of data (four partitions); a window of one day, with the day before for traces that
        // started then and the hour a claimed trace may run on, reads two partitions at most.
        const [selected, total] = /Min-Max[\s\S]*?Parts: (\d+)\/(\d+)/.exec(read)!.slice(1).map(Number);
        expect(total, sql).toBe(4);
        expect(selected, sql).toBeLessThanOrEqual(2);
      }
    }
  });

  it('reads the GenAI log records of the window\'s traces only, from the window\'s partitions of the logs table', async () => {
    explained.length = 0;
    const day2 = await analyzeClickHouse({ client: explainingClient(client), since: day(2), until: day(3), logsTable: 'window_logs' });
    // Traces 0002 and 0003: a record on a span of each, and a span of each made from a record.
    expect(day2.stats).toMatchObject({ spans: 22, log_records: 4, spans_from_log_records: 2 });
    const logReads = explained.flatMap(({ sql, plan }) =>
      plan.split(/\n(?=[^\n]*ReadFromMergeTree \()/).filter((b) => b.split('\n', 1)[0]!.includes('ReadFromMergeTree (default.window_logs)')).map((read) => ({ sql, read })),
    );
    expect(logReads.length).toBeGreaterThan(0);
    for (const { sql, read } of logReads) {
      const [selected, total] = /Min-Max[\s\S]*?Parts: (\d+)\/(\d+)/.exec(read)!.slice(1).map(Number);
      expect(total, sql).toBe(4);
      expect(selected, sql).toBeLessThanOrEqual(2);
    }
  });
});
