import { describe, expect, it } from 'vitest';
import type { LogRecordText } from '../log-record-credentials.js';
import { forEachLine } from './lines.js';
import { isJsonLine, LOG_BODY_ATTRIBUTE, LOG_RECORD_BODY_KEY, LOG_RECORD_PROBLEMS, LogsLineReader, otherRecordTexts, type LogEventRow, type LogsLineOptions } from './otlp-logs.js';

const TRACE = 'a1f0c3d25e6b47188c9d0e1f2a3b4c5d';
const SPAN = '3c1d5e7f9a0b2c4d';
const str = (key: string, v: string) => ({ key, value: { stringValue: v } });

/** One logs export message holding `records` in one scope. */
const message = (...records: object[]) => ({ resourceLogs: [{ resource: { attributes: [str('service.name', 'agent')] }, scopeLogs: [{ scope: { name: 'opentelemetry.instrumentation.openai_v2', version: '2.1b0' }, logRecords: records }] }] });
const record = (fields: object) => ({ timeUnixNano: '1730680118215000000', traceId: TRACE, spanId: SPAN, attributes: [str('gen_ai.system', 'openai')], ...fields });

/** Whether a text is JSON lines as the loader decides it: its first line that is not blank a JSON value of its own. */
const logsAreLines = (text: string) => isJsonLine(text.split('\n').find((l) => l.trim() !== '') ?? '');

/** A text read as the loader reads a logs file (line by line, or as one document), with the records it gave collected. */
function readLogsText(text: string, file: string, opts?: LogsLineOptions) {
  const rows: LogEventRow[] = [];
  const reader = new LogsLineReader(file, (row) => rows.push(row), opts);
  if (logsAreLines(text)) forEachLine(Buffer.from(text), (raw, line) => reader.line(raw, line));
  else reader.document(text);
  const read = reader.result();
  expect(read.events).toBe(rows.length);
  return { ...read, events: rows };
}

describe('reading OTLP logs exports', () => {
  it('reads a GenAI record as the event of its span: the body as the message text, OTLP\'s eventName or the event.name attribute naming it', () => {
    const body = { kvlistValue: { values: [{ key: 'content', value: { stringValue: 'What is the weather in Paris?' } }] } };
    const text = JSON.stringify(
      message(
        record({ eventName: 'gen_ai.user.message', body }),
        record({ attributes: [str('event.name', 'gen_ai.choice'), str('gen_ai.system', 'openai')], body: { stringValue: '{"index":0}' } }),
      ),
    );
    const read = readLogsText(text, 'logs.json');
    expect(read.problems).toEqual([]);
    expect([read.records, read.others]).toEqual([2, 0]);
    expect(read.events.map((e) => [e.traceId, e.spanId, e.name, e.timeUnixNano])).toEqual([
      [TRACE, SPAN, 'gen_ai.user.message', '1730680118215000000'],
      [TRACE, SPAN, 'gen_ai.choice', '1730680118215000000'],
    ]);
    const attrs = (i: number) => Object.fromEntries(read.events[i]!.attributes.map((a) => [a.key, a.value]));
    expect(attrs(0)[LOG_BODY_ATTRIBUTE]).toEqual({ stringValue: '{"content":"What is the weather in Paris?"}' });
    // A string body is the message's text as written.
    expect(attrs(1)[LOG_BODY_ATTRIBUTE]).toEqual({ stringValue: '{"index":0}' });
    expect(read.events[0]!.resource).toEqual([str('service.name', 'agent')]);
    expect(read.events[0]!.scopeName).toBe('opentelemetry.instrumentation.openai_v2');
  });

  it('leaves an application\'s own log records, and counts them', () => {
    const read = readLogsText(JSON.stringify(message(record({ eventName: 'http.request', body: { stringValue: 'GET /' } }), record({ body: { stringValue: 'plain log line' } }))), 'logs.json');
    expect(read).toEqual({ events: [], records: 2, others: 2, agentRecords: 0, problems: [] });
  });

  it('gives each of those records to onOtherRecord, whose texts are its body, its attributes holding text (a map or bytes too) and their keys, with its ids and time; every record read (a GenAI one too) to onSharedTexts, with its time and its block\'s resource\'s and scope\'s texts', () => {
    const others: unknown[] = [];
    const shared: [string | null, readonly LogRecordText[]][] = [];
    const app = record({
      eventName: 'http.request',
      body: { kvlistValue: { values: [str('msg', 'auth'), { key: 'n', value: { intValue: '3' } }] } },
      attributes: [str('http.route', '/login'), { key: 'retries', value: { intValue: '2' } }, { key: 'ok', value: { boolValue: true } },
        { key: 'raw', value: { bytesValue: 'a2V5PXg=' } }, { key: 'tags', value: { arrayValue: { values: [{ stringValue: 'a' }] } } }],
    });
    const outside = { observedTimeUnixNano: '1730680118000000000', traceId: '', spanId: 'zz', body: { stringValue: 'started' } };
    const onOtherRecord = (r: unknown) => void others.push(r);
    const onSharedTexts = (time: string | null, s: readonly LogRecordText[]) => void shared.push([time, s]);
    readLogsText(JSON.stringify(message(app, outside, record({ eventName: 'gen_ai.choice', body: { stringValue: '{}' } }))), 'logs.json', { onOtherRecord, onSharedTexts });
    const key = (k: string) => ['attribute key', k, k];
    expect(others.map(otherRecordTexts)).toEqual([
      {
        traceId: TRACE, spanId: SPAN, timeUnixNano: '1730680118215000000',
        texts: [
          ['log record', LOG_RECORD_BODY_KEY, '{"msg":"auth","n":3}'],
          ['log record', 'http.route', '/login'], key('http.route'), key('retries'), key('ok'),
          ['log record', 'raw', 'a2V5PXg='], key('raw'), ['log record', 'tags', '["a"]'], key('tags'),
        ],
      },
      { traceId: null, spanId: null, timeUnixNano: '1730680118000000000', texts: [['log record', LOG_RECORD_BODY_KEY, 'started']] },
    ]);
    // The block's resource and scope, read once for the records that share them.
    const blockTexts = [['resource', 'service.name', 'agent'], ['resource attribute key', 'service.name', 'service.name'], ['scope name', null, 'opentelemetry.instrumentation.openai_v2'], ['scope version', null, '2.1b0']];
    expect(shared).toEqual([['1730680118215000000', blockTexts], ['1730680118000000000', blockTexts], ['1730680118215000000', blockTexts]]);
    expect(shared[0]![1]).toBe(shared[2]![1]);
  });

  it('makes structured attributes (the operation-details event\'s messages) their JSON text, and keeps scalars typed', () => {
    const messages = { arrayValue: { values: [{ kvlistValue: { values: [{ key: 'role', value: { stringValue: 'user' } }, { key: 'parts', value: { arrayValue: { values: [] } } }] } }] } };
    const read = readLogsText(
      JSON.stringify(message(record({ eventName: 'gen_ai.client.inference.operation.details', attributes: [{ key: 'gen_ai.input.messages', value: messages }, { key: 'gen_ai.usage.input_tokens', value: { intValue: '75' } }, { key: 'gen_ai.response.finish_reasons', value: { arrayValue: { values: [{ stringValue: 'stop' }] } } }] }))),
      'logs.json',
    );
    expect(read.events[0]!.attributes).toEqual([
      { key: 'gen_ai.input.messages', value: { stringValue: '[{"role":"user","parts":[]}]' } },
      { key: 'gen_ai.usage.input_tokens', value: { intValue: '75' } },
      { key: 'gen_ai.response.finish_reasons', value: { arrayValue: { values: [{ stringValue: 'stop' }] } } },
    ]);
  });

  it('names a record it cannot read by its place and event, never by a value', () => {
    const secret = 'ghp_C4NARYl0gRECORDc4naryL0GREC0RDl0g';
    const text = JSON.stringify(
      message(
        record({ eventName: 'gen_ai.user.message', traceId: '', spanId: '', body: { stringValue: secret } }),
        record({ eventName: 'gen_ai.choice', timeUnixNano: 'soon', body: { stringValue: secret } }),
        record({ eventName: 'gen_ai.tool.message', body: { kvlistValue: { values: [{ key: 'content', value: { intValue: secret } }] } } }),
        record({ eventName: 'gen_ai.user.message', body: { stringValue: 'fine' } }),
      ),
    );
    const read = readLogsText(text, 'logs.json');
    expect(read.problems).toEqual([
      { file: 'logs.json', line: 1, reason: `resourceLogs[0].scopeLogs[0].logRecords[0] (gen_ai.user.message): unreadable GenAI log record: ${LOG_RECORD_PROBLEMS.ids}` },
      { file: 'logs.json', line: 1, reason: `resourceLogs[0].scopeLogs[0].logRecords[1] (gen_ai.choice): unreadable GenAI log record: ${LOG_RECORD_PROBLEMS.time}` },
      { file: 'logs.json', line: 1, reason: `resourceLogs[0].scopeLogs[0].logRecords[2] (gen_ai.tool.message): unreadable GenAI log record: ${LOG_RECORD_PROBLEMS.value}` },
    ]);
    expect(read.events.map((e) => e.name)).toEqual(['gen_ai.user.message']);
    expect(JSON.stringify(read.problems)).not.toContain('C4NARY');
  });

  it('counts the records of one problem in a message, naming the first three (an agent traced with tracing off: every record without ids)', () => {
    const records = Array.from({ length: 5 }, (_, i) => record({ eventName: i % 2 ? 'gen_ai.choice' : 'gen_ai.user.message', traceId: '00000000000000000000000000000000', spanId: '0000000000000000' }));
    const read = readLogsText(JSON.stringify(message(...records), null, 2), 'logs.json');
    expect(read.problems).toEqual([
      {
        file: 'logs.json',
        reason: `5 unreadable GenAI log records (first at resourceLogs[0].scopeLogs[0].logRecords[0] (gen_ai.user.message), resourceLogs[0].scopeLogs[0].logRecords[1] (gen_ai.choice), resourceLogs[0].scopeLogs[0].logRecords[2] (gen_ai.user.message)): ${LOG_RECORD_PROBLEMS.ids}`,
      },
    ]);
  });

  it('reads JSON lines line by line, leaving trace lines (one exporter writing both signals) to the trace reader', () => {
    const logs = JSON.stringify(message(record({ eventName: 'gen_ai.user.message', body: { stringValue: 'hi' } })));
    const traces = JSON.stringify({ resourceSpans: [] });
    const text = `${traces}\n\n${logs}\n{"resourceLogs": [\n${logs}\n`;
    expect(logsAreLines(text)).toBe(true);
    const otherLines: number[] = [];
    const read = readLogsText(text, 'both.jsonl', { onOtherLine: (_raw, line) => otherLines.push(line) });
    expect(otherLines).toEqual([1]);
    expect(read.events.map((e) => e.name)).toEqual(['gen_ai.user.message', 'gen_ai.user.message']);
    expect(read.problems).toEqual([{ file: 'both.jsonl', line: 4, reason: 'not valid JSON (a truncated or corrupt line)' }]);
  });

  it('refuses a line the byte scan refused, and a document that does not parse', () => {
    const logs = JSON.stringify(message(record({ eventName: 'gen_ai.user.message', body: { stringValue: 'hi' } })));
    const read = readLogsText(`${logs}\n${logs}\n`, 'l.jsonl', { unreadable: new Map([[2, 'invalid UTF-8']]) });
    expect(read.events).toHaveLength(1);
    expect(read.problems).toEqual([{ file: 'l.jsonl', line: 2, reason: 'invalid UTF-8' }]);
    const pretty = JSON.stringify(message(record({ eventName: 'gen_ai.user.message' })), null, 2);
    expect(logsAreLines(pretty)).toBe(false);
    expect(readLogsText(pretty.slice(0, -10), 'doc.json').problems).toEqual([{ file: 'doc.json', line: 1, reason: 'not valid JSON (a truncated or corrupt document)' }]);
  });

  it('refuses one message holding both signals: its spans would go unread', () => {
    const both = { ...message(record({ eventName: 'gen_ai.user.message' })), resourceSpans: [{ scopeSpans: [] }] };
    expect(readLogsText(JSON.stringify(both), 'x.json').problems[0]!.reason).toMatch(/holds "resourceLogs" and "resourceSpans"/);
  });
});
