import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { framed, zstdRawFrame } from '../../../test/support/zstd-raw.js';
import { Db } from '../db.js';
import { InputError } from './input-error.js';
import { MAX_JSON_NESTING } from './json-byte-scan.js';
import { DEFAULT_MAX_LINE_BYTES } from './load-file.js';
import { loadTraces } from './load-traces.js';
import { SPAN_PROBLEMS } from './schema.js';

const FIX = fileURLToPath(new URL('../../../fixtures/traces/', import.meta.url));
const fx = (p: string) => join(FIX, p);
const strict = { allowPartial: false, maxLineBytes: DEFAULT_MAX_LINE_BYTES };
const partial = { ...strict, allowPartial: true };
const dir = () => mkdtempSync(join(tmpdir(), 'argspan-malformed-'));

let db: Db | undefined;
afterEach(() => {
  db?.close();
  db = undefined;
});
async function load(files: string[], opts = strict) {
  db = await Db.open();
  const stats = await loadTraces(db, files, opts);
  return { db, stats };
}
async function loadError(files: string[], opts = strict): Promise<InputError> {
  try {
    await load(files, opts);
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error('expected an InputError');
}

describe('input formats', () => {
  const formats = [
    'formats/otlp-lines.jsonl',
    'formats/otlp-lines.jsonl.gz',
    'formats/otlp-lines.jsonl.zst',
    'formats/rotated/traces.jsonl.1',
    'formats/otlp-document.json',
    'formats/otlp-result.json',
    'formats/jaeger-envelope.json',
    'formats/jaeger-trace.json',
    'formats/collector-framed-json.bin',
    'formats/collector-framed-gzip.bin',
    'formats/collector-framed-zstd.bin',
    'formats/quirks.jsonl',
  ];
  it.each(formats)('%s loads the Tokyo trace: 10 spans, parents resolved, argspan tables built', async (file) => {
    const { db, stats } = await load([fx(file)]);
    expect(stats.spans).toBe(10);
    const calls = await db.all(`SELECT tool, turn_span_id, args_count FROM tool_calls ORDER BY tool`);
    expect(calls.map((c) => c.tool)).toEqual(['calendar.create', 'contacts.lookup']);
    expect(calls.every((c) => typeof c.turn_span_id === 'string')).toBe(true);
    const args = await db.all(`SELECT "key", provenance, denylisted, tool FROM tool_args WHERE provenance = 'model_inferred' ORDER BY "key"`);
    expect(args).toEqual([
      { key: 'attendee.email', provenance: 'model_inferred', denylisted: true, tool: 'calendar.create' },
      { key: 'timezone', provenance: 'model_inferred', denylisted: true, tool: 'calendar.create' },
    ]);
    const lineage = await db.one(`SELECT a.source_span_id = c.span_id AS ok FROM tool_args a JOIN tool_calls c ON c.tool = 'contacts.lookup' WHERE a."key" = 'attendee.name'`);
    expect(lineage.ok).toBe(true);
  });

  it('normalises upper-case ids, numeric 64-bit times and empty parent ids (quirks.jsonl)', async () => {
    const { db } = await load([fx('formats/quirks.jsonl')]);
    const bad = await db.one(`SELECT count(*) FILTER (WHERE trace_id <> lower(trace_id) OR span_id <> lower(span_id)) AS upper,
      count(*) FILTER (WHERE start_ns IS NULL) AS no_time, count(*) FILTER (WHERE parent_span_id = '') AS empty_parent FROM spans`);
    expect(bad).toEqual({ upper: '0', no_time: '0', empty_parent: '0' });
    expect((await db.one(`SELECT count(*) AS n FROM spans WHERE parent_span_id IS NULL`)).n).toBe('1');
    expect((await db.one(`SELECT args_count FROM tool_calls WHERE tool = 'calendar.create'`)).args_count).toBe('6');
  });

  it('counts a span seen in two overlapping exports once', async () => {
    const { stats } = await load([fx('formats/overlap-a.jsonl'), fx('formats/overlap-b.jsonl')]);
    expect(stats.spans).toBe(10);
    expect(stats.duplicates).toBe(3);
  });

  it('reads the real OTLP example and Jaeger UI trace from the corpus', async () => {
    const { db, stats } = await load([fx('corpus/opentelemetry-proto-example-trace.json'), fx('corpus/jaeger-ui-model-trace.json')]);
    expect(stats.spans).toBe(1 + 4); // the Jaeger trace repeats span id 2: counted once
    expect(stats).toMatchObject({ duplicates: 1, conflicts: 1 }); // …with other content: the copy with more attributes is analysed
    const otlp = await db.one(`SELECT trace_id, span_id, parent_span_id, kind, duration_ns, service_name, scope_name FROM spans WHERE "name" = 'I''m a server span'`);
    expect(otlp).toEqual({
      trace_id: '5b8efff798038103d269b633813fc60c',
      span_id: 'eee19b7ec3c1b174',
      parent_span_id: 'eee19b7ec3c1b173',
      kind: 'server',
      duration_ns: '1000000000',
      service_name: 'my.service',
      scope_name: 'my.library',
    });
    const j = await db.one(`SELECT parent_span_id, service_name FROM spans WHERE span_id = '0000000000000004'`);
    expect(j).toEqual({ parent_span_id: '0000000000000002', service_name: 'service-y' });
    const links = await db.all(`SELECT linked_trace_id, linked_span_id, ref_type FROM links WHERE span_id = '0000000000000004' ORDER BY link_index`);
    expect(links).toEqual([
      { linked_trace_id: '000000000000000000000000000000ff', linked_span_id: '00000000000000ff', ref_type: 'CHILD_OF' },
      { linked_trace_id: '00000000000000000000000000000001', linked_span_id: '0000000000000002', ref_type: 'FOLLOWS_FROM' },
    ]);
    // Span id 2's two copies: the one with tags (and no logs) is kept, whatever their order; the other is kept aside for the credential re-scan.
    expect((await db.one(`SELECT "name" FROM spans WHERE span_id = '0000000000000002'`)).name).toBe('some-operation');
    expect(await db.all(`SELECT "name" FROM events WHERE span_id = '0000000000000002'`)).toEqual([]);
    const aside = await db.all(`SELECT "name" FROM dropped_copies`);
    expect(aside.map((r) => r.name)).toEqual(['test-general-conversion']);
  });
});

describe('bad input names the file and line', () => {
  it.each([
    ['bad/truncated.jsonl', 2, /not valid JSON/],
    ['bad/not-json.jsonl', 2, /not valid JSON/],
    ['bad/other-shape.jsonl', 2, /another shape/],
  ])('%s: line %d', async (file, line, reason) => {
    const err = await loadError([fx(file)]);
    expect(err.problems).toEqual([{ file: fx(file), line, reason: expect.stringMatching(reason) }]);
    expect(err.message).toContain(`${fx(file)}:${line}:`);
  });

  it('a pretty-printed document cut off is named as one: line 1, cut off or corrupt (not "could not be read as its detected format")', async () => {
    const doc = JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 's' }, spans: [{ traceId: '0123456789abcdef0123456789abcdef', spanId: '0123456789abcdef', name: 'x', startTimeUnixNano: '1', endTimeUnixNano: '2' }] }] }] }, null, 2);
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-cut-')), 'cut.json');
    writeFileSync(file, doc.slice(0, doc.indexOf('"name": "x"')));
    const err = await loadError([file]);
    expect(err.problems).toEqual([{ file, line: 1, reason: 'not valid JSON (a truncated or corrupt document)' }]);
  });

  it('counts CRLF line ends once', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-crlf-')), 'crlf.jsonl');
    writeFileSync(file, '{"resourceSpans":[]}\r\n\r\n{"resourceSpans":[]}\r\n{"resourceSpans":[\r\n');
    const err = await loadError([file]);
    expect(err.problems).toEqual([{ file, line: 4, reason: expect.stringMatching(/not valid JSON/) }]);
  });

  it('an empty file', async () => {
    const err = await loadError([fx('bad/empty.jsonl')]);
    expect(err.message).toMatch(/empty\.jsonl: file is empty/);
  });

  it('a truncated framed message names the message', async () => {
    const err = await loadError([fx('bad/collector-framed-truncated.bin')]);
    expect(err.problems[0]).toMatchObject({ line: 2, reason: expect.stringMatching(/framed message 2 is truncated/) });
  });

  it('protobuf framed messages are refused as not supported, naming the file', async () => {
    for (const f of ['formats/collector-framed-proto.bin', 'formats/collector-framed-proto-zstd.bin']) {
      const err = await loadError([fx(f)]);
      expect(err.message).toContain(fx(f));
      expect(err.message).toMatch(/protobuf messages is not supported/);
    }
  });

  it('a line larger than the maximum object size', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'argspan-huge-'));
    const file = join(dir, 'huge.jsonl');
    const good = '{"resourceSpans":[]}';
    // DuckDB's reader tolerates up to about twice maximum_object_size; past that it refuses the file.
    const huge = `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"${'0'.repeat(31)}1","spanId":"${'0'.repeat(15)}2","name":"${'x'.repeat(2 * DEFAULT_MAX_LINE_BYTES + 10)}"}]}]}]}`;
    writeFileSync(file, `${good}\n${huge}\n${good}\n`);
    const err = await loadError([file]);
    expect(err.problems).toEqual([{ file, line: 2, reason: expect.stringMatching(/larger than the maximum JSON object size/) }]);
    db?.close();
    const ok = await load([file], { ...strict, maxLineBytes: 64 * 1024 * 1024 });
    expect(ok.stats.spans).toBe(1);
  });

  it('a line over a small maximum, though within what DuckDB\'s reader tolerates, is refused by line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'argspan-long-'));
    const file = join(dir, 'long.jsonl');
    const good = '{"resourceSpans":[]}';
    const long = `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"${'0'.repeat(31)}1","spanId":"${'0'.repeat(15)}2","name":"${'x'.repeat(1400)}","startTimeUnixNano":"1","endTimeUnixNano":"2"}]}]}]}`;
    writeFileSync(file, `${good}\r\n${long}\r\n${good}\r\n`);
    const err = await loadError([file], { ...strict, maxLineBytes: 1000 });
    expect(err.problems).toEqual([{ file, line: 2, reason: `line is ${long.length} bytes, larger than the maximum JSON object size (1000 bytes; raise it with --max-line-bytes)` }]);
    db?.close();
    const ok = await load([file], { ...strict, maxLineBytes: long.length });
    expect(ok.stats.spans).toBe(1);
  });

  it('--allow-partial loads the readable rest and lists what it skipped', async () => {
    const { stats } = await load([fx('bad/not-json.jsonl'), fx('bad/empty.jsonl')], { ...strict, allowPartial: true });
    expect(stats.spans).toBe(6); // lines 1 and 3, three spans each
    expect(stats.skipped.map((p) => [p.file, p.line])).toEqual([
      [fx('bad/not-json.jsonl'), 2],
      [fx('bad/empty.jsonl'), undefined],
    ]);
  });

  it('--allow-partial still fails when nothing at all was readable', async () => {
    const err = await loadError([fx('bad/empty.jsonl')], { ...strict, allowPartial: true });
    expect(err.message).toMatch(/nothing readable/);
  });
});

const T = '5b8efff798038103d269b633813fc60c';
const S = 'eee19b7ec3c1b174';
/** One OTLP JSON line holding these spans. */
const line = (...spans: object[]) => JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'x' }, spans }] }] });
const span = (over: object = {}) => ({ traceId: T, spanId: S, name: 'op', kind: 1, startTimeUnixNano: '1', endTimeUnixNano: '2', ...over });
const TOO_DEEP = `nesting deeper than ${MAX_JSON_NESTING} levels`;
const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe('malformed spans are named by file and line (by place in a document), never dropped or padded', () => {
  it.each([
    ['no ids at all', { traceId: undefined, spanId: undefined }, SPAN_PROBLEMS.traceId],
    ['no span id', { spanId: undefined }, SPAN_PROBLEMS.spanId],
    ['a span id that is not hex', { spanId: 'zz' }, SPAN_PROBLEMS.spanId],
    ['a short span id', { spanId: 'abc' }, SPAN_PROBLEMS.spanId],
    ['a 64-bit span id as a JSON number of 16 digits', { spanId: 1234567890123456 }, SPAN_PROBLEMS.spanId],
    ['a 64-bit span id as a JSON number', { spanId: 8124493727776374785 }, SPAN_PROBLEMS.spanId],
    ['an all-zero trace id', { traceId: '0'.repeat(32) }, SPAN_PROBLEMS.traceId],
    ['a parent id that is not hex', { parentSpanId: 'not-a-span' }, SPAN_PROBLEMS.parentSpanId],
    ['a start time that is an object', { startTimeUnixNano: { x: 1 } }, SPAN_PROBLEMS.startTime],
    ['a negative end time', { endTimeUnixNano: '-5' }, SPAN_PROBLEMS.endTime],
    ['an unknown kind', { kind: 'sideways' }, SPAN_PROBLEMS.kind],
    ['a kind number out of range', { kind: 9 }, SPAN_PROBLEMS.kind],
    ['an unknown status code', { status: { code: 'MAYBE' } }, SPAN_PROBLEMS.status],
    ['a link without ids', { links: [{ traceId: T }] }, SPAN_PROBLEMS.link],
    ['an event whose time is text', { events: [{ name: 'e', timeUnixNano: 'noon' }] }, SPAN_PROBLEMS.eventTime],
    ['an int attribute that is not an integer', { attributes: [{ key: 'n', value: { intValue: 'many' } }] }, SPAN_PROBLEMS.intValue],
  ])('%s', async (_, over, reason) => {
    const file = join(dir(), 'spans.jsonl');
    writeFileSync(file, `${line(span())}\n${line(span({ spanId: 'eee19b7ec3c1b175' }), span(over))}\n`);
    const err = await loadError([file]);
    // The line holds two spans: where in it the bad one is is named too.
    expect(err.problems).toEqual([{ file, line: 2, reason: `resourceSpans[0].scopeSpans[0].spans[1]: malformed span: ${reason}` }]);
    db?.close();
    // --allow-partial keeps the good spans of the same line, and says what it skipped.
    const { stats } = await load([file], partial);
    expect(stats.spans).toBe(2);
    expect(stats.skipped).toEqual([{ file, line: 2, reason: `resourceSpans[0].scopeSpans[0].spans[1]: malformed span: ${reason}` }]);
  });

  it('accepts what the OTLP/JSON mapping allows: hex of either case, 64-bit numbers as numbers, enum names and numbers, an empty parent', async () => {
    const file = join(dir(), 'ok.jsonl');
    writeFileSync(file, `${line(span({ traceId: T.toUpperCase(), kind: 'SPAN_KIND_SERVER', startTimeUnixNano: 1764460800000000000, parentSpanId: '', status: { code: 'STATUS_CODE_ERROR' } }), span({ spanId: 'EEE19B7EC3C1B175', kind: 3, status: { code: 2 }, parentSpanId: S }))}\n`);
    const { db } = await load([file]);
    expect(await db.all(`SELECT trace_id, span_id, parent_span_id, kind, status_code, start_ns FROM spans ORDER BY span_id`)).toEqual([
      { trace_id: T, span_id: S, parent_span_id: null, kind: 'server', status_code: 'error', start_ns: '1764460800000000000' },
      { trace_id: T, span_id: 'eee19b7ec3c1b175', parent_span_id: S, kind: 'client', status_code: 'error', start_ns: '1' },
    ]);
  });

  it('a file whose every span is malformed is never "no findings": even --allow-partial fails', async () => {
    const file = join(dir(), 'all-bad.jsonl');
    writeFileSync(file, `${line({ name: 'a' }, { name: 'b' })}\n`);
    const err = await loadError([file], partial);
    expect(err.problems[0]).toEqual({ file, line: 1, reason: `2 malformed spans (at resourceSpans[0].scopeSpans[0].spans[0], resourceSpans[0].scopeSpans[0].spans[1]): ${SPAN_PROBLEMS.traceId}` });
    expect(err.message).toMatch(/nothing readable/);
  });

  it('Jaeger spans without ids, or with ids as numbers, are malformed; short hex ids are padded', async () => {
    const d = dir();
    const trace = (s: object) => JSON.stringify({ data: [{ traceID: 'abc', spans: [{ traceID: 'abc', operationName: 'op', startTime: 1, duration: 1, tags: [], logs: [], references: [], processID: 'p1', ...s }], processes: { p1: { serviceName: 's', tags: [] } } }] });
    for (const [name, s, reason] of [
      ['no-ids.json', { traceID: undefined }, SPAN_PROBLEMS.traceId],
      ['no-span-id.json', {}, SPAN_PROBLEMS.spanId],
      ['number-id.json', { spanID: 1234 }, SPAN_PROBLEMS.spanId],
      ['text-time.json', { spanID: 'ab', startTime: 'noon' }, SPAN_PROBLEMS.startTime],
    ] as const) {
      const file = join(d, name);
      writeFileSync(file, trace(s));
      expect((await loadError([file])).problems, name).toEqual([{ file, reason: `data[0].spans[0]: malformed span: ${reason}` }]);
      db?.close();
    }
    const ok = join(d, 'ok.json');
    writeFileSync(ok, trace({ spanID: 'AB' }));
    const { db: loaded } = await load([ok]);
    expect(await loaded.one('SELECT trace_id, span_id FROM spans')).toEqual({ trace_id: `${'0'.repeat(29)}abc`, span_id: `${'0'.repeat(14)}ab` });
  });
});

describe('nesting deeper than the limit is refused before DuckDB parses it (it would overflow its stack)', () => {
  const tokyo = readFileSync(fx('tokyo-invite.jsonl'), 'utf8').trim();
  const inResourceSpans = `{"resourceSpans":[${deep(100_000)}]}`;
  const inAttribute = tokyo.replace('{"stringValue":"agent"}', `{"stringValue":"agent","kvlistValue":${deep(100_000)}}`);

  it.each([
    ['plain', (s: string) => Buffer.from(s), 'deep.jsonl'],
    ['gzip', (s: string) => gzipSync(s), 'deep.jsonl.gz'],
    ['zstd', (s: string) => zstdRawFrame(Buffer.from(s)), 'deep.jsonl.zst'],
  ] as const)('OTLP JSON lines, %s: inside resourceSpans and inside an attribute value', async (_, encode, name) => {
    const file = join(dir(), name);
    writeFileSync(file, encode(`${tokyo}\n${inResourceSpans}\n${inAttribute}\n`));
    expect((await loadError([file])).problems).toEqual([
      { file, line: 2, reason: TOO_DEEP },
      { file, line: 3, reason: TOO_DEEP },
    ]);
    db?.close();
    expect((await load([file], partial)).stats.spans).toBe(10);
  });

  it.each([
    ['an OTLP document', 'deep.json', () => `{\n"resourceSpans": [\n${deep(100_000)}\n]}`, 3],
    ['a Jaeger trace', 'jaeger.json', () => `{"traceID":"ab","spans":[{"spanID":"cd","tags":[{"key":"k","type":"string","value":${deep(100_000)}}]}]}`, 1],
  ])('%s', async (_, name, text, lineNo) => {
    const file = join(dir(), name);
    writeFileSync(file, text());
    expect((await loadError([file])).problems).toEqual([{ file, line: lineNo, reason: TOO_DEEP }]);
  });

  it.each([
    ['json', (s: string) => Buffer.from(s)],
    ['gzip', (s: string) => gzipSync(s)],
    ['zstd', (s: string) => zstdRawFrame(Buffer.from(s))],
  ] as const)('collector framed output, %s messages: names the message', async (_, encode) => {
    const file = join(dir(), 'framed.bin');
    writeFileSync(file, framed([encode(tokyo), encode(inAttribute)]));
    expect((await loadError([file])).problems).toEqual([{ file, line: 2, reason: `framed message 2: ${TOO_DEEP}` }]);
  });
});

describe('bytes that are not UTF-8 are named by line, never quoted', () => {
  const lines = readFileSync(fx('bad/not-json.jsonl'), 'utf8').split('\n');
  it.each([
    ['plain', (b: Buffer) => b, 'utf8.jsonl'],
    ['gzip', (b: Buffer) => gzipSync(b), 'utf8.jsonl.gz'],
    ['zstd', (b: Buffer) => zstdRawFrame(b), 'utf8.jsonl.zst'],
  ] as const)('%s: the lines after a bad one keep their numbers under --allow-partial', async (_, encode, name) => {
    const file = join(dir(), name);
    const bad = Buffer.concat([Buffer.from(lines[0]!.slice(0, 40)), Buffer.from([0xff, 0xfe]), Buffer.from(lines[0]!.slice(40))]);
    // line 1 bad, 2 good, 3 blank, 4 bad, 5 not JSON, 6 good
    writeFileSync(file, encode(Buffer.concat([bad, Buffer.from(`\n${lines[0]}\n\n`), bad, Buffer.from(`\n{"resourceSpans":[\n${lines[2]}\n`)])));
    const expected = [
      { file, line: 1, reason: 'invalid UTF-8' },
      { file, line: 4, reason: 'invalid UTF-8' },
      { file, line: 5, reason: expect.stringMatching(/not valid JSON/) },
    ];
    expect((await loadError([file])).problems).toEqual(expected);
    db?.close();
    const { stats } = await load([file], partial);
    expect(stats.skipped).toEqual(expected);
    expect(stats.spans).toBe(6);
  });
});
