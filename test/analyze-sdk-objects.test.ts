import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT_CONTEXT, trace, SpanKind, type Span } from '@opentelemetry/api';
import { BasicTracerProvider, SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { describe, expect, it } from 'vitest';
import { analyzeBin, parseJson, query } from './analyze-helpers.js';
import { tmp } from './support/analyze-foreign.js';

/**
 * `argspan analyze` on a file of the OpenTelemetry JS SDK's own span objects written as JSON, one
 * after another — what an app's own file exporter writes with `JSON.stringify` (Gemini CLI's
 * `telemetry.outfile` is one; its own runs are in `analyze-foreign-gemini-cli.test.ts`). The
 * spans are made by the real SDK here; the file is read as the same spans OTLP would carry.
 */

const TOKEN = 'ghp_' + 'C4NARYsdkObjectsFilec4naryxyzw12345678';

/** JSON.stringify that writes a repeated object (the SDK's span points back at its processor) as "[Circular]", indented, as such exporters do. */
function stringifyObject(value: unknown, indent: number | undefined): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'object' && v !== null) {
      if (seen.has(v)) return '[Circular]';
      seen.add(v);
    }
    return v;
  }, indent);
}

/** An exporter writing each span object as JSON to `file` (indented, or one a line). */
class JsonObjectFileExporter implements SpanExporter {
  constructor(
    private readonly file: string,
    private readonly indent: number | undefined,
  ) {}
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    appendFileSync(this.file, spans.map((s) => stringifyObject(s, this.indent) + '\n').join(''));
    done({ code: ExportResultCode.SUCCESS });
  }
  async shutdown(): Promise<void> {}
}

/** An agent turn with one GenAI-conventions tool call whose arguments hold the token; returns the SDK's spans' ids and times. */
async function recordTurn(file: string, indent: number | undefined): Promise<{ turn: Span; tool: Span }> {
  writeFileSync(file, '');
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new JsonObjectFileExporter(file, indent))] });
  const tracer = provider.getTracer('my-agent', '1.2.3');
  const turn = tracer.startSpan('invoke_agent', { kind: SpanKind.CLIENT });
  const tool = tracer.startSpan(
    'execute_tool deploy',
    {
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'deploy',
        'gen_ai.tool.call.id': 'call_1',
        'gen_ai.tool.call.arguments': JSON.stringify({ service: 'billing', token: TOKEN }),
        'app.retries': 2,
        'app.ratio': 0.5,
        'app.tags': ['a', 'b'],
      },
    },
    trace.setSpan(ROOT_CONTEXT, turn),
  );
  tool.end();
  turn.end();
  await provider.shutdown();
  return { turn, tool };
}

describe('argspan analyze on the OpenTelemetry SDK\'s span objects as JSON', () => {
  for (const [form, indent] of [['indented', 2], ['one a line', undefined]] as const) {
    it(`${form}: the spans as the SDK made them (ids, parent, kind, times, attributes), the token found by tool and key and printed nowhere`, async () => {
      const file = join(tmp(), `telemetry-${indent ?? 0}.log`);
      const { turn, tool } = await recordTurn(file, indent);
      const db = join(tmp(), `sdk-objects-${indent ?? 0}.duckdb`);
      const run = analyzeBin(file, '--db', db, '--format', 'json');
      expect(run.code, run.stderr).toBe(1);
      expect(parseJson(run).findings.filter((f) => !f.rule.startsWith('report_')).map((f) => [f.rule, f.tool, f.key])).toEqual([['credential_in_attribute', 'deploy', 'token']]);
      expect(run.stdout + run.stderr).not.toContain(TOKEN);
      const spans = await query(db, `SELECT span_id, parent_span_id, "name", kind, scope_name, start_ns::VARCHAR AS start_ns, end_ns::VARCHAR AS end_ns FROM spans ORDER BY "name"`);
      const ns = (s: Span) => {
        const r = s as unknown as ReadableSpan;
        return [r.startTime, r.endTime].map(([sec, n]) => String(BigInt(sec) * 1_000_000_000n + BigInt(n)));
      };
      expect(spans).toEqual([
        { span_id: tool.spanContext().spanId, parent_span_id: turn.spanContext().spanId, name: 'execute_tool deploy', kind: 'internal', scope_name: 'my-agent', start_ns: ns(tool)[0], end_ns: ns(tool)[1] },
        { span_id: turn.spanContext().spanId, parent_span_id: null, name: 'invoke_agent', kind: 'client', scope_name: 'my-agent', start_ns: ns(turn)[0], end_ns: ns(turn)[1] },
      ]);
      // (each attribute of the type the SDK held it as)
      const attrs = await query(db, `SELECT "key", "type", int_value::VARCHAR AS i, dbl_value AS d FROM span_attributes WHERE span_id = '${tool.spanContext().spanId}' AND "key" LIKE 'app.%' ORDER BY "key"`);
      expect(attrs).toEqual([
        { key: 'app.ratio', type: 'double', i: null, d: 0.5 },
        { key: 'app.retries', type: 'int', i: '2', d: null },
        { key: 'app.tags', type: 'array', i: null, d: null },
      ]);
    });
  }

  it('an object of no SDK shape, or a file cut inside an object: exit 2 naming the line, never the data; --allow-partial reads the rest', async () => {
    const file = join(tmp(), 'telemetry-bad.log');
    await recordTurn(file, 2);
    const good = (await import('node:fs')).readFileSync(file, 'utf8');
    const lines = good.split('\n').length;
    writeFileSync(file, good + `{\n  "secret": "${TOKEN}"\n}\n{\n  "_spanContext": {\n    "traceId": "${TOKEN}`);
    const run = analyzeBin(file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:${lines}: a JSON object that is neither a span, a log record nor a metrics export of the OpenTelemetry SDK`);
    expect(run.stderr).toContain(`${file}:${lines + 3}: the file ends inside this object (cut off while it was written)`);
    const partial = analyzeBin(file, '--allow-partial', '--format', 'json');
    expect(partial.code, partial.stderr).toBe(1);
    expect(parseJson(partial).stats).toMatchObject({ foreign_calls: 1 });
    expect(run.stdout + run.stderr + partial.stdout + partial.stderr).not.toContain(TOKEN);
  });
});
