import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { listSpanFiles } from './file-exporter.js';
import { otlpTracesUrlFromEnv, setupTracing } from './setup.js';

const child = fileURLToPath(new URL('../test-support/exit-child.mjs', import.meta.url));

function spanNames(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const names: string[] = [];
  for (const f of listSpanFiles(dir)) {
    for (const line of readFileSync(f, 'utf8').trim().split('\n')) {
      for (const rs of JSON.parse(line).resourceSpans) for (const ss of rs.scopeSpans) for (const s of ss.spans) names.push(s.name);
    }
  }
  return names;
}

function run(dir: string, mode: string, spillDir?: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, dir, mode, ...(spillDir ? [spillDir] : [])], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, OTEL_SERVICE_NAME: 'exit-child' } });
    let stderr = '';
    p.stderr.on('data', (d) => (stderr += d));
    p.stdout.on('data', (d) => {
      if (String(d).includes('ready')) p.kill('SIGTERM');
    });
    p.on('error', reject);
    // ('close': stderr read to its end)
    p.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

describe('otlpTracesUrlFromEnv', () => {
  it('uses the traces endpoint as is, else appends /v1/traces to the base endpoint', () => {
    expect(otlpTracesUrlFromEnv({})).toBeUndefined();
    expect(otlpTracesUrlFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBe('http://127.0.0.1:4318/v1/traces');
    expect(otlpTracesUrlFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/base/' })).toBe('http://c:4318/base/v1/traces');
    expect(
      otlpTracesUrlFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:1', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:2/custom' }),
    ).toBe('http://b:2/custom');
  });
});

describe('setupTracing', () => {
  it('writes files by default, OTLP when an endpoint is configured, and sets service.name from OTEL_SERVICE_NAME', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'argspan-setup-'));
    const file = setupTracing({ register: false, env: { OTEL_SERVICE_NAME: 'my-agent' }, file: { directory: dir } });
    expect(file.exporters).toEqual(['file']);
    file.provider.getTracer('t').startSpan('one').end();
    await file.shutdown();
    const line = JSON.parse(readFileSync(listSpanFiles(dir)[0]!, 'utf8'));
    expect(line.resourceSpans[0].resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'my-agent' } });
    expect(file.stats()).toEqual([{ ended: 1, exported: 1, dropped: 0, failed: 0, queued: 0 }]);

    const otlp = setupTracing({ register: false, env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' } });
    expect(otlp.exporters).toEqual(['otlp']);
    expect(otlp.otlpUrl).toBe('http://127.0.0.1:9/v1/traces');
    await otlp.shutdown();
    const both = setupTracing({ register: false, exporter: 'both', env: {}, file: { directory: dir }, serviceName: 'x' });
    expect(both.exporters).toEqual(['otlp', 'file']);
    expect(both.otlpUrl).toBe('http://localhost:4318/v1/traces');
    await both.shutdown();
  });

  it('spills spans to the file exporter when the OTLP endpoint is unreachable, and says where, once', async () => {
    const { createServer } = await import('node:net');
    const closed = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as { port: number };
        srv.close(() => resolve(port));
      });
    });
    const dir = join(mkdtempSync(join(tmpdir(), 'argspan-spill-')), 'traces');
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const t = setupTracing({ register: false, env: {}, exporter: 'otlp', otlpUrl: `http://127.0.0.1:${closed}/v1/traces`, otlpTimeoutMillis: 300, file: { directory: dir }, batch: { scheduledDelayMillis: 10 } });
      t.provider.getTracer('t').startSpan('first').end();
      await t.forceFlush();
      t.provider.getTracer('t').startSpan('second').end();
      await t.shutdown();
      expect(spanNames(dir).sort()).toEqual(['first', 'second']);
      expect(t.spill).toMatchObject({ spans: 2, directory: dir });
      expect(t.stats()).toEqual([{ ended: 2, exported: 2, dropped: 0, failed: 0, queued: 0 }]);
      const spills = warn.mock.calls.filter((c) => (c[1] as { code?: string } | undefined)?.code === 'ARGSPAN_SPANS_SPILLED');
      expect(spills).toHaveLength(1);
      expect(String(spills[0]![0])).toContain(dir);
    } finally {
      warn.mockRestore();
    }
  });

  it('says why an export failed without repeating what the collector wrote, and an endpoint URL it cannot parse without quoting it', async () => {
    const canary = 'AKIA' + 'QWERTYUIOP234567';
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.statusMessage = `Bad ${canary}`;
        res.writeHead(400);
        res.end(`{"error":"key ${canary} rejected"}`);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const dir = join(mkdtempSync(join(tmpdir(), 'argspan-spill-')), 'traces');
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const { port } = server.address() as { port: number };
      const t = setupTracing({ register: false, env: {}, exporter: 'otlp', otlpUrl: `http://127.0.0.1:${port}/v1/traces`, file: { directory: dir }, batch: { scheduledDelayMillis: 10 } });
      t.provider.getTracer('t').startSpan('first').end();
      await t.shutdown();
      const warnings = warn.mock.calls.map((c) => String(c[0]));
      expect(warnings.some((w) => w.includes('the trace exporter failed (HTTP 400)'))).toBe(true);
      expect(warnings.join('\n')).not.toContain(canary);
      let thrown: unknown;
      try {
        setupTracing({ register: false, env: {}, exporter: 'otlp', otlpUrl: `https://user:${canary}@collector.example .com/v1/traces` });
      } catch (err) {
        thrown = err;
      }
      expect(String((thrown as Error).message)).toBe('setupTracing: the OTLP endpoint (options.otlpUrl) is not a valid URL');
    } finally {
      warn.mockRestore();
      server.close();
    }
  });

  it('flushes on a normal exit only with flushOnExit (real child process)', async () => {
    const withHook = mkdtempSync(join(tmpdir(), 'argspan-exit-'));
    const r = await run(withHook, 'exit');
    expect(r).toMatchObject({ code: 0, signal: null });
    expect(spanNames(withHook).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `child span ${i}`));

    const without = mkdtempSync(join(tmpdir(), 'argspan-exit-'));
    expect((await run(without, 'no-hook')).code).toBe(0);
    expect(spanNames(without)).toEqual([]);
  });

  it('does not let a collector that never answers hold a SIGTERM past the flush timeout: what it holds is spilled to files', async () => {
    const { createServer } = await import('node:http');
    let got = 0;
    const server = createServer(() => void got++); // never responds
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const spill = join(mkdtempSync(join(tmpdir(), 'argspan-exit-')), 'traces');
    const t0 = Date.now();
    const r = await run(`http://127.0.0.1:${port}/v1/traces`, 'hang', spill);
    const ms = Date.now() - t0;
    server.closeAllConnections();
    server.close();
    expect(r.signal).toBe('SIGTERM');
    expect(got).toBe(1); // the flush was attempted
    expect(spanNames(spill).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `child span ${i}`));
    expect(ms).toBeLessThan(8000); // 500 ms flush budget, far below the 10 s export timeout
  });

  it('flushes on SIGTERM and still dies by the signal (real child process)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'argspan-exit-'));
    const r = await run(dir, 'signal');
    expect(r.signal).toBe('SIGTERM');
    expect(spanNames(dir)).toHaveLength(5);
  });
});
