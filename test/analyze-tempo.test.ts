import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { analyzeBin, parseJson } from './analyze-helpers.js';
import { FOREIGN, tmp } from './support/analyze-foreign.js';

/**
 * `argspan analyze` on traces kept in Grafana Tempo, as a team fetches them: Tempo's trace-by-id
 * answers (`/api/traces/<id>`: `{"batches"}`; `/api/v2/traces/<id>`: `{"trace", "status"}`) and
 * Grafana's trace view "Export". The spans are other libraries' real traces (fixtures/traces/foreign),
 * written as each of those writes them; the same findings as the OTLP file, by tool and key.
 */

type Json = Record<string, any>;
type Doc = { resourceSpans: Json[] };

const KINDS = ['SPAN_KIND_UNSPECIFIED', 'SPAN_KIND_INTERNAL', 'SPAN_KIND_SERVER', 'SPAN_KIND_CLIENT', 'SPAN_KIND_PRODUCER', 'SPAN_KIND_CONSUMER'];
const CODES = ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR'];
const base64 = (hex: unknown) => (typeof hex === 'string' && hex !== '' ? Buffer.from(hex, 'hex').toString('base64') : hex);

/** A span as Tempo's query frontend writes it (Go's jsonpb over its protobuf): ids base64, enums by name, 64-bit integers as strings. */
function tempoSpan(s: Json): Json {
  const out: Json = { ...s, traceId: base64(s.traceId), spanId: base64(s.spanId), kind: KINDS[Number(s.kind ?? 0)], startTimeUnixNano: String(s.startTimeUnixNano), endTimeUnixNano: String(s.endTimeUnixNano) };
  if (s.parentSpanId) out.parentSpanId = base64(s.parentSpanId);
  else delete out.parentSpanId;
  if (s.status?.code !== undefined) out.status = { ...s.status, code: CODES[Number(s.status.code)] };
  if (Array.isArray(s.links)) out.links = s.links.map((l: Json) => ({ ...l, traceId: base64(l.traceId), spanId: base64(l.spanId) }));
  return out;
}

const tempoResources = (doc: Doc) => doc.resourceSpans.map((rs) => ({ ...rs, scopeSpans: rs.scopeSpans.map((ss: Json) => ({ ...ss, spans: ss.spans.map(tempoSpan) })) }));

/** The answers and export of one trace, by what a team runs to get it. */
const layouts = (doc: Doc): Record<string, unknown> => ({
  'GET /api/traces/<id>': { batches: tempoResources(doc) },
  'GET /api/v2/traces/<id>': { trace: { resourceSpans: tempoResources(doc) }, status: 'COMPLETE' },
  // Grafana's transformToOTLP: a resource per service, the scope level under OTLP 0.x's names, hex ids, times as numbers.
  'Grafana trace view, Export': {
    batches: doc.resourceSpans.map((rs) => ({
      resource: { attributes: rs.resource?.attributes ?? [], droppedAttributesCount: 0 },
      instrumentationLibrarySpans: rs.scopeSpans.map((ss: Json) => ({
        ...(ss.scope?.name ? { instrumentationLibrary: { name: ss.scope.name, version: ss.scope.version ?? '' } } : {}),
        spans: ss.spans.map((s: Json) => ({ ...s, parentSpanId: s.parentSpanId ?? '', traceState: '', startTimeUnixNano: Number(s.startTimeUnixNano), endTimeUnixNano: Number(s.endTimeUnixNano), droppedAttributesCount: 0 })),
      })),
    })),
  },
});

const findings = (run: ReturnType<typeof analyzeBin>) =>
  parseJson(run)
    .findings.filter((f) => !f.rule.startsWith('report_'))
    .map((f) => [f.rule, f.tool, f.key, f.emitter, (f as Json).trace_id, (f as Json).span_id])
    .sort();

const fixture = (name: string): Doc => JSON.parse(readFileSync(join(FOREIGN, name), 'utf8')) as Doc;
const PLANTED = ['ghp_C4NARY', '/app/.env', 'America/New_York'];

describe('argspan analyze on traces fetched from Grafana Tempo', () => {
  const fixtures = ['derived/google-genai-dotenv-path.json', 'derived/litellm-token-in-tool-calls.json', 'derived/mastra-0.x-model-prompt-timezone.json', 'openllmetry-openai-agents-weather.json'];
  it.each(fixtures)('%s: each answer and the export report what the OTLP file does; the planted values in no output', (name) => {
    const direct = analyzeBin(join(FOREIGN, name), '--format', 'json');
    const want = findings(direct);
    const calls = parseJson(direct).stats.foreign_calls;
    expect(calls).toBeGreaterThan(0);
    const [v1, v2, exported] = Object.entries(layouts(fixture(name))) as [string, unknown][];
    const dir = tmp();
    // (each written as such a file may be: curl's compact answer, pretty-printed by jq, kept gzipped)
    const files: [string, string][] = [[v1![0], join(dir, 'v1.json')], [v2![0], join(dir, 'v2.json.gz')], [exported![0], join(dir, 'export.json')]];
    writeFileSync(files[0]![1], JSON.stringify(v1![1], null, 2));
    writeFileSync(files[1]![1], gzipSync(JSON.stringify(v2![1])));
    writeFileSync(files[2]![1], JSON.stringify(exported![1]));
    for (const [layout, file] of files) {
      const run = analyzeBin(file, '--format', 'json');
      expect(run.code, `${layout}: ${run.stderr}`).toBe(direct.code);
      expect(findings(run), layout).toEqual(want);
      expect(parseJson(run).stats.foreign_calls, layout).toBe(calls);
      for (const value of PLANTED) expect(run.stdout + run.stderr, layout).not.toContain(value);
    }
    for (const format of ['table', 'sarif']) {
      const out = analyzeBin(files[0]![1], '--format', format);
      for (const value of PLANTED) expect(out.stdout + out.stderr, format).not.toContain(value);
    }
  });

  const doc = fixture('derived/litellm-token-in-tool-calls.json');
  const [v1, v2] = Object.values(layouts(doc)) as [Json, Json];
  const whole = findings(analyzeBin(join(FOREIGN, 'derived/litellm-token-in-tool-calls.json'), '--format', 'json'));

  it('a /api/v2 answer Tempo marks PARTIAL (the trace over its size limit) is never read as the whole trace: exit 2 naming it; --allow-partial reads the spans it holds and lists it as skipped', () => {
    const file = join(tmp(), 'partial.json');
    writeFileSync(file, JSON.stringify({ ...v2, status: 'PARTIAL', message: 'Trace exceeds maximum size of 5000000 bytes, a partial trace is returned' }));
    const reason = 'Grafana Tempo answered with part of the trace only ("status" is not COMPLETE: the trace is larger than Tempo\'s size limit): its other spans are not in the file';
    const run = analyzeBin(file);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`${file}:1: ${reason}`);
    const partial = analyzeBin(file, '--allow-partial', '--format', 'json');
    expect(partial.code).toBe(1);
    expect(findings(partial)).toEqual(whole);
    expect(parseJson(partial).stats.skipped).toEqual([{ file, line: 1, reason }]);
  });

  it('answers one a line (each `curl` appended to a file): read line by line; a partial answer and a broken line named by their lines, all at once', () => {
    const file = join(tmp(), 'traces.jsonl');
    writeFileSync(file, [JSON.stringify(v1), JSON.stringify({ ...v2, status: 'PARTIAL' }), '{"batches": [ghp_C4NARYbroken', ''].join('\n'));
    const run = analyzeBin(file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:2: Grafana Tempo answered with part of the trace only`);
    expect(run.stderr).toContain(`${file}:3: not valid JSON (a truncated or corrupt line)`);
    expect(run.stderr).not.toContain('ghp_C4NARY');
    const partial = analyzeBin(file, '--allow-partial', '--format', 'json');
    expect(partial.code).toBe(1);
    // (lines 1 and 2 hold the same trace: each span analysed once)
    expect(findings(partial)).toEqual(whole);
    expect(parseJson(partial).stats.skipped.map((s) => s.line)).toEqual([2, 3]);
  });

  it('a malformed span is named by its place in the answer, never by its value; under --allow-partial the others are read', () => {
    const bad = structuredClone(v1);
    const spans = bad.batches[0].scopeSpans[0].spans as Json[];
    spans[1] = { ...spans[1], spanId: 'ghp_C4NARYnotAnId' };
    const file = join(tmp(), 'bad.json');
    writeFileSync(file, JSON.stringify(bad, null, 2));
    const run = analyzeBin(file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}: batches[0].scopeSpans[0].spans[1]: malformed span: span without a valid span id`);
    expect(run.stderr).not.toContain('ghp_C4NARY');
    expect(analyzeBin(file, '--allow-partial').code).not.toBe(2);
  });

  it('Tempo\'s search answer holds no trace: refused naming the answer to fetch (exit 2), never reported clean', () => {
    const file = join(tmp(), 'search.json');
    writeFileSync(file, JSON.stringify({ traces: [{ traceID: '5b8efff798038103d269b633813fc60c', rootServiceName: 'agent', rootTraceName: 'invoke_agent', startTimeUnixNano: '1746259100000000000', durationMs: 145 }], metrics: { inspectedTraces: 12 } }));
    const run = analyzeBin(file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:1: Grafana Tempo's search answer (GET /api/search): holds trace ids and span summaries, not traces; fetch each trace with GET /api/v2/traces/<traceID>, which argspan reads`);
  });

  it('another shape under "batches" is refused naming the field (exit 2)', () => {
    const file = join(tmp(), 'other.json');
    writeFileSync(file, JSON.stringify({ batches: { jobs: ['ghp_C4NARYjob'] } }));
    const run = analyzeBin(file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:1: JSON of another shape: the "batches" of a Grafana Tempo trace answer must be a list of objects`);
    expect(run.stderr).not.toContain('ghp_C4NARY');
  });
});
