import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ArgAttributes, CallAttributes, GenAiAttributes } from '@argspan/conventions';
import { ArgspanInstrumentation, ArgspanSession } from '@argspan/instrumentation';
import { setupTracing } from '@argspan/setup';
import { classification } from '../packages/instrumentation/test-support/tracing.js';

/** A loopback OTLP/HTTP receiver: keeps every request body it gets on /v1/traces. */
function receiver() {
  const bodies: { path: string; contentType: string; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      bodies.push({ path: req.url ?? '', contentType: String(req.headers['content-type']), body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  return { server, bodies };
}

type OtlpSpan = { name: string; traceId: string; spanId: string; parentSpanId?: string; kind: number; attributes?: { key: string; value: Record<string, unknown> }[]; links?: { spanId: string }[] };

function attr(span: OtlpSpan, key: string): unknown {
  const v = span.attributes?.find((a) => a.key === key)?.value;
  if (!v) return undefined;
  if ('arrayValue' in v) return ((v.arrayValue as { values?: Record<string, unknown>[] }).values ?? []).map((x) => Object.values(x)[0]);
  return Object.values(v)[0];
}

describe('instrumentation over the wire (real OTLP/HTTP exporter, loopback receiver)', () => {
  const { server, bodies } = receiver();
  let url = '';
  beforeAll(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('posts OTLP/JSON that decodes to the tool span, its argument spans and the link', async () => {
    const canary = 'AKIAZZCANARYWIREQZXW';
    const tracing = setupTracing({ exporter: 'otlp', otlpUrl: url, register: false, serviceName: 'wire-agent' });
    const search = classification('contacts.search', [{ key: 'q', text: 'Kenji' }]);
    const send = classification(
      'mail.send',
      [
        { key: 'to', text: 'kenji@example.jp', provenance: 'context_retrieved', sourceCallId: 'c1', denylisted: true },
        { key: 'aws_key', text: canary, residency: 'secret', rule: 'aws-access-key-id', provenance: 'model_inferred' },
      ],
      { residency: 'secret', verdict: 'local', reason: 'secret: aws-access-key-id on aws_key' },
    );
    const inst = new ArgspanInstrumentation({
      tracerProvider: tracing.provider,
      hashKey: Buffer.alloc(32, 7),
      session: new ArgspanSession({ runId: 'run-wire' }),
      excerpts: true,
      classifier: (call) => (call.tool === 'contacts.search' ? search : send),
      policy: { denyResidencies: [] }, // a model on this machine: the secret call runs, and its spans must still hold no value
    });
    const dispatch = inst.wrapDispatch(async (tool) => (tool === 'contacts.search' ? 'kenji@example.jp' : 'sent'));
    await dispatch('contacts.search', { q: 'Kenji' }, { callId: 'c1' });
    await dispatch('mail.send', { to: 'kenji@example.jp', aws_key: canary }, { callId: 'c2' });
    await tracing.shutdown();

    expect(tracing.stats()).toEqual([{ ended: 5, exported: 5, dropped: 0, failed: 0, queued: 0 }]);
    expect(bodies.length).toBeGreaterThan(0);
    for (const b of bodies) {
      expect(b.path).toBe('/v1/traces');
      expect(b.contentType).toBe('application/json');
      expect(b.body).not.toContain(canary);
    }
    const spans: OtlpSpan[] = [];
    for (const b of bodies) {
      const req = JSON.parse(b.body);
      for (const rs of req.resourceSpans) {
        expect(rs.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'wire-agent' } });
        for (const ss of rs.scopeSpans) {
          expect(ss.scope.name).toBe('@argspan/instrumentation');
          spans.push(...ss.spans);
        }
      }
    }
    expect(spans.map((s) => s.name).sort()).toEqual([
      'execute_tool contacts.search',
      'execute_tool mail.send',
      'tool_arg aws_key',
      'tool_arg q',
      'tool_arg to',
    ]);
    const byName = new Map(spans.map((s) => [s.name, s]));
    const src = byName.get('execute_tool contacts.search')!;
    const tool = byName.get('execute_tool mail.send')!;
    const to = byName.get('tool_arg to')!;
    const key = byName.get('tool_arg aws_key')!;
    expect(tool.kind).toBe(1);
    expect(attr(tool, CallAttributes.RUN_ID)).toBe('run-wire');
    expect(attr(tool, GenAiAttributes.TOOL_CALL_ID)).toBe('c2');
    expect(attr(tool, CallAttributes.RESIDENCY)).toBe('secret');
    // The OTLP/HTTP exporter spells int64 as a JSON number; receivers accept both.
    expect(Number(attr(tool, CallAttributes.ARGS_COUNT))).toBe(2);
    expect(attr(tool, CallAttributes.GATE_HITS)).toEqual([]);
    expect(to.parentSpanId).toBe(tool.spanId);
    expect(to.traceId).toBe(tool.traceId);
    expect(to.links?.map((l) => l.spanId)).toEqual([src.spanId]);
    expect(attr(to, ArgAttributes.EXCERPT)).toBe('kenji@example.jp');
    expect(attr(key, ArgAttributes.RULE)).toBe('aws-access-key-id');
    expect(attr(key, ArgAttributes.EXCERPT)).toBeUndefined();
    expect(attr(key, ArgAttributes.VALUE_HASH)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('spills spans to files when the collector is down, and counts them lost only when the spill fails too', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'argspan-wire-spill-'));
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const down = (directory: string, warnings: string[]) =>
        setupTracing({
          exporter: 'otlp',
          otlpUrl: 'http://127.0.0.1:1/v1/traces',
          register: false,
          env: {},
          otlpTimeoutMillis: 1000,
          file: { directory },
          batch: { warn: (m) => warnings.push(m), exportTimeoutMillis: 5000 },
        });
      const spilledWarnings: string[] = [];
      const spilled = down(join(dir, 'traces'), spilledWarnings);
      for (let i = 0; i < 3; i++) spilled.provider.getTracer('t').startSpan('kept').end();
      await spilled.shutdown();
      expect(spilled.stats()[0]).toMatchObject({ ended: 3, failed: 0, exported: 3 });
      expect(spilled.spill).toMatchObject({ spans: 3, directory: join(dir, 'traces') });
      expect(spilledWarnings).toEqual([]);

      writeFileSync(join(dir, 'not-a-dir'), 'x');
      const lostWarnings: string[] = [];
      const lost = down(join(dir, 'not-a-dir', 'traces'), lostWarnings);
      for (let i = 0; i < 3; i++) lost.provider.getTracer('t').startSpan('lost').end();
      await lost.shutdown().catch(() => undefined);
      expect(lost.stats()[0]).toMatchObject({ ended: 3, failed: 3, exported: 0 });
      expect(lostWarnings.join('\n')).toMatch(/3 of 3 spans lost/);
    } finally {
      warn.mockRestore();
    }
  });
});
