import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClickHouseClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../analyze.js';
import { loadRules } from '../rules/rule-file.js';
import type { Finding } from '../rules/run-rules.js';
import { ArgspanTraceBuilder } from '../synth/argspan-trace.js';
import { chdbClient } from '../synth/chdb-client.js';
import { CANARY_AWS_KEY } from '../synth/rule-cases.js';
import { exporterLogRowsOfFile, exporterRowsOfFile, otelLogsDdl, otelTracesDdl } from '../synth/collector-rows.js';
import { sdkObjectLine, splitJsonObjects } from '../load/sdk-objects.js';
import type { AnalysisResult } from '../types.js';
import { APP_LOG_TOKENS, appLogsDocument, appLogTracesDocument, GENAI_LOG_TOKENS, genAiLogsDocument } from '../../../test/support/app-log-records.js';
import { layeredTokyoTrace } from '../../../test/support/layered-trace.js';
import { recordAnthropicSdkRun } from '../../../test/support/anthropic-sdk-run.js';
import { GEMINI_RUN_TOKEN, recordGeminiCliRun } from '../../../test/support/gemini-cli-run.js';
import { STRANDS_FINDINGS, strandsLatestTrace, strandsLegacyTrace } from '../../../test/support/strands-trace.js';
import { CALLS_WITHOUT_OPERATION, toolSpansWithoutOperation } from '../../../test/support/tool-span-without-operation.js';
import {
  SIGNING_SALT,
  TURN_TRACE_IDS,
  conversationPerTraceDocument,
  integerSessionDocument,
  longConversationDocument,
  resultInNextTurnDocument,
  severalRunsInATraceDocument,
} from '../../../test/support/conversation-per-trace.js';
import { analyzeClickHouse } from './analyze-clickhouse.js';

// The real ClickHouse engine, in process (chdb): the collector exporter's table, the project's
// fixture traces written in the exporter's row format, and every rule run in both engines.
const FIXTURES = fileURLToPath(new URL('../../../fixtures/traces/', import.meta.url));
const ruleFile = (id: string, which: 'tp' | 'fp') => join(FIXTURES, 'rules', id, `${which}.jsonl`);
const ids = loadRules().map((r) => r.id);

let client: ClickHouseClient;

beforeAll(async () => {
  client = chdbClient(':memory:');
  for (const [table, ddl] of [['otel_traces', otelTracesDdl()], ['otel_logs', otelLogsDdl()]]) {
    await client.command({ query: `DROP TABLE IF EXISTS ${table}` });
    await client.command({ query: ddl });
  }
});
afterAll(async () => {
  await client.command({ query: 'DROP TABLE IF EXISTS otel_traces' });
  await client.command({ query: 'DROP TABLE IF EXISTS otel_logs' });
  await client.close();
});

/** Replace the tables' rows with the spans and log records of `files`, as the collector's exporter writes them (one insert per file, as batches come). */
async function exportToClickHouse(files: readonly string[]): Promise<void> {
  await client.command({ query: 'TRUNCATE TABLE otel_traces' });
  await client.command({ query: 'TRUNCATE TABLE otel_logs' });
  await client.insert({ table: 'otel_traces', values: files.flatMap(exporterRowsOfFile), format: 'JSONEachRow' });
  for (const file of files) {
    const records = exporterLogRowsOfFile(file);
    if (records.length) await client.insert({ table: 'otel_logs', values: records, format: 'JSONEachRow' });
  }
}

/** A finding as both engines report it: ClickHouse knows no export file. */
const portable = (f: Finding) => ({ ...f, file: null });

/** `n` distinct AWS access key ids (the canary's last letter changed): one key in several attributes of a span is one finding. */
const awsKeys = (n: number) => Array.from({ length: n }, (_, i) => CANARY_AWS_KEY.slice(0, -1) + 'CDEFGH'[i]);

describe('every rule, in ClickHouse and in DuckDB', () => {
  const files = ids.flatMap((id) => [ruleFile(id, 'tp'), ruleFile(id, 'fp')]);
  let duck: AnalysisResult;
  let ch: AnalysisResult;
  beforeAll(async () => {
    duck = await analyze({ paths: files, reports: true, remoteAllowlist: ['summarise'], overview: true });
    await exportToClickHouse(files);
    ch = await analyzeClickHouse({ client, reports: true, remoteAllowlist: ['summarise'], overview: true });
  });

  it('gathers the same HTML report overview (runs, turns, residency per tool, hops with their quantiles)', () => {
    expect(duck.overview!.hops.total).toBeGreaterThan(1);
    expect(duck.overview!.turns.rows.length).toBeGreaterThan(0);
    expect(ch.overview).toEqual(duck.overview);
  });

  it('finds exactly the same findings (fingerprints, messages, severities) over every fixture', () => {
    expect(ch.findings).toEqual(duck.findings.map(portable));
    expect(ch.stats.spans).toBe(duck.stats.spans);
    expect(ch.stats.rules_skipped).toEqual(duck.stats.rules_skipped);
  });

  it.each(ids)('rule %s hits its true positive and stays quiet on its false positive in ClickHouse', (id) => {
    const spansOf = (which: 'tp' | 'fp') => new Set(exporterRowsOfFile(ruleFile(id, which)).map((r) => `${r.TraceId}/${r.SpanId}`));
    const tp = spansOf('tp');
    const fp = spansOf('fp');
    const mine = ch.findings.filter((f) => f.rule === id);
    expect(mine.some((f) => tp.has(`${f.trace_id}/${f.span_id}`))).toBe(true);
    expect(mine.filter((f) => fp.has(`${f.trace_id}/${f.span_id}`))).toEqual([]);
  });
});

/** Both engines over the same files (with the same options): DuckDB from the files, ClickHouse from the exporter's rows. */
async function bothEngines(files: readonly string[], reports: boolean, overview = false): Promise<{ duck: AnalysisResult; ch: AnalysisResult }> {
  const duck = await analyze({ paths: files, reports, overview });
  await exportToClickHouse(files);
  return { duck, ch: await analyzeClickHouse({ client, reports, overview }) };
}

describe('the golden scenarios', () => {
  it('tokyo-invite and dotenv: same findings in both engines', async () => {
    const { duck, ch } = await bothEngines([join(FIXTURES, 'tokyo-invite.jsonl'), join(FIXTURES, 'dotenv.jsonl')], true);
    expect(ch.findings.length).toBeGreaterThan(0);
    expect(ch.findings).toEqual(duck.findings.map(portable));
  });
});

describe('an attribute of another type than its convention\'s', () => {
  // An exporter may write a count as a double, a flag as 1.0: a whole number is read as one, anything
  // else (a fraction, past Int64, NaN) as nothing, in both engines alike — never rounded one way in
  // DuckDB and another in ClickHouse, nor a failed cast (exit 3).
  const tokyo = readFileSync(join(FIXTURES, 'tokyo-invite.jsonl'), 'utf8');
  it.each([
    ['a count as a whole double', '{"doubleValue":6}'],
    ['a count with a half', '{"doubleValue":2.5}'],
    ['a count below one half', '{"doubleValue":0.5}'],
    ['a count past Int64', '{"doubleValue":1e20}'],
    ['a count that is NaN', '{"doubleValue":"NaN"}'],
    ['a count that is Infinity', '{"doubleValue":"Infinity"}'],
    ['a count as digits past Int64', '{"stringValue":"99999999999999999999"}'],
  ])('%s: the same findings in both engines', async (_name, value) => {
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-')), 'typed.jsonl');
    writeFileSync(file, tokyo.replace('"key":"argspan.args.count","value":{"intValue":"6"}', `"key":"argspan.args.count","value":${value}`));
    const { duck, ch } = await bothEngines([file], false);
    expect(ch.findings).toEqual(duck.findings.map(portable));
  });
  // A label of argspan's own written as another type reads as its text in both engines (the exporter stores the text).
  it.each([
    ['an enforcement as a flag', '"key":"argspan.enforcement","value":{"stringValue":"run"}', '"key":"argspan.enforcement","value":{"boolValue":true}'],
    ['a gate action as an integer', '"key":"argspan.gate.action","value":{"stringValue":"allow"}', '"key":"argspan.gate.action","value":{"intValue":"1"}'],
    ['a tool name as an integer', '"key":"gen_ai.tool.name","value":{"stringValue":"calendar.create"}', '"key":"gen_ai.tool.name","value":{"intValue":"7"}'],
    ['a tool name as a whole double', '"key":"gen_ai.tool.name","value":{"stringValue":"calendar.create"}', '"key":"gen_ai.tool.name","value":{"doubleValue":7}'],
  ])('%s: the same findings in both engines', async (_name, from, to) => {
    expect(tokyo).toContain(from);
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-')), 'label-type.jsonl');
    writeFileSync(file, tokyo.replace(from, to));
    const { duck, ch } = await bothEngines([file], false);
    expect(ch.findings).toEqual(duck.findings.map(portable));
  });

  it('a whole double in an array (a gate hit): the same text, `1`, so the same key and fingerprint in both engines', async () => {
    const doc = JSON.parse(readFileSync(ruleFile('assumption_span', 'tp'), 'utf8').split('\n')[0]!);
    const call = doc.resourceSpans[0].scopeSpans[0].spans[1] as { attributes: { key: string; value: unknown }[] };
    const set = (key: string, value: unknown) => {
      const a = call.attributes.find((x) => x.key === key);
      if (a) a.value = value;
      else call.attributes.push({ key, value });
    };
    set('argspan.gate.hits', { arrayValue: { values: [{ stringValue: 'calendar.create.timezone' }, { doubleValue: 1.0 }] } });
    set('argspan.gate.action', { stringValue: 'ask' });
    set('argspan.gate.question', { stringValue: 'Which timezone?' });
    set('argspan.enforcement', { stringValue: 'held' });
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-')), 'hits.jsonl');
    writeFileSync(file, JSON.stringify(doc) + '\n');
    const { duck, ch } = await bothEngines([file], false);
    expect(duck.findings.some((f) => f.key === '1')).toBe(true);
    expect(ch.findings).toEqual(duck.findings.map(portable));
  });

  it('a flag written as the double 1: true in both engines (a denylisted key the model guessed)', async () => {
    const doc = JSON.parse(readFileSync(ruleFile('assumption_span', 'tp'), 'utf8').split('\n')[0]!);
    const arg = doc.resourceSpans[0].scopeSpans[0].spans.find((sp: { attributes: { key: string }[] }) => sp.attributes.some((a) => a.key === 'argspan.arg.denylisted'));
    arg.attributes.find((a: { key: string }) => a.key === 'argspan.arg.denylisted').value = { doubleValue: 1 };
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-')), 'flag.jsonl');
    writeFileSync(file, JSON.stringify(doc) + '\n');
    const { duck, ch } = await bothEngines([file], false);
    expect(duck.findings.map((f) => f.rule)).toContain('assumption_span');
    expect(ch.findings).toEqual(duck.findings.map(portable));
  });
});

describe('credentials the re-scan finds outside span attributes', () => {
  it('a resource attribute key, an event name, bytes: the same findings, the keys redacted', async () => {
    const b = new ArgspanTraceBuilder(0xc7);
    const turn = b.turn('turn', 'run-r');
    const span = b.otherSpan(turn, 'lookup');
    span.attributes.push({ key: 'payload', value: { bytesValue: Buffer.from(`key=${CANARY_AWS_KEY}`).toString('base64') } });
    span.events = [{ timeUnixNano: String(span.startTimeUnixNano), name: `denied ${CANARY_AWS_KEY}`, attributes: [] }];
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-')), 'places.jsonl');
    writeFileSync(file, b.lines('agent', 200, { [`deploy_${CANARY_AWS_KEY}`]: 'x' }).join('\n') + '\n');
    const { duck, ch } = await bothEngines([file], false);
    expect(new Set(duck.findings.map((f) => f.key))).toEqual(new Set(['event.name', 'deploy_[REDACTED:aws-access-key-id]', 'payload']));
    expect(ch.findings).toEqual(duck.findings.map(portable));
  });

  it('one credential repeated in places of one kind (a token the user typed, in every later prompt, trace after trace) is one finding, on one of its places (a span\'s before its event\'s copy), the rest counted: the same in both engines', async () => {
    const other = 'AKIASECONDZ2345672XD';
    const said = (key: string) => JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `deploy with key=${key}` }] }]);
    const b = new ArgspanTraceBuilder(0xc8);
    const first = b.turn('turn 1', 'run-repeat');
    const prompt = b.otherSpan(first, 'chat', { attributes: { 'gen_ai.input.messages': said(CANARY_AWS_KEY) }, atMs: 10 });
    // (its copy as an event of the same span: one kind of place with the attribute)
    prompt.events = [{ timeUnixNano: String(prompt.startTimeUnixNano), name: 'gen_ai.client.inference.operation.details', attributes: [{ key: 'gen_ai.input.messages', value: { stringValue: said(CANARY_AWS_KEY) } }] }];
    b.otherSpan(first, 'chat', { attributes: { 'gen_ai.input.messages': said(CANARY_AWS_KEY) }, atMs: 30 });
    const second = b.turn('turn 2', 'run-repeat', undefined, 1000);
    b.otherSpan(second, 'chat', { attributes: { 'gen_ai.input.messages': said(CANARY_AWS_KEY) }, atMs: 1010 });
    const another = b.otherSpan(second, 'chat', { attributes: { 'gen_ai.input.messages': said(other) }, atMs: 1020 });
    const named = b.otherSpan(second, `lookup ${CANARY_AWS_KEY}`, { atMs: 1030 });
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-')), 'repeated.jsonl');
    writeFileSync(file, b.lines('agent', 200).join('\n') + '\n');
    const { duck, ch } = await bothEngines([file], false);
    const found = duck.findings.filter((f) => f.rule === 'credential_in_attribute').map((f) => [f.span_id, f.key, f.message]).sort();
    expect(found).toEqual([
      [prompt.spanId, 'gen_ai.input.messages', 'Attribute gen_ai.input.messages on a span holds a value matching the aws-access-key-id credential shape. The same credential is in 3 more place(s) like this one, in 2 traces in all.'],
      [another.spanId, 'gen_ai.input.messages', 'Attribute gen_ai.input.messages on a span holds a value matching the aws-access-key-id credential shape.'],
      [named.spanId, 'span.name', 'The span\'s name holds a value matching the aws-access-key-id credential shape.'],
    ].sort());
    expect(ch.findings).toEqual(duck.findings.map(portable));
    for (const key of [CANARY_AWS_KEY, other]) expect(JSON.stringify(duck)).not.toContain(key);
  });

  it('one credential in places of one kind is named by its earliest place, not by the smallest trace id: the same in both engines', async () => {
    const said = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `deploy with key=${CANARY_AWS_KEY}` }] }]);
    const b = new ArgspanTraceBuilder(0xca);
    // The conversation's first turn is in a trace whose id sorts last; the later turns' ids sort first.
    const first = b.turn('turn 1', 'run-earliest', 'f'.repeat(32), 0);
    const typed = b.otherSpan(first, 'chat', { attributes: { 'gen_ai.input.messages': said }, atMs: 500 });
    const second = b.turn('turn 2', 'run-earliest', '0'.repeat(31) + '2', 1000);
    b.otherSpan(second, 'chat', { attributes: { 'gen_ai.input.messages': said }, atMs: 1010 });
    const third = b.turn('turn 3', 'run-earliest', '0'.repeat(31) + '1', 2000);
    b.otherSpan(third, 'chat', { attributes: { 'gen_ai.input.messages': said }, atMs: 2010 });
    // A credential in the resource, shared by every span: named on the earliest span (turn 1's root).
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-')), 'earliest.jsonl');
    writeFileSync(file, b.lines('agent', 200, { 'deploy.token': `key=${CANARY_AWS_KEY}` }).join('\n') + '\n');
    const { duck, ch } = await bothEngines([file], false);
    const found = duck.findings.filter((f) => f.rule === 'credential_in_attribute').map((f) => [f.trace_id, f.span_id, f.key]).sort();
    expect(found).toEqual([
      [first.traceId, first.spanId, 'deploy.token'],
      [first.traceId, typed.spanId, 'gen_ai.input.messages'],
    ].sort());
    expect(duck.findings.find((f) => f.key === 'gen_ai.input.messages')?.message).toMatch(/in 2 more place\(s\) like this one, in 3 traces in all\.$/);
    expect(ch.findings).toEqual(duck.findings.map(portable));
  });

  it('a .env dumped as hex (`xxd -p`) in a tool\'s output: passed by the pre-filter and found in both engines alike', async () => {
    const b = new ArgspanTraceBuilder(0xc9);
    const span = b.otherSpan(b.turn('turn', 'run-hex'), 'exec');
    const dump = Buffer.from(`REGION=eu-west-1\nAWS_ACCESS_KEY_ID=${CANARY_AWS_KEY}\n`).toString('hex').match(/.{1,60}/g)!.join('\n');
    span.attributes.push({ key: 'process.output', value: { stringValue: `${dump}\n` } });
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-')), 'hex.jsonl');
    writeFileSync(file, b.lines('agent', 200).join('\n') + '\n');
    const { duck, ch } = await bothEngines([file], false);
    expect(duck.findings.map((f) => f.key)).toContain('process.output');
    expect(ch.findings).toEqual(duck.findings.map(portable));
  });

  it('tokens hidden by invisible, tag or fullwidth characters: passed by the pre-filter and found in both engines alike', async () => {
    const b = new ArgspanTraceBuilder(0xcb);
    const span = b.otherSpan(b.turn('turn', 'run-hidden'), 'exec');
    // (three keys: one key in three attributes of a span would be one finding)
    const [split, tagged, wide] = awsKeys(3);
    const tags = [...tagged].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    const fullwidth = [...wide].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join('');
    span.attributes.push(
      { key: 'note.split', value: { stringValue: `key ${split.slice(0, 6)}\u2060${split.slice(6)}` } },
      { key: 'note.tags', value: { stringValue: `hi ${tags}` } },
      { key: 'note.fullwidth', value: { stringValue: `\u30ad\u30fc\uff1a${fullwidth}` } },
    );
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-')), 'hidden.jsonl');
    writeFileSync(file, b.lines('agent', 200).join('\n') + '\n');
    const { duck, ch } = await bothEngines([file], false);
    expect(new Set(duck.findings.map((f) => f.key))).toEqual(new Set(['note.split', 'note.tags', 'note.fullwidth']));
    expect(ch.findings).toEqual(duck.findings.map(portable));
  });

  it('tokens spelled out as character references, codes or joined literals: passed by the pre-filter and found in both engines alike', async () => {
    const b = new ArgspanTraceBuilder(0xcd);
    const span = b.otherSpan(b.turn('turn', 'run-spelled'), 'exec');
    const [referenced, coded, joined] = awsKeys(3);
    span.attributes.push(
      { key: 'note.html', value: { stringValue: `<b>${[...referenced].map((c) => `&#${c.charCodeAt(0)};`).join('')}</b>` } },
      { key: 'note.codes', value: { stringValue: `key = bytes([${[...coded].map((c) => c.charCodeAt(0)).join(',')}]).decode()` } },
      { key: 'note.joined', value: { stringValue: `$k = '${joined.slice(0, 5)}' . '${joined.slice(5)}';` } },
      { key: 'page.html', value: { stringValue: '<p>Don&#39;t &#8212; "a" + b</p>' } },
    );
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-')), 'spelled.jsonl');
    writeFileSync(file, b.lines('agent', 200).join('\n') + '\n');
    const { duck, ch } = await bothEngines([file], false);
    expect(new Set(duck.findings.map((f) => f.key))).toEqual(new Set(['note.html', 'note.codes', 'note.joined']));
    expect(ch.findings).toEqual(duck.findings.map(portable));
  });

  it('a span whose start was never set (time 0) is stored by the exporter and read alike: the same finding in both engines', async () => {
    const b = new ArgspanTraceBuilder(0xc8);
    const span = b.otherSpan(b.turn('turn', 'run-t0'), 'lookup');
    span.startTimeUnixNano = '0';
    span.attributes.push({ key: 'note', value: { stringValue: `key=${CANARY_AWS_KEY}` } });
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-')), 'time-zero.jsonl');
    writeFileSync(file, b.lines('agent', 200).join('\n') + '\n');
    const { duck, ch } = await bothEngines([file], false);
    expect(duck.findings.map((f) => f.key)).toContain('note');
    expect(ch.stats.spans).toBe(duck.stats.spans);
    expect(ch.findings).toEqual(duck.findings.map(portable));
  });
});

describe('an application\'s own log records (no GenAI event name) beside the traces', () => {
  it('are scanned for credentials in both engines: the same findings, by span or outside any span, the argument\'s token not again, no value', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'argspan-parity-app-logs-'));
    const [traces, logs] = [join(dir, 'app.traces.json'), join(dir, 'app.logs.json')];
    writeFileSync(traces, appLogTracesDocument());
    writeFileSync(logs, appLogsDocument());
    const { duck, ch } = await bothEngines([traces, logs], false);
    const mine = (r: AnalysisResult) => r.findings.filter((f) => f.rule === 'credential_in_log_record').map((f) => [f.trace_id === null, f.tool, f.key]);
    expect(mine(duck).sort()).toEqual(
      [
        [false, 'deploy', 'http.request.header.authorization'],
        [false, 'deploy', 'log.body'],
        [false, 'deploy', '[REDACTED:github-pat]'],
        [true, null, 'db.connection_string'],
        [true, null, 'log.body'],
        [true, null, 'registry.token'],
        [true, null, 'vendor.license'],
        [true, null, 'otel.scope.version'],
      ].sort(),
    );
    expect(ch.findings).toEqual(duck.findings.map(portable));
    expect(ch.stats.other_log_records).toBe(duck.stats.other_log_records);
    for (const t of APP_LOG_TOKENS) expect(JSON.stringify(ch) + JSON.stringify(duck), t).not.toContain(t);
    // One service's spans and logs under one resource: its credential reported once, on the spans' resource, in both.
    writeFileSync(traces, appLogTracesDocument(true));
    const same = await bothEngines([traces, logs], false);
    expect(same.duck.findings.filter((f) => f.key === 'registry.token').map((f) => f.rule)).toEqual(['credential_in_attribute']);
    expect(same.ch.findings).toEqual(same.duck.findings.map(portable));
  });

  it('a logs export of GenAI message records only: its resource and scope are scanned in both engines alike', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'argspan-parity-genai-logs-'));
    const [traces, logs] = [join(dir, 'app.traces.json'), join(dir, 'genai.logs.json')];
    writeFileSync(traces, appLogTracesDocument());
    writeFileSync(logs, genAiLogsDocument());
    const { duck, ch } = await bothEngines([traces, logs], false);
    expect(duck.findings.filter((f) => f.rule === 'credential_in_log_record').map((f) => f.key)).toEqual(['collector.auth', 'vendor.license']);
    expect(ch.findings).toEqual(duck.findings.map(portable));
    for (const t of GENAI_LOG_TOKENS) expect(JSON.stringify(ch) + JSON.stringify(duck), t).not.toContain(t);
  });
});

describe('other libraries\' traces', () => {
  const dir = join(FIXTURES, 'foreign');
  // The derived traces reuse their originals' trace ids, so each set is loaded on its own. OTLP
  // logs exports (`*.logs.json`) go to the exporter's logs table, their traces to the traces table.
  const jsonFiles = (d: string) => readdirSync(d).filter((f) => f.endsWith('.json')).map((f) => join(d, f));
  const weatherTraces = join(dir, 'otel-python-openai-v2-weather.traces.json');
  const sets = {
    'traces of eight emitters, Semantic Kernel, the OpenAI instrumentation\'s and Semantic Kernel Python\'s traces with their log records, and Claude Code\'s and Gemini CLI\'s events': jsonFiles(dir),
    'derived traces (Phoenix export, planted tokens, .env path, SK legacy events; planted log records beside their traces; coding agents\' planted events)': [...jsonFiles(join(dir, 'derived')).filter((f) => !f.endsWith('no-content.logs.json')), weatherTraces],
    // The same calls recorded with content capture off: their arguments not recorded, counted alike.
    'the OpenAI instrumentation\'s log records with content capture off, beside their traces': [join(dir, 'derived', 'otel-python-openai-v2-no-content.logs.json'), weatherTraces],
  };
  it.each(Object.entries(sets))('%s: same calls, same findings, same runs, same report overview', async (_name, files) => {
    expect(files.filter((f) => f.endsWith('.logs.json')).length).toBeGreaterThan(0);
    const { duck, ch } = await bothEngines(files, true, true);
    expect(ch.stats.foreign_calls).toBeGreaterThan(0);
    expect(ch.findings).toEqual(duck.findings.map(portable));
    expect(ch.overview).toEqual(duck.overview);
    expect([ch.stats.foreign_calls, ch.stats.no_evidence_calls, ch.stats.unreadable_args_calls]).toEqual([duck.stats.foreign_calls, duck.stats.no_evidence_calls, duck.stats.unreadable_args_calls]);
    expect(duck.stats.log_records).toBeGreaterThan(0);
    expect([ch.stats.spans, ch.stats.log_records, ch.stats.spans_from_log_records, ch.stats.other_log_records]).toEqual([duck.stats.spans, duck.stats.log_records, duck.stats.spans_from_log_records, duck.stats.other_log_records]);
    // (coding agents' events, Claude Code's, Gemini CLI's and Codex CLI's: log records read as spans of their own)
    if (files.some((f) => /(claude-code|gemini-cli|codex)-/.test(f))) expect(duck.stats.agent_log_records).toBeGreaterThan(0);
    expect(ch.stats.agent_log_records).toBe(duck.stats.agent_log_records);
  });

  it('Qwen Code\'s local telemetry file (the SDK\'s own objects), made OTLP lines as its reader makes them: the same calls and findings in both engines', async () => {
    const text = readFileSync(join(dir, 'qwen-code-0.24-env.telemetry.log'), 'utf8');
    const lines = splitJsonObjects(text).values.map((v) => sdkObjectLine(text.slice(v.start, v.end))).flatMap((o) => ('line' in o ? [o.line] : []));
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-qwen-')), 'qwen.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const { duck, ch } = await bothEngines([file], true, true);
    expect(duck.stats).toMatchObject({ foreign_calls: 2, agent_log_records: 3 });
    expect(ch.findings).toEqual(duck.findings.map(portable));
    expect(ch.overview).toEqual(duck.overview);
    expect([ch.stats.spans, ch.stats.foreign_calls, ch.stats.no_evidence_calls, ch.stats.agent_log_records]).toEqual([duck.stats.spans, duck.stats.foreign_calls, duck.stats.no_evidence_calls, duck.stats.agent_log_records]);
  });

  it('coding agents\' events written inside a span (Claude Code\'s beta tracing) or without event.name: the same spans, calls and findings in both engines', async () => {
    type Rec = { body?: unknown; traceId?: string; spanId?: string; attributes: { key: string }[] };
    const doc = JSON.parse(readFileSync(join(dir, 'derived', 'claude-code-tool-details-planted.logs.json'), 'utf8')) as { resourceLogs: { scopeLogs: { logRecords: Rec[] }[] }[] };
    const records = doc.resourceLogs[0]!.scopeLogs[0]!.logRecords;
    records.forEach((r, i) => {
      if (i % 2 === 0) Object.assign(r, { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' });
      else r.attributes = r.attributes.filter((a) => a.key !== 'event.name');
    });
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-agents-')), 'claude.logs.json');
    writeFileSync(file, JSON.stringify(doc));
    const { duck, ch } = await bothEngines([file], true, true);
    expect(duck.stats).toMatchObject({ foreign_calls: 4, agent_log_records: 5 });
    expect(ch.findings).toEqual(duck.findings.map(portable));
    expect(ch.overview).toEqual(duck.overview);
    expect([ch.stats.spans, ch.stats.foreign_calls, ch.stats.agent_log_records, ch.stats.other_log_records]).toEqual([duck.stats.spans, duck.stats.foreign_calls, duck.stats.agent_log_records, duck.stats.other_log_records]);
  });

  it('a coding agent\'s record that names an attribute of its identity twice: the last value makes its span id, as the exporter\'s map keeps it — the same span ids in both engines', async () => {
    type Rec = { attributes: { key: string; value: unknown }[] };
    const doc = JSON.parse(readFileSync(join(dir, 'derived', 'claude-code-tool-details-planted.logs.json'), 'utf8')) as { resourceLogs: { scopeLogs: { logRecords: Rec[] }[] }[] };
    for (const r of doc.resourceLogs[0]!.scopeLogs[0]!.logRecords) r.attributes.unshift({ key: 'event.sequence', value: { intValue: '999' } });
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-agents-')), 'claude-twice.logs.json');
    writeFileSync(file, JSON.stringify(doc));
    const { duck, ch } = await bothEngines([file], false);
    expect(duck.findings.length).toBeGreaterThan(0);
    expect(ch.findings).toEqual(duck.findings.map(portable));
  });

  describe('the OpenTelemetry instrumentation\'s log records', () => {
    const weatherLogs = join(dir, 'otel-python-openai-v2-weather.logs.json');
    const plantedLogs = join(dir, 'derived', 'otel-python-openai-v2-planted.logs.json');
    const rules = (r: AnalysisResult) => r.findings.map((f) => [f.rule, f.tool, f.key]).sort();

    it('beside their traces: the model\'s calls are read from the records, the planted timezone and token reported by tool and key, never their values', async () => {
      const { duck, ch } = await bothEngines([weatherTraces, plantedLogs], true, true);
      expect(rules(duck).filter(([rule]) => !String(rule).startsWith('report_'))).toEqual([
        ['assumption_span', 'get_current_weather', 'timezone'],
        ['credential_in_attribute', 'get_current_weather', 'location'],
      ]);
      expect(ch.findings).toEqual(duck.findings.map(portable));
      expect(ch.overview).toEqual(duck.overview);
      expect(ch.stats).toMatchObject({ foreign_calls: 2, spans: duck.stats.spans, log_records: duck.stats.log_records, spans_from_log_records: 0 });
      for (const value of ['America/Los_Angeles', 'ghp_C4NARY']) expect(JSON.stringify(ch)).not.toContain(value);
    });

    it('alone (the traces not exported): their spans are made from them, the same spans, calls and findings in both engines', async () => {
      const { duck, ch } = await bothEngines([plantedLogs], true, true);
      expect(duck.stats).toMatchObject({ spans: 2, spans_from_log_records: 2, foreign_calls: 2 });
      expect(ch.findings).toEqual(duck.findings.map(portable));
      expect(ch.overview).toEqual(duck.overview);
      expect(ch.stats).toMatchObject({ spans: 2, log_records: duck.stats.log_records, spans_from_log_records: 2, foreign_calls: 2 });
      expect(ch.findings.filter((f) => f.rule === 'credential_in_attribute')).toHaveLength(1);
      for (const value of ['America/Los_Angeles', 'ghp_C4NARY']) expect(JSON.stringify(ch)).not.toContain(value);
    });

    it('of a span the traces do not hold: its resource is the records\', allowlists a remote hop and is re-scanned as in DuckDB', async () => {
      const hop = ruleFile('remote_hop_not_allowlisted', 'tp');
      const record = {
        traceId: '00005e0a000000000000000000000001', spanId: '5e0a0000000000ff', timeUnixNano: '1700000000000000000', eventName: 'gen_ai.user.message',
        body: { kvlistValue: { values: [{ key: 'content', value: { stringValue: 'Mail the summary' } }] } },
      };
      const resource = { attributes: [{ key: 'service.name', value: { stringValue: 'agent' } }, { key: 'argspan.remote.allowlist', value: { arrayValue: { values: [{ stringValue: 'mail.send' }] } } },
        { key: 'deploy.env', value: { stringValue: `key=${CANARY_AWS_KEY}` } }] };
      const logs = join(mkdtempSync(join(tmpdir(), 'argspan-parity-logs-')), 'allowlist.logs.json');
      writeFileSync(logs, JSON.stringify({ resourceLogs: [{ resource, scopeLogs: [{ scope: { name: 'opentelemetry.instrumentation.openai_v2' }, logRecords: [record] }] }] }));
      const hops = (r: AnalysisResult) => r.findings.filter((f) => f.rule === 'remote_hop_not_allowlisted');
      expect(hops((await bothEngines([hop], false)).ch)).toHaveLength(1);
      const { duck, ch } = await bothEngines([hop, logs], false);
      expect(hops(duck)).toEqual([]);
      expect(duck.findings.filter((f) => f.rule === 'credential_in_attribute').map((f) => [f.key, f.span_id])).toEqual([['deploy.env', record.spanId]]);
      expect(ch.findings).toEqual(duck.findings.map(portable));
      expect(ch.stats).toMatchObject({ spans: duck.stats.spans, log_records: 1, spans_from_log_records: 1 });
      expect(JSON.stringify(ch)).not.toContain(CANARY_AWS_KEY);
    });

    it('exported twice (a retried batch): each record read once, counted as read', async () => {
      const copy = join(mkdtempSync(join(tmpdir(), 'argspan-parity-logs-')), 'again.logs.json');
      writeFileSync(copy, readFileSync(plantedLogs));
      const once = await bothEngines([weatherTraces, plantedLogs], false);
      const twice = await bothEngines([weatherTraces, plantedLogs, copy], false);
      expect(twice.ch.findings).toEqual(once.ch.findings);
      expect(twice.ch.findings).toEqual(twice.duck.findings.map(portable));
      expect(twice.ch.stats.foreign_calls).toBe(2);
      expect(twice.ch.stats.log_records).toBe(2 * once.ch.stats.log_records!);
      expect(twice.ch.stats.log_records).toBe(twice.duck.stats.log_records);
    });
  });

  it('counts a call whose arguments were not read, or were only in part, once: the same in both engines', async () => {
    const chain = (levels: number): unknown => (levels === 0 ? 'x' : { a: chain(levels - 1) });
    const span = (spanId: string, args?: string) => ({
      traceId: '0123456789abcdef0123456789abcdef', spanId, name: 'execute_tool write_file', startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000100000000',
      attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } }, { key: 'gen_ai.tool.name', value: { stringValue: 'write_file' } },
        { key: 'gen_ai.tool.call.id', value: { stringValue: `call_${spanId}` } }, ...(args === undefined ? [] : [{ key: 'gen_ai.tool.call.arguments', value: { stringValue: args } }])],
    });
    const spans = [
      span('00000000000000a1'),
      span('00000000000000a2', '{"path": "/app/notes.txt", "content": "first lines of a lo'),
      span('00000000000000a3', '{"path": "/app/notes.txt"}'),
      // two subtrees past the 32 levels flattening reads: one call not wholly checked
      span('00000000000000a4', JSON.stringify({ path: '/app/notes.txt', left: chain(40), right: chain(40) })),
    ];
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-')), 'unread.json');
    writeFileSync(file, JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'agent-framework' }, spans }] }] }));
    const { duck, ch } = await bothEngines([file], false);
    expect(duck.stats).toMatchObject({ foreign_calls: 4, unreadable_args_calls: 3 });
    expect([ch.stats.foreign_calls, ch.stats.unreadable_args_calls]).toEqual([4, 3]);
  });

  it('a tool span whose arguments are not text: the call found in both; DuckDB counts it not checked, ClickHouse reads the exporter\'s text of it', async () => {
    // OTLP lets an attribute be an int or an array; the collector's exporter stores every value as text (`["Europe/Paris","3"]`, `42`).
    const span = (spanId: string, tool: string, key: string, value: object) => ({
      traceId: '0123456789abcdef0123456789abcdef', spanId, name: `execute_tool ${tool}`, startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000100000000',
      attributes: [{ key: 'gen_ai.tool.name', value: { stringValue: tool } }, { key, value }],
    });
    const spans = [
      span('00000000000000c1', 'get_time', 'gen_ai.tool.call.arguments', { arrayValue: { values: [{ stringValue: 'Europe/Paris' }, { intValue: '3' }] } }),
      span('00000000000000c2', 'count', 'tool_arguments', { intValue: '42' }),
    ];
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-')), 'not-text.json');
    writeFileSync(file, JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'some-agent' }, spans }] }] }));
    const { duck, ch } = await bothEngines([file], false);
    expect(duck.stats).toMatchObject({ foreign_calls: 2, unreadable_args_calls: 2 });
    expect([ch.stats.foreign_calls, ch.stats.unreadable_args_calls]).toEqual([2, 0]);
  });

  it('what a model was told, held as an int or a list of texts, or cut off: no evidence for the call after it in both engines, not a guess', async () => {
    // The user's words in the first model span; the second's input, where the zone was given, not read.
    const said = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Book a room for Tuesday, my zone is Europe/Paris' }] }]);
    const output = JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'book_room', arguments: { day: 'Tuesday', timezone: 'Europe/Paris' } }] }]);
    const model = (spanId: string, at: number, input: object, more: object[] = []) => ({
      traceId: '0123456789abcdef0123456789abcdef', spanId, name: 'chat gpt-4o', startTimeUnixNano: `17000000000000${at}0000`, endTimeUnixNano: `17000000000000${at}5000`,
      attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } }, { key: 'gen_ai.input.messages', value: input }, ...more],
    });
    const hello = { stringValue: JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'hello' }] }]) };
    for (const input of [{ intValue: '3' }, { arrayValue: { values: [{ stringValue: said }] } }, { stringValue: said.slice(0, 60) }]) {
      const spans = [model('00000000000000d1', 1, hello), model('00000000000000d2', 2, input, [{ key: 'gen_ai.output.messages', value: { stringValue: output } }])];
      const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-')), 'input-not-read.json');
      writeFileSync(file, JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'some-agent' }, spans }] }] }));
      const { duck, ch } = await bothEngines([file], false);
      expect([duck.findings, duck.stats.foreign_calls, duck.stats.no_evidence_calls], JSON.stringify(input)).toEqual([[], 1, 1]);
      expect([ch.findings, ch.stats.foreign_calls, ch.stats.no_evidence_calls], JSON.stringify(input)).toEqual([[], 1, 1]);
    }
  });

  it('the Anthropic SDK\'s own traces, whole and cut to its content limit (`anthropic.content.truncated`, a flag the exporter writes as text): the same calls and findings in both engines', async () => {
    const user = [{ type: 'text' as const, text: 'All times for this team are in the America/New_York timezone.' }, { type: 'text' as const, text: 'Deploy the billing service to staging with its latest build.' }];
    // (whole; the user's first block cut; the deploy call's arguments left out whole)
    const seen: number[] = [];
    for (const maxContentBytes of [undefined, 300, 200]) {
      const file = await recordAnthropicSdkRun({ user, ...(maxContentBytes !== undefined ? { maxContentBytes } : {}) });
      const { duck, ch } = await bothEngines([file], false);
      expect(ch.findings).toEqual(duck.findings.map(portable));
      expect([ch.stats.foreign_calls, ch.stats.no_evidence_calls, ch.stats.unreadable_args_calls]).toEqual([duck.stats.foreign_calls, duck.stats.no_evidence_calls, duck.stats.unreadable_args_calls]);
      seen.push(duck.findings.filter((f) => f.rule === 'assumption_span').length, duck.stats.no_evidence_calls, duck.stats.unreadable_args_calls);
    }
    // (the zone is the user's where their words are whole; where the SDK cut them, no evidence either way, not a guess)
    expect(seen).toEqual([0, 0, 0, 0, 2, 0, 0, 2, 1]);
  });

  it('Gemini CLI\'s own telemetry (its spans, a model call per trace, and its log records, some outside any span): the same calls and findings in both engines', async () => {
    const replies = [
      [{ call: 'lookup_contact', args: { name: 'Maria Lopez' } }],
      [{ call: 'send_email', args: { to: 'maria@example.com', subject: 'Notes', body: `Token: ${GEMINI_RUN_TOKEN}` } }],
      [{ text: 'Sent.' }],
    ];
    const spansOn = await recordGeminiCliRun({ prompt: `Email Maria the notes with the token ${GEMINI_RUN_TOKEN}.`, replies });
    const recordsOnly = await recordGeminiCliRun({ prompt: `Email Maria the notes with the token ${GEMINI_RUN_TOKEN}.`, replies, traces: false });
    const seen: unknown[] = [];
    for (const files of [[spansOn.traces!, spansOn.logs], [spansOn.traces!], [recordsOnly.logs]]) {
      const { duck, ch } = await bothEngines(files, false);
      expect(ch.findings).toEqual(duck.findings.map(portable));
      expect([ch.stats.foreign_calls, ch.stats.no_evidence_calls, ch.stats.unreadable_args_calls]).toEqual([duck.stats.foreign_calls, duck.stats.no_evidence_calls, duck.stats.unreadable_args_calls]);
      seen.push(duck.stats.foreign_calls, duck.stats.no_evidence_calls, duck.findings.filter((f) => f.rule === 'assumption_span' || f.key === 'body').map((f) => `${f.rule} ${f.tool}.${f.key}`).sort());
    }
    // (the address the user never gave is the model's guess; the token, by tool and key; two calls each time)
    const calls = [2, 0, ['assumption_span mcp_contacts_send_email.to', 'credential_in_attribute mcp_contacts_send_email.body']];
    expect(seen).toEqual([...calls, ...calls, ...calls]);
  }, 120_000);

  it('system instructions held as a number or a boolean: no evidence for the call after them in both engines, not a guess', async () => {
    const output = JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'book_room', arguments: { day: 'Tuesday', timezone: 'Europe/Paris' } }] }]);
    const hello = { key: 'gen_ai.input.messages', value: { stringValue: JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Book a room for Tuesday' }] }]) } };
    const model = (spanId: string, at: number, more: object[]) => ({
      traceId: '0123456789abcdef0123456789abcdef', spanId, name: 'chat gpt-4o', startTimeUnixNano: `17000000000000${at}0000`, endTimeUnixNano: `17000000000000${at}5000`,
      attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } }, hello, ...more],
    });
    for (const system of [{ intValue: '3' }, { boolValue: true }, { stringValue: 'You book rooms in Europe/Paris.' }]) {
      const spans = [model('00000000000000e1', 1, []), model('00000000000000e2', 2, [{ key: 'gen_ai.system_instructions', value: system }, { key: 'gen_ai.output.messages', value: { stringValue: output } }])];
      const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-')), 'system-not-read.json');
      writeFileSync(file, JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'some-agent' }, spans }] }] }));
      const { duck, ch } = await bothEngines([file], false);
      // (the instructions as text name the zone: the developer's value, no finding and evidence)
      const expected = 'stringValue' in system ? [[], 1, 0] : [[], 1, 1];
      expect([duck.findings, duck.stats.foreign_calls, duck.stats.no_evidence_calls], JSON.stringify(system)).toEqual(expected);
      expect([ch.findings, ch.stats.foreign_calls, ch.stats.no_evidence_calls], JSON.stringify(system)).toEqual(expected);
    }
  });

  it('a run\'s input or a flattened user message held as a number or a boolean: no evidence for the call in both engines, not the user\'s words', async () => {
    const attr = (key: string, value: object) => ({ key, value });
    const span = (spanId: string, at: number, name: string, attributes: object[], parentSpanId?: string) => ({
      traceId: 'fedcba9876543210fedcba9876543210', spanId, ...(parentSpanId ? { parentSpanId } : {}), name, startTimeUnixNano: `17000000000000${at}0000`, endTimeUnixNano: `17000000000000${at}5000`, attributes,
    });
    const tool = span('00000000000000f2', 2, 'book_room', [attr('openinference.span.kind', { stringValue: 'TOOL' }), attr('tool.name', { stringValue: 'book_room' }), attr('input.value', { stringValue: JSON.stringify({ day: 'Tuesday', timezone: 'Europe/Paris' }) })], '00000000000000f1');
    for (const [key, value] of [
      ['input.value', { intValue: '3' }],
      ['input.value', { boolValue: true }],
      ['llm.input_messages.0.message.content', { intValue: '7' }],
    ] as const) {
      const more = key.startsWith('llm.') ? [attr('llm.input_messages.0.message.role', { stringValue: 'user' })] : [];
      const agent = span('00000000000000f1', 1, 'agent', [attr('openinference.span.kind', { stringValue: key.startsWith('llm.') ? 'LLM' : 'AGENT' }), attr(key, value), ...more]);
      const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-')), 'run-input-not-text.json');
      writeFileSync(file, JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'openinference' }, spans: [agent, tool] }] }] }));
      const { duck, ch } = await bothEngines([file], false);
      expect([duck.findings, duck.stats.foreign_calls, duck.stats.no_evidence_calls], `${key} ${JSON.stringify(value)}`).toEqual([[], 1, 1]);
      expect([ch.findings, ch.stats.foreign_calls, ch.stats.no_evidence_calls], `${key} ${JSON.stringify(value)}`).toEqual([[], 1, 1]);
    }
  });

  it('a model\'s answer in a message event (gen_ai.choice) held as a number: one call not read, counted so, in both engines', async () => {
    const doc = JSON.parse(readFileSync(join(FIXTURES, 'foreign', 'semantic-kernel-dotnet-message-events-weather.json'), 'utf8')) as { resourceSpans: { scopeSpans: { spans: { events?: { name: string; attributes: { key: string; value: object }[] }[] }[] }[] }[] };
    const choice = doc.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((ss) => ss.spans.flatMap((sp) => sp.events ?? []))).find((e) => e.name === 'gen_ai.choice')!;
    choice.attributes.find((a) => a.key === 'gen_ai.event.content')!.value = { intValue: '3' };
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-')), 'choice-not-text.json');
    writeFileSync(file, JSON.stringify(doc));
    const { duck, ch } = await bothEngines([file], false);
    expect([duck.stats.foreign_calls, duck.stats.unreadable_args_calls]).toEqual([2, 1]);
    expect([ch.stats.foreign_calls, ch.stats.unreadable_args_calls]).toEqual([2, 1]);
    expect(ch.findings.map((f) => f.fingerprint)).toEqual(duck.findings.map((f) => f.fingerprint));
  });

  it('a credential written as an argument\'s key is the argument\'s, one finding (a credential, critical): the same in both engines', async () => {
    const span = {
      traceId: '0123456789abcdef0123456789abcdef', spanId: '00000000000000b1', name: 'execute_tool deploy', startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000100000000',
      attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } }, { key: 'gen_ai.tool.name', value: { stringValue: 'deploy' } },
        { key: 'gen_ai.tool.call.id', value: { stringValue: 'call_1' } }, { key: 'gen_ai.tool.call.arguments', value: { stringValue: JSON.stringify({ [`deploy ${CANARY_AWS_KEY}`]: 'x' }) } }],
    };
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-')), 'key.json');
    writeFileSync(file, JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'agent-framework' }, spans: [span] }] }] }));
    const { duck, ch } = await bothEngines([file], false);
    expect(duck.findings.map((f) => [f.rule, f.key, f.message.includes('has a key matching the aws-access-key-id credential shape')])).toEqual([['credential_in_attribute', '["deploy [REDACTED:aws-access-key-id]"]', true]]);
    expect(ch.findings).toEqual(duck.findings.map(portable));
  });

  it('a tool\'s result echoing its argument\'s credential is that argument\'s, one finding; another credential beside it one of its own: the same in both engines', async () => {
    // Pydantic AI's real trace: my_ret's `x` a token, its result (the tool span's, and the histories') the token and an AWS key.
    const token = 'ghp_' + 'C4NARYparityECHOc4naryRESULTtr4cexyzw';
    const doc = JSON.parse(readFileSync(join(FIXTURES, 'foreign', 'pydantic-ai-v5-format-my-ret.json'), 'utf8')
      .replaceAll('\\"x\\":0', `\\"x\\":\\"${token}\\"`)
      .replaceAll('\\"result\\":\\"1\\"', `\\"result\\":\\"${token} ${CANARY_AWS_KEY}\\"`)) as { resourceSpans: { scopeSpans: { spans: { attributes: { key: string; value: { stringValue?: string } }[] }[] }[] }[] };
    const result = doc.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((sc) => sc.spans.flatMap((sp) => sp.attributes))).find((a) => a.key === 'gen_ai.tool.call.result')!;
    result.value.stringValue = `${token} ${CANARY_AWS_KEY}`;
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-')), 'echo.json');
    writeFileSync(file, JSON.stringify(doc));
    expect(readFileSync(file, 'utf8').split(token).length - 1).toBe(7);
    const { duck, ch } = await bothEngines([file], false);
    // (the AWS key: one finding, on the tool's result, which ended before the histories repeating it)
    expect(duck.findings.map((f) => [f.rule, f.tool, f.key]).sort()).toEqual([
      ['credential_in_attribute', 'my_ret', 'gen_ai.tool.call.result'],
      ['credential_in_attribute', 'my_ret', 'x'],
    ]);
    expect(ch.findings).toEqual(duck.findings.map(portable));
  });
});

describe('a GenAI tool span without gen_ai.operation.name', () => {
  it('is the same call in both engines', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-')), 'no-operation.json');
    writeFileSync(file, toolSpansWithoutOperation());
    const { duck, ch } = await bothEngines([file], false);
    expect(duck.findings.map((f) => [f.rule, f.tool, f.key, f.emitter, f.span_id])).toEqual(CALLS_WITHOUT_OPERATION);
    expect(ch.findings).toEqual(duck.findings.map(portable));
  });

  it('Strands Agents\' calls, recorded only in span events (both shapes), give the same findings', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'argspan-parity-'));
    const files = (['legacy', 'latest'] as const).map((shape) => {
      const file = join(dir, `strands-${shape}.json`);
      writeFileSync(file, shape === 'legacy' ? strandsLegacyTrace() : strandsLatestTrace());
      return file;
    });
    const { duck, ch } = await bothEngines(files, false);
    expect(duck.findings.map((f) => [f.rule, f.tool, f.key, f.emitter])).toEqual([...STRANDS_FINDINGS.legacy, ...STRANDS_FINDINGS.latest]);
    expect(ch.findings).toEqual(duck.findings.map(portable));
  });
});

describe('the run of another library\'s call', () => {
  // A run is named by the call's own span, else by the first key (argspan's run, the GenAI
  // conversation, a session) on whose value every span of the trace agrees.
  const span = (traceId: string, spanId: string, attrs: Record<string, string>, tool?: string) => ({
    traceId, spanId, name: tool ? `execute_tool ${tool}` : 'invoke_agent', startTimeUnixNano: `1700000000${spanId.slice(-2)}0000000`, endTimeUnixNano: `1700000000${spanId.slice(-2)}5000000`,
    attributes: Object.entries({ ...attrs, ...(tool ? { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool, 'gen_ai.tool.call.id': `call_${spanId}`, 'gen_ai.tool.call.arguments': '{"path":"notes.txt"}' } : {}) })
      .map(([key, v]) => ({ key, value: { stringValue: v } })),
  });
  const a = 'a'.repeat(32);
  const b = 'b'.repeat(32);
  const doc = { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'agent-framework' }, spans: [
    span(a, 'a000000000000001', { 'session.id': 'session-1' }),
    span(a, 'a000000000000002', { 'gen_ai.conversation.id': 'conversation-1', 'session.id': 'session-1' }),
    span(a, 'a000000000000003', {}, 'read_file'),
    span(a, 'a000000000000004', { 'session.id': 'session-2' }, 'write_file'),
    span(b, 'b000000000000001', { 'gen_ai.conversation.id': 'conversation-x' }),
    span(b, 'b000000000000002', { 'gen_ai.conversation.id': 'conversation-y' }),
    span(b, 'b000000000000003', {}, 'read_file'),
  ] }] }] };

  it('is its own span\'s, else the one its trace agrees on, else none (a run per trace) — in both engines', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-runs-')), 'runs.json');
    writeFileSync(file, JSON.stringify(doc));
    const { duck, ch } = await bothEngines([file], true);
    const runs = (r: AnalysisResult) => r.findings.filter((f) => f.rule === 'report_run_summary').map((f) => f.message.replace(/: .*/, '')).sort();
    // session.id disagrees in trace a (session-1, session-2): the conversation names read_file's run.
    expect(runs(duck)).toEqual(['Run (no run id) of trace ' + b, 'Run conversation-1', 'Run session-2']);
    expect(ch.findings).toEqual(duck.findings.map(portable));
  });
});

describe('a conversation recorded a trace per turn', () => {
  /** Both engines over one OTLP JSON document. */
  const bothEnginesOn = async (document: string, reports: boolean) => {
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-turns-')), 'turns.json');
    writeFileSync(file, document);
    return bothEngines([file], reports);
  };
  // Each turn's prompt holds only the new message; what the user said, and the results and files
  // read, in the conversation's earlier turns assert the later turns' values (and pass on their
  // residency), never the other way round, and never across conversations.
  it('reads each turn with what the earlier turns of its conversation told — in both engines', async () => {
    const { duck, ch } = await bothEnginesOn(conversationPerTraceDocument(), false);
    const [first, second, third, other] = TURN_TRACE_IDS;
    expect(duck.findings.map((f) => [f.rule, f.tool, f.key, f.trace_id, f.rule === 'sensitive_arg_dispatched' ? f.message.match(/rule ([a-z-]+)/)?.[1] : ''])).toEqual([
      // The first turn guessed the account: the user named it only later.
      ['assumption_span', 'get_invoices', 'account_id', first, ''],
      // Another conversation's user never named it, nor the timezone.
      ['assumption_span', 'send_invoice', 'account_id', other, ''],
      ['assumption_span', 'send_invoice', 'timezone', other, ''],
      ['sensitive_arg_dispatched', 'read_file', 'path', second, 'secret-file-name'],
      // Copied out of the second turn's read of /app/.env.
      ['sensitive_arg_dispatched', 'send_invoice', 'signing_salt', third, 'inherited-secret'],
    ]);
    expect(JSON.stringify(duck.findings)).not.toContain(SIGNING_SALT);
    expect(ch.findings).toEqual(duck.findings.map(portable));
  });

  it('passes on the residency of a call whose result a later turn records (the tool loop of the Responses API) — in both engines', async () => {
    const { document, traceIds } = resultInNextTurnDocument();
    const { duck, ch } = await bothEnginesOn(document, false);
    expect(duck.findings.map((f) => [f.tool, f.key, f.trace_id, f.message.match(/rule ([a-z-]+)/)?.[1]])).toEqual([
      ['read_file', 'path', traceIds[0], 'secret-file-name'],
      ['sign_invoice', 'signing_salt', traceIds[1], 'inherited-secret'],
    ]);
    expect(JSON.stringify(duck.findings)).not.toContain(SIGNING_SALT);
    expect(ch.findings).toEqual(duck.findings.map(portable));
  });

  it('reads a trace whose spans name two conversations on its own, though they agree on a session — in both engines', async () => {
    const { document, traceIds } = severalRunsInATraceDocument();
    const { duck, ch } = await bothEnginesOn(document, false);
    // The session's first trace named the account; the second's call is of another run. The
    // conversation named under two keys (session on the agent span, conversation on the tool
    // span) is one run: its first turn named the account for the second.
    expect(duck.findings.map((f) => [f.rule, f.tool, f.key, f.trace_id])).toEqual([['assumption_span', 'send_invoice', 'account_id', traceIds[1]]]);
    expect(ch.findings).toEqual(duck.findings.map(portable));
  });

  it('reads a session recorded as an integer as one run — in both engines', async () => {
    const { document } = integerSessionDocument();
    const { duck, ch } = await bothEnginesOn(document, true);
    // The first turn named the account the second sends to.
    expect(duck.findings.filter((f) => f.rule === 'assumption_span')).toEqual([]);
    expect(duck.findings.filter((f) => f.rule === 'report_run_summary').map((f) => f.message)).toEqual([expect.stringMatching(/^Run 42: 2 tool call\(s\)/)]);
    expect(ch.findings).toEqual(duck.findings.map(portable));
  });

  it('reads a run 32 turns at a time: the 33rd starts afresh — in both engines', async () => {
    const { document, traceIds } = longConversationDocument(40);
    const { duck, ch } = await bothEnginesOn(document, false);
    expect(duck.findings.filter((f) => f.rule === 'assumption_span').map((f) => f.trace_id).sort()).toEqual(traceIds.slice(32).sort());
    expect(ch.findings).toEqual(duck.findings.map(portable));
  });
});

describe('argspan\'s own spans beside a model span recording the same call', () => {
  // The last case proposes a title with a GitHub-shaped canary (not a credential) in a URL's password.
  it.each([
    [false, undefined],
    [true, undefined],
    [false, 'https://x:ghp_C4NARYparityTRACEc4naryP4RITYtr4ce@github.com/org/repo'],
  ])('held by the gate: %s, title %s — the model\'s copy is not a second call in either engine', async (held, title) => {
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-parity-layered-')), 'layered.jsonl');
    writeFileSync(file, layeredTokyoTrace(held, title));
    const { duck, ch } = await bothEngines([file], true);
    expect(duck.stats.foreign_calls).toBe(0);
    expect(ch.findings).toEqual(duck.findings.map(portable));
    expect([ch.stats.foreign_calls, ch.stats.no_evidence_calls, ch.stats.unreadable_args_calls]).toEqual([duck.stats.foreign_calls, duck.stats.no_evidence_calls, duck.stats.unreadable_args_calls]);
  });
});

describe('a rule that applies only when the traces hold what it checks (applies_when), in both engines', () => {
  const traces = join(FIXTURES, 'foreign', 'openinference-crewai-scrape-website.json');
  const ruleDir = (appliesWhen: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'argspan-applies-when-'));
    writeFileSync(
      join(dir, 'needs_allowlist.sql'),
      `-- id: needs_allowlist\n-- title: t\n-- severity: low\n-- kind: gate\n-- requires: remote_allowlist\n-- applies_when: ${appliesWhen}\n-- description: d\n-- remedy: r\nSELECT trace_id, span_id, tool, NULL AS "key", 'x' AS reason FROM tool_calls WHERE tool NOT IN (SELECT tool FROM remote_allowlist)\n`,
    );
    return dir;
  };
  beforeAll(() => exportToClickHouse([traces]));

  it('is skipped, saying so, when what it checks is there and what it requires is not; quiet when nothing it checks is there', async () => {
    const skippedIn = async (rulesDirs: string[]) => {
      const duck = await analyze({ paths: [traces], rulesDirs });
      const ch = await analyzeClickHouse({ client, rulesDirs });
      expect(ch.stats.rules_skipped).toEqual(duck.stats.rules_skipped);
      expect(ch.stats.rules_run).toBe(duck.stats.rules_run);
      return duck.stats.rules_skipped.map((s) => s.rule).sort();
    };
    // Other libraries' calls are there (the allowlist is not): skipped.
    expect(await skippedIn([ruleDir(`SELECT 1 FROM tool_calls WHERE emitter <> 'argspan'`)])).toEqual(['needs_allowlist']);
    // No call went remote: neither this rule nor the shipped remote-hop rule has anything to check.
    expect(await skippedIn([ruleDir('SELECT 1 FROM tool_calls WHERE went_remote')])).toEqual([]);
  });

  it('a query that fails is a broken rule, naming its file, in both engines', async () => {
    const rulesDirs = [ruleDir('SELECT 1 FROM no_such_table')];
    await expect(analyze({ paths: [traces], rulesDirs })).rejects.toThrow(/needs_allowlist\.sql: rule needs_allowlist's applies_when query failed/);
    await expect(analyzeClickHouse({ client, rulesDirs })).rejects.toThrow(/needs_allowlist\.sql: rule needs_allowlist's applies_when query failed in ClickHouse/);
  });
});
