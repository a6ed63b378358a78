import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBin, parseJson, type Run } from './analyze-helpers.js';

/** A GitHub-token-shaped bad span id: argspan must say where the span is, never quote it. */
const CANARY = 'ghp_R8vKq2Lm5Nx7Tz1Wc4Yb9Hd3Jf6Gs0Ap2Ee8';
const SPAN_ID = 'span without a valid span id';
const T = '5b8efff798038103d269b633813fc60c';
const S = (i: number) => `eee19b7ec3c1b1${String(i).padStart(2, '0')}`;

const otlpSpan = (i: number, spanId = S(i)) => ({ traceId: T, spanId, name: 'op', kind: 1, startTimeUnixNano: '1', endTimeUnixNano: '2' });
const snakeSpan = (i: number, spanId = S(i)) => ({ attributes: [], trace_id: T, span_id: spanId, name: 'op', start_time_unix_nano: '1', end_time_unix_nano: '2' });
const jaegerSpan = (i: number, spanID = S(i)) => ({ traceID: 'abc', spanID, operationName: 'op', startTime: 1, duration: 1, tags: [], logs: [], references: [], processID: 'p1' });
const jaegerTrace = (spans: object[]) => ({ traceID: 'abc', spans, processes: { p1: { serviceName: 's', tags: [] } } });
const otlpDocument = { resourceSpans: [{ scopeSpans: [{ spans: [otlpSpan(0)] }] }, { scopeSpans: [{ spans: [otlpSpan(1)] }, { spans: [otlpSpan(2), otlpSpan(3, CANARY)] }] }] };

const CASES: [name: string, file: string, text: string, at: string][] = [
  ['a Jaeger answer', 'jaeger.json', JSON.stringify({ data: [jaegerTrace([jaegerSpan(0), jaegerSpan(1, CANARY), jaegerSpan(2)])] }), 'jaeger.json: data[0].spans[1]: malformed span: '],
  ['a pretty-printed OTLP document', 'otlp.json', JSON.stringify(otlpDocument, null, 2), 'otlp.json: resourceSpans[1].scopeSpans[1].spans[1]: malformed span: '],
  ["Phoenix's spans/otlpv1 answer", 'phoenix.json', JSON.stringify({ data: [snakeSpan(0), snakeSpan(1), snakeSpan(2, CANARY)], next_cursor: null }), 'phoenix.json: data[2]: malformed span: '],
  ['a compact OTLP document (one JSON line)', 'otlp-line.json', JSON.stringify(otlpDocument), 'otlp-line.json:1: resourceSpans[1].scopeSpans[1].spans[1]: malformed span: '],
];

/** Nothing argspan printed, anywhere, holds the bad value. */
function expectNoCanary(run: Run): void {
  expect(run.stdout).not.toContain('ghp_');
  expect(run.stderr).not.toContain('ghp_');
}

describe('argspan analyze names where a malformed span is in a document, never its values', () => {
  const dir = mkdtempSync(join(tmpdir(), 'argspan-positions-cli-'));

  it.each(CASES)('%s: exit 2 naming the position; --allow-partial reports it skipped, in the JSON and the table', (_, name, text, at) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    const refused = analyzeBin(file);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(`argspan analyze: ${dir}/${at}${SPAN_ID}`);
    expectNoCanary(refused);

    const json = analyzeBin(file, '--allow-partial', '--format', 'json');
    expect(json.code).toBe(0);
    const out = parseJson(json);
    expect(out.stats.spans).toBe(name === 'phoenix.json' || name === 'jaeger.json' ? 2 : 3);
    expect(out.stats.skipped).toEqual([expect.objectContaining({ file, reason: expect.stringContaining(at.slice(at.indexOf(': ') + 2)) })]);
    expect(json.stderr).toContain(`argspan analyze: skipped ${dir}/${at}${SPAN_ID}`);
    expectNoCanary(json);

    const table = analyzeBin(file, '--allow-partial');
    expect(table.stdout).toContain(`  ${dir}/${at}${SPAN_ID}`);
    expectNoCanary(table);
  });

  it('several malformed spans are counted and the first three named', () => {
    const file = join(dir, 'many.json');
    const bad = (i: number) => jaegerSpan(i, `${CANARY}${i}`);
    writeFileSync(file, JSON.stringify({ data: [jaegerTrace([jaegerSpan(0), bad(1)]), jaegerTrace([bad(2), bad(3), jaegerSpan(4), bad(5)])] }, null, 2));
    const run = analyzeBin(file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}: 4 malformed spans (first at data[0].spans[1], data[1].spans[0], data[1].spans[1]): ${SPAN_ID}`);
    expectNoCanary(run);
  });
});

describe('argspan analyze on an integer attribute or time that is not an integer', () => {
  const line = (value: unknown, start: unknown = '1') =>
    JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ ...otlpSpan(0), startTimeUnixNano: start, attributes: [{ key: 'argspan.args.count', value: { intValue: value } }] }] }] }] });
  it.each([
    ['a number with a fraction', line(5.5), "an attribute's intValue is not a 64-bit integer"],
    ['a decimal text with a fraction', line('5.5'), "an attribute's intValue is not a 64-bit integer"],
    ['a start time with a fraction', line('5', '1.5'), 'start time is not a non-negative 64-bit integer'],
  ])('%s is a malformed span (exit 2), not rounded', (_name, text, reason) => {
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-int-')), 'int.jsonl');
    writeFileSync(file, `${text}\n`);
    const run = analyzeBin(file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`int.jsonl:1: malformed span: ${reason}`);
  });
  it.each([['an integral number', line(5.0)], ['digits past 2^53', line('9007199254740993')], ['a negative integer', line('-3')]])('%s is read', (_name, text) => {
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-int-')), 'int.jsonl');
    writeFileSync(file, `${text}\n`);
    expect(analyzeBin(file).code).toBeLessThan(2);
  });
});
