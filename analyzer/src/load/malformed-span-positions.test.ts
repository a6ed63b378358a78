import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { framed } from '../../../test/support/zstd-raw.js';
import { Db } from '../db.js';
import { writeConvertedDocument } from './converted-documents.js';
import { InputError, formatProblem, type InputProblem } from './input-error.js';
import { DEFAULT_MAX_LINE_BYTES } from './load-file.js';
import { loadTraces } from './load-traces.js';
import { SPAN_PATHS } from './malformed-span-positions.js';
import { SPAN_PROBLEMS } from './schema.js';

const strict = { allowPartial: false, maxLineBytes: DEFAULT_MAX_LINE_BYTES };
const partial = { ...strict, allowPartial: true };

/** A credential-shaped bad span id: it must never be quoted back, only where the span is. */
const CANARY = `ghp_${'x7Qm2Rv9Lk4Tz8Wn3Pb6Yc1Hd5Jf0Gs2Ae4N'.slice(0, 36)}`;
const T = '5b8efff798038103d269b633813fc60c';
const S = (i: number) => (0xeee19b7ec3c1b100n + BigInt(i)).toString(16);

const otlpSpan = (i: number, spanId = S(i)) => ({ traceId: T, spanId, name: 'op', kind: 1, startTimeUnixNano: '1', endTimeUnixNano: '2' });
const snakeSpan = (i: number, spanId = S(i)) => ({ attributes: [], trace_id: T, span_id: spanId, name: 'op', start_time_unix_nano: '1', end_time_unix_nano: '2' });
const jaegerSpan = (i: number, spanID = S(i)) => ({ traceID: 'abc', spanID, operationName: 'op', startTime: 1, duration: 1, tags: [], logs: [], references: [], processID: 'p1' });
const jaegerTrace = (spans: object[]) => ({ traceID: 'abc', spans, processes: { p1: { serviceName: 's', tags: [] } } });
/** Resource 0 holds one good span; resource 1's scope 1 holds a good span, then the bad one. */
const otlpDocument = (bad: object) => ({
  resourceSpans: [{ scopeSpans: [{ spans: [otlpSpan(0)] }] }, { scopeSpans: [{ spans: [otlpSpan(1)] }, { spans: [otlpSpan(2), bad] }] }],
});

let db: Db | undefined;
afterEach(() => {
  db?.close();
  db = undefined;
});

async function problemsOf(file: string, opts = strict): Promise<readonly InputProblem[]> {
  db?.close();
  db = await Db.open();
  try {
    const stats = await loadTraces(db, [file], opts);
    return stats.skipped;
  } catch (err) {
    if (err instanceof InputError) return err.problems;
    throw err;
  }
}

/** Every problem, as the CLI prints it, holds no part of the bad value. */
function expectNoValue(problems: readonly InputProblem[]): void {
  for (const p of problems) expect(formatProblem(p)).not.toContain('ghp_');
}

const dir = () => mkdtempSync(join(tmpdir(), 'argspan-positions-'));
const spanId = SPAN_PROBLEMS.spanId;

describe('a malformed span of a whole document is named by where it is, never by its values', () => {
  it.each([
    ['a Jaeger answer', 'jaeger.json', { data: [jaegerTrace([jaegerSpan(0)]), jaegerTrace([jaegerSpan(1), jaegerSpan(2, CANARY)])] }, 'data[1].spans[1]'],
    ['a Jaeger trace (UI download)', 'trace.json', jaegerTrace([jaegerSpan(0), jaegerSpan(1, CANARY)]), 'spans[1]'],
    ['an OTLP document, pretty-printed', 'otlp.json', otlpDocument(otlpSpan(3, CANARY)), 'resourceSpans[1].scopeSpans[1].spans[1]'],
    ['Jaeger /api/v3 (an OTLP document under "result")', 'v3.json', { result: otlpDocument(otlpSpan(3, CANARY)) }, 'result.resourceSpans[1].scopeSpans[1].spans[1]'],
    ['an OTLP document with the protobuf names', 'phoenix-download.json', { resource_spans: [{ scope_spans: [{ spans: [snakeSpan(0), snakeSpan(1), snakeSpan(2, CANARY)] }] }] }, 'resource_spans[0].scope_spans[0].spans[2]'],
    ["Phoenix's spans/otlpv1 answer", 'phoenix.json', { data: [snakeSpan(0), snakeSpan(1, CANARY), snakeSpan(2)], next_cursor: null }, 'data[1]'],
  ])('%s', async (_, name, doc, at) => {
    const file = join(dir(), name);
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const refused = await problemsOf(file);
    expect(refused).toEqual([{ file, reason: `${at}: malformed span: ${spanId}` }]);
    expectNoValue(refused);
    // --allow-partial analyses the rest and says what it skipped, in the same words.
    expect(await problemsOf(file, partial)).toEqual(refused);
  });

  it('gzip: the position is found in the decompressed document', async () => {
    const file = join(dir(), 'jaeger.json.gz');
    writeFileSync(file, gzipSync(JSON.stringify({ data: [jaegerTrace([jaegerSpan(0), jaegerSpan(1, CANARY)])] })));
    expect(await problemsOf(file)).toEqual([{ file, reason: `data[0].spans[1]: malformed span: ${spanId}` }]);
  });

  it('several spans of one kind are counted, the first three named in document order; each kind on its own', async () => {
    const file = join(dir(), 'jaeger.json');
    const bad = (i: number) => jaegerSpan(i, `${CANARY}${i}`);
    const timeless = { ...jaegerSpan(9), startTime: 'noon' };
    writeFileSync(file, JSON.stringify({ data: [jaegerTrace([jaegerSpan(0), bad(1), timeless]), jaegerTrace([bad(2), jaegerSpan(3), bad(4), bad(5)])] }));
    const problems = await problemsOf(file);
    expect(problems).toEqual([
      { file, reason: `4 malformed spans (first at data[0].spans[1], data[1].spans[0], data[1].spans[2]): ${spanId}` },
      { file, reason: `data[0].spans[2]: malformed span: ${SPAN_PROBLEMS.startTime}` },
    ]);
    expectNoValue(problems);
  });

  it('two spans of one kind are both named', async () => {
    const file = join(dir(), 'otlp.json');
    const doc = otlpDocument(otlpSpan(3, CANARY));
    doc.resourceSpans[0]!.scopeSpans[0]!.spans.push(otlpSpan(4, CANARY));
    writeFileSync(file, JSON.stringify(doc, null, 1));
    expect(await problemsOf(file)).toEqual([{ file, reason: `2 malformed spans (at resourceSpans[0].scopeSpans[0].spans[1], resourceSpans[1].scopeSpans[1].spans[1]): ${spanId}` }]);
  });

  it('a text span id is never quoted, whatever it holds (quotes, a newline, a colon)', async () => {
    const file = join(dir(), 'otlp.json');
    writeFileSync(file, JSON.stringify(otlpDocument(otlpSpan(3, `"${CANARY}\n: data[0]`)), null, 2));
    const problems = await problemsOf(file);
    expect(problems).toEqual([{ file, reason: `resourceSpans[1].scopeSpans[1].spans[1]: malformed span: ${spanId}` }]);
    expectNoValue(problems);
  });

  it('a converted document says where its spans are: LangSmith answers and lists of runs, Phoenix and Langfuse answers, snake_case OTLP, Tempo\'s answers', async () => {
    const d = dir();
    const run = { id: '0d8c2f1e-6a3b-4c5d-8e9f-0a1b2c3d4e5f', trace_id: '0d8c2f1e-6a3b-4c5d-8e9f-0a1b2c3d4e5f', name: 'r', run_type: 'llm', start_time: '2025-01-01T00:00:00Z' };
    const written = async (format: 'langsmith-runs' | 'phoenix-otlp-spans' | 'otlp-document-snake-case' | 'tempo-trace', doc: unknown) => {
      const file = join(d, `${format}.json`);
      writeFileSync(file, JSON.stringify(doc));
      const w = await writeConvertedDocument(file, format, 'none', join(d, `${format}.out.json`));
      return w.spanPath([0, 0, 7]);
    };
    expect(await written('langsmith-runs', [run])).toBe('[7]');
    expect(await written('langsmith-runs', { runs: [run], cursors: {} })).toBe('runs[7]');
    expect(await written('phoenix-otlp-spans', { data: [snakeSpan(0)], next_cursor: null })).toBe('data[7]');
    expect(await written('otlp-document-snake-case', { resource_spans: [] })).toBe('resource_spans[0].scope_spans[0].spans[7]');
    expect(await written('tempo-trace', { batches: [{ instrumentationLibrarySpans: [] }] })).toBe('batches[0].instrumentationLibrarySpans[0].spans[7]');
    expect(await written('tempo-trace', { trace: { resourceSpans: [] } })).toBe('trace.resourceSpans[0].scopeSpans[0].spans[7]');
  });

  it('the paths name indexes only', () => {
    expect(SPAN_PATHS.jaeger([null, 4])).toBe('spans[4]');
    expect(SPAN_PATHS.apiList('')([0, 0, 7])).toBe('[7]');
    expect(SPAN_PATHS.apiList('runs')([0, 0, 7])).toBe('runs[7]');
  });
});

describe('JSON lines: a line holding several spans names where in the line the malformed ones are', () => {
  it('a compact OTLP document (one line) and lines of several spans; a line of one span keeps its line only', async () => {
    const file = join(dir(), 'spans.jsonl');
    const one = (s: object) => JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [s] }] }] });
    writeFileSync(file, [JSON.stringify(otlpDocument(otlpSpan(3, CANARY))), one(otlpSpan(4)), one(otlpSpan(5, CANARY)), JSON.stringify(otlpDocument({ ...otlpSpan(6), kind: 'sideways' }))].join('\n'));
    const problems = await problemsOf(file, partial);
    expect(problems).toEqual([
      { file, line: 1, reason: `resourceSpans[1].scopeSpans[1].spans[1]: malformed span: ${spanId}` },
      { file, line: 3, reason: `malformed span: ${spanId}` },
      { file, line: 4, reason: `resourceSpans[1].scopeSpans[1].spans[1]: malformed span: ${SPAN_PROBLEMS.kind}` },
    ]);
    expectNoValue(problems);
  });

  it('several in one line are counted and the first named', async () => {
    const file = join(dir(), 'spans.jsonl');
    const spans = [0, 1, 2, 3, 4, 5].map((i) => otlpSpan(i, i % 2 ? `${CANARY}${i}` : S(i)));
    writeFileSync(file, `${JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [otlpSpan(9)] }] }] })}\n${JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] })}\n`);
    const problems = await problemsOf(file);
    expect(problems).toEqual([{ file, line: 2, reason: `3 malformed spans (at resourceSpans[0].scopeSpans[0].spans[1], resourceSpans[0].scopeSpans[0].spans[3], resourceSpans[0].scopeSpans[0].spans[5]): ${spanId}` }]);
    expectNoValue(problems);
  });

  it('collector framed output: the message, then where in it', async () => {
    const file = join(dir(), 'traces.bin');
    const message = (doc: object) => Buffer.from(JSON.stringify(doc));
    writeFileSync(file, framed([message(otlpDocument(otlpSpan(3))), message(otlpDocument(otlpSpan(4, CANARY)))]));
    const problems = await problemsOf(file);
    expect(problems).toEqual([{ file, line: 2, reason: `framed message 2: resourceSpans[1].scopeSpans[1].spans[1]: malformed span: ${spanId}` }]);
    expectNoValue(problems);
  });

  it('snake_case lines are named by their own field names', async () => {
    const file = join(dir(), 'spans.jsonl');
    const line = (spans: object[]) => JSON.stringify({ resource_spans: [{ scope_spans: [{ spans }] }] });
    writeFileSync(file, `${line([snakeSpan(0)])}\n${line([snakeSpan(1), snakeSpan(2, CANARY)])}\n`);
    expect(await problemsOf(file)).toEqual([{ file, line: 2, reason: `resource_spans[0].scope_spans[0].spans[1]: malformed span: ${spanId}` }]);
  });
});
