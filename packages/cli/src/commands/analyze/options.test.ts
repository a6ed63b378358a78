import { describe, expect, it } from 'vitest';
import { engineOptions, numericOptions, parseDuration, parseInstant, type AnalyzeCliOptions } from './options.js';

describe('analyze numeric options', () => {
  it('maps --memory-limit, --threads and --max-line-bytes to the analyze() options', () => {
    expect(numericOptions({ memoryLimit: '1.5GB', threads: '1', maxLineBytes: '1024' })).toEqual({
      ok: true,
      options: { memoryLimit: '1.5GB', threads: 1, maxLineBytes: 1024 },
    });
    expect(numericOptions({ memoryLimit: '512 MiB' })).toEqual({ ok: true, options: { memoryLimit: '512MiB' } });
    expect(numericOptions({})).toEqual({ ok: true, options: {} });
  });

  it.each([
    [{ memoryLimit: 'lots' }, '--memory-limit'],
    [{ memoryLimit: '0GB' }, '--memory-limit'],
    [{ memoryLimit: '2' }, '--memory-limit'],
    [{ memoryLimit: '-1GB' }, '--memory-limit'],
    [{ threads: '0' }, '--threads'],
    [{ threads: '1.5' }, '--threads'],
    [{ threads: 'two' }, '--threads'],
    [{ maxLineBytes: '-5' }, '--max-line-bytes'],
  ])('rejects %j naming %s', (opts, flag) => {
    const r = numericOptions(opts);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(new RegExp(`^${flag} must be`));
  });
});

describe('analyze engine options', () => {
  const base = { format: 'table', failOn: 'low', rules: [], allowPartial: false, reports: false, remoteAllowlist: [], engine: 'clickhouse' } as const;

  it('maps the ClickHouse options to analyzeClickHouse()', () => {
    expect(
      engineOptions([], { ...base, clickhouseUrl: 'http://ch:8123', database: 'otel', table: 'otel_traces_all', logsTable: 'otel_logs_all', since: '2026-11-01', until: '2026-11-01T12:00:00+02:00', maxTraceDuration: '30m' }),
    ).toEqual({
      ok: true,
      clickhouse: { url: 'http://ch:8123', database: 'otel', table: 'otel_traces_all', logsTable: 'otel_logs_all', since: new Date('2026-11-01T00:00:00Z'), until: new Date('2026-11-01T10:00:00Z'), maxTraceDurationMs: 1_800_000 },
    });
    expect(engineOptions(['traces/'], { ...base, engine: 'duckdb' })).toEqual({ ok: true });
  });

  it.each([
    [[], { engine: 'duckdb' }, 'give the trace files'],
    [['t.jsonl'], { engine: 'duckdb', since: '2026-11-01' }, '--since needs --engine clickhouse'],
    [['t.jsonl'], { clickhouseUrl: 'http://ch:8123' }, 'remove the paths'],
    [[], {}, 'needs --clickhouse-url'],
    [[], { clickhouseUrl: 'http://ch:8123', threads: '2' }, '--threads is an option of the duckdb engine'],
    [[], { clickhouseUrl: 'http://ch:8123', since: '2026-11-01T06:00:00' }, '--since must be a UTC date'],
    [[], { clickhouseUrl: 'http://ch:8123', until: 'tomorrow' }, '--until must be a UTC date'],
    [[], { clickhouseUrl: 'http://ch:8123', since: '2026-11-02', until: '2026-11-01' }, '--since must be before --until'],
    [[], { clickhouseUrl: 'http://ch:8123', maxTraceDuration: '1 hour' }, '--max-trace-duration must be a duration'],
    [[], { clickhouseUrl: 'http://ch:8123', table: ' ' }, '--table must not be empty'],
    [[], { clickhouseUrl: 'http://ch:8123', logsTable: '' }, '--logs-table must not be empty'],
    [['t.jsonl'], { engine: 'duckdb', logsTable: 'otel_logs' }, '--logs-table needs --engine clickhouse'],
    [[], { clickhouseUrl: 'http://ch:8123', db: 'a.duckdb' }, '--db is an option of the duckdb engine'],
  ])('refuses %j %j: %s', (paths, opts, error) => {
    const r = engineOptions(paths, { ...base, ...opts } as AnalyzeCliOptions);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(error);
  });

  it('reads durations and zoned times, never local time', () => {
    expect([parseDuration('90s'), parseDuration('2h'), parseDuration('1d'), parseDuration('0m'), parseDuration('1.5h')]).toEqual([90_000, 7_200_000, 86_400_000, undefined, undefined]);
    expect(parseInstant('2026-11-01T06:00Z')?.toISOString()).toBe('2026-11-01T06:00:00.000Z');
    expect(parseInstant('2026-11-01 06:00:00')).toBeUndefined();
    expect(parseInstant('2026-11-01 06:00:00+02:00')?.toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(parseInstant('2024-02-29')?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(parseInstant('2025-11-30T00:00:00.123000Z')?.toISOString()).toBe('2025-11-30T00:00:00.123Z');
  });

  it.each([
    ['a day the month does not have', '2025-02-30'],
    ['the 31st of November', '2025-11-31T00:00:00Z'],
    ['hour 24', '2025-11-30T24:00:00Z'],
    ['below millisecond precision (a window compares milliseconds)', '2025-11-30T00:00:00.000000001Z'],
    ['half a millisecond', '2025-11-30T00:00:00.0005Z'],
    ['before 1900 (DateTime64)', '1899-12-31'],
    ['after 2262-04-11 23:47:16 (DateTime64)', '2262-04-11T23:47:17Z'],
    ['the year 9999', '9999-12-31'],
  ])('refuses %s: %s', (_name, v) => {
    expect(parseInstant(v)).toBeUndefined();
    const r = engineOptions([], { ...base, clickhouseUrl: 'http://ch:8123', since: v } as AnalyzeCliOptions);
    expect(r).toMatchObject({ ok: false, error: expect.stringContaining('--since must be a UTC date') });
  });
});
