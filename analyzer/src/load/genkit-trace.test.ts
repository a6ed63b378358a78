import { describe, expect, it } from 'vitest';
import { InputError } from './input-error.js';
import { genkitTraceOf, isGenkitTrace } from './genkit-trace.js';

/** A span as Genkit's `TraceServerExporter` posts one (milliseconds with a fraction, attributes a JSON object). */
const span = {
  spanId: 'd4caa442717b2779',
  traceId: 'cc9d8aed573a16639ab7c402f6dcc876',
  parentSpanId: '9ecb55e5ae10bf8c',
  startTime: 1796622330995,
  endTime: 1796622330995.4949,
  attributes: { 'genkit:type': 'action', 'genkit:isRoot': true, 'genkit:count': 3, 'genkit:ratio': 0.5, 'genkit:tags': ['a', 1], 'genkit:obj': { a: 1 }, 'genkit:none': null },
  displayName: 'getWeather',
  links: [],
  instrumentationLibrary: { name: 'genkit-tracer', version: 'v1' },
  spanKind: 'CLIENT',
  sameProcessAsParentSpan: { value: true },
  status: { code: 2, message: 'boom' },
  timeEvents: { timeEvent: [{ time: 1796622330995.25, annotation: { description: 'exception', attributes: { 'exception.message': 'boom' } } }] },
  truncated: true,
};
const trace = (spans: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ traceId: 'cc9d8aed573a16639ab7c402f6dcc876', displayName: 'weatherFlow', startTime: 1, endTime: 2, spans, ...extra });

describe('genkitTraceOf', () => {
  it('each span an OTLP span under a resource of its own: ids, milliseconds with a fraction as exact nanoseconds, typed attributes, kind, status, scope, time events as events, other fields carried', () => {
    const { document, spanPath } = genkitTraceOf(trace({ [span.spanId]: span }), 'f');
    expect(document.resourceSpans).toEqual([{
      resource: { attributes: [] },
      scopeSpans: [{
        scope: { name: 'genkit-tracer', version: 'v1' },
        spans: [{
          traceId: 'cc9d8aed573a16639ab7c402f6dcc876',
          spanId: 'd4caa442717b2779',
          parentSpanId: '9ecb55e5ae10bf8c',
          name: 'getWeather',
          kind: 3,
          startTimeUnixNano: '1796622330995000000',
          endTimeUnixNano: '1796622330995494900',
          attributes: [
            { key: 'genkit:type', value: { stringValue: 'action' } },
            { key: 'genkit:isRoot', value: { boolValue: true } },
            { key: 'genkit:count', value: { intValue: '3' } },
            { key: 'genkit:ratio', value: { doubleValue: 0.5 } },
            { key: 'genkit:tags', value: { arrayValue: { values: [{ stringValue: 'a' }, { intValue: '1' }] } } },
            { key: 'genkit:obj', value: { stringValue: '{"a":1}' } },
            { key: 'genkit.truncated', value: { stringValue: 'true' } },
          ],
          events: [{ timeUnixNano: '1796622330995250000', name: 'exception', attributes: [{ key: 'exception.message', value: { stringValue: 'boom' } }] }],
          status: { code: 2, message: 'boom' },
        }],
      }],
    }]);
    expect(spanPath([0])).toBe('spans.d4caa442717b2779');
  });

  it('a span without its trace id takes the trace\'s; a root span has no parent; links are carried where there are some', () => {
    const { traceId: _, parentSpanId: __, ...rest } = span;
    const { document } = genkitTraceOf(trace({ a1: { ...rest, spanId: 'a1', links: [{ context: { traceId: 'x', spanId: 'y' } }] } }), 'f');
    const otlp = (document.resourceSpans[0] as { scopeSpans: { spans: Record<string, unknown>[] }[] }).scopeSpans[0]!.spans[0]!;
    expect(otlp.traceId).toBe('cc9d8aed573a16639ab7c402f6dcc876');
    expect(otlp).not.toHaveProperty('parentSpanId');
    expect(otlp.attributes).toContainEqual({ key: 'genkit.links', value: { stringValue: '[{"context":{"traceId":"x","spanId":"y"}}]' } });
  });

  it('times that are not milliseconds are left for the reader to name as malformed; a span that is not an object, or spans not keyed by id, are another shape', () => {
    const { document } = genkitTraceOf(trace({ b2: { ...span, spanId: 'b2', startTime: 'soon', endTime: -1 } }), 'f');
    const otlp = (document.resourceSpans[0] as { scopeSpans: { spans: Record<string, unknown>[] }[] }).scopeSpans[0]!.spans[0]!;
    expect([otlp.startTimeUnixNano, otlp.endTimeUnixNano]).toEqual(['soon', -1]);
    expect(() => genkitTraceOf(trace({ c3: 'ghp_C4NARYnotASpan' }), 'f')).toThrow(InputError);
    expect(() => genkitTraceOf(trace({ c3: 'ghp_C4NARYnotASpan' }), 'f')).toThrow(/spans\.c3 is not a Genkit span/);
    expect(() => genkitTraceOf(trace({ c3: 'x' }), 'f')).not.toThrow(/ghp_/);
    expect(() => genkitTraceOf({ traceId: 't', spans: [span] }, 'f')).toThrow(/"spans" of a Genkit trace must be an object/);
    // (a key that is not an id is not quoted: the span is named by its place)
    expect(() => genkitTraceOf(trace({ 'ghp_C4NARYkey': 1 }), 'f')).toThrow(/spans\[0\] is not a Genkit span/);
  });

  it('isGenkitTrace: a trace id and spans by id; Jaeger\'s `traceID` with a list of spans is not one', () => {
    expect(isGenkitTrace(trace({}))).toBe(true);
    expect(isGenkitTrace({ traceID: 't', spans: [] })).toBe(false);
    expect(isGenkitTrace({ traceId: 't', spans: [] })).toBe(false);
  });
});
