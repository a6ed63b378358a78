import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Db } from '../db.js';
import { DEFAULT_MAX_LINE_BYTES } from '../load/load-file.js';
import { loadTraces } from '../load/load-traces.js';
import { writeForeignTraces } from '../synth/foreign-traces.js';
import { resourceSpansLine, type OtlpSpan } from '../synth/otlp-json.js';
import { rng } from '../synth/realistic.js';
import { loadForeignCalls, type ForeignLoadOptions } from './load-foreign.js';

// Spans are read in file order, a trace handed on once all its candidate spans are in (a run's
// traces once all of them are); traces still open when too many spans are held are read again at
// the end, sorted. Whatever the order of the spans and however little is held, every call is found
// once with the same rows. The runs are conversations of three turns, each turn a trace whose
// user names no city: the first turn's words are what asserts the calls' `city`.
const work = mkdtempSync(join(tmpdir(), 'argspan-foreign-order-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const inOrder = join(work, 'in-order.jsonl');
const shuffled = join(work, 'shuffled.jsonl');
let written: { spans: number; calls: number };

beforeAll(async () => {
  written = await writeForeignTraces(inOrder, 400, 11, 3);
  // The same spans in random order, 37 to a line: every trace's spans spread over the file.
  const spans: { scope: string; span: OtlpSpan }[] = [];
  for (const line of readFileSync(inOrder, 'utf8').split('\n')) {
    if (line === '') continue;
    const doc = JSON.parse(line) as { resourceSpans: { scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[] };
    for (const rs of doc.resourceSpans) for (const ss of rs.scopeSpans) for (const span of ss.spans) spans.push({ scope: ss.scope.name, span });
  }
  const rand = rng(5);
  for (let i = spans.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [spans[i], spans[j]] = [spans[j]!, spans[i]!];
  }
  const scopeOf = new Map(spans.map((s) => [s.span, s.scope]));
  const lines: string[] = [];
  for (let i = 0; i < spans.length; i += 37) {
    lines.push(resourceSpansLine('foreign-agent', '', spans.slice(i, i + 37).map((s) => s.span), {}, (span) => scopeOf.get(span)));
  }
  writeFileSync(shuffled, lines.join('\n') + '\n');
});

/** The foreign rows loadForeignCalls writes for `file`, holding at most `maxHeldSpans` spans of open traces. */
async function foreignRows(file: string, maxHeldSpans: number, options: ForeignLoadOptions = {}, hashKey = new Uint8Array(32).fill(3)) {
  const db = await Db.open();
  try {
    await loadTraces(db, [file], { allowPartial: false, maxLineBytes: DEFAULT_MAX_LINE_BYTES });
    const stats = await loadForeignCalls(db, hashKey, {}, { maxHeldSpans, ...options });
    const all = async (sql: string) => (await db.all(sql)).map((r) => JSON.stringify(r, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v)));
    return {
      stats,
      calls: await all('SELECT * EXCLUDE (file_id) FROM tool_calls ORDER BY ALL'),
      cities: await all(`SELECT provenance, count(*) AS n FROM tool_args WHERE "key" = 'city' GROUP BY ALL ORDER BY ALL`),
      args: await all('SELECT * EXCLUDE (file_id) FROM tool_args ORDER BY ALL'),
      blobs: await all('SELECT * FROM argument_blobs ORDER BY ALL'),
    };
  } finally {
    db.close();
  }
}

describe('loadForeignCalls', () => {
  it('finds every call once, with the same rows, whatever the order of the spans and however few are held', async () => {
    const expected = await foreignRows(inOrder, 50_000);
    expect(expected.stats.calls).toBe(written.calls);
    expect(expected.calls).toHaveLength(written.calls);
    expect(expected.args.length).toBeGreaterThan(5 * written.calls);
    // Every city the user named, in the turn that sent the call or an earlier one; none a guess
    // (the emitters that record no conversation or session have no later turns: each run is one).
    expect(expected.cities.map((c) => JSON.parse(c) as { provenance: string }).map((c) => c.provenance)).toEqual(['user_explicit']);
    for (const [file, maxHeldSpans] of [[inOrder, 0], [shuffled, 50_000], [shuffled, 5], [shuffled, 0]] as const) {
      const got = await foreignRows(file, maxHeldSpans);
      expect(got, `${file} holding ${maxHeldSpans}`).toEqual(expected);
    }
  });

  // Enough spans for several batches, so both workers get some and their rows arrive out of order;
  // and small batches, each holding the whole of every run (evidence window) it has.
  it('gives the same rows classified in worker threads as inline', async () => {
    const many = join(work, 'many.jsonl');
    const { calls } = await writeForeignTraces(many, 5_000, 11, 3);
    const inline = await foreignRows(many, 50_000, { threads: 1 });
    expect(inline.stats.calls).toBe(calls);
    for (const batchSpans of [2_000, 20]) {
      const threaded = await foreignRows(many, 50_000, { threads: 2, minThreadedSpans: 0, batchSpans });
      expect(threaded, `batches of ${batchSpans} spans`).toEqual(inline);
    }
  });

  it('fails the load, naming no data, when a classifier thread fails', async () => {
    // A key too short for the hasher: each worker throws as it starts.
    const failed = foreignRows(inOrder, 50_000, { threads: 2, minThreadedSpans: 0 }, new Uint8Array(4));
    await expect(failed).rejects.toThrow(/^internal error: a foreign-call classifier thread failed \(Error\)$/);
  });
});
