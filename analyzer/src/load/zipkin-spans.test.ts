import { describe, expect, it } from 'vitest';
import { InputError } from './input-error.js';
import { zipkinSpansOf } from './zipkin-spans.js';

/** A span as the OpenTelemetry Collector's Zipkin exporter writes one (its scope and status as tags, an event with attributes as a JSON annotation). */
const span = {
  traceId: '5b8efff798038103',
  id: 'eee19b7ec3c1b173',
  parentId: '0102030405060708',
  name: 'execute_tool read_file',
  timestamp: 1746259200000001,
  duration: 145000,
  localEndpoint: { serviceName: 'agent', ipv4: '10.0.0.7' },
  remoteEndpoint: { serviceName: 'files' },
  tags: { 'gen_ai.tool.name': 'read_file', 'otel.scope.name': 'agent-framework', 'otel.scope.version': '1.2', 'otel.status_code': 'ERROR', error: 'denied' },
  annotations: [{ timestamp: 1746259200000002, value: '{"gen_ai.tool.message":{"content":"{\\"path\\": \\"/app/.env\\"}"}}' }, { timestamp: 1746259200000003, value: 'retry' }],
  shared: true,
};

describe('zipkinSpansOf', () => {
  it('each span an OTLP span under a resource of its own: ids (a 64-bit trace id padded), microseconds as nanoseconds, tags as text attributes, scope and status from their tags, annotations as events, other fields carried', () => {
    const { document, spanPath } = zipkinSpansOf([span, { ...span, id: 'eee19b7ec3c1b174', kind: 'CLIENT', tags: undefined, annotations: undefined }], 'f');
    expect(document.resourceSpans).toHaveLength(2);
    expect(document.resourceSpans[0]).toEqual({
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'agent' } }] },
      scopeSpans: [{
        scope: { name: 'agent-framework', version: '1.2' },
        spans: [{
          traceId: '00000000000000005b8efff798038103',
          spanId: 'eee19b7ec3c1b173',
          parentSpanId: '0102030405060708',
          name: 'execute_tool read_file',
          kind: 1,
          startTimeUnixNano: '1746259200000001000',
          endTimeUnixNano: '1746259200145001000',
          attributes: [
            { key: 'gen_ai.tool.name', value: { stringValue: 'read_file' } },
            { key: 'zipkin.remoteEndpoint', value: { stringValue: '{"serviceName":"files"}' } },
            { key: 'zipkin.shared', value: { stringValue: 'true' } },
          ],
          events: [
            { timeUnixNano: '1746259200000002000', name: 'gen_ai.tool.message', attributes: [{ key: 'content', value: { stringValue: '{"path": "/app/.env"}' } }] },
            { timeUnixNano: '1746259200000003000', name: 'retry', attributes: [] },
          ],
          status: { code: 2, message: 'denied' },
        }],
      }],
    });
    expect((document.resourceSpans[1] as any).scopeSpans[0].spans[0]).toMatchObject({ kind: 3, events: [], attributes: [{ key: 'zipkin.remoteEndpoint' }, { key: 'zipkin.shared' }] });
    expect([spanPath([0, 0, 0]), spanPath([1, 0, 0])]).toEqual(['[0]', '[1]']);
  });

  it('a list of traces (GET /api/v2/traces): each span named by its trace and place', () => {
    const { document, spanPath } = zipkinSpansOf([[span], [], [span, span]], 'f');
    expect(document.resourceSpans).toHaveLength(3);
    expect([0, 1, 2].map((r) => spanPath([r, 0, 0]))).toEqual(['[0][0]', '[2][0]', '[2][1]']);
  });

  it('leaves a time or id it cannot read to the reader, which names the span', () => {
    const s = (zipkinSpansOf([{ ...span, timestamp: undefined, duration: 1.5, id: 7 }], 'f').document.resourceSpans[0] as any).scopeSpans[0].spans[0];
    expect([s.startTimeUnixNano, s.endTimeUnixNano, s.spanId]).toEqual(['absent', 1.5, 7]);
  });

  it('refuses a list of something else, naming the place, never the value', () => {
    const fail = (doc: unknown) => {
      try {
        zipkinSpansOf(doc, 'f');
      } catch (err) {
        return (err as InputError).problems.map((p) => p.reason);
      }
      return [];
    };
    expect(fail([span, 'ghp_secret'])).toEqual(['JSON of another shape: [1] is not a Zipkin span (an object)']);
    expect(fail([[span], { traceId: 'ghp_secret' }])).toEqual(['JSON of another shape: [1] is not a list of Zipkin spans (a trace of GET /api/v2/traces)']);
  });
});
