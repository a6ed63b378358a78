import { describe, expect, it } from 'vitest';
import { genkitLogLine } from './genkit-logs.js';

const lineOf = (record: unknown) => JSON.parse(String(genkitLogLine(Buffer.from(JSON.stringify(record)))));
const recordOf = (record: unknown) => lineOf(record).resourceLogs[0].scopeLogs[0];

describe('genkitLogLine: a record of Genkit\'s log store as the OTLP logs line it came from', () => {
  it('reads each field the store writes: time in nanoseconds (the fraction\'s digits as written), ids, severity, typed body and attributes, the scope', () => {
    const scope = recordOf({ logId: 'id-1', traceId: 'f58ee84a156a9684a1f21e827106e38b', spanId: '7671bbef0225738e', timestamp: 1796634507794.125, severityNumber: 9, severityText: 'INFO', body: 'weather lookup', attributes: { city: 'Berlin', n: 3, ratio: 0.5, ok: true, list: ['a', 1], nested: { k: 'v' } }, instrumentationLibrary: { name: 'genkit-logger', version: '' } });
    expect(scope.scope).toEqual({ name: 'genkit-logger' });
    expect(scope.logRecords).toEqual([
      {
        timeUnixNano: '1796634507794125000',
        severityNumber: 9,
        severityText: 'INFO',
        body: { stringValue: 'weather lookup' },
        traceId: 'f58ee84a156a9684a1f21e827106e38b',
        spanId: '7671bbef0225738e',
        attributes: [
          { key: 'city', value: { stringValue: 'Berlin' } },
          { key: 'n', value: { intValue: '3' } },
          { key: 'ratio', value: { doubleValue: 0.5 } },
          { key: 'ok', value: { boolValue: true } },
          { key: 'list', value: { arrayValue: { values: [{ stringValue: 'a' }, { intValue: '1' }] } } },
          { key: 'nested', value: { stringValue: '{"k":"v"}' } },
        ],
      },
    ]);
    expect(recordOf({ logId: 'id-2', timestamp: 1, body: { message: 'm', n: 1 } }).logRecords[0].body).toEqual({ stringValue: '{"message":"m","n":1}' });
  });

  it('carries a field of another type than the store writes, or one it does not write, as `genkit.<field>` (so the credential scan reads it); `logId` is the server\'s id and is dropped', () => {
    const [r] = recordOf({ logId: 'id-3', timestamp: 2, severityText: { note: 'x' }, attributes: 'text', constructor: 'c', extra: [1] }).logRecords;
    expect(r.attributes).toEqual([
      { key: 'genkit.severityText', value: { stringValue: '{"note":"x"}' } },
      { key: 'genkit.attributes', value: { stringValue: 'text' } },
      { key: 'genkit.constructor', value: { stringValue: 'c' } },
      { key: 'genkit.extra', value: { stringValue: '[1]' } },
    ]);
    expect(r.severityText).toBeUndefined();
    // (a time that is not a number of milliseconds is left for the logs reader to name)
    expect(recordOf({ logId: 'id-4', timestamp: 'soon' }).logRecords[0].timeUnixNano).toBe('soon');
  });

  it('leaves a line that is not a JSON object in UTF-8 as it is, for the logs reader to name', () => {
    for (const raw of [Buffer.from('{"logId": "cut'), Buffer.from('[1]'), Buffer.from([0x7b, 0xff, 0x7d])]) expect(genkitLogLine(raw)).toBe(raw);
  });
});
