import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBin, parseJson, query } from './analyze-helpers.js';
import { FOREIGN, tmp } from './support/analyze-foreign.js';

/**
 * `argspan analyze` on Semantic Kernel Python's telemetry (fixtures/traces/foreign/README.md: RECON from
 * SK's source with its tests' values). SK writes spans (the auto-invocation loop, `chat {model}`,
 * `execute_tool {plugin-function}` with the arguments and call id) and the messages as log records
 * (`event.name` = `gen_ai.user.message` …, `gen_ai.choice`, the message's JSON in the body): two
 * exports, analysed together. The model's call is a JSON string inside the record's JSON body.
 */
const TRACES = `${FOREIGN}/semantic-kernel-python-weather.traces.json`;
const LOGS = `${FOREIGN}/semantic-kernel-python-weather.logs.json`;

type Value = { stringValue?: string };
type Traces = { resourceSpans: { scopeSpans: { spans: { name: string; attributes: { key: string; value: Value }[] }[] }[] }[] };
type Logs = { resourceLogs: { scopeLogs: { logRecords: { spanId: string; body: Value; attributes: { key: string; value: Value }[] }[] }[] }[] };
const spansOf = (doc: Traces) => doc.resourceSpans[0]!.scopeSpans.flatMap((s) => s.spans);
const recordsOf = (doc: Logs) => doc.resourceLogs[0]!.scopeLogs[0]!.logRecords;
const eventName = (r: ReturnType<typeof recordsOf>[number]) => r.attributes.find((a) => a.key === 'event.name')!.value.stringValue!;

/**
 * The pair with `from` → `to` in `where` (the tool span's arguments: `tool`; the model's call and its
 * copy in the next request's history, a JSON string in a JSON body: `messages`), as written at each
 * level; returns the two files and the attributes and records changed.
 */
function planted(from: string, to: string, where: readonly ('tool' | 'messages')[] = ['tool', 'messages']) {
  const traces = JSON.parse(readFileSync(TRACES, 'utf8')) as Traces;
  const logs = JSON.parse(readFileSync(LOGS, 'utf8')) as Logs;
  const holding: string[] = [];
  const once = (t: string) => JSON.stringify(t).slice(1, -1);
  const replace = (value: Value, at: string) => {
    for (const [a, b] of [[from, to], [once(from), once(to)]] as const) {
      if (value.stringValue?.includes(a)) {
        value.stringValue = value.stringValue.split(a).join(b);
        holding.push(at);
      }
    }
  };
  if (where.includes('tool')) for (const span of spansOf(traces)) for (const attr of span.attributes) replace(attr.value, `${span.name} ${attr.key}`);
  if (where.includes('messages')) for (const record of recordsOf(logs)) replace(record.body, `${record.spanId} ${eventName(record)}`);
  const dir = tmp();
  const [t, l] = [join(dir, 'sk.traces.json'), join(dir, 'sk.logs.json')];
  writeFileSync(t, JSON.stringify(traces));
  writeFileSync(l, JSON.stringify(logs));
  return { files: [t, l] as const, holding };
}
const findings = (...args: string[]) => parseJson(analyzeBin(...args, '--format', 'json')).findings.filter((f) => !f.rule.startsWith('report_')).map((f) => [f.rule, f.tool, f.key, f.emitter]);

describe('argspan analyze on Semantic Kernel Python\'s spans and log records (model diagnostics, sensitive events on)', () => {
  it('the call once, under its id, recorded by its function span: the city the user named, nothing reported', async () => {
    const db = join(tmp(), 'a.duckdb');
    const run = analyzeBin(TRACES, LOGS, '--format', 'json', '--reports', '--db', db);
    expect(run.code).toBe(0);
    const out = parseJson(run);
    expect(out.findings.map((f) => [f.rule, f.emitter])).toEqual([['report_run_summary', 'genai-semconv']]);
    expect([out.stats.log_records, out.stats.spans_from_log_records, out.stats.foreign_calls, out.stats.no_evidence_calls]).toEqual([8, 0, 1, 0]);
    // (the turn: SK's AutoFunctionInvocationLoop span, parent of the chat and function spans)
    expect(await query(db, 'SELECT tool, call_id, call_source, emitter, turn_span_id FROM tool_calls')).toEqual([
      { tool: 'WeatherPlugin-GetWeather', call_id: 'test1', call_source: 'tool-span', emitter: 'genai-semconv', turn_span_id: '1a2b3c4d5e6f7081' },
    ]);
    expect(await query(db, 'SELECT tool, "key", provenance FROM tool_args')).toEqual([{ tool: 'WeatherPlugin-GetWeather', key: 'location', provenance: 'user_explicit' }]);
  });

  it('the traces export alone holds no message: the call and its arguments are read, with no evidence either way', () => {
    const out = parseJson(analyzeBin(TRACES, '--format', 'json'));
    expect([out.stats.foreign_calls, out.stats.no_evidence_calls, out.stats.unreadable_args_calls, out.findings.length]).toEqual([1, 1, 0, 0]);
  });

  const TOKEN = 'ghp_' + 'C4NARYsk0pythonkernelc4naryxyzwvut1234';
  it.each([
    ['a zone the user never gave', '"location": "Seattle", "timezone": "America/Los_Angeles"', 'assumption_span', 'timezone'],
    ['a token in the location', `"location": "Seattle ${TOKEN}"`, 'credential_in_attribute', 'location'],
  ] as const)('%s: one finding by tool and key (not again for the model\'s call and its copy in the next request), never printed', (_, to, rule, key) => {
    const { files, holding } = planted('"location": "Seattle"', to);
    // (the function span's JSON; the choice's call and the next request's assistant message, each a JSON string in a record's JSON body)
    expect(holding).toEqual(['execute_tool WeatherPlugin-GetWeather gen_ai.tool.call.arguments', '2b3c4d5e6f708192 gen_ai.choice', '4d5e6f708192a3b4 gen_ai.assistant.message']);
    const run = analyzeBin(...files, '--format', 'json');
    expect(run.code, rule).toBe(1);
    expect(parseJson(run).stats.foreign_calls).toBe(1);
    expect(findings(...files)).toEqual([[rule, 'WeatherPlugin-GetWeather', key, 'genai-semconv']]);
    for (const format of ['table', 'json', 'sarif', 'junit', 'html']) {
      const out = analyzeBin(...files, '--format', format);
      for (const value of ['America/Los_Angeles', TOKEN]) expect(out.stdout + out.stderr, `${format}: ${value}`).not.toContain(value);
    }
  });

  it('the logs alone: the call is the model\'s proposal, its arguments read from the JSON string in the choice', () => {
    const { files } = planted('"location": "Seattle"', '"location": "Seattle", "timezone": "America/Los_Angeles"', ['messages']);
    expect(findings(files[1])).toEqual([['assumption_span', 'WeatherPlugin-GetWeather', 'timezone', 'genai-semconv']]);
  });

  it('a key only the function span holds is the application\'s KernelArguments, not the model\'s guess; a token there is still reported, never printed', () => {
    // `kernel.invoke_prompt(…, arguments=KernelArguments(timezone=…))`: SK merges the model's arguments over the invocation's.
    const zone = planted('{"location": "Seattle"}', '{"timezone": "America/Los_Angeles", "location": "Seattle"}', ['tool']);
    expect(zone.holding).toEqual(['execute_tool WeatherPlugin-GetWeather gen_ai.tool.call.arguments']);
    expect(findings(...zone.files)).toEqual([]);
    // The same trace without the log records cannot tell whose it is: no evidence, nothing reported either.
    expect(parseJson(analyzeBin(zone.files[0], '--format', 'json')).stats.no_evidence_calls).toBe(1);
    const token = planted('{"location": "Seattle"}', `{"api_token": "${TOKEN}", "location": "Seattle"}`, ['tool']);
    expect(findings(...token.files)).toEqual([['credential_in_attribute', 'WeatherPlugin-GetWeather', 'api_token', 'genai-semconv']]);
    for (const format of ['table', 'json', 'sarif', 'junit', 'html']) {
      const out = analyzeBin(...token.files, '--format', format);
      expect(out.stdout + out.stderr, format).not.toContain(TOKEN);
    }
  });

  it('SK\'s own log lines beside the GenAI records (its telemetry sample sends every semantic_kernel logger): scanned for credentials, a token there reported by span and key in every report, never quoted', () => {
    const logs = JSON.parse(readFileSync(LOGS, 'utf8')) as Logs;
    const choice = recordsOf(logs).find((r) => eventName(r) === 'gen_ai.choice')!;
    // What `kernel_function` logs at INFO and DEBUG, in the function's span: no GenAI event name.
    const line = (text: string) => ({ ...choice, attributes: [{ key: 'code.function.name', value: { stringValue: 'invoke' } }], body: { stringValue: text } });
    recordsOf(logs).push(line(`Calling WeatherPlugin-GetWeather function with args: {"location": "Seattle ${TOKEN}"}`), line(`Function arguments: {"location": "Seattle ${TOKEN}"}`));
    const file = join(tmp(), 'sk.logs.json');
    writeFileSync(file, JSON.stringify(logs));
    const run = analyzeBin(TRACES, file, '--format', 'json');
    expect(run.code).toBe(1);
    const out = parseJson(run);
    expect([out.stats.log_records, out.stats.other_log_records]).toEqual([8, 2]);
    // The two lines hold one token under one key of one span: one finding, counting both.
    expect(out.findings.map((f) => [f.rule, f.key, f.message])).toEqual([
      ['credential_in_log_record', 'log.body', 'An application log record written in the span holds in its body a value matching the github-pat credential shape (as do 1 other record(s)).'],
    ]);
    const table = analyzeBin(TRACES, file, '--format', 'table').stdout;
    expect(table).toContain("Read 8 GenAI log record(s) as their spans' events; 2 other log record(s) (no GenAI message event: an application's own logs) were scanned for credentials only (their bodies, attributes and keys, resources and instrumentation scopes), not read as tool calls or messages.");
    expect(analyzeBin(TRACES, file, '--format', 'sarif').stdout).toContain('"other_log_records": 2');
    expect(analyzeBin(TRACES, file, '--format', 'junit').stdout).toContain('<property name="argspan.other_log_records" value="2"/>');
    const html = analyzeBin(TRACES, file, '--format', 'html').stdout;
    expect(html).toContain('2 other log record(s)');
    for (const format of ['table', 'json', 'sarif', 'junit', 'html']) {
      const r = analyzeBin(TRACES, file, '--format', format);
      expect(r.stdout + r.stderr, format).not.toContain(TOKEN);
    }
    // Only the application's lines: said so, with no GenAI count before it.
    const alone = JSON.parse(readFileSync(LOGS, 'utf8')) as Logs;
    alone.resourceLogs[0]!.scopeLogs[0]!.logRecords = [line('Function arguments: {"location": "Seattle"}')];
    const onlyApp = join(tmp(), 'app.logs.json');
    writeFileSync(onlyApp, JSON.stringify(alone));
    expect(analyzeBin(TRACES, onlyApp, '--format', 'table').stdout).toContain("\n1 log record(s) (no GenAI message event: an application's own logs) were scanned for credentials only (their bodies, attributes and keys, resources and instrumentation scopes), not read as tool calls or messages.");
  });
});
