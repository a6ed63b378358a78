import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBin, parseJson, query } from './analyze-helpers.js';
import { expectOnlyFinding, FOREIGN, tmp } from './support/analyze-foreign.js';
import { STRANDS_FINDINGS, STRANDS_TOKEN, strandsLatestTrace, strandsLegacyTrace } from './support/strands-trace.js';
import { CALLS_WITHOUT_OPERATION, toolSpansWithoutOperation } from './support/tool-span-without-operation.js';

/**
 * `argspan analyze` on the real traces of `fixtures/traces/foreign/` from emitters other than
 * OpenInference's instrumentations: Google ADK, OpenLLMetry, GenAI-convention tool spans, Semantic
 * Kernel, Strands Agents, Logfire, smolagents, Spring AI, LiteLLM, Mastra, AG2, BeeAI, Microsoft
 * Agent Framework, Haystack, Genkit and VoltAgent; each emitter's calls read once, by tool and key.
 */

describe('argspan analyze: Google ADK alone (no OpenInference)', () => {
  // ADK's own tracer records the model call on `call_llm` (gcp.vertex.agent.llm_request/_response):
  // the user's words are there, so the trace is not one "without the user's words".
  it('reads the user\'s words from ADK\'s own model spans: no call without evidence, no finding', () => {
    const doc = JSON.parse(readFileSync(`${FOREIGN}/openinference-google-adk-weather.json`, 'utf8')) as { resourceSpans: { scopeSpans: { spans: { attributes: { key: string }[] }[] }[] }[] };
    const openInference = (key: string) => /^(llm\.|tool\.|input\.|output\.|session\.|user\.|openinference\.)/.test(key);
    for (const rs of doc.resourceSpans) for (const ss of rs.scopeSpans) for (const sp of ss.spans) sp.attributes = sp.attributes.filter((a) => !openInference(a.key));
    const file = join(tmp(), 'adk-alone.json');
    writeFileSync(file, JSON.stringify(doc));
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code).toBe(0);
    expect(parseJson(run).stats).toMatchObject({ foreign_calls: 1, no_evidence_calls: 0, unreadable_args_calls: 0 });
    expect(parseJson(run).findings).toEqual([]);
    expect(analyzeBin(file).stdout).not.toContain('without the user\'s words');
  });
});

describe('argspan analyze on OpenLLMetry\'s own flattened layout (gen_ai.prompt.{i}.*, gen_ai.completion.{i}.tool_calls.{j}.*)', () => {
  // The real OpenAI trace of fixtures/traces/foreign, its proposed arguments replaced.
  function withArguments(args: unknown): string {
    const doc = JSON.parse(readFileSync(join(FOREIGN, 'openllmetry-openai-legacy-tool-calls-model-only.json'), 'utf8'));
    const span = doc.resourceSpans[0].scopeSpans[0].spans[0];
    span.attributes.find((a: { key: string }) => a.key === 'gen_ai.completion.0.tool_calls.0.arguments').value = { stringValue: JSON.stringify(args) };
    const file = join(tmp(), 'openllmetry.json');
    writeFileSync(file, JSON.stringify(doc));
    return file;
  }
  it('a model span\'s proposal is a call: an invented timezone and a secret file\'s path are reported, naming the emitter', () => {
    const run = analyzeBin(withArguments({ location: 'Boston', timezone: 'America/New_York', attachment: '/app/.env' }), '--format', 'json');
    expect(run.code).toBe(1);
    const out = parseJson(run);
    expect(out.stats.foreign_calls).toBe(1);
    expect(out.findings.filter((f) => f.severity !== 'info').map((f) => [f.rule, f.tool, f.key, f.emitter]).sort()).toEqual([
      ['assumption_span', 'get_current_weather', 'timezone', 'openllmetry'],
      ['sensitive_arg_dispatched', 'get_current_weather', 'attachment', 'openllmetry'],
    ]);
    expect(run.stdout + run.stderr).not.toContain('.env');
  });
});

describe('argspan analyze: a GenAI tool span without gen_ai.operation.name', () => {
  it('is a tool call when named execute_tool or recording a call; a chat span that names a tool, or a span that only mentions one, is not', () => {
    const file = join(tmp(), 'no-operation.json');
    writeFileSync(file, toolSpansWithoutOperation());
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code, run.stderr).toBe(1);
    const out = parseJson(run);
    expect(out.stats.foreign_calls).toBe(2);
    expect(out.findings.map((f) => [f.rule, f.tool, f.key, f.emitter, (f as unknown as { span_id: string }).span_id])).toEqual(CALLS_WITHOUT_OPERATION);
    expect(run.stdout + run.stderr).not.toContain('.env');
  });
});

describe('argspan analyze: Semantic Kernel\'s messages recorded as span events', () => {
  // SK writes no gen_ai.input.messages: the prompt and the choices are span events. Read, they give
  // the user's words (the call has evidence) and the calls the model proposed.
  const run = (file: string, ...args: string[]) => analyzeBin(join(FOREIGN, file), ...args);

  it('per-message events (SK .NET since May 2025) and gen_ai.content.prompt / .completion (before): the call, with evidence', () => {
    for (const file of ['semantic-kernel-dotnet-message-events-weather.json', 'derived/semantic-kernel-dotnet-legacy-content-events-weather.json']) {
      const out = parseJson(run(file, '--format', 'json'));
      expect([out.stats.foreign_calls, out.stats.no_evidence_calls], file).toEqual([1, 0]);
    }
  });

  it('a credential in a proposed call\'s arguments is reported once, by tool and argument, whatever copies it (the choice, the next prompt\'s history), and printed in no format', () => {
    const file = 'derived/semantic-kernel-token-in-choice.json';
    const out = parseJson(run(file, '--format', 'json'));
    expect(out.findings.map((f) => [f.rule, f.tool, f.key, f.message])).toEqual([
      // (the choice and the next prompt's history: two copies, both gen_ai.event.content, on two spans)
      ['credential_in_attribute', 'GetCurrentWeather', 'location', 'Argument location of GetCurrentWeather, recorded by genai-semconv in gen_ai.tool.call.arguments (and 2 other attribute(s)), holds a value matching the github-pat credential shape.'],
    ]);
    const token = 'ghp_C4NARYf0reignTRACEc4naryF0REIGNtr4ce';
    expect(readFileSync(join(FOREIGN, file), 'utf8')).toContain(token);
    for (const format of ['table', 'json', 'junit', 'sarif', 'html']) {
      const r = run(file, '--format', format);
      expect(r.code, format).toBe(1);
      expect(r.stdout + r.stderr, format).not.toContain(token);
    }
    const baseline = join(tmp(), 'baseline.json');
    expect(run(file, '--write-baseline', baseline).code).toBe(0);
    expect(readFileSync(baseline, 'utf8')).not.toContain(token);
  });
});

describe('argspan analyze on Strands Agents\' traces (messages and tool calls recorded only as span events)', () => {
  it.each([['legacy', strandsLegacyTrace], ['latest', strandsLatestTrace]] as const)('%s events: the call\'s input, the user\'s words and the model\'s call are read; its guess and its secrets reported, never printed', (shape, trace) => {
    const file = join(tmp(), `strands-${shape}.json`);
    writeFileSync(file, trace());
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code, run.stderr).toBe(1);
    const out = parseJson(run);
    expect([out.stats.foreign_calls, out.stats.no_evidence_calls, out.stats.unreadable_args_calls]).toEqual([1, 0, 0]);
    expect(out.findings.map((f) => [f.rule, f.tool, f.key, f.emitter])).toEqual(STRANDS_FINDINGS[shape]);
    for (const format of ['table', 'json', 'sarif']) {
      const r = analyzeBin(file, '--format', format);
      expect(r.stdout + r.stderr, format).not.toContain(STRANDS_TOKEN);
      expect(r.stdout + r.stderr, format).not.toContain('/srv/app');
    }
  });
});

describe('argspan analyze on emitters whose tool spans were misread', () => {
  const TOKEN = 'ghp_C4NARYlogf1reSMOLc4naryAUD1Tqa3unit01';
  const attrs = (a: Record<string, string>) => Object.entries(a).map(([key, v]) => ({ key, value: { stringValue: v } }));
  const doc = (scope: string, spans: { n: number; parent?: number; name: string; a: Record<string, string> }[]) =>
    JSON.stringify({ resourceSpans: [{ resource: { attributes: attrs({ 'service.name': 'agent' }) }, scopeSpans: [{ scope: { name: scope }, spans: spans.map(({ n, parent, name, a }) => ({
      traceId: 'a9a90000000000000000000000000003', spanId: `a9a90000000000${String(n).padStart(2, '0')}`, parentSpanId: parent === undefined ? '' : `a9a90000000000${String(parent).padStart(2, '0')}`,
      name, kind: 1, startTimeUnixNano: `17645000000${n}0000000`, endTimeUnixNano: `17645000000${n}5000000`, attributes: attrs(a),
    })) }] }] });
  const ARGS = JSON.stringify({ path: '/app/.env', auth: `token ${TOKEN}` });
  /** The trace in `file` holds one call, read_file(ARGS) by `emitter`: its credential and secret path reported by argument, neither printed. */
  const expectOneReadFileCall = (file: string, emitter: string) => {
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code).toBe(1);
    const out = parseJson(run);
    expect(out.stats.foreign_calls).toBe(1);
    expect(out.findings.filter((f) => f.severity !== 'info').map((f) => [f.rule, f.tool, f.key, f.emitter]).sort()).toEqual([
      ['credential_in_attribute', 'read_file', 'auth', emitter],
      ['sensitive_arg_dispatched', 'read_file', 'path', emitter],
    ]);
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
    expect(run.stdout + run.stderr).not.toContain('.env');
  };

  it('Logfire\'s OpenAI Agents integration: the Function: {name} span is the call (its calls are not proposals in its events), reported by argument as logfire, never printed', () => {
    const template = (t: string, a: Record<string, string>) => ({ 'logfire.msg_template': t, 'logfire.span_type': 'span', 'gen_ai.system': 'openai', ...a });
    const file = join(tmp(), 'logfire-agents.json');
    writeFileSync(file, doc('logfire.openai_agents', [
      { n: 1, name: 'Agent run: {name!r}', a: template('Agent run: {name!r}', { name: 'ops', 'logfire.msg': "Agent run: 'ops'" }) },
      { n: 2, parent: 1, name: 'Responses API with {gen_ai.request.model!r}', a: template('Responses API with {gen_ai.request.model!r}', { 'gen_ai.operation.name': 'chat', events: JSON.stringify([
        { 'event.name': 'gen_ai.user.message', content: 'Read the app config.', role: 'user' },
        { 'event.name': 'gen_ai.assistant.message', role: 'assistant', tool_calls: [{ id: 'call_7', type: 'function', function: { name: 'read_file', arguments: ARGS } }] },
      ]) }) },
      { n: 3, parent: 1, name: 'Function: {name}', a: template('Function: {name}', { 'logfire.msg': 'Function: read_file', name: 'read_file', input: ARGS, output: 'ok', mcp_data: 'null' }) },
    ]));
    // The model's call in `events` (named by a call id the function span does not record) is a copy
    // of the call's arguments: its credential is one finding, by argument, not a second by attribute.
    expectOneReadFileCall(file, 'logfire');
  });

  it('Logfire\'s OpenAI Agents integration with the Response recorded (`response`) and the next request\'s input items (`raw_input`): still one call, each copy known as one', () => {
    // tests/otel_integrations/test_openai_agents.py (test_function_tool_exception): the Responses
    // span carries the Response whole and the request's input items, the call under its item id (fc_…) and its call_id.
    const template = (t: string, a: Record<string, string>) => ({ 'logfire.msg_template': t, 'logfire.span_type': 'span', 'gen_ai.system': 'openai', ...a });
    const call = { type: 'function_call', id: 'fc_67d1743683b48191', call_id: 'call_7', name: 'read_file', arguments: ARGS, status: 'completed' };
    const assistant = { 'event.name': 'gen_ai.assistant.message', role: 'assistant', tool_calls: [{ id: 'call_7', type: 'function', function: { name: 'read_file', arguments: ARGS } }] };
    const asked = { 'event.name': 'gen_ai.user.message', content: 'Read the app config.', role: 'user' };
    const file = join(tmp(), 'logfire-agents-response.json');
    writeFileSync(file, doc('logfire.openai_agents', [
      { n: 1, name: 'Agent run: {name!r}', a: template('Agent run: {name!r}', { name: 'ops', 'logfire.msg': "Agent run: 'ops'" }) },
      { n: 2, parent: 1, name: 'Responses API with {gen_ai.request.model!r}', a: template('Responses API with {gen_ai.request.model!r}', {
        'gen_ai.operation.name': 'chat', raw_input: JSON.stringify([{ content: 'Read the app config.', role: 'user' }]),
        events: JSON.stringify([asked, assistant]), response: JSON.stringify({ id: 'resp_1', object: 'response', output: [call] }) }) },
      { n: 3, parent: 1, name: 'Function: {name}', a: template('Function: {name}', { 'logfire.msg': 'Function: read_file', name: 'read_file', input: ARGS, output: 'ok', mcp_data: 'null' }) },
      { n: 4, parent: 1, name: 'Responses API with {gen_ai.request.model!r}', a: template('Responses API with {gen_ai.request.model!r}', {
        'gen_ai.operation.name': 'chat', raw_input: JSON.stringify([{ content: 'Read the app config.', role: 'user' }, call, { call_id: 'call_7', output: 'ok', type: 'function_call_output' }]),
        events: JSON.stringify([asked, assistant, { 'event.name': 'gen_ai.tool.message', role: 'tool', id: 'call_7', content: 'ok', name: 'read_file' }, { 'event.name': 'gen_ai.assistant.message', content: 'Done.', role: 'assistant' }]),
        response: JSON.stringify({ id: 'resp_2', object: 'response', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] }] }) }) },
    ]));
    expectOneReadFileCall(file, 'logfire');
  });

  it('logfire.instrument_openai\'s Responses API, the tool\'s run not traced: the call the model\'s output holds is found once, its credential reported once by tool and key, printed by no format', () => {
    // tests/otel_integrations/test_openai.py (test_responses_api; test_responses_api_version_v1_only):
    // `events` is the input with the output appended (an assistant message, no gen_ai.choice); with
    // version [1, 'latest'] `gen_ai.output.messages` holds the same call too, and the next request
    // repeats it in both its lists. Version 1 (the default) writes `events` only.
    const template = (a: Record<string, string>) => ({ 'logfire.msg_template': 'Responses API with {request_data[model]!r}', 'logfire.span_type': 'span', 'gen_ai.system': 'openai', 'gen_ai.operation.name': 'chat', ...a });
    const asked = { 'event.name': 'gen_ai.user.message', content: 'Read the app config.', role: 'user' };
    const assistant = { 'event.name': 'gen_ai.assistant.message', role: 'assistant', tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'read_file', arguments: ARGS } }] };
    const part = { type: 'tool_call', id: 'call_9', name: 'read_file', arguments: JSON.parse(ARGS) as unknown };
    const traced = (latest: boolean) => {
      const file = join(tmp(), `logfire-openai-responses${latest ? '-latest' : ''}.json`);
      writeFileSync(file, doc('logfire.openai', [
        { n: 1, name: 'Responses API with {request_data[model]!r}', a: template({ events: JSON.stringify([asked, assistant]), ...(latest ? { 'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [part] }]) } : {}) }) },
        { n: 2, name: 'Responses API with {request_data[model]!r}', a: template({
          events: JSON.stringify([asked, assistant, { 'event.name': 'gen_ai.tool.message', role: 'tool', id: 'call_9', content: 'ok', name: 'read_file' }, { 'event.name': 'gen_ai.assistant.message', content: 'Done.', role: 'assistant' }]),
          ...(latest ? { 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Read the app config.' }] }, { role: 'assistant', parts: [part] }, { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_9', response: 'ok' }] }]) } : {}) }) },
      ]));
      return file;
    };
    expectOneReadFileCall(traced(true), 'logfire');
    const file = traced(false);
    expectOneReadFileCall(file, 'logfire');
    const html = join(tmp(), 'report.html');
    for (const format of ['table', 'sarif']) {
      const run = analyzeBin(file, '--format', format, ...(format === 'table' ? ['--html', html] : []));
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).not.toContain(TOKEN);
      // (SARIF's rule texts name `.env` as an example: the path itself is what must not appear)
      expect(run.stdout + run.stderr).not.toContain('/app/.env');
    }
    const sarif = JSON.parse(analyzeBin(file, '--format', 'sarif').stdout) as { runs: { results: { ruleId: string }[] }[] };
    expect(sarif.runs[0]!.results.map((r) => r.ruleId).filter((r) => r === 'credential_in_attribute')).toHaveLength(1);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('read_file');
    expect(page).not.toContain(TOKEN);
    expect(page).not.toContain('/app/.env');
  });

  it('a smolagents ToolCallingAgent call is one call, its arguments the model\'s (not the agent\'s sanitize_inputs_outputs flag)', () => {
    const file = join(tmp(), 'smolagents.json');
    writeFileSync(file, doc('openinference.instrumentation.smolagents', [
      { n: 1, name: 'ToolCallingAgent.run', a: { 'openinference.span.kind': 'AGENT', 'input.value': JSON.stringify({ task: 'Read the app config.', stream: false, reset: true }) } },
      { n: 2, parent: 1, name: 'OpenAIServerModel.generate', a: { 'openinference.span.kind': 'LLM', 'llm.input_messages.0.message.role': 'user', 'llm.input_messages.0.message.content': 'New task:\nRead the app config.',
        'llm.output_messages.0.message.role': 'assistant', 'llm.output_messages.0.message.tool_calls.0.tool_call.id': 'call_7', 'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'read_file', 'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': ARGS } },
      { n: 3, parent: 1, name: 'SimpleTool', a: { 'openinference.span.kind': 'TOOL', 'tool.name': 'read_file', 'tool.parameters': JSON.stringify({ path: { type: 'string', description: 'File.' }, auth: { type: 'string', description: 'Auth.' } }),
        'input.value': JSON.stringify({ args: [], sanitize_inputs_outputs: true, kwargs: JSON.parse(ARGS) as unknown }), 'output.value': 'ok', 'output.mime_type': 'text/plain' } },
    ]));
    expectOneReadFileCall(file, 'openinference');
  });
});

/** `argspan analyze` of a planted fixture: exactly `want` (`[rule, tool, key, emitter]`), and the planted values in no output format. */
type Span = { traceId: string; spanId: string; parentSpanId?: string; name: string; attributes: { key: string; value: { stringValue?: string } }[] };

/** A fixture of one resource and scope (`source`, under FOREIGN), `edit` made on its spans, written to a file of its own. */
function editedFixture(source: string, edit: (spans: Span[]) => Span[] | void): string {
  const doc = JSON.parse(readFileSync(join(FOREIGN, source), 'utf8'));
  const ss = doc.resourceSpans[0].scopeSpans[0];
  ss.spans = edit(ss.spans) ?? ss.spans;
  const file = join(tmp(), 'edited.json');
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

function expectPlantedFindings(file: string, want: (string | null)[][]): void {
  const path = join(FOREIGN, file);
  const run = analyzeBin(path, '--format', 'json');
  expect(run.code).toBe(1);
  const findings = parseJson(run).findings.filter((f) => !f.rule.startsWith('report_'));
  expect(findings.map((f) => [f.rule, f.tool, f.key, f.emitter]).sort()).toEqual([...want].sort());
  for (const format of ['table', 'json', 'sarif', 'junit', 'html']) {
    const out = analyzeBin(path, '--format', format);
    for (const value of ['ghp_C4NARY', '/app/.env', 'America/New_York', 'acme-backups-7f3a', 'dev-lead@example.com', 'oncall-eu-7']) expect(out.stdout + out.stderr, `${format}: ${value}`).not.toContain(value);
  }
}

describe('argspan analyze: the emitters of the fifth outside-in pass (Spring AI, LiteLLM, Mastra, AG2 and BeeAI under OpenInference)', () => {
  // Their planted fixtures (fixtures/traces/foreign/README.md): each finding by tool and argument key, under the
  // emitter, once; the planted value in no output.
  const cases = {
    'derived/spring-ai-token-in-arguments.json': [['credential_in_attribute', 'getCurrentWeather', 'location', 'spring-ai']],
    'derived/litellm-token-in-tool-calls.json': [['credential_in_attribute', 'get_news', 'city', 'litellm'], ['credential_in_attribute', 'get_weather', 'city', 'litellm']],
    'derived/mastra-token-in-tool-input.json': [['credential_in_attribute', 'calculator', 'expression', 'mastra']],
    'derived/mastra-0.x-model-prompt-timezone.json': [['assumption_span', 'calculator', 'timezone', 'mastra']],
    'derived/mastra-0.x-token-in-history.json': [['credential_in_attribute', 'calculator', 'expression', 'mastra']],
    'derived/mastra-1.71-planted.json': [['assumption_span', 'getWeather', 'timezone', 'mastra'], ['credential_in_attribute', 'getWeather', 'api_key', 'mastra']],
    'derived/openinference-ag2-dotenv-path.json': [['sensitive_arg_dispatched', 'add', 'path', 'openinference']],
    'derived/openinference-beeai-token-in-location.json': [['credential_in_attribute', 'OpenMeteoTool', 'location_name', 'openinference']],
  };
  it.each(Object.entries(cases))('%s', expectPlantedFindings);
});

describe('argspan analyze: coding agents\' OpenTelemetry events (Claude Code, Gemini CLI log records)', () => {
  // fixtures/traces/foreign/README.md: Claude Code's real export with the tools' details and the prompt planted, and Gemini
  // CLI's events with a planted path and token; each a logs export alone, no span in it.
  const cases = {
    'derived/claude-code-tool-details-planted.logs.json': [
      ['assumption_span', 'mcp__calendar__create_event', 'timezone', 'claude-code'],
      ['sensitive_arg_dispatched', 'Bash', 'full_command', 'claude-code'],
      ['credential_in_attribute', 'Bash', 'command', 'claude-code'],
      ['sensitive_arg_dispatched', 'Read', 'file_path', 'claude-code'],
    ],
    'derived/gemini-cli-planted.logs.json': [
      ['credential_in_attribute', 'glob', 'pattern', 'gemini-cli'],
      ['sensitive_arg_dispatched', 'glob', 'path', 'gemini-cli'],
    ],
  };
  it.each(Object.entries(cases))('%s: each finding by tool and key; the planted values in no output', (file, want) => {
    expectPlantedFindings(file, want);
    expect(analyzeBin(join(FOREIGN, file)).stdout).toMatch(/Read \d+ coding-agent log record\(s\) \(Claude Code, Gemini CLI, Qwen Code, Codex CLI: tool calls, prompts, model calls\) as spans of their own/);
  });
});

describe('argspan analyze: Claude Code\'s traces (beta)', () => {
  // fixtures/traces/foreign/README.md: Claude Code's spans of the planted prompt (the tools' details, detailed beta tracing's
  // `tool_input` on the MCP call); beside its events, each call once (analyzer/src/foreign/foreign-traces.test.ts).
  const cases = {
    'derived/claude-code-tool-details-planted.traces.json': [
      ['assumption_span', 'mcp__calendar__create_event', 'timezone', 'claude-code'],
      ['sensitive_arg_dispatched', 'Bash', 'full_command', 'claude-code'],
      ['credential_in_attribute', 'Bash', 'full_command', 'claude-code'],
      ['sensitive_arg_dispatched', 'Read', 'file_path', 'claude-code'],
    ],
    // Another prompt with the tools' output recorded (`tool.output` events, `new_context`): a value out of a tool's output is
    // the tool's, one copied out of the .env read is secret, one only in the model's own Write is its guess.
    'derived/claude-code-tool-content-planted.traces.json': [
      ['sensitive_arg_dispatched', 'Read', 'file_path', 'claude-code'],
      ['sensitive_arg_dispatched', 'mcp__storage__list_objects', 'bucket', 'claude-code'],
      ['assumption_span', 'mcp__pager__page', 'email', 'claude-code'],
    ],
  };
  it.each(Object.entries(cases))('%s: each finding by tool and key; the planted values in no output', expectPlantedFindings);
});

describe('argspan analyze: a Mastra 0.x generation of several steps', () => {
  // fixtures/traces/foreign/README.md: the calculator's tool span, its expression given a planted token, and its parent model span
  // added (llm_generation, @mastra/otel 0.x): the model ran two steps, the fixture's call and then another; the AI SDK's result
  // lists the last step's calls (`toolCalls`), the response's messages every step's.
  const TOKEN = 'ghp_' + 'C4NARYmastraSTEPSc4naryMULT1STEPxyzw';
  type Attr = { key: string; value: { stringValue?: string } };
  type Span = { spanId: string; parentSpanId?: string; name: string; startTimeUnixNano: string; endTimeUnixNano: string; attributes: Attr[] };
  it('the earlier step\'s call (response.messages only) is the tool span\'s: the token is one finding, by tool and key; never printed', () => {
    const file = 'mastra-otel-exporter-0.x-tool-calculator.json';
    const doc = JSON.parse(readFileSync(join(FOREIGN, file), 'utf8').replaceAll('2 + 2', `2 + 2 ${TOKEN}`)) as { resourceSpans: { scopeSpans: { spans: Span[] }[] }[] };
    const spans = doc.resourceSpans[0]!.scopeSpans[0]!.spans;
    const tool = spans[0]!;
    const attr = (key: string) => JSON.parse(tool.attributes.find((a) => a.key === key)!.value.stringValue!) as unknown;
    const toolName = 'calculator';
    const first = { type: 'tool-call', toolCallId: 'call_first', toolName, args: attr('gen_ai.tool.input') };
    const firstResult = { type: 'tool-result', toolCallId: 'call_first', toolName, args: first.args, result: attr('gen_ai.tool.output') };
    const second = { type: 'tool-call', toolCallId: 'call_second', toolName, args: { expression: '3 * 3' } };
    const secondResult = { type: 'tool-result', toolCallId: 'call_second', toolName, args: second.args, result: { result: 9 } };
    const completion = {
      text: '4 and 9', toolCalls: [second], toolResults: [secondResult],
      response: { messages: [{ role: 'assistant', content: [first] }, { role: 'tool', content: [firstResult] }, { role: 'assistant', content: [second] }, { role: 'tool', content: [secondResult] }] },
    };
    spans.unshift({
      ...tool, spanId: tool.parentSpanId!, parentSpanId: undefined, name: 'llm.generate',
      startTimeUnixNano: String(BigInt(tool.startTimeUnixNano) - 100000000n), endTimeUnixNano: String(BigInt(tool.endTimeUnixNano) + 100000000n),
      attributes: Object.entries({
        'mastra.span.type': 'llm_generation',
        'gen_ai.prompt': JSON.stringify({ messages: [{ role: 'user', content: 'What is 2 + 2, and 3 * 3?' }] }),
        'gen_ai.completion': JSON.stringify(completion),
      }).map(([key, v]) => ({ key, value: { stringValue: v } })),
    });
    const path = join(tmp(), file);
    writeFileSync(path, JSON.stringify(doc));
    expectOnlyFinding(path, ['credential_in_attribute', 'calculator', 'expression', 'mastra'], TOKEN, 2);
  });
});

describe('argspan analyze: Mastra 1.x\'s model steps and streamed chunks (a real run, @mastra/core 1.71)', () => {
  type Attr = { key: string; value: { stringValue?: string } };
  type Doc = { resourceSpans: { scopeSpans: { spans: { name: string; attributes: Attr[] }[] }[] }[] };
  const spanType = (span: { attributes: Attr[] }) => span.attributes.find((a) => a.key === 'mastra.span.type')?.value.stringValue;
  /** The planted run with `keep` deciding which spans stay, and `edit` made on each kept span. */
  function variant(keep: (type: string | undefined) => boolean, edit: (span: { attributes: Attr[] }) => void = () => {}): string {
    const doc = JSON.parse(readFileSync(join(FOREIGN, 'derived/mastra-1.71-planted.json'), 'utf8')) as Doc;
    for (const rs of doc.resourceSpans) for (const ss of rs.scopeSpans) ss.spans = ss.spans.filter((span) => keep(spanType(span))).map((span) => (edit(span), span));
    const path = join(tmp(), 'mastra.json');
    writeFileSync(path, JSON.stringify(doc));
    return path;
  }

  it('without the tool span (a call that never ran), the call the model asked for is read from its step\'s, generation\'s and chunk\'s outputs: one call, its token and zone reported once each', () => {
    const run = analyzeBin(variant((type) => type !== 'tool_call'), '--format', 'json');
    const out = parseJson(run);
    expect(out.stats).toMatchObject({ foreign_calls: 1, unreadable_args_calls: 0 });
    expect(out.findings.map((f) => [f.rule, f.tool, f.key]).sort()).toEqual([
      ['assumption_span', 'getWeather', 'timezone'],
      ['credential_in_attribute', 'getWeather', 'api_key'],
    ]);
    expect(run.stdout).not.toContain('ghp_C4NARY');
  });

  it.each([20, 60, 90])('a streamed call cut off at %i characters (an attribute length limit) is one call not checked, never clean; a chunk of text is none', (length) => {
    const cut = (span: { attributes: Attr[] }) => {
      for (const a of span.attributes) if (a.key === 'mastra.model_chunk.output' && a.value.stringValue?.includes('toolInput')) a.value.stringValue = a.value.stringValue.slice(0, length);
    };
    const out = parseJson(analyzeBin(variant((type) => type === 'model_chunk' || type === 'agent_run', cut), '--format', 'json'));
    expect(out.stats).toMatchObject({ foreign_calls: 1, unreadable_args_calls: 1 });
  });
});

describe('argspan analyze on opencode\'s traces (a real run, opencode-ai 1.18, `experimental.openTelemetry`)', () => {
  it('`cat .env`, then a curl sending the token it read: the .env read and the token by tool and key, the token in the read\'s result (once, its copies in the history sent back to the model counted); the token in no output', async () => {
    expectPlantedFindings('opencode-1.18-run-env.json', [
      // (the history's copies, the later requests' ai.prompt and ai.prompt.messages, are the same credential: counted in the result's finding)
      ['credential_in_attribute', 'bash', 'ai.toolCall.result', 'vercel-ai'],
      ['credential_in_attribute', 'bash', 'command', 'vercel-ai'],
      ['sensitive_arg_dispatched', 'bash', 'command', 'vercel-ai'],
    ]);
    const db = join(tmp(), 'opencode.duckdb');
    const out = parseJson(analyzeBin(join(FOREIGN, 'opencode-1.18-run-env.json'), '--format', 'json', '--db', db));
    expect(out.findings.find((f) => f.key === 'ai.toolCall.result')?.message).toMatch(/The same credential is in 2 more place\(s\) like this one\.$/);
    expect(out.stats).toMatchObject({ foreign_calls: 2, no_evidence_calls: 0, unreadable_args_calls: 0 });
    expect(await query(db, 'SELECT tool, call_id, run_id FROM tool_calls ORDER BY call_id')).toEqual([
      { tool: 'bash', call_id: 'call_Oc1', run_id: 'ses_daeea14efffeLOBa09m2mLb3k2' },
      { tool: 'bash', call_id: 'call_Oc2', run_id: 'ses_daeea14efffeLOBa09m2mLb3k2' },
    ]);
  });
});

describe('argspan analyze on Google ADK for TypeScript\'s own spans (a real run, @google/adk 2.0)', () => {
  type Attr = { key: string; value: { stringValue?: string } };
  type Doc = { resourceSpans: { scopeSpans: { spans: { name: string; attributes: Attr[] }[] }[] }[] };
  const attr = (key: string, text: string) => (a: Attr) => {
    if (a.key === key) a.value = { stringValue: text };
  };

  it('the zone the model guessed is reported by tool and key; with content capture off (`{}` for the arguments and the result) the call is counted as not checked, never clean', () => {
    const captured = parseJson(analyzeBin(join(FOREIGN, 'google-adk-js-2.0-weather.json'), '--format', 'json'));
    expect(captured.findings.map((f) => [f.rule, f.tool, f.key, f.emitter])).toEqual([['assumption_span', 'get_weather', 'timezone', 'google-adk']]);
    expect(captured.stats).toMatchObject({ foreign_calls: 1, unreadable_args_calls: 0, no_evidence_calls: 0 });
    const hidden = analyzeBin(join(FOREIGN, 'google-adk-js-2.0-content-off.json'));
    expect(hidden.stdout).toContain('1 without readable arguments');
    expect(parseJson(analyzeBin(join(FOREIGN, 'google-adk-js-2.0-content-off.json'), '--format', 'json')).stats).toMatchObject({ foreign_calls: 1, unreadable_args_calls: 1, no_evidence_calls: 1 });
  });

  it('a call without arguments whose result is recorded stays a checked call with none', () => {
    const doc = JSON.parse(readFileSync(join(FOREIGN, 'google-adk-js-2.0-weather.json'), 'utf8')) as Doc;
    for (const rs of doc.resourceSpans) for (const ss of rs.scopeSpans) for (const span of ss.spans) span.attributes.forEach(attr('gcp.vertex.agent.tool_call_args', '{}'));
    const path = join(tmp(), 'adk.json');
    writeFileSync(path, JSON.stringify(doc));
    const out = parseJson(analyzeBin(path, '--format', 'json'));
    expect(out.stats).toMatchObject({ foreign_calls: 1, unreadable_args_calls: 0 });
    expect(out.findings).toEqual([]);
  });
});

describe('argspan analyze on LangSmith\'s own OpenTelemetry export (a real run, langsmith 0.10, `traceable`)', () => {
  const SHOWN = 'langsmith-0.10-otel-traceable-weather.json';
  const HIDDEN = 'langsmith-0.10-otel-traceable-inputs-hidden.json';
  const FLAG = 'langsmith.metadata.LANGSMITH_HIDE_INPUTS';
  type Attr = { key: string; value: { stringValue?: string } };
  type Doc = { resourceSpans: { scopeSpans: { spans: { name: string; attributes: Attr[] }[] }[] }[] };
  /** The recorded export with `edit` made on each span's attributes, written to a file of its own. */
  const edited = (file: string, edit: (attributes: Attr[]) => Attr[]) => {
    const doc = JSON.parse(readFileSync(join(FOREIGN, file), 'utf8')) as Doc;
    for (const rs of doc.resourceSpans) for (const ss of rs.scopeSpans) for (const span of ss.spans) span.attributes = edit(span.attributes);
    const path = join(tmp(), file);
    writeFileSync(path, JSON.stringify(doc));
    return path;
  };

  it('the zone the agent guessed is reported by tool and key; with `LANGSMITH_HIDE_INPUTS=true` (`{}` for every input) both calls are counted as not checked and without evidence, never clean', () => {
    const shown = parseJson(analyzeBin(join(FOREIGN, SHOWN), '--format', 'json'));
    expect(shown.findings.map((f) => [f.rule, f.tool, f.key, f.emitter])).toEqual([['assumption_span', 'get_weather', 'timezone', 'langsmith']]);
    expect(shown.stats).toMatchObject({ foreign_calls: 2, unreadable_args_calls: 0, no_evidence_calls: 0 });
    const hidden = analyzeBin(join(FOREIGN, HIDDEN));
    expect(hidden.code).toBe(0);
    expect(hidden.stdout).toContain('2 without readable arguments');
    expect(parseJson(analyzeBin(join(FOREIGN, HIDDEN), '--format', 'json')).stats).toMatchObject({ foreign_calls: 2, unreadable_args_calls: 2, no_evidence_calls: 2 });
  });

  it('without the flag a tool run\'s `{}` is a call without arguments; with the flag, inputs written (a client told not to hide them) are read', () => {
    const unflagged = parseJson(analyzeBin(edited(HIDDEN, (attrs) => attrs.filter((a) => a.key !== FLAG)), '--format', 'json'));
    expect(unflagged.stats).toMatchObject({ foreign_calls: 2, unreadable_args_calls: 0 });
    const flagged = parseJson(analyzeBin(edited(SHOWN, (attrs) => [...attrs, { key: FLAG, value: { stringValue: 'true' } }]), '--format', 'json'));
    expect(flagged.findings.map((f) => [f.rule, f.tool, f.key])).toEqual([['assumption_span', 'get_weather', 'timezone']]);
    // (only get_time's own `{}` is taken for hidden inputs there)
    expect(flagged.stats).toMatchObject({ foreign_calls: 2, unreadable_args_calls: 1 });
  });

  it('with `LANGSMITH_HIDE_OUTPUTS=true` (`{}` for every output) a value after a hidden tool result has no evidence, never reported as guessed; without the flag `{}` is a result', () => {
    const CHAINED = 'langsmith-0.10-otel-traceable-chained.json';
    const OUTPUTS_HIDDEN = 'langsmith-0.10-otel-traceable-outputs-hidden.json';
    const OUTPUTS_FLAG = 'langsmith.metadata.LANGSMITH_HIDE_OUTPUTS';
    // (the zone get_weather got is lookup_city's result: read from the result where it is recorded)
    const chained = parseJson(analyzeBin(join(FOREIGN, CHAINED), '--format', 'json'));
    expect(chained.findings).toEqual([]);
    expect(chained.stats).toMatchObject({ foreign_calls: 2, no_evidence_calls: 0 });
    const hidden = analyzeBin(join(FOREIGN, OUTPUTS_HIDDEN));
    expect(hidden.code).toBe(0);
    expect(hidden.stdout).toContain("1 in traces without all the model was told");
    // (lookup_city ran before any result: its call still has the user's words as evidence)
    expect(parseJson(analyzeBin(join(FOREIGN, OUTPUTS_HIDDEN), '--format', 'json')).stats).toMatchObject({ foreign_calls: 2, no_evidence_calls: 1, unreadable_args_calls: 0 });
    // Without the flag a tool run's `{}` is what it returned: the zone found nowhere is the model's.
    const unflagged = parseJson(analyzeBin(edited(OUTPUTS_HIDDEN, (attrs) => attrs.filter((a) => a.key !== OUTPUTS_FLAG)), '--format', 'json'));
    expect(unflagged.findings.map((f) => [f.rule, f.tool, f.key])).toEqual([['assumption_span', 'get_weather', 'timezone']]);
    // With the flag, outputs written (a client told not to hide them) are read.
    const flagged = parseJson(analyzeBin(edited(CHAINED, (attrs) => [...attrs, { key: OUTPUTS_FLAG, value: { stringValue: 'true' } }]), '--format', 'json'));
    expect(flagged.findings).toEqual([]);
    expect(flagged.stats).toMatchObject({ foreign_calls: 2, no_evidence_calls: 0 });
  });
});

describe('argspan analyze on OpenLLMetry for Node\'s spans (real runs, @traceloop/node-server-sdk 0.27)', () => {
  it('each call once, by the tool span that ran it (its call id where the span records one); the city is the user\'s, the zone the model\'s guess', async () => {
    for (const [file, callId] of [
      ['openllmetry-js-0.27-openai-weather.json', null],
      // (the AI SDK's tool span, rewritten: `gen_ai.tool.call.id` beside `traceloop.span.kind = tool`)
      ['openllmetry-js-0.27-ai-sdk-weather.json', 'call_w1'],
    ] as const) {
      const db = join(tmp(), `${file}.duckdb`);
      const run = analyzeBin(join(FOREIGN, file), '--format', 'json', '--db', db);
      expect(parseJson(run).findings.map((f) => [f.rule, f.tool, f.key, f.emitter]), file).toEqual([['assumption_span', 'get_weather', 'timezone', 'openllmetry']]);
      expect(await query(db, 'SELECT tool, call_id, call_source FROM tool_calls'), file).toEqual([{ tool: 'get_weather', call_id: callId, call_source: 'tool-span' }]);
      expect(await query(db, 'SELECT "key", provenance FROM tool_args ORDER BY "key"'), file).toEqual([
        { key: 'city', provenance: 'user_explicit' },
        { key: 'timezone', provenance: 'model_inferred' },
      ]);
    }
  });
});

describe('argspan analyze on the Langfuse JS SDK\'s own spans (real runs, @langfuse/otel 5.11: `observeOpenAI`, LangChain\'s `CallbackHandler`)', () => {
  const GUESSED = 'langfuse-5.11-openai-agent-guessed.json';
  const CHAINED = 'langfuse-5.11-openai-agent-chained.json';
  type Attr = { key: string; value: { stringValue?: string } };
  type Doc = { resourceSpans: { scopeSpans: { spans: { name: string; attributes: Attr[] }[] }[] }[] };
  /** The recorded export with each generation's input passed through `edit`, written to a file of its own. */
  const withGenerationInput = (file: string, edit: (input: string) => string) => {
    const doc = JSON.parse(readFileSync(join(FOREIGN, file), 'utf8')) as Doc;
    let edits = 0;
    for (const rs of doc.resourceSpans) {
      for (const ss of rs.scopeSpans) {
        for (const span of ss.spans) {
          if (!span.attributes.some((a) => a.key === 'langfuse.observation.type' && a.value.stringValue === 'generation')) continue;
          const input = span.attributes.find((a) => a.key === 'langfuse.observation.input')!;
          const before = input.value.stringValue!;
          input.value.stringValue = edit(before);
          if (input.value.stringValue !== before) edits++;
        }
      }
    }
    expect(edits).toBeGreaterThan(0);
    const path = join(tmp(), file);
    writeFileSync(path, JSON.stringify(doc));
    return path;
  };

  it('the zone the model guessed is reported by tool and key; the city is the user\'s, the zone a tool returned is the tool\'s', async () => {
    const db = join(tmp(), 'guessed.duckdb');
    const guessed = analyzeBin(join(FOREIGN, GUESSED), '--format', 'json', '--db', db);
    expect(parseJson(guessed).findings.map((f) => [f.rule, f.tool, f.key, f.emitter])).toEqual([['assumption_span', 'get_weather', 'timezone', 'langfuse']]);
    expect(parseJson(guessed).stats).toMatchObject({ foreign_calls: 1, no_evidence_calls: 0, unreadable_args_calls: 0 });
    expect(await query(db, 'SELECT tool, "key", provenance FROM tool_args ORDER BY "key"')).toEqual([
      { tool: 'get_weather', key: 'city', provenance: 'user_explicit' },
      { tool: 'get_weather', key: 'timezone', provenance: 'model_inferred' },
    ]);
    const chainedDb = join(tmp(), 'chained.duckdb');
    const chained = analyzeBin(join(FOREIGN, CHAINED), '--format', 'json', '--db', chainedDb);
    expect(chained.code).toBe(0);
    expect(parseJson(chained).findings).toEqual([]);
    expect(await query(chainedDb, 'SELECT tool, "key", provenance FROM tool_args ORDER BY tool, "key"')).toEqual([
      { tool: 'get_weather', key: 'city', provenance: 'user_explicit' },
      { tool: 'get_weather', key: 'timezone', provenance: 'context_retrieved' },
      { tool: 'lookup_city', key: 'city', provenance: 'user_explicit' },
    ]);
  });

  it('a value the tool\'s schema gives as its default (the `tools` of a generation\'s input) is the schema\'s, not the model\'s guess', async () => {
    /** The export with get_weather's `timezone` given `value` as its default in each generation's tools. */
    const withTimezoneDefault = (value: string) =>
      withGenerationInput(GUESSED, (input) => {
        const request = JSON.parse(input) as { tools: { function: { name: string; parameters: { properties: Record<string, Record<string, unknown>> } } }[] };
        for (const t of request.tools) if (t.function.name === 'get_weather') t.function.parameters.properties.timezone!.default = value;
        return JSON.stringify(request);
      });
    const withDefault = withTimezoneDefault('Europe/Berlin');
    const db = join(tmp(), 'default.duckdb');
    const run = analyzeBin(withDefault, '--format', 'json', '--db', db);
    expect(run.code).toBe(0);
    expect(parseJson(run).findings).toEqual([]);
    expect(await query(db, 'SELECT "key", provenance FROM tool_args WHERE "key" = \'timezone\'')).toEqual([{ key: 'timezone', provenance: 'schema_default' }]);
    // Another default than the value sent: still the model's guess.
    const otherDefault = withTimezoneDefault('UTC');
    expect(parseJson(analyzeBin(otherDefault, '--format', 'json')).findings.map((f) => [f.rule, f.tool, f.key])).toEqual([['assumption_span', 'get_weather', 'timezone']]);
    // A LangChain agent's run whose Zod schema has the default (`.default('Europe/Berlin')`), recorded: the same.
    const langchainDb = join(tmp(), 'langchain-default.duckdb');
    expect(parseJson(analyzeBin(join(FOREIGN, 'langfuse-5.11-langchain-agent-default.json'), '--format', 'json', '--db', langchainDb)).findings).toEqual([]);
    expect(await query(langchainDb, 'SELECT "key", provenance FROM tool_args ORDER BY "key"')).toEqual([
      { key: 'city', provenance: 'user_explicit' },
      { key: 'timezone', provenance: 'schema_default' },
    ]);
  });
});

describe('argspan analyze on Microsoft Agent Framework\'s spans (Python, agent_framework.observability, sensitive data on)', () => {
  // fixtures/traces/foreign/README.md: its own test's run (RECON); the model's call is a tool_call part whose arguments are
  // the JSON string the chat client got, so each copy in a message list is a JSON string inside JSON.
  const FILE = 'agent-framework-python-get-weather.json';
  type Doc = { resourceSpans: { scopeSpans: { spans: { name: string; attributes: { key: string; value: { stringValue?: string } }[] }[] }[] }[] };
  const load = () => JSON.parse(readFileSync(join(FOREIGN, FILE), 'utf8')) as Doc;
  const spansOf = (doc: Doc) => doc.resourceSpans[0]!.scopeSpans[0]!.spans;
  const write = (doc: Doc) => {
    const path = join(tmp(), FILE);
    writeFileSync(path, JSON.stringify(doc));
    return path;
  };
  /** The fixture with get_weather's arguments `from` → `to` in every attribute that holds them, at each level of encoding; `keep` the spans to keep. */
  const planted = (to: string, keep: (name: string) => boolean = () => true) => {
    const doc = load();
    const from = '"location": "Seattle"';
    const holding: string[] = [];
    doc.resourceSpans[0]!.scopeSpans[0]!.spans = spansOf(doc).filter((s) => keep(s.name));
    const once = (t: string) => JSON.stringify(t).slice(1, -1);
    for (const span of spansOf(doc)) {
      for (const attr of span.attributes) {
        for (const [a, b] of [[from, to], [once(from), once(to)], [once(once(from)), once(once(to))]] as const) {
          if (attr.value.stringValue?.includes(a)) {
            attr.value.stringValue = attr.value.stringValue.split(a).join(b);
            holding.push(`${span.name} ${attr.key}`);
          }
        }
      }
    }
    return { path: write(doc), holding };
  };

  it('the call once, under its id, recorded by its tool span: the city the user named, nothing reported', async () => {
    const db = join(tmp(), 'a.duckdb');
    const run = analyzeBin(join(FOREIGN, FILE), '--format', 'json', '--reports', '--db', db);
    expect(run.code).toBe(0);
    expect(parseJson(run).findings.map((f) => [f.rule, f.emitter])).toEqual([['report_run_summary', 'genai-semconv']]);
    expect(await query(db, 'SELECT tool, call_id, call_source, emitter, turn_span_id FROM tool_calls')).toEqual([
      { tool: 'get_weather', call_id: 'call_123', call_source: 'tool-span', emitter: 'genai-semconv', turn_span_id: 'a1b2c3d4e5f60718' },
    ]);
    expect(await query(db, 'SELECT tool, "key", provenance FROM tool_args')).toEqual([{ tool: 'get_weather', key: 'location', provenance: 'user_explicit' }]);
  });

  const TOKEN = 'ghp_' + 'C4NARYaf0agentfrmwrkc4naryxyzwvut1234';
  it.each([
    ['a zone the user never gave', '"location": "Seattle", "timezone": "America/Los_Angeles"', 'assumption_span', 'timezone'],
    ['a token in the location', `"location": "Seattle ${TOKEN}"`, 'credential_in_attribute', 'location'],
  ] as const)('%s: one finding by tool and key (not again for the copies in the agent\'s and the next request\'s messages), never printed', (_, to, rule, key) => {
    const { path, holding } = planted(to);
    // (the tool span's JSON; the model's proposal and its two copies, each a JSON string inside a message list)
    expect(holding).toEqual(['invoke_agent tool_agent gen_ai.output.messages', 'chat ToolModel gen_ai.output.messages', 'execute_tool get_weather gen_ai.tool.call.arguments', 'chat ToolModel gen_ai.input.messages']);
    const run = analyzeBin(path, '--format', 'json');
    expect(run.code, rule).toBe(1);
    expect(parseJson(run).stats.foreign_calls).toBe(1);
    expect(parseJson(run).findings.filter((f) => !f.rule.startsWith('report_')).map((f) => [f.rule, f.tool, f.key, f.emitter])).toEqual([[rule, 'get_weather', key, 'genai-semconv']]);
    for (const format of ['table', 'json', 'sarif', 'junit', 'html']) {
      const out = analyzeBin(path, '--format', format);
      for (const value of ['America/Los_Angeles', TOKEN]) expect(out.stdout + out.stderr, `${format}: ${value}`).not.toContain(value);
    }
  });

  it('the tool span\'s `None` beside a proposal under its id that holds a token: reported once, by tool and key (the proposal\'s arguments read as the call\'s)', () => {
    const { path } = planted(`"location": "Seattle ${TOKEN}"`);
    const doc = JSON.parse(readFileSync(path, 'utf8')) as Doc;
    for (const span of spansOf(doc)) for (const attr of span.attributes) if (attr.key === 'gen_ai.tool.call.arguments') attr.value.stringValue = 'None';
    const run = analyzeBin(write(doc), '--format', 'json');
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
    expect(parseJson(run).stats).toMatchObject({ foreign_calls: 1, unreadable_args_calls: 0 });
    expect(parseJson(run).findings.filter((f) => !f.rule.startsWith('report_')).map((f) => [f.rule, f.tool, f.key, f.emitter])).toEqual([['credential_in_attribute', 'get_weather', 'location', 'genai-semconv']]);
  });

  it('without the tool span the call is the model\'s proposal, its arguments read from the JSON string in the tool_call part', () => {
    const { path } = planted('"location": "Seattle", "timezone": "America/Los_Angeles"', (name) => !name.startsWith('execute_tool'));
    const run = analyzeBin(path, '--format', 'json');
    expect(run.code).toBe(1);
    expect(parseJson(run).stats.foreign_calls).toBe(1);
    expect(parseJson(run).findings.filter((f) => !f.rule.startsWith('report_')).map((f) => [f.rule, f.tool, f.key, f.emitter])).toEqual([['assumption_span', 'get_weather', 'timezone', 'genai-semconv']]);
  });

  /** The fixture as a function without arguments records it: the model's call with `{}` (each copy), the tool span's `None` set by the caller. */
  const noArguments = () => JSON.parse(readFileSync(planted('').path, 'utf8')) as Doc;

  it('a function that took no arguments (the tool span\'s `None`, no chat span) is read as a call without arguments, not counted as unread', async () => {
    const doc = noArguments();
    doc.resourceSpans[0]!.scopeSpans[0]!.spans = spansOf(doc).filter((s) => !s.name.startsWith('chat'));
    for (const span of spansOf(doc)) for (const attr of span.attributes) if (attr.key === 'gen_ai.tool.call.arguments') attr.value.stringValue = 'None';
    const db = join(tmp(), 'none.duckdb');
    const run = analyzeBin(write(doc), '--format', 'json', '--db', db);
    expect(run.code).toBe(0);
    expect(parseJson(run).stats).toMatchObject({ foreign_calls: 1, unreadable_args_calls: 0 });
    expect(await query(db, 'SELECT tool, "key", rule FROM tool_args')).toEqual([{ tool: 'get_weather', key: '$', rule: 'empty' }]);
  });

  /** The fixture with the tool span's `None`, only the spans named `keep`, written under `scope` (undefined: left out, as an export that drops it). */
  const withNone = (keep: (name: string) => boolean, scope: string | undefined) => {
    const doc = noArguments() as Doc & { resourceSpans: { scopeSpans: { scope?: { name: string } }[] }[] };
    doc.resourceSpans[0]!.scopeSpans[0]!.spans = spansOf(doc).filter((s) => keep(s.name));
    for (const span of spansOf(doc)) for (const attr of span.attributes) if (attr.key === 'gen_ai.tool.call.arguments') attr.value.stringValue = 'None';
    if (scope === undefined) delete doc.resourceSpans[0]!.scopeSpans[0]!.scope;
    else doc.resourceSpans[0]!.scopeSpans[0]!.scope = { name: scope };
    return write(doc);
  };

  it('an export that dropped the scope: the `None` is still no arguments where the trace\'s agent span is Agent Framework\'s', async () => {
    const db = join(tmp(), 'none-unscoped.duckdb');
    const run = analyzeBin(withNone((name) => !name.startsWith('chat'), undefined), '--format', 'json', '--db', db);
    expect(run.code).toBe(0);
    expect(parseJson(run).stats).toMatchObject({ foreign_calls: 1, unreadable_args_calls: 0 });
    expect(await query(db, 'SELECT tool, "key", rule FROM tool_args')).toEqual([{ tool: 'get_weather', key: '$', rule: 'empty' }]);
  });

  it('a `None` nothing shows to be Agent Framework\'s (the tool span alone without its scope, or under another library\'s) is counted as not checked, never read as no arguments', async () => {
    for (const scope of [undefined, 'some.other.library']) {
      const db = join(tmp(), 'none-unknown.duckdb');
      const run = analyzeBin(withNone((name) => name.startsWith('execute_tool'), scope), '--format', 'json', '--db', db);
      expect(run.code, String(scope)).toBe(0);
      expect(parseJson(run).findings).toEqual([]);
      expect(parseJson(run).stats, String(scope)).toMatchObject({ foreign_calls: 1, unreadable_args_calls: 1 });
      expect(await query(db, 'SELECT tool, "key", rule FROM tool_args')).toEqual([{ tool: 'get_weather', key: '$', rule: 'arguments-not-json' }]);
    }
  });
});

describe('argspan analyze on Haystack\'s own tracer (2.x component spans, 3.x agent step spans)', () => {
  const REAL = { '2.31 (a pipeline running an Agent: chat generator and tool invoker components, no tool span)': ['haystack-2.31-pipeline-agent-weather.json', 'get_weather', 'city', 'model-output'], '3.x (haystack.agent.step.llm / .tool)': ['haystack-3-agent-weather-tool.json', 'weather_tool', 'location', 'tool-span'] } as const;
  it.each(Object.entries(REAL))('%s, the real run: one call, the city the user named, nothing reported', async (_name, [file, tool, key, source]) => {
    const db = join(tmp(), 'haystack.duckdb');
    const run = analyzeBin(join(FOREIGN, file), '--format', 'json', '--db', db);
    expect(run.code).toBe(0);
    expect(parseJson(run).stats).toMatchObject({ foreign_calls: 1, no_evidence_calls: 0, unreadable_args_calls: 0 });
    expect(parseJson(run).findings).toEqual([]);
    expect(await query(db, `SELECT a.emitter, a.tool, a."key", a.provenance, c.call_source FROM tool_args a JOIN tool_calls c USING (trace_id, span_id)`)).toEqual([{ emitter: 'haystack', tool, key, provenance: 'user_explicit', call_source: source }]);
  });

  // (derive.mjs: each real run's call with an invented timezone and a token, in every place that holds it)
  const planted = {
    'derived/haystack-2.31-pipeline-agent-planted.json': [['assumption_span', 'get_weather', 'timezone', 'haystack'], ['credential_in_attribute', 'get_weather', 'api_key', 'haystack']],
    'derived/haystack-3-agent-planted.json': [['assumption_span', 'weather_tool', 'timezone', 'haystack'], ['credential_in_attribute', 'weather_tool', 'api_key', 'haystack']],
  };
  it.each(Object.entries(planted))('%s: the invented timezone and the token each reported once, by tool and key, whatever copies the call', expectPlantedFindings);

  /** The 3.x planted run, `edit` made on each text attribute. */
  function editedRun(edit: (key: string, text: string) => string): string {
    const doc = JSON.parse(readFileSync(join(FOREIGN, 'derived', 'haystack-3-agent-planted.json'), 'utf8'));
    for (const sp of doc.resourceSpans[0].scopeSpans[0].spans) {
      for (const a of sp.attributes as { key: string; value: { stringValue?: string } }[]) if (a.value.stringValue !== undefined) a.value.stringValue = edit(a.key, a.value.stringValue);
    }
    const file = join(tmp(), 'haystack.json');
    writeFileSync(file, JSON.stringify(doc));
    return file;
  }

  it('the run\'s final state (every message, written at its end) is no evidence for the calls before it: a timezone only the call\'s own result gives is still the model\'s', () => {
    // (the result, in the tool span, the next model call's messages and the final state)
    const file = editedRun((_, t) => t.replaceAll('\\"unit\\": \\"celsius\\"', '\\"unit\\": \\"celsius\\", \\"zone\\": \\"Europe/Berlin\\"').replaceAll('"unit": "celsius"', '"unit": "celsius", "zone": "Europe/Berlin"'));
    expect(readFileSync(file, 'utf8').split('"zone').length - 1).toBe(3);
    const out = parseJson(analyzeBin(file, '--format', 'json'));
    expect(out.findings.map((f) => [f.rule, f.key])).toContainEqual(['assumption_span', 'timezone']);
  });

  it('a model reply cut off mid-call (an attribute length limit) whose call the tool span ran: that call, its findings by tool and key, not one more call not checked', () => {
    for (const cutAfter of ['"tool_name": "weath', '"location": "Ber', '"api_key": "ghp_C4']) {
      const file = editedRun((key, t) => (key === 'haystack.agent.step.llm.output' && t.includes('tool_call') ? t.slice(0, t.indexOf(cutAfter) + cutAfter.length) : t));
      const out = parseJson(analyzeBin(file, '--format', 'json'));
      expect(out.stats, cutAfter).toMatchObject({ foreign_calls: 1, unreadable_args_calls: 0 });
      expect(out.findings.filter((f) => !f.rule.startsWith('report_')).map((f) => [f.rule, f.tool, f.key]).sort(), cutAfter).toEqual([['assumption_span', 'weather_tool', 'timezone'], ['credential_in_attribute', 'weather_tool', 'api_key']]);
    }
  });

  it('inputs Haystack could not write as JSON (Python\'s text of them: a streaming callback) are input not read, not the user\'s words: no timezone alarm, the call counted without evidence', () => {
    const repr = "{'messages': [ChatMessage(_role=<ChatRole.USER: 'user'>, _content=[TextContent(text=\"What's the weather in Berlin?\")], _name=None, _meta={})], 'streaming_callback': <function cb at 0x7f3a2c1d0e50>}";
    const file = editedRun((key, t) => (key === 'haystack.agent.step.llm.input' || key === 'haystack.agent.input' ? repr : t));
    const out = parseJson(analyzeBin(file, '--format', 'json'));
    expect(out.stats).toMatchObject({ foreign_calls: 1, no_evidence_calls: 1 });
    expect(out.findings.map((f) => f.rule)).not.toContain('assumption_span');
    expect(out.findings.map((f) => [f.rule, f.key])).toContainEqual(['credential_in_attribute', 'api_key']);
  });

  it('a human-in-the-loop confirmation span (haystack.tool.name, no run of the tool) is no call', () => {
    const doc = JSON.parse(readFileSync(join(FOREIGN, 'haystack-3-agent-weather-tool.json'), 'utf8'));
    const spans = doc.resourceSpans[0].scopeSpans[0].spans;
    const tool = spans.find((sp: { name: string }) => sp.name === 'haystack.agent.step.tool');
    spans.push({ ...tool, spanId: 'a1000000000000ff', name: 'haystack.agent.hook.human_in_the_loop.strategy', attributes: [{ key: 'haystack.tool.name', value: { stringValue: 'weather_tool' } }, { key: 'haystack.tool.call.id', value: { stringValue: '' } }] });
    const file = join(tmp(), 'haystack-confirmation.json');
    writeFileSync(file, JSON.stringify(doc));
    expect(parseJson(analyzeBin(file, '--format', 'json')).stats).toMatchObject({ foreign_calls: 1, unreadable_args_calls: 0 });
  });

  it('a value the person typed into a human-in-the-loop confirmation (a parameter changed before the call ran) is theirs, not the model\'s guess', () => {
    // The model proposed weather_tool {"location": "Berlin"}; the person set a timezone before letting it run.
    const confirmed = (withDecision: boolean): string => {
      const doc = JSON.parse(readFileSync(join(FOREIGN, 'haystack-3-agent-weather-tool.json'), 'utf8'));
      const spans = doc.resourceSpans[0].scopeSpans[0].spans as { spanId: string; name: string; startTimeUnixNano: string; endTimeUnixNano: string; attributes: { key: string; value: { stringValue?: string } }[] }[];
      const tool = spans.find((sp) => sp.name === 'haystack.agent.step.tool')!;
      tool.attributes.find((a) => a.key === 'haystack.agent.step.tool.input')!.value.stringValue = JSON.stringify({ location: 'Berlin', timezone: 'Europe/Berlin' });
      const strategy = { ...tool, spanId: 'a1000000000000fe', name: 'haystack.agent.hook.human_in_the_loop.strategy', startTimeUnixNano: String(BigInt(tool.startTimeUnixNano) - 5_000_000n), endTimeUnixNano: String(BigInt(tool.startTimeUnixNano) - 1_000_000n) };
      strategy.attributes = [
        { key: 'haystack.tool.name', value: { stringValue: 'weather_tool' } },
        { key: 'haystack.agent.hook.human_in_the_loop.strategy.decision', value: { stringValue: 'modify' } },
        { key: 'haystack.agent.hook.human_in_the_loop.strategy.input', value: { stringValue: JSON.stringify({ tool_name: 'weather_tool', tool_description: 'Provides weather information for a given location.', tool_params: { location: 'Berlin' }, tool_call_id: null }) } },
        ...(withDecision ? [{ key: 'haystack.agent.hook.human_in_the_loop.strategy.output', value: { stringValue: JSON.stringify({ tool_name: 'weather_tool', execute: true, tool_call_id: null, feedback: null, final_tool_params: { location: 'Berlin', timezone: 'Europe/Berlin' } }) } }] : []),
      ];
      spans.push(strategy);
      const file = join(tmp(), 'haystack-confirmed.json');
      writeFileSync(file, JSON.stringify(doc));
      return file;
    };
    const withDecision = parseJson(analyzeBin(confirmed(true), '--format', 'json'));
    expect(withDecision.findings.map((f) => [f.rule, f.key])).not.toContainEqual(['assumption_span', 'timezone']);
    // (the model's proposal is the call that ran, changed: one call, not two)
    expect(withDecision.stats.foreign_calls).toBe(1);
    // (the control: without the decision, the timezone is no one's but the tool span's, and the proposal another call)
    const without = parseJson(analyzeBin(confirmed(false), '--format', 'json'));
    expect(without.findings.map((f) => [f.rule, f.key])).toContainEqual(['assumption_span', 'timezone']);
    expect(without.stats.foreign_calls).toBe(2);
  });

  it('2.x: a chat generator\'s reply Haystack wrote as Python\'s text, a call in it: one call not checked, not none', () => {
    const doc = JSON.parse(readFileSync(join(FOREIGN, 'haystack-2.31-pipeline-agent-weather.json'), 'utf8'));
    for (const ss of doc.resourceSpans[0].scopeSpans) {
      for (const sp of ss.spans as { attributes: { key: string; value: { stringValue?: string } }[] }[]) {
        const output = sp.attributes.find((a) => a.key === 'haystack.component.output');
        if (output?.value.stringValue?.includes('"replies"') && output.value.stringValue.includes('"tool_call"')) {
          output.value.stringValue = "{'replies': [ChatMessage(_role=<ChatRole.ASSISTANT: 'assistant'>, _content=[ToolCall(tool_name='get_weather', arguments={'city': 'Berlin'}, id='call_abc123', extra=None)], _name=None, _meta={})]}";
        }
      }
    }
    const file = join(tmp(), 'haystack-repr.json');
    writeFileSync(file, JSON.stringify(doc));
    expect(parseJson(analyzeBin(file, '--format', 'json')).stats).toMatchObject({ foreign_calls: 1, unreadable_args_calls: 1 });
  });
});

describe('argspan analyze --html on other libraries\' traces', () => {
  it('does not say their calls were not held, denied or sent remote: their traces do not say, and the report says so', () => {
    const html = join(tmp(), 'report.html');
    const traces = [join(FOREIGN, 'openinference-crewai-scrape-website.json'), join(FOREIGN, 'genai-aisdk-otel-function-tool.json')];
    expect(analyzeBin(...traces, '--html', html).code).toBe(0);
    const text = readFileSync(html, 'utf8').replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').replaceAll('&#39;', "'");
    for (const what of ['held for a question', 'denied', 'went remote']) expect(text).toContain(` - ${what}: not known for other libraries' calls `);
    expect(text).not.toMatch(/ 0 went remote /);
    expect(text).toContain("Held, denied and remote count the calls argspan's gate judged; other libraries' traces do not say (-).");
    // (argspan's own run beside them: what its gate did, counted as before)
    const mixed = join(tmp(), 'mixed.html');
    expect(analyzeBin(...traces, 'fixtures/traces/tokyo-invite.jsonl', '--html', mixed).code).toBe(1);
    expect(readFileSync(mixed, 'utf8').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')).toMatch(/ \d+ went remote \(of the \d+ calls argspan gated\) /);
  });
});

describe('argspan analyze on Genkit\'s own tracing (an action span per flow, model and tool)', () => {
  const REAL = 'genkit-1.42-flow-weather-tool.json';
  const PLANTED = 'ghp_C4NARYf0reignTRACEc4naryF0REIGNtr4ce';
  /** The recorded run (or its planted variant), `edit` made on its spans; written to a file of its own. */
  const editedRun = (edit: (spans: Span[]) => Span[] | void, source = REAL): string => editedFixture(source, edit);
  const attr = (span: Span, key: string) => span.attributes.find((a) => a.key === key)!.value;
  const isTool = (span: Span) => span.attributes.some((a) => a.key === 'genkit:metadata:subtype' && a.value.stringValue === 'tool');

  it('the real run (genkit 1.42, a flow calling generate with one tool): one call, the city the user named, nothing reported', async () => {
    const db = join(tmp(), 'genkit.duckdb');
    const run = analyzeBin(join(FOREIGN, REAL), '--format', 'json', '--db', db);
    expect(run.code).toBe(0);
    expect(parseJson(run).stats).toMatchObject({ foreign_calls: 1, no_evidence_calls: 0, unreadable_args_calls: 0 });
    expect(parseJson(run).findings).toEqual([]);
    expect(await query(db, `SELECT a.emitter, a.tool, a."key", a.provenance, c.call_source FROM tool_args a JOIN tool_calls c USING (trace_id, span_id)`)).toEqual([{ emitter: 'genkit', tool: 'getWeather', key: 'city', provenance: 'user_explicit', call_source: 'tool-span' }]);
  });

  // (derive.mjs: the call with an invented timezone and a token, in the tool span, the model's reply, the next request and the generate loop's copies)
  it('derived/genkit-1.42-planted.json: the invented timezone and the token each reported once, by tool and key, whatever copies the call', () =>
    expectPlantedFindings('derived/genkit-1.42-planted.json', [['assumption_span', 'getWeather', 'timezone', 'genkit'], ['credential_in_attribute', 'getWeather', 'api_key', 'genkit']]));

  it('a call the model asked for that no tool span ran (`returnToolRequests`: the application runs it) is read from the model\'s reply', () => {
    const file = editedRun((spans) => spans.filter((sp) => !isTool(sp)), 'derived/genkit-1.42-planted.json');
    const out = parseJson(analyzeBin(file, '--format', 'json'));
    expect(out.stats).toMatchObject({ foreign_calls: 1, unreadable_args_calls: 0 });
    expect(out.findings.map((f) => [f.rule, f.tool, f.key, f.emitter]).sort()).toEqual([['assumption_span', 'getWeather', 'timezone', 'genkit'], ['credential_in_attribute', 'getWeather', 'api_key', 'genkit']]);
  });

  it('the outermost span\'s input (the flow\'s argument) is the user\'s request; a nested flow\'s, made by code, is not', async () => {
    // The prompt no longer names the city: only the flow's argument does.
    const provenanceOfCity = async (nest: boolean) => {
      const file = editedRun((spans) => {
        for (const sp of spans) {
          for (const a of sp.attributes) {
            if (a.value.stringValue === undefined) continue;
            if (sp.name !== 'weatherFlow') a.value.stringValue = a.value.stringValue.replaceAll('What is the weather in Berlin?', 'What is the weather in the city I asked about?');
            if (nest && a.key === 'genkit:path') a.value.stringValue = `/{outerFlow,t:flow}${a.value.stringValue}`;
          }
        }
      });
      const db = join(tmp(), 'genkit-root.duckdb');
      expect(analyzeBin(file, '--db', db).code).toBe(0);
      return query(db, 'SELECT "key", provenance FROM tool_args');
    };
    expect(await provenanceOfCity(false)).toEqual([{ key: 'city', provenance: 'user_explicit' }]);
    expect(await provenanceOfCity(true)).toEqual([{ key: 'city', provenance: 'model_inferred' }]);
  });

  it('a multipart tool\'s span (`tool.v2`, its output `{output, content}`) is the call too: the tool span ran the model\'s proposal', async () => {
    const file = editedRun((spans) => {
      for (const sp of spans) {
        if (!isTool(sp)) continue;
        attr(sp, 'genkit:metadata:subtype').stringValue = 'tool.v2';
        attr(sp, 'genkit:output').stringValue = JSON.stringify({ output: JSON.parse(attr(sp, 'genkit:output').stringValue!), content: [{ text: 'sunny' }] });
      }
    }, 'derived/genkit-1.42-planted.json');
    const db = join(tmp(), 'genkit-multipart.duckdb');
    const out = parseJson(analyzeBin(file, '--format', 'json', '--db', db));
    expect(out.stats).toMatchObject({ foreign_calls: 1, unreadable_args_calls: 0 });
    expect(out.findings.map((f) => [f.rule, f.key])).toEqual(expect.arrayContaining([['assumption_span', 'timezone'], ['credential_in_attribute', 'api_key']]));
    expect(await query(db, 'SELECT name, call_source FROM tool_calls')).toEqual([{ name: 'getWeather', call_source: 'tool-span' }]);
  });

  it('the tools\' schemas in the model\'s request: a value the schema gives as its default is not the model\'s guess', async () => {
    // The model's call (and so the tool span's input, and every copy) carries `units: "metric"`, the default of getWeather's inputSchema; the user never said it.
    const file = editedRun((spans) => {
      for (const sp of spans) for (const a of sp.attributes) if (a.value.stringValue !== undefined) a.value.stringValue = a.value.stringValue.replaceAll('{"city":"Berlin"}', '{"city":"Berlin","units":"metric"}');
    });
    expect(readFileSync(file, 'utf8').split('units\\":\\"metric').length - 1).toBe(6);
    const db = join(tmp(), 'genkit-default.duckdb');
    analyzeBin(file, '--db', db);
    expect(await query(db, 'SELECT "key", provenance FROM tool_args ORDER BY "key"')).toEqual([{ key: 'city', provenance: 'user_explicit' }, { key: 'units', provenance: 'schema_default' }]);
  });

  const STORE = 'genkit-1.42-dev-ui-trace-store-weather.json';

  it('a trace its Developer UI keeps (`.genkit/traces/<trace id>`, as Genkit\'s telemetry server wrote it), read from the folder: the same call, the city the user named', async () => {
    const dir = join(tmp(), 'app', '.genkit', 'traces');
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(FOREIGN, STORE), join(dir, JSON.parse(readFileSync(join(FOREIGN, STORE), 'utf8')).traceId));
    const db = join(tmp(), 'genkit-store.duckdb');
    const run = analyzeBin(dir, '--format', 'json', '--db', db);
    expect(run.code).toBe(0);
    expect(parseJson(run).stats).toMatchObject({ files: 1, spans: 6, foreign_calls: 1, no_evidence_calls: 0, unreadable_args_calls: 0 });
    expect(parseJson(run).findings).toEqual([]);
    expect(await query(db, `SELECT a.emitter, a.tool, a."key", a.provenance, c.call_source, c.start_ns > 0 AS timed FROM tool_args a JOIN tool_calls c USING (trace_id, span_id)`)).toEqual([{ emitter: 'genkit', tool: 'getWeather', key: 'city', provenance: 'user_explicit', call_source: 'tool-span', timed: true }]);
  });

  it('the stored trace with the invented timezone and the token in every copy of the call: each reported once, by tool and key', () => {
    const file = join(tmp(), 'genkit-store-planted.json');
    const planted = readFileSync(join(FOREIGN, STORE), 'utf8').replaceAll('{\\"city\\":\\"Berlin\\"}', `{\\"city\\":\\"Berlin\\",\\"timezone\\":\\"Europe/Berlin\\",\\"api_key\\":\\"${PLANTED}\\"}`);
    expect(planted.split(PLANTED).length - 1).toBe(6);
    writeFileSync(file, planted);
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code).toBe(1);
    expect(parseJson(run).findings.map((f) => [f.rule, f.tool, f.key, f.emitter]).sort()).toEqual([['assumption_span', 'getWeather', 'timezone', 'genkit'], ['credential_in_attribute', 'getWeather', 'api_key', 'genkit']]);
    for (const format of ['table', 'json', 'sarif', 'html']) expect(analyzeBin(file, '--format', format).stdout, format).not.toContain('ghp_C4NARY');
  });

  it('pointed at `.genkit` itself: Genkit\'s index of the traces (summaries, no spans) is refused naming the folder to analyse (exit 2); with --allow-partial the traces are read', () => {
    const trace = JSON.parse(readFileSync(join(FOREIGN, STORE), 'utf8'));
    const root = join(tmp(), 'app', '.genkit');
    mkdirSync(join(root, 'traces'), { recursive: true });
    mkdirSync(join(root, 'traces_idx'), { recursive: true });
    copyFileSync(join(FOREIGN, STORE), join(root, 'traces', trace.traceId));
    // (the index line Genkit's LocalFileTraceStore writes for the trace)
    const index = join(root, 'traces_idx', 'idx_00001796622330738.json');
    writeFileSync(index, `${JSON.stringify({ id: trace.traceId, type: 'flow', start: trace.startTime, name: trace.displayName, end: trace.endTime, status: 0 })}\n`);
    const run = analyzeBin(root);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${index}:1: Genkit's trace index (.genkit/traces_idx): one summary a trace, no spans; analyse the traces in .genkit/traces instead`);
    const partial = analyzeBin(root, '--allow-partial', '--format', 'json');
    expect(partial.code).toBe(0);
    expect(parseJson(partial).stats).toMatchObject({ foreign_calls: 1 });
  });

  it('Genkit\'s trace list (`GET /api/traces`: each trace\'s root span only, its attributes cut) is refused naming what to read instead (exit 2), never reported clean', () => {
    const trace = JSON.parse(readFileSync(join(FOREIGN, STORE), 'utf8'));
    const file = join(tmp(), 'genkit-list.json');
    writeFileSync(file, JSON.stringify({ traces: [trace], continuationToken: '10' }));
    const run = analyzeBin(file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:1: Genkit's trace list (GET /api/traces of its telemetry server): holds each trace's root span only, its attributes cut at 1,000 characters; read the traces kept in .genkit/traces/, or fetch each with GET /api/traces/<traceId>, which argspan reads`);
  });

  it('a stored span without its id is named by its key in the file (exit 2), its data never quoted', () => {
    const trace = JSON.parse(readFileSync(join(FOREIGN, STORE), 'utf8'));
    const [id] = Object.keys(trace.spans).filter((k) => trace.spans[k].displayName === 'getWeather');
    delete trace.spans[id!].spanId;
    trace.spans[id!].attributes['genkit:input'] = JSON.stringify({ city: 'Berlin', api_key: PLANTED });
    const file = join(tmp(), 'genkit-no-id.json');
    writeFileSync(file, JSON.stringify(trace));
    const run = analyzeBin(file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}: spans.${id}: malformed span`);
    expect(run.stdout + run.stderr).not.toContain('ghp_C4NARY');
  });

  it('a model reply cut off mid-call (an attribute length limit) is a call not checked, not none', () => {
    const file = editedRun((spans) => {
      const model = spans.filter((sp) => !isTool(sp)).find((sp) => attr(sp, 'genkit:output').stringValue?.includes('toolRequest'))!;
      const reply = attr(model, 'genkit:output');
      reply.stringValue = reply.stringValue!.slice(0, reply.stringValue!.indexOf('"city"') + 4);
      return spans.filter((sp) => !isTool(sp));
    });
    expect(parseJson(analyzeBin(file, '--format', 'json')).stats).toMatchObject({ foreign_calls: 1, unreadable_args_calls: 1 });
  });

  it('a model reply cut off mid-call whose call a tool span ran after it: that call, checked, not one more call not checked', async () => {
    const file = editedRun((spans) => {
      const model = spans.filter((sp) => !isTool(sp)).find((sp) => attr(sp, 'genkit:output').stringValue?.includes('toolRequest'))!;
      const reply = attr(model, 'genkit:output');
      reply.stringValue = reply.stringValue!.slice(0, reply.stringValue!.indexOf('"city"') + 4);
    });
    const db = join(tmp(), 'genkit-cut.duckdb');
    const out = parseJson(analyzeBin(file, '--format', 'json', '--db', db));
    expect(out.stats).toMatchObject({ foreign_calls: 1, unreadable_args_calls: 0 });
    expect(await query(db, `SELECT a.tool, a."key", a.provenance, c.call_source FROM tool_args a JOIN tool_calls c USING (trace_id, span_id)`)).toEqual([{ tool: 'getWeather', key: 'city', provenance: 'user_explicit', call_source: 'tool-span' }]);
  });
});

describe('argspan analyze on the log records Genkit\'s Developer UI keeps (.genkit/logs, GENKIT_OTEL_ENABLE_LOGS=true)', () => {
  const REAL = join(FOREIGN, 'genkit-1.42-dev-ui-log-store-weather.jsonl');
  const TOKENS = ['ghp_C4NARYf0reignLOGSc4naryF0REIGNl0gs01', 'ghp_C4NARYf0reignLOGSc4naryF0REIGNl0gs02', 'ghp_C4NARYf0reignLOGSc4naryF0REIGNl0gs03'];

  it('the real records (genkit 1.42: its logger in a tool and a flow) are read as the application\'s own logs, scanned for credentials: nothing reported', () => {
    const run = analyzeBin(REAL, '--format', 'json');
    expect(run.code).toBe(0);
    expect(parseJson(run).findings).toEqual([]);
    expect(parseJson(run).stats).toMatchObject({ files: 1, spans: 0, other_log_records: 2, skipped: [] });
  });

  it('a token an application logged — in an attribute, the body, a field of another type than the store writes — is one finding each, by where it is, never printed; `.genkit/logs` walked', () => {
    const [first, second] = readFileSync(REAL, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line));
    first.attributes.api_key = TOKENS[0];
    second.body = { constructor: TOKENS[1] };
    second.severityText = { note: TOKENS[2] };
    const logs = join(tmp(), '.genkit', 'logs');
    mkdirSync(logs, { recursive: true });
    writeFileSync(join(logs, 'logs-2026-12-07-09.jsonl'), `${JSON.stringify(first)}\n${JSON.stringify(second)}\n`);
    const run = analyzeBin(logs, '--format', 'json');
    expect(run.code).toBe(1);
    expect(parseJson(run).findings.map((f) => [f.rule, f.key]).sort()).toEqual([['credential_in_log_record', 'api_key'], ['credential_in_log_record', 'genkit.severityText'], ['credential_in_log_record', 'log.body']]);
    for (const format of ['table', 'json', 'sarif', 'junit', 'html']) {
      const out = analyzeBin(logs, '--format', format);
      for (const token of TOKENS) expect(out.stdout + out.stderr, format).not.toContain(token.slice(0, 12));
    }
  });

  it('a line that does not parse is named by file and line (exit 2), the rest read with --allow-partial; the store\'s index (.genkit/logs_idx) is refused naming the folder to analyse', () => {
    const file = join(tmp(), 'logs-2026-12-07-10.jsonl');
    writeFileSync(file, `${readFileSync(REAL, 'utf8').split('\n')[0]}\n{"logId": "cut", "body": "${TOKENS[0].slice(0, 20)}\n`);
    const run = analyzeBin(file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:2: not valid JSON`);
    expect(run.stdout + run.stderr).not.toContain(TOKENS[0].slice(0, 12));
    expect(parseJson(analyzeBin(file, '--allow-partial', '--format', 'json')).stats).toMatchObject({ other_log_records: 1 });
    const index = join(tmp(), 'idx_00001796634507465.jsonl');
    writeFileSync(index, '{"traceId":"f58ee84a156a9684a1f21e827106e38b","spanId":"7671bbef0225738e","timestamp":1796634507794,"severityText":"INFO","severityNumber":9,"file":"logs-2026-12-07-09.jsonl","offset":0,"length":331}\n');
    const refused = analyzeBin(index);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${index}:1: Genkit's log index (.genkit/logs_idx): where each log record is stored, not the records; analyse the records in .genkit/logs instead`);
  });
});

describe('argspan analyze on VoltAgent\'s own observability (an agent span, its model calls and a tool span per call)', () => {
  const AGENT = 'voltagent-2.10-agent-weather-tool.json';
  const SUPERVISOR = 'voltagent-2.10-supervisor-weather-subagent.json';
  const editedRun = editedFixture;
  /** Every string attribute of `spans` with `from` replaced by `to`. */
  const replaceText = (spans: Span[], from: string, to: string) => {
    for (const sp of spans) for (const a of sp.attributes) if (a.value.stringValue !== undefined) a.value.stringValue = a.value.stringValue.replaceAll(from, to);
  };
  const args = (db: string) => query(db, `SELECT a.tool, a."key", a.provenance FROM tool_args a ORDER BY a.tool, a."key"`);

  it('the real run (@voltagent/core 2.10, one agent, one tool): one call, the city the user named, the units its schema\'s default, nothing reported', async () => {
    const db = join(tmp(), 'voltagent.duckdb');
    const run = analyzeBin(join(FOREIGN, AGENT), '--format', 'json', '--db', db);
    expect(run.code).toBe(0);
    expect(parseJson(run).stats).toMatchObject({ foreign_calls: 1, no_evidence_calls: 0, unreadable_args_calls: 0 });
    expect(parseJson(run).findings).toEqual([]);
    expect(await query(db, 'SELECT emitter, tool, call_id, run_id, call_source FROM tool_calls')).toEqual([{ emitter: 'voltagent', tool: 'getWeather', call_id: 'call_V7k2', run_id: 'conv-1', call_source: 'tool-span' }]);
    expect(await args(db)).toEqual([
      { tool: 'getWeather', key: 'city', provenance: 'user_explicit' },
      { tool: 'getWeather', key: 'units', provenance: 'schema_default' },
    ]);
  });

  // (derive.mjs: the call with an invented timezone and a token, in the tool span's input)
  it('derived/voltagent-2.10-planted.json: the invented timezone and the token each reported once, by tool and key, never printed', () =>
    expectPlantedFindings('derived/voltagent-2.10-planted.json', [['assumption_span', 'getWeather', 'timezone', 'voltagent'], ['credential_in_attribute', 'getWeather', 'api_key', 'voltagent']]));

  it('the tool\'s schema is the JSON of its Zod object: without it, the default the tool filled in is a value nobody asserted', async () => {
    const file = editedRun(AGENT, (spans) => {
      for (const sp of spans) sp.attributes = sp.attributes.filter((a) => a.key !== 'tool.parameters');
    });
    const db = join(tmp(), 'voltagent-no-schema.duckdb');
    expect(analyzeBin(file, '--db', db).code).toBe(0);
    expect(await args(db)).toContainEqual({ tool: 'getWeather', key: 'units', provenance: 'model_inferred' });
  });

  it('the real supervisor run: a sub-agent\'s task is the supervisor\'s model\'s words, not the user\'s — the timezone it passed on is reported; said by the user, it is not', async () => {
    const db = join(tmp(), 'voltagent-supervisor.duckdb');
    const run = analyzeBin(join(FOREIGN, SUPERVISOR), '--format', 'json', '--db', db);
    expect(run.code).toBe(1);
    expect(parseJson(run).stats).toMatchObject({ foreign_calls: 2, no_evidence_calls: 0, unreadable_args_calls: 0 });
    expect(parseJson(run).findings.map((f) => [f.rule, f.tool, f.key, f.emitter])).toEqual([['assumption_span', 'getWeather', 'timezone', 'voltagent']]);
    expect(await query(db, 'SELECT tool, call_id, run_id FROM tool_calls ORDER BY tool')).toEqual([
      { tool: 'delegate_task', call_id: 'call_P1q4', run_id: 'conv-2' },
      { tool: 'getWeather', call_id: 'call_W3n8', run_id: 'conv-2' },
    ]);
    expect(await args(db)).toEqual(
      expect.arrayContaining([
        { tool: 'getWeather', key: 'city', provenance: 'user_explicit' },
        { tool: 'getWeather', key: 'timezone', provenance: 'model_inferred' },
      ]),
    );
    const said = editedRun(SUPERVISOR, (spans) => replaceText(spans, 'Plan my afternoon in Berlin.', 'Plan my afternoon in Berlin, Europe/Berlin time.'));
    expect(parseJson(analyzeBin(said, '--format', 'json')).findings).toEqual([]);
  });

  it('one conversation over several runs (`conversation.id`): what the user said in an earlier run is theirs in a later one', async () => {
    // A second run of the same conversation, in a trace of its own: asked "And tomorrow?", the model calls getWeather for Berlin again.
    const twoRuns = (conversation: boolean) =>
      editedRun(AGENT, (spans) => {
        const later = (JSON.parse(JSON.stringify(spans)) as Span[]).map((sp) => ({ ...sp, traceId: 'f'.repeat(32), spanId: `f${sp.spanId.slice(1)}`, ...(sp.parentSpanId ? { parentSpanId: `f${sp.parentSpanId.slice(1)}` } : {}) }));
        replaceText(later, 'What is the weather in Berlin?', 'And tomorrow?');
        replaceText(later, 'call_V7k2', 'call_V7k3');
        const all = [...spans, ...later];
        if (!conversation) for (const sp of all) sp.attributes = sp.attributes.filter((a) => a.key !== 'voltagent.conversation_id' && a.key !== 'conversation.id');
        return all;
      });
    const provenance = async (conversation: boolean) => {
      const db = join(tmp(), 'voltagent-runs.duckdb');
      expect(analyzeBin(twoRuns(conversation), '--db', db).code).toBe(0);
      return query(db, `SELECT a.provenance FROM tool_args a JOIN tool_calls c USING (trace_id, span_id) WHERE c.call_id = 'call_V7k3' AND a."key" = 'city'`);
    };
    expect(await provenance(true)).toEqual([{ provenance: 'user_explicit' }]);
    expect(await provenance(false)).toEqual([{ provenance: 'model_inferred' }]);
  });
});

describe('argspan analyze on Codex CLI\'s OpenTelemetry log export (codex.tool_result, codex.user_prompt)', () => {
  const REAL = 'codex-0.171-exec-env.logs.json';
  const REDACTED = 'derived/codex-0.171-prompt-redacted.logs.json';
  const CONVERSATION = '01a25060-cd15-7f93-ba33-1bd23f00e8fc';
  type Rec = { traceId: string; spanId: string; eventName?: string; attributes: { key: string; value: { stringValue?: string } }[] };
  /** A recorded export (the real run's unless named), `edit` made on each of its records; written to a file of its own. */
  function editedExport(edit: (record: Rec, event: string | undefined) => void, recorded = REAL): string {
    const doc = JSON.parse(readFileSync(join(FOREIGN, recorded), 'utf8'));
    for (const rl of doc.resourceLogs) for (const sl of rl.scopeLogs) for (const r of sl.logRecords as Rec[]) edit(r, r.attributes.find((a) => a.key === 'event.name')?.value.stringValue);
    const file = join(tmp(), 'codex.logs.json');
    writeFileSync(file, JSON.stringify(doc));
    return file;
  }

  it('the real run (codex 0.171: `cat .env`, then a curl sending the token it read): the .env read, the token in the command and in the read\'s output, by tool and key; the token in no output', async () => {
    expectPlantedFindings(REAL, [
      ['credential_in_attribute', 'exec_command', 'cmd', 'codex'],
      ['credential_in_attribute', 'exec_command', 'output', 'codex'],
      ['sensitive_arg_dispatched', 'exec_command', 'cmd', 'codex'],
    ]);
    const db = join(tmp(), 'codex.duckdb');
    const run = analyzeBin(join(FOREIGN, REAL), '--format', 'json', '--db', db);
    expect(parseJson(run).stats).toMatchObject({ foreign_calls: 2, no_evidence_calls: 0, unreadable_args_calls: 0, agent_log_records: 3 });
    expect(await query(db, 'SELECT emitter, tool, call_id, run_id, residency FROM tool_calls ORDER BY call_id')).toEqual([
      { emitter: 'codex', tool: 'exec_command', call_id: 'call_Env1', run_id: CONVERSATION, residency: 'secret' },
      { emitter: 'codex', tool: 'exec_command', call_id: 'call_Env2', run_id: CONVERSATION, residency: 'secret' },
    ]);
    expect(analyzeBin(join(FOREIGN, REAL)).stdout).toMatch(/Read 3 coding-agent log record\(s\) \(Claude Code, Gemini CLI, Qwen Code, Codex CLI: tool calls, prompts, model calls\) as spans of their own/);
  });

  it('without `log_user_prompt` (the prompt `[REDACTED]`): the calls are checked, but have no evidence of who said what', () => {
    const out = parseJson(analyzeBin(join(FOREIGN, REDACTED), '--format', 'json'));
    expect(out.stats).toMatchObject({ foreign_calls: 2, no_evidence_calls: 2 });
  });

  it('a call of an MCP server\'s tool (the real filesystem server, in Codex\'s `mcp__fs` namespace) is named `mcp__fs__read_text_file`; nothing reported', async () => {
    const db = join(tmp(), 'codex-mcp.duckdb');
    const run = analyzeBin(join(FOREIGN, 'codex-0.171-exec-mcp.logs.json'), '--format', 'json', '--db', db);
    expect(run.code).toBe(0);
    expect(parseJson(run).stats).toMatchObject({ foreign_calls: 1, no_evidence_calls: 0, unreadable_args_calls: 0 });
    expect(await query(db, 'SELECT emitter, tool, call_id FROM tool_calls')).toEqual([{ emitter: 'codex', tool: 'mcp__fs__read_text_file', call_id: 'call_Mcp1' }]);
  });

  it('a freeform tool\'s text (`apply_patch` as gpt-5.5 gets it: a patch, not JSON) is its one argument, `input`: the token the patch copies out of the .env read is reported by tool and key; the call is checked', async () => {
    const PATCH = 'codex-0.171-exec-patch.logs.json';
    expectPlantedFindings(PATCH, [
      ['credential_in_attribute', 'apply_patch', 'input', 'codex'],
      ['credential_in_attribute', 'exec_command', 'output', 'codex'],
      ['sensitive_arg_dispatched', 'exec_command', 'cmd', 'codex'],
    ]);
    const db = join(tmp(), 'codex-patch.duckdb');
    const run = analyzeBin(join(FOREIGN, PATCH), '--format', 'json', '--db', db);
    expect(parseJson(run).stats).toMatchObject({ foreign_calls: 2, unreadable_args_calls: 0, no_evidence_calls: 0 });
    expect(await query(db, "SELECT tool, \"key\", residency, rule FROM tool_args WHERE tool = 'apply_patch'")).toEqual([{ tool: 'apply_patch', key: 'input', residency: 'secret', rule: 'github-pat' }]);
  });

  it('a call `codex exec` refused without running it (an escalation its approval policy forbids: `scp .env …` outside the read-only sandbox) is the model\'s request, not a call that ran; its refusal is no tool result', async () => {
    const REFUSED = 'codex-0.171-exec-refused.logs.json';
    const db = join(tmp(), 'codex-refused.duckdb');
    const run = analyzeBin(join(FOREIGN, REFUSED), '--format', 'json', '--db', db);
    expect(run.code).toBe(1);
    expect(parseJson(run).stats).toMatchObject({ foreign_calls: 1, no_evidence_calls: 0, unreadable_args_calls: 0 });
    expect(await query(db, 'SELECT tool, call_id, call_source FROM tool_calls')).toEqual([{ tool: 'exec_command', call_id: 'call_Refused1', call_source: 'model-output' }]);
    const dispatched = parseJson(run).findings.filter((f) => f.rule === 'sensitive_arg_dispatched');
    expect(dispatched.map((f) => f.key).sort()).toEqual(['cmd', 'justification']);
    for (const f of dispatched) {
      expect(f.message).toContain('the model asked for the call');
      expect(f.message).not.toContain('the call ran');
    }
    // The same record with the call run (a failed command's own output): a call that ran.
    const ran = editedExport((r) => {
      for (const a of r.attributes) if (a.key === 'output') a.value.stringValue = 'Process exited with code 1';
    }, REFUSED);
    expect(parseJson(analyzeBin(ran, '--format', 'json')).findings.filter((f) => f.rule === 'sensitive_arg_dispatched').every((f) => f.message.includes('the call ran'))).toBe(true);
  });

  it('its trace export alone (no arguments in any span): each call counted as not checked, never reported clean; beside the log export of the same run, each call once, the record\'s', () => {
    const traces = join(FOREIGN, 'codex-0.171-exec-env-traced.traces.json');
    const alone = analyzeBin(traces, '--format', 'json');
    expect(parseJson(alone).stats).toMatchObject({ foreign_calls: 2, unreadable_args_calls: 2, no_evidence_calls: 2 });
    expect(analyzeBin(traces).stdout).toContain('2 without readable arguments');
    const both = parseJson(analyzeBin(traces, join(FOREIGN, 'codex-0.171-exec-env-traced.logs.json'), '--format', 'json'));
    expect(both.stats).toMatchObject({ foreign_calls: 2, unreadable_args_calls: 0, no_evidence_calls: 0, agent_log_records: 3 });
    expect(both.findings.map((f) => [f.rule, f.tool, f.key]).sort()).toEqual([
      ['credential_in_attribute', 'exec_command', 'cmd'],
      ['credential_in_attribute', 'exec_command', 'output'],
      ['sensitive_arg_dispatched', 'exec_command', 'cmd'],
    ]);
  });

  it('records written inside Codex\'s spans (its trace export on: trace ids, each turn a trace), or named by their attribute only: the same calls; the conversation links the turns', async () => {
    // The user now names the command; the prompt is in one turn's trace, the calls in another's.
    const split = (conversation: boolean) =>
      editedExport((r, event) => {
        for (const a of r.attributes) if (a.key === 'prompt') a.value.stringValue = 'Run cat .env and check that the API answers.';
        r.traceId = event === 'codex.user_prompt' ? 'a'.repeat(32) : 'b'.repeat(32);
        r.spanId = 'c'.repeat(16);
        delete r.eventName;
        if (!conversation) r.attributes = r.attributes.filter((a) => a.key !== 'conversation.id');
      });
    const provenance = async (conversation: boolean) => {
      const db = join(tmp(), 'codex-split.duckdb');
      const out = parseJson(analyzeBin(split(conversation), '--format', 'json', '--db', db));
      expect(out.stats).toMatchObject({ foreign_calls: 2, agent_log_records: 3 });
      return query(db, `SELECT a.provenance FROM tool_args a JOIN tool_calls c USING (trace_id, span_id) WHERE c.call_id = 'call_Env1'`);
    };
    expect(await provenance(true)).toEqual([{ provenance: 'user_explicit' }]);
    expect(await provenance(false)).toEqual([{ provenance: 'no_evidence' }]);
  });
});

describe('argspan analyze on Qwen Code\'s local telemetry file (qwen-code.tool_call, qwen-code.user_prompt; the SDK\'s own objects)', () => {
  const REAL = 'qwen-code-0.24-env.telemetry.log';

  it('the real run (qwen-code 0.24: read_file on .env, then a curl sending the token it read): the .env read and the token, by tool and key, once each; the token in no output', async () => {
    expectPlantedFindings(REAL, [
      ['credential_in_attribute', 'run_shell_command', 'command', 'qwen-code'],
      ['sensitive_arg_dispatched', 'read_file', 'file_path', 'qwen-code'],
    ]);
    const db = join(tmp(), 'qwen.duckdb');
    const run = analyzeBin(join(FOREIGN, REAL), '--format', 'json', '--db', db);
    // (each call once: its record, with the arguments, not also Qwen Code's `qwen-code.tool` span, which holds none)
    expect(parseJson(run).stats).toMatchObject({ foreign_calls: 2, no_evidence_calls: 0, unreadable_args_calls: 0, agent_log_records: 3 });
    expect(await query(db, 'SELECT emitter, tool, call_id FROM tool_calls ORDER BY call_id')).toEqual([
      { emitter: 'qwen-code', tool: 'read_file', call_id: 'call_Qw1' },
      { emitter: 'qwen-code', tool: 'run_shell_command', call_id: 'call_Qw2' },
    ]);
    expect(analyzeBin(join(FOREIGN, REAL)).stdout).toMatch(/Read 3 coding-agent log record\(s\) \(Claude Code, Gemini CLI, Qwen Code, Codex CLI: tool calls, prompts, model calls\) as spans of their own/);
  });
});
