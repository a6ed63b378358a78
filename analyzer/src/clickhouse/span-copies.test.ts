import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClickHouseClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../analyze.js';
import { Db } from '../db.js';
import { DEFAULT_MAX_LINE_BYTES } from '../load/load-file.js';
import { loadTraces } from '../load/load-traces.js';
import { chdbClient } from '../synth/chdb-client.js';
import { exporterRowsOfFile, otelTracesDdl } from '../synth/collector-rows.js';
import type { AnalysisResult } from '../types.js';
import { analyzeClickHouse } from './analyze-clickhouse.js';
import { ChSession } from './client.js';
import { openSource } from './source.js';
import { DROPPED_COPIES, contentHashSql, findSpanCopies } from './span-copies.js';

// One span (trace id + span id) in three exports: two identical copies (a retried export) and one
// that differs — fewer attributes, one of them a GitHub-shaped token (built here, never written in
// the source). Both engines keep the same copy whatever the inputs' order, count the same, and
// report the token although its copy is not the one analysed.
const T = '7c1d0a5e9b3f42d8a6e1c0b9f8d7e6a5';
const S = '1a2b3c4d5e6f7081';
const TOKEN = ['gh', 'p_'].join('') + randomBytes(18).toString('hex');
type Attr = { key: string; value: Record<string, unknown> };
const SERVICE: Attr[] = [{ key: 'service.name', value: { stringValue: 'svc' } }];
type SpanEvent = { name: string; timeUnixNano: string; attributes: Attr[] };
/** One resource block: span `S` with `attributes` and `events`, then spans of `others` (span ids) with none. */
const docOf = (attributes: Attr[], resource: Attr[] = SERVICE, others: readonly string[] = [], events: SpanEvent[] = []) =>
  JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: resource },
        scopeSpans: [
          {
            scope: { name: 'some.library' },
            spans: [S, ...others].map((spanId, i) => ({
              traceId: T, spanId, name: 'op', kind: 1, startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000500000000', attributes: i === 0 ? attributes : [], ...(i === 0 && events.length ? { events } : {}),
            })),
          },
        ],
      },
    ],
  }) + '\n';
const doc = (attributes: Attr[]) => docOf(attributes);
const FULL = [
  { key: 'http.route', value: { stringValue: '/a' } },
  { key: 'http.method', value: { stringValue: 'GET' } },
];
const TRIMMED = [{ key: 'note', value: { stringValue: `pushed with ${TOKEN} today` } }];
/** As many attributes as TRIMMED: the copies are told apart by their attributes' text ("note␂a plain note" first). */
const PLAIN = [{ key: 'note', value: { stringValue: 'a plain note' } }];

let dir: string;
let full: string;
let again: string;
let trimmed: string;
let plain: string;
let client: ClickHouseClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'argspan-span-copies-'));
  [full, again, trimmed, plain] = ['full.jsonl', 'again.jsonl', 'trimmed.jsonl', 'plain.jsonl'].map((f) => join(dir, f)) as [string, string, string, string];
  writeFileSync(plain, doc(PLAIN));
  writeFileSync(full, doc(FULL));
  writeFileSync(again, doc(FULL));
  writeFileSync(trimmed, doc(TRIMMED));
  client = chdbClient(':memory:');
  await client.command({ query: 'DROP TABLE IF EXISTS otel_traces' });
  await client.command({ query: otelTracesDdl() });
});
afterAll(async () => {
  await client.command({ query: 'DROP TABLE IF EXISTS otel_traces' });
  await client.close();
});

/** The token's finding, as every engine must give it: on the span, by rule, the value nowhere in the result. */
function expectTokenReported(r: AnalysisResult): void {
  const hit = r.findings.filter((f) => f.rule === 'credential_in_attribute');
  expect(hit).toHaveLength(1);
  expect(hit[0]).toMatchObject({ trace_id: T, span_id: S, key: 'note' });
  expect(JSON.stringify(r)).not.toContain(TOKEN);
}

const ORDERS = () => [
  [trimmed, full, again],
  [full, again, trimmed],
];

describe('differing copies of a span, in DuckDB', () => {
  it('keeps the copy with the most attributes whatever the files\' order, and counts the copies', async () => {
    for (const files of ORDERS()) {
      const db = await Db.open();
      try {
        const stats = await loadTraces(db, files, { allowPartial: false, maxLineBytes: DEFAULT_MAX_LINE_BYTES });
        expect(stats).toMatchObject({ spans: 1, duplicates: 2, conflicts: 1 });
        const keys = await db.all(`SELECT "key" FROM span_attributes WHERE span_id = '${S}' ORDER BY "key"`);
        expect(keys.map((k) => k.key)).toEqual(['http.method', 'http.route']);
        // The copy not kept is kept aside, once, for the credential re-scan.
        expect(Number((await db.one('SELECT count(*) AS n FROM dropped_copies')).n)).toBe(1);
      } finally {
        db.close();
      }
    }
  });

  it('reports the token of the copy not analysed, with the stats', async () => {
    for (const files of ORDERS()) {
      const r = await analyze({ paths: files });
      expect(r.stats).toMatchObject({ spans: 1, duplicate_spans: 2, conflicting_spans: 1, conflicting_call_spans: 0 });
      expectTokenReported(r);
    }
  });

  it('between copies with as many attributes, keeps the one whose attributes\' text sorts first', async () => {
    for (const files of [[trimmed, plain], [plain, trimmed]]) {
      const db = await Db.open();
      try {
        expect(await loadTraces(db, files, { allowPartial: false, maxLineBytes: DEFAULT_MAX_LINE_BYTES })).toMatchObject({ spans: 1, duplicates: 1, conflicts: 1 });
        const kept = await db.all(`SELECT str_value FROM span_attributes WHERE span_id = '${S}'`);
        expect(kept.map((k) => k.str_value)).toEqual(['a plain note']);
      } finally {
        db.close();
      }
      expectTokenReported(await analyze({ paths: files }));
    }
  });

  it('identical copies only: one span, no conflict', async () => {
    const r = await analyze({ paths: [full, again] });
    expect(r.stats).toMatchObject({ spans: 1, duplicate_spans: 1, conflicting_spans: 0 });
  });
});

describe('differing copies of a span, in ClickHouse (chdb)', () => {
  /** The exporter's rows of `files`, inserted in that order (one insert per file). */
  async function exportRows(files: readonly string[]): Promise<void> {
    await client.command({ query: 'TRUNCATE TABLE otel_traces' });
    for (const f of files) await client.insert({ table: 'otel_traces', values: exporterRowsOfFile(f), format: 'JSONEachRow' });
  }

  /** The rows of `files` exported in that order, the copies counted, and `columns` of the rows `dropped_copies` names. */
  async function dropped(files: readonly string[], columns: string): Promise<{ copies: Awaited<ReturnType<typeof findSpanCopies>>; rows: Record<string, unknown>[] }> {
    await exportRows(files);
    const session = new ChSession(client, 'chdb');
    const src = await openSource(session, 'default', 'otel_traces', { maxTraceDurationMs: 3_600_000 });
    try {
      const copies = await findSpanCopies(session, src);
      const rows = await session.all(
        `SELECT ${columns} FROM otel_traces WHERE (TraceId, SpanId, ${contentHashSql(src)}) IN (SELECT TraceId, SpanId, content FROM ${DROPPED_COPIES})`,
        'reading the dropped copies',
      );
      return { copies, rows };
    } finally {
      await session.run(`DROP TEMPORARY TABLE IF EXISTS ${DROPPED_COPIES}`, 'dropping');
    }
  }

  it('drops the same copy as DuckDB whatever the rows\' order', async () => {
    for (const files of ORDERS()) {
      const { copies, rows } = await dropped(files, 'mapKeys(SpanAttributes) AS keys');
      expect(copies).toEqual({ spans: 1, duplicates: 2, conflicts: 1, table: true });
      expect(rows).toEqual([{ keys: ['note'] }]);
    }
  });

  it('between copies with as many attributes, drops the same one as DuckDB', async () => {
    for (const files of [[trimmed, plain], [plain, trimmed]]) {
      const { copies, rows } = await dropped(files, `SpanAttributes['note'] = 'a plain note' AS plain`);
      expect(copies).toEqual({ spans: 1, duplicates: 1, conflicts: 1, table: true });
      expect(rows.map((d) => Boolean(d.plain))).toEqual([false]);
      expectTokenReported(await analyzeClickHouse({ client }));
    }
  });

  it('orders typed values by the text the exporter writes, as DuckDB does ("n␂10" before "n␂9")', async () => {
    const ten = join(dir, 'ten.jsonl');
    const nine = join(dir, 'nine.jsonl');
    writeFileSync(ten, doc([{ key: 'n', value: { intValue: 10 } }, { key: 'ratio', value: { doubleValue: 2 } }]));
    writeFileSync(nine, doc([{ key: 'n', value: { intValue: '9' } }, { key: 'ratio', value: { doubleValue: 2 } }]));
    for (const files of [[nine, ten], [ten, nine]]) {
      const db = await Db.open();
      try {
        await loadTraces(db, files, { allowPartial: false, maxLineBytes: DEFAULT_MAX_LINE_BYTES });
        expect((await db.one(`SELECT int_value FROM span_attributes WHERE "key" = 'n'`)).int_value).toBe('10');
      } finally {
        db.close();
      }
      expect((await dropped(files, `SpanAttributes['n'] AS n`)).rows).toEqual([{ n: '9' }]);
    }
  });

  it('reads another library\'s tool call from the copy DuckDB keeps, the token from the other', async () => {
    const call = (args: string, more: { key: string; value: { stringValue: string } }[]) =>
      doc([{ key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } }, { key: 'gen_ai.tool.call.arguments', value: { stringValue: args } }, ...more]);
    const kept = join(dir, 'call-kept.jsonl');
    const other = join(dir, 'call-other.jsonl');
    writeFileSync(kept, call('{"path":"/tmp/report.txt"}', [{ key: 'gen_ai.tool.name', value: { stringValue: 'upload' } }]));
    writeFileSync(other, call(`{"path":"/tmp/report.txt","token":"${TOKEN}"}`, []));
    for (const files of [[other, kept], [kept, other]]) {
      await exportRows(files);
      const ch = await analyzeClickHouse({ client });
      const duck = await analyze({ paths: files });
      expect(duck.stats.foreign_calls).toBe(1);
      expect(ch.stats).toMatchObject({ spans: 1, duplicate_spans: 1, conflicting_spans: 1, conflicting_call_spans: 1, foreign_calls: 1 });
      expect(duck.stats).toMatchObject({ conflicting_spans: 1, conflicting_call_spans: 1 });
      expect(ch.findings.map((f) => ({ ...f, file: null }))).toEqual(duck.findings.map((f) => ({ ...f, file: null })));
      expect(ch.findings.some((f) => f.rule === 'credential_in_attribute' && f.span_id === S)).toBe(true);
      expect(JSON.stringify(ch)).not.toContain(TOKEN);
      expect(JSON.stringify(duck)).not.toContain(TOKEN);
    }
  });

  it('reports the token and the same stats as DuckDB', async () => {
    for (const files of ORDERS()) {
      await exportRows(files);
      const ch = await analyzeClickHouse({ client });
      expect(ch.stats).toMatchObject({ spans: 1, duplicate_spans: 2, conflicting_spans: 1, conflicting_call_spans: 0 });
      expectTokenReported(ch);
      const duck = await analyze({ paths: files });
      expect(ch.findings.map((f) => ({ ...f, file: null }))).toEqual(duck.findings.map((f) => ({ ...f, file: null })));
    }
  });
});

describe('a credential only in the resource of a copy not analysed', () => {
  // The dropped copy (fewer attributes) comes in a resource block of its own, whose resource holds
  // the token; the kept copy's resource does not. With `S2` the same block also holds a span kept
  // (no other copy), so the resource is the kept span's too; in `keptTokenToo` the kept copy's own
  // (other) resource holds the same token. The token is reported once, on the resource's first span
  // of every copy (`S`, before `S2`), in both engines.
  const S2 = 'ff00000000000001';
  const TOKEN_RESOURCE: Attr[] = [...SERVICE, { key: 'deploy.note', value: { stringValue: `pushed with ${TOKEN}` } }];
  const CASES = { ownResource: ['kept', 'own'], sharedResource: ['kept', 'shared'], keptTokenToo: ['keptToken', 'own'] } as const;
  let files: Record<'kept' | 'keptToken' | 'own' | 'shared', string>;
  beforeAll(() => {
    files = { kept: join(dir, 'res-kept.jsonl'), keptToken: join(dir, 'res-kept-token.jsonl'), own: join(dir, 'res-own.jsonl'), shared: join(dir, 'res-shared.jsonl') };
    writeFileSync(files.kept, docOf(FULL));
    writeFileSync(files.keptToken, docOf(FULL, [...TOKEN_RESOURCE, { key: 'host.name', value: { stringValue: 'h1' } }]));
    writeFileSync(files.own, docOf(PLAIN, TOKEN_RESOURCE));
    writeFileSync(files.shared, docOf(PLAIN, TOKEN_RESOURCE, [S2]));
  });

  /** The token's one finding, on `S`, by resource key; the value nowhere. */
  function expectResourceTokenOnce(r: AnalysisResult): void {
    const hit = r.findings.filter((f) => f.rule === 'credential_in_attribute');
    expect(hit.map((f) => ({ trace_id: f.trace_id, span_id: f.span_id, key: f.key }))).toEqual([{ trace_id: T, span_id: S, key: 'deploy.note' }]);
    expect(JSON.stringify(r)).not.toContain(TOKEN);
  }

  for (const [name, [kept, dropped]] of Object.entries(CASES)) {
    it(`is reported once by both engines, whatever the order (${name})`, async () => {
      for (const order of [[files[kept], files[dropped]], [files[dropped], files[kept]]]) {
        const duck = await analyze({ paths: order });
        expect(duck.stats).toMatchObject({ conflicting_spans: 1 });
        expectResourceTokenOnce(duck);
        await client.command({ query: 'TRUNCATE TABLE otel_traces' });
        for (const f of order) await client.insert({ table: 'otel_traces', values: exporterRowsOfFile(f), format: 'JSONEachRow' });
        const ch = await analyzeClickHouse({ client });
        expect(ch.stats).toMatchObject({ conflicting_spans: 1 });
        expectResourceTokenOnce(ch);
        expect(ch.findings.map((f) => ({ ...f, file: null }))).toEqual(duck.findings.map((f) => ({ ...f, file: null })));
      }
    });
  }
});

describe('a tool call only a copy not analysed holds', () => {
  // `callOnly`: the dropped copy (three attributes) is another library's tool call, the kept one
  // (four) is not. `sameCall`: both copies are the same call, the dropped one re-exported under
  // another resource — nothing the call readers read differs. Only the first is counted, the
  // same in both engines, whatever the order; neither engine reads the dropped call.
  const CALL: Attr[] = [
    { key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } },
    { key: 'gen_ai.tool.name', value: { stringValue: 'upload' } },
    { key: 'gen_ai.tool.call.arguments', value: { stringValue: '{"path":"/tmp/report.txt"}' } },
  ];
  const PLAIN4: Attr[] = ['a', 'b', 'c', 'd'].map((k) => ({ key: `http.${k}`, value: { stringValue: k } }));
  // `choiceDiffers`: copies equal but for the tool call of their `gen_ai.choice` event (which copy
  // is kept is each engine's own there; either way the other differs). `otherEventDiffers`: equal
  // message events, the copies differ only in an event no call reader reads.
  const CASES = {
    callOnly: { files: ['plain4', 'call'], calls: 0, counted: 1 },
    sameCall: { files: ['call', 'callOtherResource'], calls: 1, counted: 0 },
    choiceDiffers: { files: ['choiceA', 'choiceB'], counted: 1 },
    otherEventDiffers: { files: ['choiceA', 'choiceALogged'], counted: 0 },
  } as const;
  const choice = (tool: string): SpanEvent => ({
    name: 'gen_ai.choice', timeUnixNano: '1700000000400000000',
    attributes: [{ key: 'gen_ai.event.content', value: { stringValue: JSON.stringify({ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: tool, arguments: '{"path":"/tmp/a"}' } }] } }) } }],
  });
  const logged: SpanEvent = { name: 'log', timeUnixNano: '1700000000450000000', attributes: [{ key: 'message', value: { stringValue: 'done' } }] };
  let files: Record<'plain4' | 'call' | 'callOtherResource' | 'choiceA' | 'choiceB' | 'choiceALogged', string>;
  beforeAll(() => {
    const names = ['plain4', 'call', 'callOtherResource', 'choiceA', 'choiceB', 'choiceALogged'] as const;
    files = Object.fromEntries(names.map((n) => [n, join(dir, `c-${n}.jsonl`)])) as typeof files;
    const chat: Attr[] = [{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } }];
    writeFileSync(files.plain4, docOf(PLAIN4));
    writeFileSync(files.call, docOf(CALL));
    writeFileSync(files.callOtherResource, docOf(CALL, [...SERVICE, { key: 'k8s.pod.name', value: { stringValue: 'p1' } }]));
    writeFileSync(files.choiceA, docOf(chat, SERVICE, [], [choice('upload')]));
    writeFileSync(files.choiceB, docOf(chat, SERVICE, [], [choice('delete_file')]));
    writeFileSync(files.choiceALogged, docOf(chat, SERVICE, [], [choice('upload'), logged]));
  });

  for (const [name, c] of Object.entries(CASES)) {
    it(`is counted by both engines when the copy differs in what call readers read (${name})`, async () => {
      for (const order of [c.files, [...c.files].reverse()]) {
        const paths = order.map((f) => files[f]);
        const expected = { spans: 1, conflicting_spans: 1, conflicting_call_spans: c.counted, ...('calls' in c ? { foreign_calls: c.calls } : {}) };
        expect((await analyze({ paths })).stats).toMatchObject(expected);
        await client.command({ query: 'TRUNCATE TABLE otel_traces' });
        for (const f of paths) await client.insert({ table: 'otel_traces', values: exporterRowsOfFile(f), format: 'JSONEachRow' });
        expect((await analyzeClickHouse({ client })).stats).toMatchObject(expected);
      }
    });
  }
});

describe('the resource of a copy not analysed sets no policy', () => {
  // A remote hop by `mail.send`, which its resource does not allowlist; a dropped copy of its turn
  // span (no attributes) comes under a resource that allowlists it. The copy is not analysed, so
  // neither is its resource's allowlist: the hop is reported by both engines.
  it('a dropped copy\'s argspan.remote.allowlist does not allowlist a hop', async () => {
    const hop = fileURLToPath(new URL('../../../fixtures/traces/rules/remote_hop_not_allowlisted/tp.jsonl', import.meta.url));
    const copy = join(dir, 'allowlisting-copy.jsonl');
    const resource: Attr[] = [{ key: 'service.name', value: { stringValue: 'agent' } }, { key: 'argspan.remote.allowlist', value: { arrayValue: { values: [{ stringValue: 'mail.send' }] } } }];
    const turn = { traceId: '00005e0a000000000000000000000001', spanId: '5e0a000000000001', name: 'turn 1', kind: 1, startTimeUnixNano: '1764460800000000000', endTimeUnixNano: '1764460801000000000', attributes: [] };
    writeFileSync(copy, JSON.stringify({ resourceSpans: [{ resource: { attributes: resource }, scopeSpans: [{ scope: { name: '@argspan/instrumentation', version: '0.1.0' }, spans: [turn] }] }] }) + '\n');
    const hops = (r: AnalysisResult) => r.findings.filter((f) => f.rule === 'remote_hop_not_allowlisted');
    for (const order of [[hop, copy], [copy, hop]]) {
      const duck = await analyze({ paths: order });
      expect(duck.stats).toMatchObject({ conflicting_spans: 1 });
      expect(hops(duck)).toHaveLength(1);
      await client.command({ query: 'TRUNCATE TABLE otel_traces' });
      for (const f of order) await client.insert({ table: 'otel_traces', values: exporterRowsOfFile(f), format: 'JSONEachRow' });
      const ch = await analyzeClickHouse({ client });
      expect(hops(ch)).toHaveLength(1);
      expect(ch.findings.map((f) => ({ ...f, file: null }))).toEqual(duck.findings.map((f) => ({ ...f, file: null })));
    }
  });
});
