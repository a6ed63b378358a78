import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from './input-error.js';
import { hexId, tempoTraceOf } from './tempo-trace.js';

const TRACE_HEX = '5b8efff798038103d269b633813fc60c';
const SPAN_HEX = 'eee19b7ec3c1b173';
const PARENT_HEX = '0102030405060708';
const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

/** A span as Tempo's jsonpb writes it: ids base64, enums by name, 64-bit numbers as strings. */
const tempoSpan = {
  traceId: b64(TRACE_HEX),
  spanId: b64(SPAN_HEX),
  parentSpanId: b64(PARENT_HEX),
  name: 'execute_tool read_file',
  kind: 'SPAN_KIND_INTERNAL',
  startTimeUnixNano: '1746259200000000000',
  endTimeUnixNano: '1746259200145000000',
  attributes: [{ key: 'gen_ai.tool.name', value: { stringValue: 'read_file' } }],
  links: [{ traceId: b64(TRACE_HEX), spanId: b64(PARENT_HEX) }],
  status: { code: 'STATUS_CODE_OK' },
};
const resource = { attributes: [{ key: 'service.name', value: { stringValue: 'agent' } }] };

const fail = (doc: unknown) => {
  try {
    tempoTraceOf(doc, 'trace.json');
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as InputError).problems.map((p) => `${p.line}: ${p.reason}`);
  }
  throw new Error('no InputError');
};

describe('tempoTraceOf', () => {
  it('reads /api/traces/<id> ({"batches"}): ids from base64 to hex (links too), every other field as it is', () => {
    const t = tempoTraceOf({ batches: [{ resource, scopeSpans: [{ scope: { name: 'ai' }, spans: [tempoSpan] }] }] }, 'trace.json');
    expect(t.partial).toBe(false);
    expect(t.document).toEqual({
      resourceSpans: [{ resource, scopeSpans: [{ scope: { name: 'ai' }, spans: [{ ...tempoSpan, traceId: TRACE_HEX, spanId: SPAN_HEX, parentSpanId: PARENT_HEX, links: [{ traceId: TRACE_HEX, spanId: PARENT_HEX }] }] }] }],
    });
    expect(t.spanPath([0, 0, 3])).toBe('batches[0].scopeSpans[0].spans[3]');
  });

  it('reads Grafana\'s trace export and Tempo before 2.0: the scope level under its OTLP 0.x names, hex ids and numbers kept', () => {
    const span = { traceId: TRACE_HEX, spanId: SPAN_HEX, parentSpanId: '', name: 'x', kind: 1, startTimeUnixNano: 1746259200000000000, endTimeUnixNano: 1746259200145000000, attributes: [] };
    const t = tempoTraceOf({ batches: [{ resource, instrumentationLibrarySpans: [{ instrumentationLibrary: { name: 'ai', version: '1' }, spans: [span] }] }, { resource, scopeSpans: [{ spans: [span] }] }] }, 'f');
    expect(t.document.resourceSpans).toEqual([{ resource, scopeSpans: [{ scope: { name: 'ai', version: '1' }, spans: [span] }] }, { resource, scopeSpans: [{ spans: [span] }] }]);
    expect([t.spanPath([0, 0, 1]), t.spanPath([1, 0, 0])]).toEqual(['batches[0].instrumentationLibrarySpans[0].spans[1]', 'batches[1].scopeSpans[0].spans[0]']);
  });

  it('reads /api/v2/traces/<id> ({"trace": {"resourceSpans"}}): partial when its status is not COMPLETE', () => {
    const trace = { resourceSpans: [{ resource, scopeSpans: [{ spans: [tempoSpan] }] }] };
    for (const status of [undefined, 'COMPLETE', 0]) expect(tempoTraceOf({ trace, status }, 'f').partial).toBe(false);
    for (const status of ['PARTIAL', 1, 'SOMETHING_NEW']) expect(tempoTraceOf({ trace, status, message: 'Trace exceeds maximum size' }, 'f').partial).toBe(true);
    expect(tempoTraceOf({ trace }, 'f').spanPath([0, 0, 0])).toBe('trace.resourceSpans[0].scopeSpans[0].spans[0]');
    // (before 2.6 its trace held "batches"; a trace of no spans is "{}")
    expect(tempoTraceOf({ trace: { batches: trace.resourceSpans } }, 'f').spanPath([0, 0, 0])).toBe('trace.batches[0].scopeSpans[0].spans[0]');
    expect(tempoTraceOf({ trace: {} }, 'f').document).toEqual({ resourceSpans: [] });
  });

  it('refuses another shape, naming the field, never a value', () => {
    expect(fail({ batches: { resource } })).toEqual(['1: JSON of another shape: the "batches" of a Grafana Tempo trace answer must be a list of objects']);
    expect(fail({ batches: ['ghp_secret'] })).toEqual(['1: JSON of another shape: the "batches" of a Grafana Tempo trace answer must be a list of objects']);
    expect(fail({ trace: 'ghp_secret' })).toEqual(['1: JSON of another shape: the "trace" of a Grafana Tempo answer (GET /api/v2/traces) must be an object']);
    expect(fail({ trace: { spans: [] } })).toEqual(['1: JSON of another shape: the "trace.resourceSpans" of a Grafana Tempo trace answer must be a list of objects']);
    expect(fail({ batches: [{ resource, scopeSpans: {} }] })).toEqual(['1: JSON of another shape: batches[0].scopeSpans must be a list of objects']);
  });
});

describe('hexId', () => {
  it('decodes base64 of exactly the id\'s length; leaves hex, empty, other lengths and other types to the reader\'s id check', () => {
    expect(hexId(b64(TRACE_HEX), 16)).toBe(TRACE_HEX);
    expect(hexId(b64(SPAN_HEX), 8)).toBe(SPAN_HEX);
    for (const v of [TRACE_HEX, '', b64(SPAN_HEX), 'not base64 at all!!!!!!!', 42, null, undefined]) expect(hexId(v, 16)).toBe(v);
    expect(hexId(b64(TRACE_HEX), 8)).toBe(b64(TRACE_HEX));
  });

  it('round-trips every id: base64 of any 16 or 8 bytes is their hex', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), fc.uint8Array({ minLength: 8, maxLength: 8 }), (t, s) => {
      expect(hexId(Buffer.from(t).toString('base64'), 16)).toBe(Buffer.from(t).toString('hex'));
      expect(hexId(Buffer.from(s).toString('base64'), 8)).toBe(Buffer.from(s).toString('hex'));
    }));
  });
});
