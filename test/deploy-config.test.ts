import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

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
    expect(col.depends_on).toContain('jaeger');
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

  it('writes the format argspan analyze reads: rotated OTLP JSON lines into the mounted folder', () => {
    const file = collector.exporters['file/exports'];
    expect(file.format).toBe('json');
    expect(file.compression).toBeUndefined();
    expect(file.path).toMatch(/^\/exports\/.+\.jsonl$/);
    expect(file.rotation.max_megabytes).toBeGreaterThan(0);
  });
});
