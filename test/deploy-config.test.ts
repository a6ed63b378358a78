import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { analyzeClickHouse } from '../analyzer/src/clickhouse/analyze-clickhouse.js';
import { chdbClient } from '../analyzer/src/synth/chdb-client.js';
import { exporterLogRowsOfFile, exporterRowsOfFile, otelTracesDdl } from '../analyzer/src/synth/collector-rows.js';

const repo = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));

// No Docker engine runs in CI, so the viewing stack is validated by parsing what `docker compose up` would read.
const compose = parse(readFileSync(repo('docker-compose.yml'), 'utf8'));
const collector = parse(readFileSync(repo('deploy/otel-collector.yaml'), 'utf8'));

describe('docker-compose.yml', () => {
  it('runs Jaeger v2 with its UI published on 16686', () => {
    const jaeger = compose.services.jaeger;
    expect(jaeger.image).toMatch(/^jaegertracing\/jaeger:2\.\d+\.\d+$/);
    expect(jaeger.ports).toContain('16686:16686');
  });

  it('runs the contrib collector receiving OTLP on 4318 with the config and exports folder mounted', () => {
    const col = compose.services['otel-collector'];
    expect(col.image).toMatch(/^otel\/opentelemetry-collector-contrib:\d+\.\d+\.\d+$/);
    expect(col.ports).toEqual(expect.arrayContaining(['4318:4318', '4317:4317']));
    const mounts = (col.volumes as string[]).map((v) => v.split(':'));
    const config = mounts.find(([, target]) => target === '/etc/otelcol-contrib/config.yaml');
    expect(config).toBeDefined();
    expect(existsSync(repo(config![0]!))).toBe(true);
    expect(mounts.some(([source, target]) => source === './exports' && target === '/exports')).toBe(true);
    expect(col.command.join(' ')).toContain('/etc/otelcol-contrib/config.yaml');
    expect(col.depends_on).toEqual(expect.arrayContaining(['jaeger', 'clickhouse']));
  });

  it('runs ClickHouse 25.8 or newer with its HTTP interface published on 8123, the database the collector writes', () => {
    const ch = compose.services.clickhouse;
    const [major, minor] = (/^clickhouse\/clickhouse-server:(\d+)\.(\d+)/.exec(ch.image) ?? []).slice(1).map(Number);
    expect(major! > 25 || (major === 25 && minor! >= 8)).toBe(true);
    expect(ch.ports).toContain('8123:8123');
    const env = Object.fromEntries((ch.environment as string[]).map((e) => e.split('=', 2)));
    expect(env.CLICKHOUSE_DB).toBe(collector.exporters.clickhouse.database);
    expect(env.CLICKHOUSE_USER).toBe(collector.exporters.clickhouse.username);
    const colEnv = Object.fromEntries((compose.services['otel-collector'].environment as string[]).map((e) => e.split('=', 2)));
    expect(colEnv.CLICKHOUSE_PASSWORD).toBe(env.CLICKHOUSE_PASSWORD);
    expect((ch.volumes as string[]).some((v) => v.endsWith(':/var/lib/clickhouse'))).toBe(true);
    expect(Object.keys(compose.volumes)).toContain((ch.volumes as string[])[0]!.split(':')[0]);
  });
});

describe('deploy/otel-collector.yaml', () => {
  const pipeline = collector.service.pipelines.traces;

  it('receives OTLP over HTTP on 4318 and gRPC on 4317', () => {
    expect(collector.receivers.otlp.protocols.http.endpoint).toBe('0.0.0.0:4318');
    expect(collector.receivers.otlp.protocols.grpc.endpoint).toBe('0.0.0.0:4317');
    expect(pipeline.receivers).toEqual(['otlp']);
  });

  it('forwards every span to Jaeger and writes the export', () => {
    expect(pipeline.exporters).toEqual(expect.arrayContaining(['otlphttp/jaeger', 'file/exports']));
    expect(collector.exporters['otlphttp/jaeger'].endpoint).toBe('http://jaeger:4318');
    for (const name of [...pipeline.exporters, ...(pipeline.processors ?? [])]) {
      const section = name in collector.exporters ? collector.exporters : collector.processors;
      expect(section[name], name).toBeDefined();
    }
  });

  it('inserts every span into the ClickHouse table argspan analyze --engine clickhouse reads, with the exporter\'s default schema', () => {
    expect(pipeline.exporters).toContain('clickhouse');
    const ch = collector.exporters.clickhouse;
    expect(ch.endpoint).toMatch(/^tcp:\/\/clickhouse:9000\b/);
    expect(ch.traces_table_name).toBe('otel_traces');
    expect(ch.create_schema).toBe(true);
    expect(ch.password).toBe('${env:CLICKHOUSE_PASSWORD}');
    expect(ch.retry_on_failure.enabled).toBe(true);
  });

  it('writes the format argspan analyze reads: rotated OTLP JSON lines into the mounted folder', () => {
    const file = collector.exporters['file/exports'];
    expect(file.format).toBe('json');
    expect(file.compression).toBeUndefined();
    expect(file.path).toMatch(/^\/exports\/.+\.jsonl$/);
    expect(file.rotation.max_megabytes).toBeGreaterThan(0);
  });

  it('writes log records (the official instrumentations record messages and tool calls as logs) to their own rotated export and to ClickHouse', () => {
    const logs = collector.service.pipelines.logs;
    expect(logs.receivers).toEqual(['otlp']);
    expect(logs.exporters).toEqual(expect.arrayContaining(['file/logs', 'clickhouse']));
    const file = collector.exporters['file/logs'];
    expect(file.format).toBe('json');
    expect(file.compression).toBeUndefined();
    expect(file.path).toMatch(/^\/exports\/.+\.jsonl$/);
    // Its own file: the traces export stays traces only, each file one signal.
    expect(file.path).not.toBe(collector.exporters['file/exports'].path);
    expect(collector.exporters.clickhouse.logs_table_name).toBe('otel_logs');
  });
});

describe('deploy/clickhouse/otel_logs.sql (run by ClickHouse at its first start)', () => {
  it('creates the exporter\'s logs table with the EventName column, from which the analyzer reads the instrumentations\' event names', async () => {
    expect(compose.services.clickhouse.volumes as string[]).toContain('./deploy/clickhouse:/docker-entrypoint-initdb.d:ro');
    const client = chdbClient(':memory:');
    try {
      await client.command({ query: 'CREATE DATABASE otel' });
      await client.command({ query: readFileSync(repo('deploy/clickhouse/otel_logs.sql'), 'utf8') });
      // The fixture's records are of 2024, past the table's 30-day TTL, which would drop them as they are inserted.
      await client.command({ query: 'ALTER TABLE otel.otel_logs REMOVE TTL' });
      const foreign = repo('fixtures/traces/foreign');
      await client.command({ query: otelTracesDdl('otel.otel_traces') });
      await client.insert({ table: 'otel.otel_traces', values: exporterRowsOfFile(`${foreign}/otel-python-openai-v2-weather.traces.json`), format: 'JSONEachRow' });
      await client.insert({ table: 'otel.otel_logs', values: exporterLogRowsOfFile(`${foreign}/otel-python-openai-v2-weather.logs.json`), format: 'JSONEachRow' });
      const result = await analyzeClickHouse({ client, database: 'otel' });
      expect([result.stats.foreign_calls, result.stats.log_records, result.stats.skipped]).toEqual([2, 9, []]);
    } finally {
      await client.close();
    }
  });
});
