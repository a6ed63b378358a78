import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { collectEvidence, TraceEvidence } from './evidence.js';
import type { ForeignEvent, ForeignSpan } from './types.js';

// The message events' other shapes than the Semantic Kernel .NET fixtures': SK Python before
// January 2025 (`json.dumps([m.to_dict() …])`: arguments as a JSON string, plugin-qualified names,
// tool results with their call id), a text completion's prompt, and per-message events whose
// content names no role (Azure AI Inference).
const event = (name: string, attrs: Record<string, string>): ForeignEvent => ({ name, attrs: new Map(Object.entries(attrs)) });
const span = (events: ForeignEvent[]): ForeignSpan => ({
  traceId: 't', spanId: 's1', parentSpanId: null, name: 'chat.completions gpt-4o', startNs: 10n, endNs: 20n, recordedEndNs: 20n, scope: 'semantic_kernel', fileId: 1, attrs: new Map(), events,
});
const evidenceOf = (events: ForeignEvent[]) => {
  const into = new TraceEvidence();
  collectEvidence(span(events), into);
  return into;
};

describe('message events as evidence', () => {
  it('reads SK Python\'s gen_ai.content.prompt / .completion: user and system text, tool results by call id, proposed calls with string arguments', () => {
    const prompt = [
      { role: 'system', content: 'You are a weather bot.' },
      { role: 'user', content: 'Weather in Boston?' },
      { role: 'assistant', tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'MyPlugin-GetTime', arguments: '{}' } }] },
      { role: 'tool', content: '09:00', tool_call_id: 'call_0' },
    ];
    const completion = [{ role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'MyPlugin-GetCurrentWeather', arguments: '{"location": "Boston, MA"}' } }] }];
    const e = evidenceOf([
      event('gen_ai.content.prompt', { 'gen_ai.prompt': JSON.stringify(prompt) }),
      event('gen_ai.content.completion', { 'gen_ai.completion': JSON.stringify(completion) }),
    ]);
    expect([...e.assertedTexts]).toEqual(['You are a weather bot.', 'Weather in Boston?']);
    expect(e.sawUserText).toBe(true);
    expect(e.results).toEqual([{ callId: 'call_0', content: '09:00', atNs: 10n }]);
    // The history's call is repeated by id, with its tool and arguments (a copy is told by them where its id names no call).
    expect(e.repeated.map((r) => [r.attribute, r.callId, r.call])).toEqual([['gen_ai.prompt', 'call_0', { tool: 'MyPlugin-GetTime', args: '{}' }]]);
    // Only the completion's call is proposed; the history's is the model's earlier turn.
    expect(e.proposed.map((p) => [p.tool, p.callId, p.args, p.source])).toEqual([
      ['MyPlugin-GetCurrentWeather', 'call_1', { kind: 'blob', attribute: 'gen_ai.completion', text: '{"location": "Boston, MA"}', decode: {} }, 'model-output'],
    ]);
  });

  it('reads a text completion\'s prompt (plain text) as the user\'s words', () => {
    expect([...evidenceOf([event('gen_ai.content.prompt', { 'gen_ai.prompt': 'Summarise the incident in Boston.' })]).assertedTexts]).toEqual(['Summarise the incident in Boston.']);
  });

  it('takes the role from the event\'s name when the content names none, and a choice\'s calls from beside its message', () => {
    const e = evidenceOf([
      event('gen_ai.system.message', { 'gen_ai.event.content': JSON.stringify({ content: 'Be brief.' }) }),
      event('gen_ai.user.message', { 'gen_ai.event.content': JSON.stringify({ content: 'Book a table in Paris.' }) }),
      event('gen_ai.tool.message', { 'gen_ai.event.content': JSON.stringify({ content: 'ok', id: 'call_7' }) }),
      event('gen_ai.assistant.message', { 'gen_ai.event.content': JSON.stringify({ content: 'Which day?' }) }),
      event('gen_ai.choice', { 'gen_ai.event.content': JSON.stringify({ index: 0, finish_reason: 'tool_calls', message: { content: '' }, tool_calls: [{ id: 'call_8', type: 'function', function: { name: 'book', arguments: { city: 'Paris', time: '19:00' } } }] }) }),
    ]);
    expect([...e.assertedTexts]).toEqual(['Be brief.', 'Book a table in Paris.']);
    expect(e.results.map((r) => [r.callId, r.content])).toEqual([['call_7', 'ok']]);
    expect(e.proposed.map((p) => [p.tool, p.callId, p.args])).toEqual([['book', 'call_8', { kind: 'value', attribute: 'gen_ai.event.content', value: { city: 'Paris', time: '19:00' } }]]);
  });

  it('reads nothing from other events, or from content that is not JSON', () => {
    const e = evidenceOf([event('exception', { 'exception.message': 'Weather in Boston?' }), event('gen_ai.user.message', { 'gen_ai.event.content': 'not json' })]);
    expect([e.assertedTexts.size, e.results.length, e.proposed.length]).toEqual([0, 0, 0]);
  });

  it('reads Strands Agents\' content blocks: user text, a history\'s call repeated and its result, a choice\'s call proposed; not a tool span\'s input', () => {
    const e = evidenceOf([
      event('gen_ai.user.message', { content: JSON.stringify([{ text: 'Book a table in Paris.' }]) }),
      event('gen_ai.assistant.message', { content: JSON.stringify([{ toolUse: { toolUseId: 'tooluse_0', name: 'find', input: { city: 'Paris' } } }]) }),
      event('gen_ai.tool.message', { content: JSON.stringify([{ toolResult: { toolUseId: 'tooluse_0', status: 'success', content: [{ text: 'Chez Nous' }] } }]) }),
      event('gen_ai.choice', { finish_reason: 'tool_use', message: JSON.stringify([{ text: 'Booking.' }, { toolUse: { toolUseId: 'tooluse_1', name: 'book', input: { place: 'Chez Nous', time: '19:00' } } }]) }),
      // A tool span's event: the call's input (an object), not a result.
      event('gen_ai.tool.message', { role: 'tool', content: JSON.stringify({ place: 'Chez Nous' }), id: 'tooluse_1' }),
    ]);
    expect([...e.assertedTexts]).toEqual(['Book a table in Paris.']);
    expect(e.repeated.map((r) => [r.attribute, r.callId])).toEqual([['content', 'tooluse_0']]);
    expect(e.results.map((r) => [r.callId, r.content])).toEqual([['tooluse_0', '[{"text":"Chez Nous"}]']]);
    expect(e.proposed.map((p) => [p.tool, p.callId, p.args])).toEqual([['book', 'tooluse_1', { kind: 'value', attribute: 'message', value: { place: 'Chez Nous', time: '19:00' } }]]);
  });

  it('reads a Strands task or system prompt given as text (not JSON) as the user\'s or developer\'s words', () => {
    const e = evidenceOf([
      event('gen_ai.system.message', { content: JSON.stringify([{ text: 'Use UTC.' }]) }),
      event('gen_ai.user.message', { content: 'Plan the offsite in Lisbon.' }),
      event('gen_ai.tool.message', { content: 'ok', id: 'tooluse_2' }),
    ]);
    expect([...e.assertedTexts]).toEqual(['Use UTC.', 'Plan the offsite in Lisbon.']);
    expect(e.sawUserText).toBe(true);
  });

  it('reads gen_ai.client.inference.operation.details as the span attributes of its messages', () => {
    const e = evidenceOf([
      event('gen_ai.client.inference.operation.details', {
        'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: 'Be brief.' }]),
        'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Book a table in Paris.' }] }]),
        'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'book', arguments: { city: 'Paris' } }] }]),
      }),
    ]);
    expect([...e.assertedTexts]).toEqual(['Book a table in Paris.', 'Be brief.']);
    expect(e.proposed.map((p) => [p.tool, p.callId, p.args])).toEqual([['book', 'c1', { kind: 'value', attribute: 'gen_ai.output.messages', value: { city: 'Paris' } }]]);
  });
});

describe('AI SDK messages as evidence (one reader for the Vercel prompt, Mastra\'s, and GenAI messages left in the AI SDK\'s shape)', () => {
  const history = [
    { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: { city: 'Paris' } }, { type: 'tool-call', toolCallId: 'c0' }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'weather', output: { type: 'text', value: 'sunny' } }] },
  ];
  it('a history in ai.prompt.messages: the user\'s words, the calls repeated by id with their tool and arguments (an unnamed one by id), the results; nothing proposed', () => {
    const into = new TraceEvidence();
    collectEvidence({ ...span([]), scope: 'ai', attrs: new Map([['ai.prompt.messages', JSON.stringify(history)]]) }, into);
    expect([...into.assertedTexts]).toEqual(['Weather in Paris?']);
    expect(into.repeated.map((r) => [r.attribute, r.callId, r.call])).toEqual([
      ['ai.prompt.messages', 'c1', { tool: 'weather', args: { city: 'Paris' } }],
      ['ai.prompt.messages', 'c0', undefined],
    ]);
    expect(into.results.map((r) => [r.callId, r.content])).toEqual([['c1', 'sunny']]);
    expect(into.proposed).toEqual([]);
  });
});

describe('a Mastra 0.x model span\'s completion (gen_ai.completion) read as AI SDK parts: the calls the model asked for and the results its tools returned', () => {
  // The fixture's calculator run (mastra-otel-exporter-0.x-tool-calculator.json) as its parent model span records it when the
  // tool ran inside the model loop: the AI SDK's result of the step (`toolCalls`, `toolResults`), Mastra's stream chunks
  // (`payload`), or the response's messages (an assistant `tool-call`, a `tool` message's `tool-result`).
  const doc = JSON.parse(readFileSync(fileURLToPath(new URL('../../../fixtures/traces/foreign/mastra-otel-exporter-0.x-tool-calculator.json', import.meta.url)), 'utf8')) as {
    resourceSpans: { scopeSpans: { spans: { parentSpanId: string; attributes: { key: string; value: { stringValue?: string } }[] }[] }[] }[];
  };
  const tool = doc.resourceSpans[0]!.scopeSpans[0]!.spans[0]!;
  const attr = (key: string) => JSON.parse(tool.attributes.find((a) => a.key === key)!.value.stringValue!) as unknown;
  const [args, output, toolName] = [attr('gen_ai.tool.input'), attr('gen_ai.tool.output'), tool.attributes.find((a) => a.key === 'gen_ai.tool.name')!.value.stringValue!];
  const call = { type: 'tool-call', toolCallId: 'call_2plus2', toolName, args };
  const v4Result = { type: 'tool-result', toolCallId: 'call_2plus2', toolName, args, result: output };
  const messages = [
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_2plus2', toolName, input: args }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_2plus2', toolName, output: { type: 'json', value: output } }] },
  ];
  const completions = {
    'AI SDK v4 result (toolCalls, toolResults, response.messages)': { text: '', toolCalls: [call], toolResults: [v4Result], response: { messages } },
    'AI SDK v5 result (input, output)': { text: '', toolCalls: [{ ...call, args: undefined, input: args }], toolResults: [{ type: 'tool-result', toolCallId: 'call_2plus2', toolName, input: args, output }] },
    'Mastra stream chunks (payload)': {
      text: '',
      toolCalls: [{ type: 'tool-call', runId: 'r1', from: 'AGENT', payload: { toolCallId: 'call_2plus2', toolName, args } }],
      toolResults: [{ type: 'tool-result', runId: 'r1', from: 'AGENT', payload: { toolCallId: 'call_2plus2', toolName, args, result: output } }],
    },
    'the response\'s messages only': { text: '', response: { messages } },
    'a list of messages': messages,
  };
  it.each(Object.entries(completions))('%s: the call proposed once, its result the call\'s', (_, completion) => {
    const into = new TraceEvidence();
    const model: ForeignSpan = {
      ...span([]), spanId: tool.parentSpanId, scope: '@mastra/otel', events: undefined,
      attrs: new Map([['mastra.span.type', 'llm_generation'], ['gen_ai.prompt', JSON.stringify({ messages: [{ role: 'user', content: 'What is 2 + 2?' }] })], ['gen_ai.completion', JSON.stringify(completion)]]),
    };
    collectEvidence(model, into);
    expect([...into.assertedTexts]).toEqual(['What is 2 + 2?']);
    expect(into.proposed.map((p) => [p.tool, p.callId, p.args])).toEqual([['calculator', 'call_2plus2', { kind: 'value', attribute: 'gen_ai.completion', value: { expression: '2 + 2' } }]]);
    expect(into.results.map((r) => [r.callId, r.content])).toEqual([['call_2plus2', '{"result":4}']]);
  });
  it('a multi-step generation: the AI SDK lists the last step\'s calls only, the earlier steps\' are read from response.messages, each call once', () => {
    // (step 1 the fixture's call; step 2 another calculator call, the one `toolCalls` and `toolResults` list)
    const last = { type: 'tool-call', toolCallId: 'call_3times3', toolName, args: { expression: '3 * 3' } };
    const lastResult = { type: 'tool-result', toolCallId: 'call_3times3', toolName, args: last.args, result: { result: 9 } };
    const completion = {
      text: '', toolCalls: [last], toolResults: [lastResult],
      response: { messages: [...messages, { role: 'assistant', content: [last] }, { role: 'tool', content: [lastResult] }] },
    };
    const into = new TraceEvidence();
    collectEvidence({ ...span([]), spanId: tool.parentSpanId, scope: '@mastra/otel', events: undefined, attrs: new Map([['mastra.span.type', 'llm_generation'], ['gen_ai.completion', JSON.stringify(completion)]]) }, into);
    expect(into.proposed.map((p) => [p.callId, p.args.kind === 'value' ? p.args.value : undefined])).toEqual([['call_2plus2', { expression: '2 + 2' }], ['call_3times3', { expression: '3 * 3' }]]);
    expect(into.results.map((r) => [r.callId, r.content])).toEqual([['call_2plus2', '{"result":4}'], ['call_3times3', '{"result":9}']]);
  });
});

describe('an OpenInference LLM span\'s input.value, the request as sent: the calls its history repeats', () => {
  const llm = (input: unknown, kind = 'LLM'): TraceEvidence => {
    const into = new TraceEvidence();
    collectEvidence({ ...span([]), scope: '@arizeai/openinference-instrumentation-openai', events: undefined, attrs: new Map([['openinference.span.kind', kind], ['input.value', JSON.stringify(input)]]) }, into);
    return into;
  };
  const user = { role: 'user', content: 'Weather where I am?' };
  it('OpenAI\'s tool_calls and Anthropic\'s tool_use blocks: repeated by id with their tool and arguments; nothing proposed, no text read', () => {
    const openai = llm({ model: 'gpt-3.5-turbo', messages: [user, { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'getWeather', arguments: '{"location":"Boston"}' } }] }, { role: 'tool', tool_call_id: 'call_1', content: 'rainy' }] });
    const anthropic = llm({ model: 'claude-sonnet-4-6', messages: [user, { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'toolu_1', name: 'getWeather', input: { location: 'Boston' } }] }] });
    expect(openai.repeated.map((r) => [r.attribute, r.callId, r.call])).toEqual([['input.value', 'call_1', { tool: 'getWeather', args: '{"location":"Boston"}' }]]);
    expect(anthropic.repeated.map((r) => [r.attribute, r.callId, r.call])).toEqual([['input.value', 'toolu_1', { tool: 'getWeather', args: { location: 'Boston' } }]]);
    for (const e of [openai, anthropic]) {
      expect(e.proposed).toEqual([]);
      expect([...e.assertedTexts]).toEqual([]);
    }
    // Another span kind's input.value is read as its run's input, not here.
    expect(llm({ messages: [user, { role: 'assistant', tool_calls: [{ id: 'call_1', function: { name: 'getWeather', arguments: '{}' } }] }] }, 'TOOL').repeated).toEqual([]);
  });
});

describe('a run\'s input holding a conversation: the calls its model messages repeat', () => {
  const conversation = [
    { role: 'user', content: 'Weather where I am?' },
    { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'getWeather', arguments: '{"location":"Boston"}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: 'rainy' },
  ];
  const runs: Record<string, [string, string][]> = {
    'an OpenInference CHAIN span\'s input.value': [['openinference.span.kind', 'CHAIN'], ['input.value', JSON.stringify({ messages: conversation })]],
    'a LangSmith chain run\'s {"input": …}': [['langsmith.span.kind', 'chain'], ['gen_ai.prompt', JSON.stringify({ input: conversation })]],
    'a Langfuse span observation\'s input': [['langfuse.observation.type', 'span'], ['langfuse.observation.input', JSON.stringify(conversation)]],
  };
  it.each(Object.entries(runs))('%s: repeated by id with tool and arguments, in its attribute; the user\'s words and the result read, nothing proposed', (_, attrs) => {
    const into = new TraceEvidence();
    collectEvidence({ ...span([]), scope: 'qa', events: undefined, attrs: new Map(attrs) }, into);
    expect(into.repeated.map((r) => [r.attribute, r.callId, r.call])).toEqual([[attrs[1]![0], 'call_1', { tool: 'getWeather', args: '{"location":"Boston"}' }]]);
    expect([...into.assertedTexts]).toEqual(['Weather where I am?']);
    expect(into.results.map((r) => [r.callId, r.content])).toEqual([['call_1', 'rainy']]);
    expect(into.proposed).toEqual([]);
  });
});

describe('a run\'s input holding a Responses API item list (an openai-agents run): its function_call items repeat calls', () => {
  const items = [
    { role: 'user', content: 'Weather where I am?' },
    { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'getWeather', arguments: '{"location":"Boston"}', status: 'completed' },
    { type: 'function_call_output', call_id: 'call_1', output: 'rainy' },
  ];
  const runs: Record<string, [string, string][]> = {
    'an OpenInference AGENT span\'s input.value (a plain list)': [['openinference.span.kind', 'AGENT'], ['input.value', JSON.stringify(items)]],
    'a LangSmith chain run\'s {"input": …}': [['langsmith.span.kind', 'chain'], ['gen_ai.prompt', JSON.stringify({ input: items })]],
    'a list of calls only, no message': [['openinference.span.kind', 'CHAIN'], ['input.value', JSON.stringify(items.slice(1))]],
  };
  it.each(Object.entries(runs))('%s: repeated by call id with tool and arguments, in its attribute; the result read, nothing proposed', (name, attrs) => {
    const into = new TraceEvidence();
    collectEvidence({ ...span([]), scope: 'qa', events: undefined, attrs: new Map(attrs) }, into);
    expect(into.repeated.map((r) => [r.attribute, r.callId, r.call])).toEqual([[attrs[1]![0], 'call_1', { tool: 'getWeather', args: '{"location":"Boston"}' }]]);
    expect([...into.assertedTexts]).toEqual(name.includes('no message') ? [] : ['Weather where I am?']);
    expect(into.results.map((r) => [r.callId, r.content])).toEqual([['call_1', 'rainy']]);
    expect(into.proposed).toEqual([]);
  });
});
