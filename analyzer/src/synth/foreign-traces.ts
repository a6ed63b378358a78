import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { IdSource, attributes, resourceSpansLine, type AttrValue, type OtlpSpan } from './otlp-json.js';
import { rng } from './realistic.js';

/**
 * Synthetic traces in other libraries' shapes, for the analyzer's benchmark: agent runs of nine
 * emitters laid out as their recorded runs in fixtures/traces/foreign/ are — a root span, the
 * wrapper spans the emitter writes (steps, agent runs), a model span whose prompt holds the user's
 * request and whose output proposes the calls, tool spans with 5–20-leaf argument blobs, and the
 * model span that reads the results back (its prompt holds the whole exchange). Argument values:
 * some the user said, some copied from an earlier result, now and then one invented (a timezone,
 * an e-mail address: about one call in fifty, so the findings stay a small part of the work).
 */

const EMITTERS = ['genai-semconv', 'vercel-ai', 'openinference', 'openllmetry', 'pydantic-ai', 'google-adk', 'langsmith', 'langfuse', 'logfire'] as const;
type Emitter = (typeof EMITTERS)[number];
/** Emitters whose runs here record their conversation (`gen_ai.conversation.id`) or session (`session.id`). */
const RECORDS_CONVERSATION: ReadonlySet<Emitter> = new Set(['genai-semconv', 'openinference']);

const WORDS = 'the quarterly report for the berlin office needs the revised budget numbers and a summary of open hiring requests before friday afternoon please also check'.split(' ');
const CITIES = ['Berlin', 'Lisbon', 'Osaka', 'Toronto', 'Nairobi', 'Austin'];

function sentence(rand: () => number, words: number): string {
  let s = '';
  for (let i = 0; i < words; i++) s += (i ? ' ' : '') + WORDS[Math.floor(rand() * WORDS.length)]!;
  return s;
}

/** The most tool calls a run makes (each of its own tool). */
const MAX_CALLS = 3;

/** A tool's option fields in its schema's order (the most a call fills: 18 after `city` and `query`). */
type OptionField = readonly [key: string, kind: 'text' | 'number' | 'flag'];

/**
 * The schemas of the tools the runs call (`get_weather_{n}`, the n-th call of a run): a real tool's
 * calls follow its schema, so they share their keys, a call filling some of its fields. (A key
 * sequence drawn afresh per call would give nearly every call an object shape of its own, which no
 * agent's traces have; it made parsing the arguments 15–20 % of the classification, see
 * docs/benchmarks.md, fifth round.)
 */
const TOOL_OPTIONS: readonly (readonly OptionField[])[] = Array.from({ length: MAX_CALLS }, (_, tool) => {
  const rand = rng(7_001 + tool);
  return Array.from({ length: 18 }, (_, i): OptionField => {
    const r = rand();
    return r < 0.45 ? [`opt_${i + 2}`, 'text'] : r < 0.78 ? [`n_${i + 2}`, 'number'] : [`flag_${i + 2}`, 'flag'];
  });
});

/**
 * A tool call's arguments: 5–20 leaves, nested, some from the user text, the options the first of
 * its tool's fields; in about one call in fifty an invented value on a denylisted key (a timezone or
 * a recipient the user never gave).
 */
function toolArguments(rand: () => number, tool: number, city: string, userText: string, earlierReport: string | undefined): Record<string, unknown> {
  const leaves = 5 + Math.floor(rand() * 16);
  const args: Record<string, unknown> = { city, query: userText.slice(0, 40 + Math.floor(rand() * 60)) };
  // A value copied from the previous call's result (context-retrieved).
  if (earlierReport !== undefined) args.previous = earlierReport;
  const options: Record<string, unknown> = {};
  for (const [key, kind] of TOOL_OPTIONS[tool]!.slice(0, leaves - 2)) {
    options[key] = kind === 'text' ? sentence(rand, 1 + Math.floor(rand() * 4)) : kind === 'number' ? Math.floor(rand() * 1000) : rand() < 0.5;
  }
  args.options = options;
  const invented = rand();
  if (invented < 0.01) args.timezone = 'Europe/Berlin';
  else if (invented < 0.02) args.to = [`team-${leaves}@example.com`];
  return args;
}

interface Run {
  traceId: string;
  spans: OtlpSpan[];
  scope: string;
  /** Tool calls the run made (each executed by a tool span). */
  calls: number;
  /** The conversation it is a turn of, and the city its user named in the first turn. */
  conversation: Conversation;
}

interface Conversation {
  id: string;
  city: string;
}

/**
 * One agent run in the shape of `emitter`: a later turn of `conversationOf` when given, whose user
 * names no city (the first turn did, and the calls use it: the prompt holds only the new message,
 * as with the Responses API's `previous_response_id`), else the first of a conversation of its own.
 */
function agentRun(emitter: Emitter, ids: IdSource, rand: () => number, baseNs: bigint, conversationOf?: Conversation): Run {
  const traceId = ids.traceId();
  const drawn = CITIES[Math.floor(rand() * CITIES.length)]!;
  const city = conversationOf?.city ?? drawn;
  const userText = `${conversationOf ? 'And what about tomorrow?' : `What is the weather in ${city}?`} ${sentence(rand, 20 + Math.floor(rand() * 120))}`;
  const calls = 1 + Math.floor(rand() * MAX_CALLS);
  // The conversation (GenAI) or session (OpenInference) the run belongs to, where the library records one
  // (named by the trace number: the ids share their first half).
  const conversation = conversationOf?.id ?? `conversation-${traceId.slice(-16)}`;
  const spans: OtlpSpan[] = [];
  let t = 0;
  const span = (name: string, parent: string | undefined, attrs: Record<string, AttrValue | undefined>, durMs = 5): string => {
    const spanId = ids.spanId();
    const start = baseNs + BigInt(t) * 1_000_000n;
    t += durMs;
    spans.push({
      traceId,
      spanId,
      ...(parent ? { parentSpanId: parent } : {}),
      name,
      kind: 1,
      startTimeUnixNano: String(start),
      endTimeUnixNano: String(start + BigInt(durMs) * 1_000_000n),
      attributes: attributes(attrs),
    });
    return spanId;
  };
  const report = (i: number) => `${10 + i} degrees`;
  const toolCalls = Array.from({ length: calls }, (_, i) => ({
    id: `call_${traceId.slice(0, 8)}_${i}`,
    name: `get_weather_${i}`,
    args: toolArguments(rand, i, city, userText, i > 0 ? report(i - 1) : undefined),
  }));
  const result = (i: number) => JSON.stringify({ status: 'ok', report: `Sunny in ${city}, ${report(i)}` });
  const answer = `It is sunny in ${city}, ${report(calls - 1)}.`;
  const userMessage = { role: 'user', parts: [{ type: 'text', content: userText }] };
  const genAiInput = JSON.stringify([userMessage]);
  // What the model reads after the tools ran: the request, its own calls and their results.
  const genAiHistory = JSON.stringify([
    userMessage,
    { role: 'assistant', parts: toolCalls.map((c) => ({ type: 'tool_call', id: c.id, name: c.name, arguments: c.args })) },
    { role: 'tool', parts: toolCalls.map((c, i) => ({ type: 'tool_call_response', id: c.id, response: result(i) })) },
  ]);
  const genAiAnswer = JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: answer }] }]);
  // The same exchange as OpenInference's flattened messages.
  const oiHistory = (callId: (c: (typeof toolCalls)[number]) => string): Record<string, AttrValue> => {
    const m: Record<string, AttrValue> = { 'openinference.span.kind': 'LLM', 'llm.input_messages.0.message.role': 'user', 'llm.input_messages.0.message.content': userText, 'llm.input_messages.1.message.role': 'assistant' };
    toolCalls.forEach((c, j) => {
      m[`llm.input_messages.1.message.tool_calls.${j}.tool_call.id`] = callId(c);
      m[`llm.input_messages.1.message.tool_calls.${j}.tool_call.function.name`] = c.name;
      m[`llm.input_messages.1.message.tool_calls.${j}.tool_call.function.arguments`] = JSON.stringify(c.args);
      m[`llm.input_messages.${2 + j}.message.role`] = 'tool';
      m[`llm.input_messages.${2 + j}.message.tool_call_id`] = callId(c);
      m[`llm.input_messages.${2 + j}.message.content`] = result(j);
    });
    m['llm.output_messages.0.message.role'] = 'assistant';
    m['llm.output_messages.0.message.content'] = answer;
    return m;
  };
  const genAiOutput = JSON.stringify([{ role: 'assistant', parts: toolCalls.map((c) => ({ type: 'tool_call', id: c.id, name: c.name, arguments: c.args })) }]);
  const definitions = JSON.stringify(toolCalls.map((c) => ({ type: 'function', name: c.name, parameters: { type: 'object', properties: { city: { type: 'string' } } } })));
  let scope = 'gen_ai';
  switch (emitter) {
    case 'genai-semconv':
    case 'pydantic-ai': {
      scope = emitter === 'genai-semconv' ? 'gen_ai' : 'pydantic-ai';
      const root = span('invoke_agent weather', undefined, { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.conversation.id': conversation }, 1);
      // The AI SDK's GenAI telemetry wraps each step in a span of its own; Pydantic AI does not.
      const step = (n: number) => (emitter === 'genai-semconv' ? span(`step ${n}`, root, { 'gen_ai.operation.name': 'step' }, 1) : root);
      span('chat gpt-4', step(1), { 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': genAiInput, 'gen_ai.output.messages': genAiOutput, 'gen_ai.tool.definitions': definitions });
      toolCalls.forEach((c, i) =>
        span(emitter === 'genai-semconv' ? `execute_tool ${c.name}` : 'running tool', root, {
          'gen_ai.operation.name': emitter === 'genai-semconv' ? 'execute_tool' : undefined,
          'gen_ai.tool.name': c.name,
          'gen_ai.tool.call.id': c.id,
          [emitter === 'genai-semconv' ? 'gen_ai.tool.call.arguments' : 'tool_arguments']: JSON.stringify(c.args),
          [emitter === 'genai-semconv' ? 'gen_ai.tool.call.result' : 'tool_response']: result(i),
        }),
      );
      span('chat gpt-4', step(2), { 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': genAiHistory, 'gen_ai.output.messages': genAiAnswer, 'gen_ai.tool.definitions': definitions });
      break;
    }
    case 'vercel-ai': {
      scope = 'ai';
      const root = span('ai.generateText', undefined, { 'ai.prompt': JSON.stringify({ prompt: userText }) }, 1);
      span('ai.generateText.doGenerate', root, {
        'ai.prompt.messages': JSON.stringify([{ role: 'user', content: [{ type: 'text', text: userText }] }]),
        'ai.prompt.tools': toolCalls.map((c) => JSON.stringify({ type: 'function', name: c.name, parameters: { type: 'object' } })),
        'ai.response.toolCalls': JSON.stringify(toolCalls.map((c) => ({ toolCallId: c.id, toolName: c.name, input: c.args }))),
      });
      toolCalls.forEach((c, i) => span('ai.toolCall', root, { 'ai.toolCall.name': c.name, 'ai.toolCall.id': c.id, 'ai.toolCall.args': JSON.stringify(c.args), 'ai.toolCall.result': result(i) }));
      span('ai.generateText.doGenerate', root, {
        'ai.prompt.messages': JSON.stringify([
          { role: 'user', content: [{ type: 'text', text: userText }] },
          { role: 'assistant', content: toolCalls.map((c) => ({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: c.args })) },
          { role: 'tool', content: toolCalls.map((c, i) => ({ type: 'tool-result', toolCallId: c.id, toolName: c.name, output: { type: 'json', value: JSON.parse(result(i)) as unknown } })) },
        ]),
        'ai.prompt.tools': toolCalls.map((c) => JSON.stringify({ type: 'function', name: c.name, parameters: { type: 'object' } })),
        'ai.response.text': answer,
      });
      break;
    }
    case 'openinference': {
      scope = 'openinference.instrumentation.openai';
      // OpenInference's using_session puts the session id on every span.
      const session = { 'session.id': conversation };
      const root = span('agent', undefined, { ...session, 'openinference.span.kind': 'AGENT', 'input.value': userText }, 1);
      const llm: Record<string, AttrValue> = { ...session, 'openinference.span.kind': 'LLM', 'llm.input_messages.0.message.role': 'user', 'llm.input_messages.0.message.content': userText };
      toolCalls.forEach((c, j) => {
        llm[`llm.output_messages.0.message.tool_calls.${j}.tool_call.id`] = c.id;
        llm[`llm.output_messages.0.message.tool_calls.${j}.tool_call.function.name`] = c.name;
        llm[`llm.output_messages.0.message.tool_calls.${j}.tool_call.function.arguments`] = JSON.stringify(c.args);
      });
      span('ChatCompletion', root, llm);
      toolCalls.forEach((c, i) => span(c.name, root, { ...session, 'openinference.span.kind': 'TOOL', 'tool.name': c.name, 'tool.id': c.id, 'input.value': JSON.stringify(c.args), 'output.value': result(i) }));
      span('ChatCompletion', root, { ...session, ...oiHistory((c) => c.id) });
      break;
    }
    case 'openllmetry': {
      scope = 'traceloop.tracer';
      const root = span('weather.workflow', undefined, { 'traceloop.span.kind': 'workflow', 'traceloop.entity.input': JSON.stringify({ args: [userText], kwargs: {} }) }, 1);
      span('openai.chat', root, { 'gen_ai.input.messages': genAiInput, 'gen_ai.output.messages': genAiOutput });
      toolCalls.forEach((c, i) =>
        span(`${c.name}.tool`, root, { 'traceloop.span.kind': 'tool', 'traceloop.entity.name': c.name, 'traceloop.entity.input': JSON.stringify({ args: [], kwargs: c.args }), 'traceloop.entity.output': result(i) }),
      );
      span('openai.chat', root, { 'gen_ai.input.messages': genAiHistory, 'gen_ai.output.messages': genAiAnswer });
      break;
    }
    case 'google-adk': {
      scope = 'gcp.vertex.agent';
      const root = span('invocation', undefined, { 'openinference.span.kind': 'CHAIN', 'input.value': JSON.stringify({ new_message: { parts: [{ text: userText }], role: 'user' } }) }, 1);
      const agent = span('agent_run', root, { 'openinference.span.kind': 'AGENT', 'agent.name': 'weather_agent' }, 1);
      span('call_llm', agent, { 'llm.input_messages.0.message.role': 'user', 'llm.input_messages.0.message.contents.0.message_content.text': userText });
      toolCalls.forEach((c, i) =>
        span(`execute_tool ${c.name}`, agent, {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': c.name,
          'gen_ai.tool.call.id': `adk-${c.id}`,
          'gcp.vertex.agent.tool_call_args': JSON.stringify(c.args),
          'gcp.vertex.agent.tool_response': result(i),
        }),
      );
      span('call_llm', agent, oiHistory((c) => `adk-${c.id}`));
      break;
    }
    case 'langsmith': {
      scope = 'langsmith';
      const root = span('weather_agent', undefined, { 'langsmith.span.kind': 'chain', 'gen_ai.operation.name': 'chain', 'gen_ai.prompt': JSON.stringify({ question: userText }) }, 1);
      toolCalls.forEach((c, i) =>
        span(c.name, root, { 'langsmith.span.kind': 'tool', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.prompt': JSON.stringify({ input: c.args }), 'gen_ai.completion': result(i) }),
      );
      break;
    }
    case 'langfuse': {
      scope = 'langfuse-sdk';
      const root = span('weather run', undefined, { 'langfuse.observation.type': 'agent', 'langfuse.observation.input': userText }, 1);
      toolCalls.forEach((c, i) => span(c.name, root, { 'langfuse.observation.type': 'tool', 'langfuse.observation.input': JSON.stringify(c.args), 'langfuse.observation.output': result(i) }));
      break;
    }
    case 'logfire': {
      // Logfire's OpenAI Agents integration: spans named by their message template, the Responses
      // API's messages in its `events` list (the model's calls as assistant messages, as its
      // `responses_output_events` writes them), each function tool's run a `Function: {name}` span.
      scope = 'logfire.openai_agents';
      const logfireSpan = (template: string, parent: string | undefined, attrs: Record<string, AttrValue>, durMs?: number) =>
        span(template, parent, { 'logfire.msg_template': template, 'logfire.span_type': 'span', 'gen_ai.system': 'openai', ...attrs }, durMs);
      const assistantCalls = { 'event.name': 'gen_ai.assistant.message', role: 'assistant', tool_calls: toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })) };
      const asked = { 'event.name': 'gen_ai.user.message', content: userText, role: 'user' };
      const root = logfireSpan('Agent run: {name!r}', undefined, { name: 'weather_agent', 'logfire.msg': "Agent run: 'weather_agent'" }, 1);
      logfireSpan('Responses API with {gen_ai.request.model!r}', root, { 'gen_ai.operation.name': 'chat', events: JSON.stringify([asked, assistantCalls]) });
      toolCalls.forEach((c, i) => logfireSpan('Function: {name}', root, { 'logfire.msg': `Function: ${c.name}`, name: c.name, input: JSON.stringify(c.args), output: result(i), mcp_data: 'null' }));
      logfireSpan('Responses API with {gen_ai.request.model!r}', root, {
        'gen_ai.operation.name': 'chat',
        events: JSON.stringify([
          asked,
          assistantCalls,
          ...toolCalls.map((c, i) => ({ 'event.name': 'gen_ai.tool.message', role: 'tool', id: c.id, content: result(i), name: c.name })),
          { 'event.name': 'gen_ai.assistant.message', content: answer, role: 'assistant' },
        ]),
      });
      break;
    }
  }
  return { traceId, spans, scope, calls, conversation: { id: conversation, city } };
}

/**
 * Write about `spanTarget` spans of foreign agent runs to `file` as OTLP JSON lines (runs of all
 * nine emitters in turn, about 200 spans per line, one scope per line). Returns the spans and the
 * tool calls written (every call runs on a tool span: the analyzer must find exactly these).
 */
/**
 * Write about `spanTarget` spans of agent runs to `file` (OTLP JSON lines). With
 * `turnsPerConversation` above 1, that many runs in a row (of one emitter that records the
 * conversation or session) are the turns of one conversation, each its own trace.
 */
export async function writeForeignTraces(file: string, spanTarget: number, seed = 11, turnsPerConversation = 1): Promise<{ spans: number; calls: number }> {
  const rand = rng(seed);
  const ids = new IdSource(seed);
  const out = createWriteStream(file);
  let written = 0;
  let calls = 0;
  let run = 0;
  while (written < spanTarget) {
    const emitter = EMITTERS[run % EMITTERS.length]!;
    const batch: OtlpSpan[] = [];
    let scope = '';
    let conversation: Conversation | undefined;
    for (let turn = 0; batch.length < 200 && written + batch.length < spanTarget; turn++) {
      if (turn % turnsPerConversation === 0 || !RECORDS_CONVERSATION.has(emitter)) conversation = undefined;
      // (a conversation's turns one after another; one-turn runs keep the times the benchmark has always had)
      const r = agentRun(emitter, ids, rand, 1_764_460_800_000_000_000n + BigInt(run) * 1_000_000_000n + (turnsPerConversation > 1 ? BigInt(turn) * 100_000_000n : 0n), conversation);
      conversation = r.conversation;
      scope = r.scope;
      calls += r.calls;
      batch.push(...r.spans);
    }
    written += batch.length;
    run++;
    if (!out.write(resourceSpansLine('foreign-agent', scope, batch) + '\n')) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return { spans: written, calls };
}
