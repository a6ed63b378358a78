import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Db } from '../db.js';
import { InputError } from './input-error.js';
import { DEFAULT_MAX_LINE_BYTES } from './load-file.js';
import { loadTraces } from './load-traces.js';

const FIX = fileURLToPath(new URL('../../../fixtures/traces/', import.meta.url));
const fx = (p: string) => join(FIX, p);
const strict = { allowPartial: false, maxLineBytes: DEFAULT_MAX_LINE_BYTES };

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
    const events = await db.all(`SELECT "name" FROM events WHERE span_id = '0000000000000002' ORDER BY event_index`);
    expect(events.map((e) => e.name)).toEqual(['some-event', 'log']);
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
    const huge = `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"01","spanId":"02","name":"${'x'.repeat(2 * DEFAULT_MAX_LINE_BYTES + 10)}"}]}]}]}`;
    writeFileSync(file, `${good}\n${huge}\n${good}\n`);
    const err = await loadError([file]);
    expect(err.problems).toEqual([{ file, line: 2, reason: expect.stringMatching(/larger than the maximum JSON object size/) }]);
    db?.close();
    const ok = await load([file], { ...strict, maxLineBytes: 64 * 1024 * 1024 });
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
