import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBin, parseJson } from './analyze-helpers.js';
import { tmp } from './support/analyze-foreign.js';

/**
 * `argspan analyze` on small traces in shapes the emitters' usual records do not take: a tool span
 * that leaves its tool's name out, a model output that parses in a shape no reader knows. Each call
 * ends in a finding (on the unnamed tool where the name is missing) or a count of calls not
 * checked, never in a silent clean.
 */

/** A GitHub-token-shaped canary made for this file (not a credential). */
const TOKEN = 'ghp_Sh4p3sC4naryN0tAT0kenXq9Lw2Zr7Vb5Mn3K';

/** A string, or an OTLP `AnyValue` of another type (`{}`: an empty value). */
type Attr = string | { intValue: string } | { doubleValue: number } | { boolValue: boolean } | { bytesValue: string } | { arrayValue: { values: object[] } } | { kvlistValue: { values: object[] } } | Record<string, never>;
interface SpanSpec { name: string; attrs: Record<string, Attr>; scope?: string; events?: { name: string; attrs: Record<string, Attr> }[] }

const attributes = (attrs: Record<string, Attr>) => Object.entries(attrs).map(([key, v]) => ({ key, value: typeof v === 'string' ? { stringValue: v } : v }));

/** An OTLP JSON file of `spans` (one trace, siblings in order), each under its scope (none: the scope left out, as some exports do). */
function trace(spans: readonly SpanSpec[]): string {
  const scopes = new Map<string | undefined, object[]>();
  spans.forEach((s, i) => {
    const list = scopes.get(s.scope) ?? [];
    scopes.set(s.scope, list);
    list.push({
      traceId: '5a5e0000000000000000000000000001', spanId: `5a5e0000000000${String(i + 1).padStart(2, '0')}`, parentSpanId: '', name: s.name, kind: 1,
      startTimeUnixNano: `17650000000${i}0000000`, endTimeUnixNano: `17650000000${i}5000000`,
      attributes: attributes(s.attrs),
      ...(s.events ? { events: s.events.map((e) => ({ name: e.name, timeUnixNano: `17650000000${i}1000000`, attributes: attributes(e.attrs) })) } : {}),
    });
  });
  const doc = { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [...scopes].map(([scope, list]) => ({ ...(scope === undefined ? {} : { scope: { name: scope } }), spans: list })) }] };
  const file = join(tmp(), 'trace.json');
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

/** Exit code, findings (`rule tool key`), calls and calls not checked of `file`; no output holds the canary or the planted values. */
function analyse(file: string): { code: number | null; findings: string[]; calls: unknown; unreadable: unknown } {
  const run = analyzeBin(file, '--format', 'json');
  for (const secret of [TOKEN, 'Europe/Paris']) expect(run.stdout + run.stderr).not.toContain(secret);
  const out = parseJson(run);
  return { code: run.code, findings: out.findings.map((f) => `${f.rule} ${f.tool} ${f.key}`), calls: out.stats.foreign_calls, unreadable: out.stats.unreadable_args_calls };
}

const SECRET_PATH = JSON.stringify({ path: '/app/.env' });
const READ = { code: 1, calls: 1, unreadable: 0 };

describe('argspan analyze: a tool span that leaves its tool\'s name out', () => {
  it.each<[string, SpanSpec]>([
    ['GenAI conventions: `execute_tool`, no gen_ai.tool.name', { name: 'execute_tool', attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.call.arguments': SECRET_PATH } }],
    ['GenAI conventions: gen_ai.tool.name not text', { name: 'execute_tool', attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': { intValue: '7' }, 'gen_ai.tool.call.arguments': SECRET_PATH } }],
    ['GenAI conventions: only the arguments (no operation, no tool name)', { name: 'execute_tool', attrs: { 'gen_ai.tool.call.arguments': SECRET_PATH } }],
    ['Agent Framework (its scope): `execute_tool`, no gen_ai.tool.name', { name: 'execute_tool', scope: 'agent_framework', attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.call.id': 'call_1', 'gen_ai.tool.call.arguments': SECRET_PATH } }],
    ['Mastra 1.x', { name: 'execute_tool', attrs: { 'mastra.span.type': 'tool_call', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.call.arguments': SECRET_PATH } }],
    ['Mastra 0.x', { name: 'tool.execute', attrs: { 'mastra.span.type': 'tool_call', 'gen_ai.operation.name': 'tool.execute', 'gen_ai.tool.input': SECRET_PATH } }],
    ['OpenInference TOOL span', { name: '', attrs: { 'openinference.span.kind': 'TOOL', 'input.value': SECRET_PATH } }],
    ['OpenLLMetry tool span', { name: '', attrs: { 'traceloop.span.kind': 'tool', 'traceloop.entity.input': SECRET_PATH } }],
    ['Langfuse tool observation', { name: '', attrs: { 'langfuse.observation.type': 'tool', 'langfuse.observation.input': SECRET_PATH } }],
    ['LangSmith tool run', { name: '', attrs: { 'langsmith.span.kind': 'tool', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.prompt': SECRET_PATH } }],
  ])('%s: a call of the unnamed tool, its secret path reported', (_, span) => {
    expect(analyse(trace([span]))).toEqual({ ...READ, findings: ['sensitive_arg_dispatched (unnamed) path'] });
  });

  it('a span named as the conventions name a tool span, without operation or tool name, is a call: its arguments read from its events, or counted where not text', () => {
    expect(analyse(trace([{ name: 'execute_tool', attrs: {}, events: [{ name: 'gen_ai.tool.message', attrs: { content: SECRET_PATH } }] }]))).toEqual({ ...READ, findings: ['sensitive_arg_dispatched (unnamed) path'] });
    const bytes = { bytesValue: Buffer.from(SECRET_PATH).toString('base64') };
    expect(analyse(trace([{ name: 'execute_tool read_file', attrs: { 'gen_ai.tool.call.arguments': bytes } }]))).toEqual({ code: 0, calls: 1, unreadable: 1, findings: [] });
  });

  it('a span that records a call\'s arguments under another operation is a call; its guessed value reported', () => {
    const prompt = { name: 'invoke_agent helper', attrs: { 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'What time is it?' }] }]) } };
    const span = { name: 'execute_tool get_time', attrs: { 'gen_ai.operation.name': 'tool', 'gen_ai.tool.call.arguments': JSON.stringify({ timezone: 'Europe/Paris' }) } };
    expect(analyse(trace([prompt, span]))).toEqual({ code: 1, calls: 1, unreadable: 0, findings: ['assumption_span get_time timezone'] });
  });

  it('names the tool from the span where the name is there: `execute_tool {tool}`, or another span name as it is', () => {
    expect(analyse(trace([{ name: 'execute_tool read_file', attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.call.arguments': SECRET_PATH } }]))).toEqual({ ...READ, findings: ['sensitive_arg_dispatched read_file path'] });
    expect(analyse(trace([{ name: 'tool.execute calc', attrs: { 'mastra.span.type': 'tool_call', 'gen_ai.tool.input': SECRET_PATH } }]))).toEqual({ ...READ, findings: ['sensitive_arg_dispatched calc path'] });
  });

  it('a model span that only names a tool, or a span named `execute_tool` that records nothing of a call\'s, is no call', () => {
    expect(analyse(trace([
      { name: 'chat gpt-4o', attrs: { 'gen_ai.operation.name': 'chat', 'gen_ai.tool.name': 'read_file' } },
      { name: 'execute_tool', attrs: { 'service.step': 'tool registry refresh' } },
    ]))).toEqual({ code: 0, calls: 0, unreadable: 0, findings: [] });
  });
});

type Emitter = 'adk' | 'langsmith' | 'mastra' | 'vercel' | 'langfuse' | 'logfire';

/** A model span of `emitter` whose output is `output` (JSON-encoded unless a string). */
function modelSpan(emitter: Emitter, output: unknown): SpanSpec {
  const text = typeof output === 'string' ? output : JSON.stringify(output);
  if (emitter === 'adk') return { name: 'call_llm', scope: 'gcp.vertex.agent', attrs: { 'gcp.vertex.agent.llm_response': text } };
  if (emitter === 'logfire') return { name: 'Chat Completion with {request_data[model]!r}', attrs: { 'logfire.msg_template': 'Chat Completion with {request_data[model]!r}', events: text } };
  if (emitter === 'langfuse') return { name: 'ChatOpenAI', attrs: { 'langfuse.observation.type': 'generation', 'langfuse.observation.output': text } };
  if (emitter === 'vercel') return { name: 'ai.streamText.doStream', attrs: { 'ai.response.toolCalls': text } };
  if (emitter === 'langsmith') return { name: 'ChatOpenAI', attrs: { 'langsmith.span.kind': 'llm', 'gen_ai.completion': text } };
  return { name: 'chat gpt-4o', attrs: { 'mastra.span.type': 'llm_generation', 'gen_ai.completion': text } };
}

const CALL_ARGS = { path: '/app/.env' };
/** A call read as one unreadable text: its secret path found, and the call still counted as not wholly read. */
const UNKNOWN_SECRET = { ...READ, unreadable: 1, findings: ['sensitive_arg_dispatched (unnamed) $'] };
const NO_CALL = { code: 0, calls: 0, unreadable: 0, findings: [] };

describe('argspan analyze: a model output that parses in a shape no reader knows', () => {
  it.each<[string, Emitter, unknown]>([
    ['ADK: Gemini\'s raw response (candidates), not the LlmResponse', 'adk', { candidates: [{ content: { parts: [{ function_call: { name: 'read_file', args: CALL_ARGS } }] } }] }],
    ['ADK: a part of another shape beside a text part', 'adk', { content: { role: 'model', parts: [{ text: 'Reading it.' }, { functionCalls: [{ name: 'read_file', args: CALL_ARGS }] }] } }],
    ['ADK: the response encoded twice', 'adk', JSON.stringify(JSON.stringify({ content: { parts: [{ function_call: { name: 'read_file', args: CALL_ARGS } }] } }))],
    ['LangSmith: the message under another key', 'langsmith', { message: { tool_calls: [{ id: 'c1', function: { name: 'read_file', arguments: JSON.stringify(CALL_ARGS) } }] } }],
    ['LangSmith: an assistant message whose calls are content blocks', 'langsmith', { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: CALL_ARGS }] }],
    ['Langfuse: a generation\'s message whose calls are content blocks', 'langfuse', { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: CALL_ARGS }] }],
    ['Logfire: the events list under another key', 'logfire', { events: [{ 'event.name': 'gen_ai.choice', message: { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: JSON.stringify(CALL_ARGS) } }] } }] }],
    ['Logfire: a choice whose calls are content blocks', 'logfire', [{ 'event.name': 'gen_ai.user.message', content: 'Read the config.', role: 'user' }, { 'event.name': 'gen_ai.choice', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: CALL_ARGS }] } }]],
    ['Mastra: the calls only in the steps', 'mastra', { steps: [{ toolCalls: [{ toolCallId: 'c1', toolName: 'read_file', args: CALL_ARGS }] }] }],
    ['Vercel AI SDK: the calls under another key', 'vercel', { calls: [{ toolCallId: 'c1', toolName: 'read_file', args: CALL_ARGS }] }],
    ['Vercel AI SDK: a call encoded as text in the list', 'vercel', [JSON.stringify({ toolCallId: 'c1', toolName: 'read_file', args: CALL_ARGS })]],
    ['Mastra: the calls list encoded as text', 'mastra', { text: '', toolCalls: JSON.stringify([{ toolCallId: 'c1', toolName: 'read_file', args: CALL_ARGS }]) }],
  ])('%s: one unreadable call of the unnamed tool, its secret path still found', (_, emitter, output) => {
    expect(analyse(trace([modelSpan(emitter, output)]))).toEqual(UNKNOWN_SECRET);
  });

  it('counts such a call without a secret as not checked (a guessed zone in it cannot be read)', () => {
    const output = { candidates: [{ content: { parts: [{ function_call: { name: 'get_time', args: { timezone: 'Europe/Paris' } } }] } }] };
    expect(analyse(trace([modelSpan('adk', output)]))).toEqual({ code: 0, calls: 1, unreadable: 1, findings: [] });
  });

  it('counts a Langfuse generation\'s output cut off at the length limit as a call not checked, not as nothing', () => {
    const output = JSON.stringify({ role: 'assistant', tool_calls: [{ id: 'c1', function: { name: 'get_time', arguments: JSON.stringify({ timezone: 'Europe/Paris' }) } }] });
    expect(analyse(trace([modelSpan('langfuse', output.slice(0, output.indexOf('Paris')))]))).toEqual({ code: 0, calls: 1, unreadable: 1, findings: [] });
  });

  it('reads one Vercel AI SDK call written for the list of one by name', () => {
    expect(analyse(trace([modelSpan('vercel', { toolCallId: 'c1', toolName: 'read_file', args: CALL_ARGS })]))).toEqual({ ...READ, findings: ['sensitive_arg_dispatched read_file path'] });
  });

  it('reads an assistant message LangSmith recorded as the run\'s output by name (`tool_calls` with `input`)', () => {
    const output = { role: 'assistant', tool_calls: [{ id: 't1', name: 'read_file', input: CALL_ARGS }] };
    expect(analyse(trace([modelSpan('langsmith', output)]))).toEqual({ ...READ, findings: ['sensitive_arg_dispatched read_file path'] });
  });

  it.each<[string, Emitter, unknown]>([
    ['ADK: a text answer that quotes `"arguments":`', 'adk', { content: { role: 'model', parts: [{ text: 'Send {"arguments": {"path": "/app/.env"}} to the tool.' }] } }],
    ['ADK: an error response', 'adk', { error_code: 'SAFETY', error_message: 'blocked' }],
    ['LangSmith: a text output', 'langsmith', { output: 'Call it with "input": x' }],
    ['LangSmith: LangChain\'s LLMResult with no calls (empty tool_calls)', 'langsmith', { generations: [[{ text: 'hi', message: { kwargs: { content: 'hi', tool_calls: [], invalid_tool_calls: [] } } }]] }],
    ['LangSmith: an assistant message with text only', 'langsmith', { role: 'assistant', content: 'Done.', tool_calls: [] }],
    ['Mastra: a text result with no calls', 'mastra', { text: 'It is sunny.', toolCalls: [], toolResults: [] }],
    ['Vercel AI SDK: no calls', 'vercel', []],
    ['Vercel AI SDK: a text entry', 'vercel', ['It is "input": sunny']],
    ['Langfuse: a text answer', 'langfuse', { role: 'assistant', content: 'Use {"input": 1}.', tool_calls: [] }],
    ['Langfuse: a raw text output', 'langfuse', 'It is sunny.'],
    ['Logfire: a choice with a text answer, after a history that repeats a call', 'logfire', [
      { 'event.name': 'gen_ai.assistant.message', role: 'assistant', tool_calls: [{ id: 'c0', type: 'function', function: { name: 'get_time', arguments: '{}' } }] },
      { 'event.name': 'gen_ai.tool.message', role: 'tool', id: 'c0', content: '12:00' },
      { 'event.name': 'gen_ai.choice', index: 0, message: { role: 'assistant', content: 'It is "input": noon.' } },
    ]],
    ['Mastra: a plain JSON string', 'mastra', JSON.stringify('It is sunny. "input": none')],
  ])('%s: no call', (_, emitter, output) => {
    expect(analyse(trace([modelSpan(emitter, output)]))).toEqual(NO_CALL);
  });
});

describe('argspan analyze: a tool span whose arguments attribute is not text', () => {
  // OTLP lets any attribute be an int, a double, a bool, bytes, an array or empty: a call whose
  // arguments were recorded so is still a call of its tool, counted as not checked, never passed
  // over; a secret file name or credential in its value (as text) is still reported, by tool.
  const VALUES: Attr[] = [
    { intValue: '42' },
    { doubleValue: 2.5 },
    { boolValue: true },
    { bytesValue: Buffer.from(JSON.stringify({ timezone: 'Europe/Paris' })).toString('base64') },
    { arrayValue: { values: [{ stringValue: 'Europe/Paris' }, { intValue: '3' }] } },
    {},
  ];
  /** Each emitter's tool span of `tool` with `args` where it records a call's arguments. */
  const SPANS: ((tool: string, args: Attr) => SpanSpec)[] = [
    (tool, args) => ({ name: `execute_tool ${tool}`, attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool, 'gen_ai.tool.call.arguments': args } }),
    (tool, args) => ({ name: `execute_tool ${tool}`, attrs: { 'gen_ai.tool.call.arguments': args } }),
    (tool, args) => ({ name: 'running tool', attrs: { 'gen_ai.tool.name': tool, tool_arguments: args } }),
    (tool, args) => ({ name: `execute_tool ${tool}`, scope: 'gcp.vertex.agent', attrs: { 'gen_ai.tool.name': tool, 'gcp.vertex.agent.tool_call_args': args } }),
    (tool, args) => ({ name: 'ai.toolCall', attrs: { 'ai.toolCall.name': tool, 'ai.toolCall.args': args } }),
    (tool, args) => ({ name: 'ai.toolCall', attrs: { 'ai.toolCall.name': tool, 'ai.toolCall.input': args } }),
    (tool, args) => ({ name: tool, attrs: { 'openinference.span.kind': 'TOOL', 'tool.name': tool, 'input.value': args } }),
    (tool, args) => ({ name: tool, attrs: { 'openinference.span.kind': 'TOOL', 'tool.name': tool, 'tool_call.function.arguments': args } }),
    (tool, args) => ({ name: `${tool}.tool`, attrs: { 'traceloop.span.kind': 'tool', 'traceloop.entity.name': tool, 'traceloop.entity.input': args } }),
    (tool, args) => ({ name: tool, attrs: { 'langfuse.observation.type': 'tool', 'langfuse.observation.input': args } }),
    (tool, args) => ({ name: tool, attrs: { 'langsmith.span.kind': 'tool', 'gen_ai.prompt': args } }),
    (tool, args) => ({ name: 'Function: {name}', attrs: { 'logfire.msg_template': 'Function: {name}', name: tool, input: args } }),
    (tool, args) => ({ name: `tool_call ${tool}`, attrs: { 'spring.ai.kind': 'tool_call', 'spring.ai.tool.definition.name': tool, 'spring.ai.tool.call.arguments': args } }),
    (tool, args) => ({ name: `tool.execute ${tool}`, attrs: { 'mastra.span.type': 'tool_call', 'gen_ai.tool.name': tool, 'gen_ai.tool.input': args } }),
  ];

  it.each(VALUES.map((v) => [Object.keys(v)[0] ?? 'empty', v] as const))('every emitter\'s tool span, arguments %s: each call found and counted as not checked, nothing reported', (_, value) => {
    // (in traces of up to ten spans: `trace` times them by their position's digits)
    for (const half of [SPANS.slice(0, 7), SPANS.slice(7)]) {
      const spans = half.map((make, i) => make(`tool_${i}`, value));
      expect(analyse(trace(spans))).toEqual({ code: 0, calls: spans.length, unreadable: spans.length, findings: [] });
    }
  });

  it('a credential in an array of arguments is still reported, by tool and attribute (the whole-attribute scan); the call counted as not checked', () => {
    const array = (...texts: string[]): Attr => ({ arrayValue: { values: texts.map((stringValue) => ({ stringValue })) } });
    expect(analyse(trace([SPANS[2]!('deploy', array('--token', TOKEN))]))).toEqual({ code: 1, calls: 1, unreadable: 1, findings: ['credential_in_attribute deploy tool_arguments'] });
  });

  it('a map (kvlist) of arguments is read as the object it holds', () => {
    const map: Attr = { kvlistValue: { values: [{ key: 'path', value: { stringValue: '/app/.env' } }] } };
    expect(analyse(trace([SPANS[6]!('read_file', map)]))).toEqual({ ...READ, findings: ['sensitive_arg_dispatched read_file path'] });
  });
});

describe('argspan analyze: a model output held as another type than text', () => {
  // The model's output, where a span or a message event records it, holds the calls it proposed:
  // held as an int, an array or another type than text it is not read, so it is one call of the
  // unnamed tool counted as not checked (a trace exported so is never a silent clean).
  const array: Attr = { arrayValue: { values: [{ stringValue: JSON.stringify({ tool_calls: [{ id: 'c1', function: { name: 'read_file', arguments: SECRET_PATH } }] }) }] } };
  const OUTPUTS: [string, (output: Attr) => SpanSpec][] = [
    ['gen_ai.output.messages', (output) => ({ name: 'chat gpt-4o', attrs: { 'gen_ai.operation.name': 'chat', 'gen_ai.output.messages': output } })],
    ['ai.response.toolCalls', (output) => ({ name: 'ai.generateText.doGenerate', attrs: { 'ai.operationId': 'ai.generateText.doGenerate', 'ai.response.toolCalls': output } })],
    ['a gen_ai.choice event', (output) => ({ name: 'chat gpt-4o', attrs: { 'gen_ai.operation.name': 'chat' }, events: [{ name: 'gen_ai.choice', attrs: { index: { intValue: '0' }, 'gen_ai.event.content': output } }] })],
    ["a Strands choice's message", (output) => ({ name: 'chat', attrs: { 'gen_ai.operation.name': 'chat' }, events: [{ name: 'gen_ai.choice', attrs: { message: output } }] })],
    ['a gen_ai.content.completion event', (output) => ({ name: 'chat gpt-4o', attrs: { 'gen_ai.operation.name': 'chat' }, events: [{ name: 'gen_ai.content.completion', attrs: { 'gen_ai.completion': output } }] })],
    ['the operation details event', (output) => ({ name: 'chat gpt-4o', attrs: { 'gen_ai.operation.name': 'chat' }, events: [{ name: 'gen_ai.client.inference.operation.details', attrs: { 'gen_ai.output.messages': output } }] })],
  ];

  it.each(OUTPUTS)('%s held as an array or an int: one call counted as not checked, not none', (_, make) => {
    for (const output of [array, { intValue: '3' }] as Attr[]) expect(analyse(trace([make(output)]))).toEqual({ code: 0, calls: 1, unreadable: 1, findings: [] });
  });

  it("a gen_ai.choice event's output as text: the call read, its secret path reported (the same trace's control)", () => {
    const text = JSON.stringify({ index: 0, message: { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: SECRET_PATH } }] } });
    expect(analyse(trace([OUTPUTS[2]![1](text)]))).toEqual({ ...READ, findings: ['sensitive_arg_dispatched read_file path'] });
  });

  it("a user message event's content held as an array is no call", () => {
    expect(analyse(trace([{ name: 'chat gpt-4o', attrs: { 'gen_ai.operation.name': 'chat' }, events: [{ name: 'gen_ai.user.message', attrs: { 'gen_ai.event.content': array } }] }]))).toEqual(NO_CALL);
  });
});

describe('argspan analyze: what a model was told, held as another type than text', () => {
  // A trace with the user's words in its first model span; the second model span's input (where
  // the user gave the zone) held as an array or an int is not read, so the zone its output passes
  // on cannot be told from the user's: no evidence either way, not the model's guess.
  const USER = 'Book a room for Tuesday, my zone is Europe/Paris';
  const OUTPUT = JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'book_room', arguments: { day: 'Tuesday', timezone: 'Europe/Paris' } }] }]);
  const first: SpanSpec = { name: 'chat gpt-4o', attrs: { 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'hello' }] }]) } };
  const asText = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: USER }] }]);
  const held: Attr[] = [{ arrayValue: { values: [{ stringValue: asText }] } }, { intValue: '3' }];
  const model = (attrs: Record<string, Attr>, events?: SpanSpec['events']): SpanSpec => ({ name: 'chat gpt-4o', attrs: { 'gen_ai.operation.name': 'chat', 'gen_ai.output.messages': OUTPUT, ...attrs }, ...(events ? { events } : {}) });
  const INPUTS: [string, (input: Attr) => SpanSpec][] = [
    ['gen_ai.input.messages', (input) => model({ 'gen_ai.input.messages': input })],
    ['gen_ai.system_instructions', (input) => model({ 'gen_ai.system_instructions': input })],
    ["OpenInference's flattened message content", (input) => model({ 'llm.input_messages.0.message.role': 'user', 'llm.input_messages.0.message.content': input })],
    ["the Vercel AI SDK's ai.prompt.messages", (input) => model({ 'ai.prompt.messages': input })],
    ['a gen_ai.user.message event', (input) => model({}, [{ name: 'gen_ai.user.message', attrs: { 'gen_ai.event.content': input } }])],
    ["the operation details event's input messages", (input) => model({}, [{ name: 'gen_ai.client.inference.operation.details', attrs: { 'gen_ai.input.messages': input } }])],
  ];

  /** Findings and the calls counted without the user's words (`no_evidence_calls`); no output holds the planted zone. */
  function run(spans: SpanSpec[]): { findings: string[]; noEvidence: unknown; calls: unknown } {
    const out = analyzeBin(trace(spans), '--format', 'json');
    expect(out.stdout + out.stderr).not.toContain('Europe/Paris');
    const json = parseJson(out);
    return { findings: json.findings.map((f) => `${f.rule} ${f.tool} ${f.key}`), noEvidence: json.stats.no_evidence_calls, calls: json.stats.foreign_calls };
  }

  it.each(INPUTS)('%s held as an array or an int: the call after it has no evidence, not a guess', (_, make) => {
    for (const input of held) expect(run([first, make(input)])).toEqual({ findings: [], noEvidence: 1, calls: 1 });
  });

  it('input messages or a prompt as text cut off by the emitter, or JSON of another shape (a list of message texts): not read either, so no evidence', () => {
    for (const key of ['gen_ai.input.messages', 'ai.prompt.messages', 'ai.prompt']) {
      for (const input of [asText.slice(0, 60), JSON.stringify([asText]), '3']) expect(run([first, model({ [key]: input })]), key).toEqual({ findings: [], noEvidence: 1, calls: 1 });
    }
    // ADK's request, Logfire's chat request and Agents input items, cut off.
    for (const key of ['gcp.vertex.agent.llm_request', 'request_data', 'raw_input']) expect(run([first, model({ [key]: asText.slice(0, 60) })]), key).toEqual({ findings: [], noEvidence: 1, calls: 1 });
    // Logfire's `events` cut off (before any mark of a call: no call not read), its messages sent not read either.
    expect(run([first, model({ events: asText.slice(0, 60) })])).toEqual({ findings: [], noEvidence: 1, calls: 1 });
  });

  it('the same input as text: the zone is the user\'s (no finding); without the zone in it, a guess (the controls)', () => {
    expect(run([first, model({ 'gen_ai.input.messages': asText })])).toEqual({ findings: [], noEvidence: 0, calls: 1 });
    const silent = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Book a room for Tuesday' }] }]);
    expect(run([first, model({ 'gen_ai.input.messages': silent })])).toEqual({ findings: ['assumption_span book_room timezone'], noEvidence: 0, calls: 1 });
  });

  it('a call made before the span that held it is judged as before: a guess there is still reported', () => {
    const earlier = model({ 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Book a room for Tuesday' }] }]) });
    const later = { name: 'chat gpt-4o', attrs: { 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': held[1]! } };
    expect(run([earlier, later])).toEqual({ findings: ['assumption_span book_room timezone'], noEvidence: 0, calls: 1 });
  });

  it("a run's input held so (an OpenInference chain span's input.value), and a tool span's arguments held so, differ: only the first is input", () => {
    const chain: SpanSpec = { name: 'AgentExecutor', attrs: { 'openinference.span.kind': 'CHAIN', 'input.value': held[1]! } };
    expect(run([first, chain, model({ 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Book a room for Tuesday' }] }]) })])).toEqual({ findings: [], noEvidence: 1, calls: 1 });
    const tool: SpanSpec = { name: 'lookup', attrs: { 'openinference.span.kind': 'TOOL', 'tool.name': 'lookup', 'input.value': held[1]! } };
    expect(run([first, tool, model({ 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Book a room for Tuesday' }] }]) })])).toEqual({ findings: ['assumption_span book_room timezone'], noEvidence: 0, calls: 2 });
  });
});
