import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { context, trace, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ZipkinExporter } from '@opentelemetry/exporter-zipkin';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBin, parseJson } from './analyze-helpers.js';
import { tmp } from './support/analyze-foreign.js';

/**
 * `argspan analyze` on Zipkin's JSON v2 spans: what the OpenTelemetry Zipkin exporter sends (the
 * real exporter, over a real socket on loopback, its body kept as a file), Zipkin's trace answer
 * (`/api/v2/trace/{id}`: the same list) and its traces answer (`/api/v2/traces`: a list of them).
 */

const TOKEN = 'ghp_C4NARYz1pk1nSPANSc4naryEXPR1TAGSxyzw';

/** One agent turn as a library on the GenAI conventions traces it: the model's call, and the tool span that ran it. */
async function exportedSpans(): Promise<unknown[]> {
  const bodies: unknown[][] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      bodies.push(JSON.parse(body) as unknown[]);
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2/spans`;
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'booking-agent' }),
    spanProcessors: [new SimpleSpanProcessor(new ZipkinExporter({ url }))],
  });
  const tracer = provider.getTracer('booking-agent');
  const agent = tracer.startSpan('invoke_agent booking', { kind: SpanKind.INTERNAL, attributes: { 'gen_ai.operation.name': 'invoke_agent' } });
  const inAgent = trace.setSpan(context.active(), agent);
  const args = { day: 'Tuesday', timezone: 'Europe/Paris', token: TOKEN };
  const chat = tracer.startSpan('chat gpt-4o', { kind: SpanKind.CLIENT }, inAgent);
  chat.setAttributes({
    'gen_ai.operation.name': 'chat',
    'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Book the room for Tuesday' }] }]),
    'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'call_7', name: 'book_room', arguments: args }] }]),
    'gen_ai.usage.input_tokens': 42,
  });
  chat.addEvent('gen_ai.content.completion');
  chat.end();
  const tool = tracer.startSpan('execute_tool book_room', { kind: SpanKind.INTERNAL }, inAgent);
  tool.setAttributes({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'book_room', 'gen_ai.tool.call.id': 'call_7', 'gen_ai.tool.call.arguments': JSON.stringify(args) });
  tool.setStatus({ code: SpanStatusCode.ERROR, message: 'room taken' });
  tool.end();
  agent.end();
  await provider.forceFlush();
  await provider.shutdown();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return bodies.flat();
}

const findings = (run: ReturnType<typeof analyzeBin>) =>
  parseJson(run)
    .findings.filter((f) => !f.rule.startsWith('report_'))
    .map((f) => [f.rule, f.tool, f.key, f.emitter])
    .sort();

describe('argspan analyze on Zipkin JSON v2 spans', () => {
  let spans: Record<string, any>[];
  beforeAll(async () => {
    spans = (await exportedSpans()) as Record<string, any>[];
  });

  const WANT = [
    ['assumption_span', 'book_room', 'timezone', 'genai-semconv'],
    ['credential_in_attribute', 'book_room', 'token', 'genai-semconv'],
  ];

  it('the exporter\'s body (a list of spans, Zipkin\'s trace answer) and the traces answer (a list of lists): the guess and the token by tool and key, the token printed nowhere', () => {
    // (what the exporter sent: ids, microsecond times, every attribute as a text tag, the service as the local endpoint)
    expect(spans.map((s) => s.name).sort()).toEqual(['chat gpt-4o', 'execute_tool book_room', 'invoke_agent booking']);
    expect(spans.find((s) => s.name === 'chat gpt-4o')).toMatchObject({ kind: 'CLIENT', localEndpoint: { serviceName: 'booking-agent' }, tags: { 'gen_ai.usage.input_tokens': '42' } });
    const dir = tmp();
    const files = { list: join(dir, 'trace.json'), traces: join(dir, 'traces.json') };
    writeFileSync(files.list, JSON.stringify(spans, null, 2));
    writeFileSync(files.traces, JSON.stringify([spans.slice(0, 1), spans.slice(1)]));
    for (const [layout, file] of Object.entries(files)) {
      const run = analyzeBin(file, '--format', 'json');
      expect(run.code, `${layout}: ${run.stderr}`).toBe(1);
      expect(findings(run), layout).toEqual(WANT);
      const out = parseJson(run);
      // (the model's proposal and the tool span are one call, under its id; the parent from parentId)
      expect(out.stats).toMatchObject({ files: 1, spans: 3, foreign_calls: 1 });
      for (const format of ['table', 'json', 'sarif']) {
        const shown = analyzeBin(file, '--format', format);
        expect(shown.stdout + shown.stderr, `${layout} ${format}`).not.toContain(TOKEN);
      }
    }
  });

  it('the status, the parent and the times as the exporter wrote them', async () => {
    const file = join(tmp(), 'trace.json');
    writeFileSync(file, JSON.stringify(spans));
    const db = join(tmp(), 'analysis.duckdb');
    analyzeBin(file, '--db', db, '--format', 'json');
    const { query } = await import('./analyze-helpers.js');
    const rows = await query(db, `SELECT name, status_code, parent_span_id IS NOT NULL AS child, end_ns >= start_ns AS ordered FROM spans ORDER BY name`);
    expect(rows).toEqual([
      { name: 'chat gpt-4o', status_code: 'unset', child: true, ordered: true },
      { name: 'execute_tool book_room', status_code: 'error', child: true, ordered: true },
      { name: 'invoke_agent booking', status_code: 'unset', child: false, ordered: true },
    ]);
  });

  it('a malformed span is named by its place in the list, never by its value (exit 2); --allow-partial reads the others', () => {
    const bad = spans.map((s) => (s.name === 'invoke_agent booking' ? { ...s, id: TOKEN } : s));
    const file = join(tmp(), 'bad.json');
    writeFileSync(file, JSON.stringify(bad));
    const at = bad.findIndex((s) => s.id === TOKEN);
    const run = analyzeBin(file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}: [${at}]: malformed span: span without a valid span id`);
    expect(run.stderr).not.toContain(TOKEN);
    const partial = analyzeBin(file, '--allow-partial', '--format', 'json');
    expect(partial.code).toBe(1);
    expect(findings(partial)).toEqual(WANT);
  });

  it('a list of another kind is refused, saying what lists argspan reads (exit 2)', () => {
    const file = join(tmp(), 'list.json');
    writeFileSync(file, JSON.stringify([{ id: 1, path: '/app/.env' }]));
    const run = analyzeBin(file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:1: a JSON array: expected a JSON object (OTLP JSON lines, an OTLP or Jaeger JSON document), a list of LangSmith runs, or of Zipkin spans`);
    expect(run.stderr).not.toContain('.env');
  });
});
