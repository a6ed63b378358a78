import { SpanStatusCode, context, trace } from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { describe, expect, it } from 'vitest';
import { memoryTracing } from '../../instrumentation/test-support/tracing.js';
import { encodeOtlpJson, nanos, toAnyValue } from './otlp-json.js';

/** Drop zero values and spell int64 as strings, as the collector's pdata marshaler does. */
function canonical(v: unknown, key = ''): unknown {
  if (Array.isArray(v)) return v.map((x) => canonical(x));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined || x === 0 || x === '' || (Array.isArray(x) && x.length === 0)) continue;
      out[k] = canonical(x, k);
    }
    return out;
  }
  if (key === 'intValue' && typeof v === 'number') return String(v);
  return v;
}

describe('encodeOtlpJson', () => {
  it('encodes what the upstream OTLP/JSON serializer encodes, in the collector file exporter spelling', () => {
    const { provider, spans } = memoryTracing();
    const tracer = provider.getTracer('@argspan/instrumentation', '0.1.0');
    const parent = tracer.startSpan('execute_tool t', { attributes: { s: 'x', i: 42, d: 1.5, b: true, arr: ['a', 'b'], n: [1, 2] } });
    const link = { context: parent.spanContext(), attributes: { why: 'source' } };
    const child = tracer.startSpan('tool_arg k', { links: [link] }, trace.setSpan(context.active(), parent));
    child.addEvent('argspan.hop.sent', { 'argspan.bytes': 12 });
    child.setStatus({ code: SpanStatusCode.ERROR, message: 'tool failed' });
    child.end();
    parent.end();

    const ours = JSON.parse(encodeOtlpJson(spans()));
    const upstream = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans())));
    expect(canonical(ours)).toEqual(canonical(upstream));

    const s = ours.resourceSpans[0].scopeSpans[0];
    expect(s.scope).toEqual({ name: '@argspan/instrumentation', version: '0.1.0' });
    const [c, p] = s.spans;
    expect(p.attributes).toContainEqual({ key: 'i', value: { intValue: '42' } });
    expect(p.attributes).toContainEqual({ key: 'arr', value: { arrayValue: { values: [{ stringValue: 'a' }, { stringValue: 'b' }] } } });
    expect(p.parentSpanId).toBeUndefined();
    expect(p.status).toEqual({});
    expect(c.parentSpanId).toBe(p.spanId);
    expect(c.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(c.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(c.kind).toBe(1);
    expect(c.startTimeUnixNano).toMatch(/^\d{19}$/);
    expect(c.status).toEqual({ code: 2, message: 'tool failed' });
    expect(c.links).toEqual([{ traceId: p.traceId, spanId: p.spanId, attributes: [{ key: 'why', value: { stringValue: 'source' } }], flags: 257 }]);
    expect(c.events[0]).toMatchObject({ name: 'argspan.hop.sent', attributes: [{ key: 'argspan.bytes', value: { intValue: '12' } }] });
  });

  it('spells nanoseconds and special numbers as OTLP/JSON does', () => {
    expect(nanos([1_700_000_000, 123])).toBe('1700000000000000123');
    expect(toAnyValue(2 ** 60)).toEqual({ doubleValue: 2 ** 60 });
    expect(toAnyValue(Number.NaN)).toEqual({ doubleValue: 'NaN' });
    expect(toAnyValue(-3)).toEqual({ intValue: '-3' });
  });
});
