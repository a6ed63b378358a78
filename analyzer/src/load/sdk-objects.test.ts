import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_NESTING } from './json-byte-scan.js';
import { isSdkObjectsHead, SDK_OBJECT_PROBLEMS, sdkObjectLine, splitJsonObjects } from './sdk-objects.js';

const texts = (text: string) => splitJsonObjects(text).values.map((v) => text.slice(v.start, v.end));

describe('splitJsonObjects', () => {
  it('finds each top-level object by its braces outside strings, and the line it opens on', () => {
    const text = '{\n  "a": "}{\\"\\\\",\n  "b": [1, {"c": "]"}]\n}\n{"d": "x\\ny"}\n\n  {"e": {}}';
    const { values, stop, tooDeep } = splitJsonObjects(text);
    expect(values.map((v) => v.line)).toEqual([1, 5, 7]);
    expect(texts(text).map((t) => JSON.parse(t) as unknown)).toEqual([{ a: '}{"\\', b: [1, { c: ']' }] }, { d: 'x\ny' }, { e: {} }]);
    expect(stop).toBeUndefined();
    expect(tooDeep).toEqual([]);
  });

  it('stops at text that is not an object, and at an object the file ends inside, naming the line', () => {
    expect(splitJsonObjects('{"a": 1}\n\nnot json {"b": 2}')).toMatchObject({ values: [{ line: 1 }], stop: { line: 3, reason: SDK_OBJECT_PROBLEMS.notAnObject } });
    expect(splitJsonObjects('{"a": 1}\n{\n  "b": "cut')).toMatchObject({ values: [{ line: 1 }], stop: { line: 2, reason: SDK_OBJECT_PROBLEMS.endsInside } });
    expect(splitJsonObjects(' \n\t')).toEqual({ values: [], tooDeep: [] });
    // (a raw line break inside a string, not JSON, is still a line of the file: the next object's line counts it)
    expect(splitJsonObjects('{"a": "x\ny"}\n{"b": 1}').values.map((v) => v.line)).toEqual([1, 3]);
  });

  it('names an object nested deeper than the readers survive', () => {
    const deep = '{"a":' + '['.repeat(MAX_JSON_NESTING) + ']'.repeat(MAX_JSON_NESTING) + '}';
    expect(splitJsonObjects(`{"ok": 1}\n${deep}`).tooDeep).toEqual([2]);
  });

  it('gives back exactly the objects written, indented or not, with any whitespace between them', () => {
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })), { minLength: 1, maxLength: 5 }), fc.constantFrom(undefined, 2), fc.constantFrom('\n', '', ' \r\n\t'), (objects, indent, gap) => {
        const text = objects.map((o) => JSON.stringify(o, null, indent)).join(gap);
        expect(texts(text).map((t) => JSON.parse(t) as unknown)).toEqual(objects.map((o) => JSON.parse(JSON.stringify(o)) as unknown));
      }),
    );
  });
});

describe('sdkObjectLine', () => {
  it('a span of SDK 1.x (parent by id, instrumentationLibrary, resource attributes as an object) as an OTLP span', () => {
    const span = {
      _spanContext: { traceId: 't'.repeat(32), spanId: 's'.repeat(16) },
      parentSpanId: 'p'.repeat(16),
      name: 'tool',
      kind: 2,
      startTime: [1, 5],
      endTime: [2, 0],
      attributes: { n: 3, f: 1.5, b: true, gone: null },
      events: [{ name: 'e', time: [1, 6], attributes: { k: 'v' } }],
      status: { code: 2, message: 'failed' },
      resource: { _attributes: { 'service.name': 'agent' } },
      instrumentationLibrary: { name: 'lib', version: '1' },
    };
    const out = sdkObjectLine(JSON.stringify(span));
    expect(out.kind).toBe('span');
    expect(JSON.parse((out as { line: string }).line)).toEqual({
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'agent' } }] },
          scopeSpans: [
            {
              scope: { name: 'lib', version: '1' },
              spans: [
                {
                  traceId: 't'.repeat(32),
                  spanId: 's'.repeat(16),
                  parentSpanId: 'p'.repeat(16),
                  name: 'tool',
                  kind: 3,
                  startTimeUnixNano: '1000000005',
                  endTimeUnixNano: '2000000000',
                  attributes: [
                    { key: 'n', value: { intValue: '3' } },
                    { key: 'f', value: { doubleValue: 1.5 } },
                    { key: 'b', value: { boolValue: true } },
                  ],
                  events: [{ timeUnixNano: '1000000006', name: 'e', attributes: [{ key: 'k', value: { stringValue: 'v' } }] }],
                  links: [],
                  status: { code: 2, message: 'failed' },
                },
              ],
            },
          ],
        },
      ],
    });
  });

  it('a log record (its fields private or public) as an OTLP record joined to its span; a resource value still pending left out', () => {
    const record = {
      hrTime: [3, 0],
      spanContext: { traceId: 't'.repeat(32), spanId: 's'.repeat(16) },
      resource: { _rawAttributes: [['session.id', 'x'], ['host.id', {}], ['pid', 7]] },
      instrumentationScope: { name: 'gemini-cli' },
      attributes: { 'event.name': 'gemini_cli.tool_call', nested: { a: [1, 'b'] } },
      _body: 'Tool call.',
      _severityNumber: 9,
      severityText: 'INFO',
    };
    const line = JSON.parse((sdkObjectLine(JSON.stringify(record)) as { line: string }).line) as { resourceLogs: [{ resource: unknown; scopeLogs: [{ scope: unknown; logRecords: unknown[] }] }] };
    expect(line.resourceLogs[0].resource).toEqual({ attributes: [{ key: 'session.id', value: { stringValue: 'x' } }, { key: 'pid', value: { intValue: '7' } }] });
    expect(line.resourceLogs[0].scopeLogs[0].logRecords).toEqual([
      {
        timeUnixNano: '3000000000',
        observedTimeUnixNano: '3000000000',
        severityNumber: 9,
        severityText: 'INFO',
        body: { stringValue: 'Tool call.' },
        attributes: [
          { key: 'event.name', value: { stringValue: 'gemini_cli.tool_call' } },
          { key: 'nested', value: { kvlistValue: { values: [{ key: 'a', value: { arrayValue: { values: [{ intValue: '1' }, { stringValue: 'b' }] } } }] } } },
        ],
        traceId: 't'.repeat(32),
        spanId: 's'.repeat(16),
      },
    ]);
  });

  it('a log record of a newer sdk-logs (Qwen Code 0.24: `_hrTime`, `_spanContext` private) is a log record, not a span', () => {
    const record = {
      resource: { _rawAttributes: [['service.name', 'qwen-code']] },
      instrumentationScope: { name: 'qwen-code' },
      attributes: { 'event.name': 'qwen-code.api_request' },
      _hrTime: [3, 5],
      _hrTimeObserved: [4, 0],
      _spanContext: { traceId: 't'.repeat(32), spanId: 's'.repeat(16), traceFlags: 1 },
      _body: 'API request.',
    };
    const got = sdkObjectLine(JSON.stringify(record)) as { kind: string; line: string };
    expect(got.kind).toBe('log');
    const line = JSON.parse(got.line) as { resourceLogs: [{ scopeLogs: [{ logRecords: unknown[] }] }] };
    expect(line.resourceLogs[0].scopeLogs[0].logRecords).toEqual([
      {
        timeUnixNano: '3000000005',
        observedTimeUnixNano: '4000000000',
        body: { stringValue: 'API request.' },
        attributes: [{ key: 'event.name', value: { stringValue: 'qwen-code.api_request' } }],
        traceId: 't'.repeat(32),
        spanId: 's'.repeat(16),
      },
    ]);
  });

  it('metrics are left out; anything else is a problem, named without its data', () => {
    expect(sdkObjectLine('{"resource": {"_rawAttributes": []}, "scopeMetrics": []}')).toEqual({ kind: 'metrics' });
    expect(sdkObjectLine('{"secret": "ghp_x"}')).toEqual({ kind: 'problem', reason: SDK_OBJECT_PROBLEMS.unknown });
    expect(sdkObjectLine('{"a": tru}')).toEqual({ kind: 'problem', reason: SDK_OBJECT_PROBLEMS.notJson });
  });
});

describe('isSdkObjectsHead', () => {
  it('knows a span\'s, a log record\'s and a metrics export\'s first field, indented or not, and nothing else', () => {
    for (const head of ['{\n  "_spanContext": {', '{"hrTime":[1,2]', '{"_hrTime":[1,2]', '{\n  "resource": {\n    "_rawAttributes": [']) expect(isSdkObjectsHead(head)).toBe(true);
    for (const head of ['{"resourceSpans": []}', '{"resource": {"attributes": []}}', '{"data": [{"_spanContext": 1}]}']) expect(isSdkObjectsHead(head)).toBe(false);
  });
});
