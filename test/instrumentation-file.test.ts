import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArgspanInstrumentation, ArgspanSession } from '@argspan/instrumentation';
import { listSpanFiles, setupTracing } from '@argspan/setup';

type OtlpSpan = { name: string; spanId: string; parentSpanId?: string; attributes?: { key: string; value: Record<string, unknown> }[] };

describe('embedded file exporter end to end', () => {
  it('writes every span of 2000 real calls to rotated OTLP JSON-lines files, nothing lost', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'argspan-e2e-')), 'traces');
    const tracing = setupTracing({ exporter: 'file', register: false, env: {}, serviceName: 'e2e', file: { directory: dir, maxFileBytes: 1024 * 1024 } });
    const session = new ArgspanSession({ runId: 'run-e2e', userText: 'Book the Q3 sync with Kenji next Tuesday at 10am' });
    const run = new ArgspanInstrumentation({ tracerProvider: tracing.provider, hashKey: Buffer.alloc(32, 3), session }).wrapDispatch(async () => 'ok');
    const calls = 2000;
    for (let i = 0; i < calls; i++) {
      await run('calendar.create', { title: 'Q3 sync', attendee: { name: 'Kenji' }, when: 'next Tuesday at 10am', seq: i });
    }
    await tracing.shutdown();

    const stats = tracing.stats()[0]!;
    expect(stats).toEqual({ ended: calls * 5, exported: calls * 5, dropped: 0, failed: 0, queued: 0 });
    const files = listSpanFiles(dir);
    expect(files.length).toBeGreaterThan(1); // rotated
    const spans: OtlpSpan[] = [];
    for (const f of files) {
      expect(statSync(f).size).toBeLessThanOrEqual(1024 * 1024);
      for (const line of readFileSync(f, 'utf8').trimEnd().split('\n')) {
        const req = JSON.parse(line) as { resourceSpans: { resource: { attributes: unknown[] }; scopeSpans: { spans: OtlpSpan[] }[] }[] };
        for (const rs of req.resourceSpans) {
          expect(rs.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'e2e' } });
          for (const ss of rs.scopeSpans) spans.push(...ss.spans);
        }
      }
    }
    const tools = spans.filter((s) => s.name === 'execute_tool calendar.create');
    expect(tools).toHaveLength(calls);
    expect(spans).toHaveLength(calls * 5);
    const toolIds = new Set(tools.map((s) => s.spanId));
    for (const s of spans) if (s.name.startsWith('tool_arg ')) expect(toolIds.has(s.parentSpanId!)).toBe(true);
    expect(new Set(spans.map((s) => s.spanId)).size).toBe(spans.length);
  });
});
