import { GenAiAttributes } from '@argspan/conventions';
import { ForeignArgumentRule, type ForeignEvent, type ForeignSpan } from './types.js';
import { MESSAGE_EVENT_NAMES, MessageEventAttributes, MessageEvents } from './message-events.js';
import { isObject } from './recognizers/attributes.js';
import { contentTexts, inputNotReadIn, isDeveloperRole, isNotText, mayHoldCall, parseJson, proposal, proposeCutOffOutput, proposeUnknownOutput, proposeUnknownShape, proposeUnreadableOutput, readGenAiMessages, unknownShapeText, type TraceEvidence } from './evidence.js';
import { everyCopy } from './span-json.js';

export { EVIDENCE_EVENT_NAMES, MESSAGE_EVENT_NAMES, MessageEventAttributes, MessageEvents } from './message-events.js';

/**
 * Where Strands Agents' per-message events hold a message's content blocks (JSON lists of
 * `{text}`, `{toolUse: {toolUseId, name, input}}`, `{toolResult: {toolUseId, content}}`): a
 * message event's `content`, a choice's `message`, an event loop cycle's choice's `tool.result`.
 * On its tool span, `gen_ai.tool.message`'s `content` is the call's input (an object, read by
 * the GenAI-conventions tool-span reader) and the choice's `message` its result.
 */
export const StrandsEventAttributes = {
  CONTENT: 'content',
  MESSAGE: 'message',
  TOOL_RESULT: 'tool.result',
  /** The call id on a tool span's events. */
  ID: 'id',
} as const;


/** The role each per-message event stands for, when its content names none. */
const EVENT_ROLES: Record<string, string> = {
  [MessageEvents.SYSTEM]: 'system',
  [MessageEvents.DEVELOPER]: 'system',
  [MessageEvents.SK_DEVELOPER]: 'system',
  [MessageEvents.USER]: 'user',
  [MessageEvents.ASSISTANT]: 'assistant',
  [MessageEvents.TOOL]: 'tool',
};

/**
 * Read a span's message events as evidence, as `gen_ai.input.messages` is read: the user's and
 * the developer's texts, tool results (with their call id where the message has one), and the
 * calls the model proposed in its completions or choices (never those repeated in a prompt's history).
 */
export function readMessageEvents(span: ForeignSpan, events: readonly ForeignEvent[], into: TraceEvidence): void {
  let position = 0;
  const propose = (attribute: string, message: unknown, calls?: unknown) => {
    for (const call of toolCallsOf(message, calls)) into.proposed.push(proposal(span, attribute, call.name, call.id, call.args, position++));
  };
  for (const event of events) {
    // (the other events the evidence reads — Claude Code's tool output — are their tool span's result, read with its call)
    if (!MESSAGE_EVENTS.has(event.name)) continue;
    if (event.shadowed && PROPOSING_EVENTS.has(event.name)) position = proposeEventCopies(span, event, position, into);
    // (an output held as another type than text: one call not read where it may be, not none;
    // a message sent to the model so held: input not read)
    if (event.nonText) {
      const proposing = PROPOSING_EVENTS.has(event.name);
      for (const key of event.nonText) {
        if (proposing && EVENT_OUTPUT_KEYS.has(key)) proposeUnreadableOutput(span, key, '', into, ForeignArgumentRule.NOT_TEXT, position++);
        else if (EVENT_INPUT_KEYS.has(key)) into.inputNotRead(span);
      }
    }
    if (event.name === MessageEvents.PROMPT) {
      const prompt = event.attrs.get(MessageEventAttributes.PROMPT);
      const messages = parseJson(prompt);
      if (Array.isArray(messages)) for (const m of messages) readMessage(m, undefined, MessageEventAttributes.PROMPT, span, into);
      else if (prompt !== undefined) into.user(prompt); // a text completion's prompt
    } else if (event.name === MessageEvents.COMPLETION) {
      const completions = parseJson(event.attrs.get(MessageEventAttributes.COMPLETION));
      for (const c of Array.isArray(completions) ? completions : []) propose(MessageEventAttributes.COMPLETION, isObject(c) && isObject(c.message) ? c.message : c);
    } else if (event.name === MessageEvents.OPERATION_DETAILS) {
      readGenAiMessages(span, into, event.attrs);
    } else if (event.name === MessageEvents.CHOICE) {
      const choice = parseJson(event.attrs.get(MessageEventAttributes.CONTENT));
      if (isObject(choice)) propose(MessageEventAttributes.CONTENT, choice.message, choice.tool_calls);
      else if (isNotText(choice)) proposeUnreadableOutput(span, MessageEventAttributes.CONTENT, '', into, ForeignArgumentRule.NOT_TEXT, position++);
      else {
        const proposed = readContentBlocks(event.attrs.get(StrandsEventAttributes.MESSAGE), 'assistant', StrandsEventAttributes.MESSAGE, span, into, position);
        position += proposed;
        readContentBlocks(event.attrs.get(StrandsEventAttributes.TOOL_RESULT), 'user', StrandsEventAttributes.TOOL_RESULT, span, into);
      }
    } else {
      const message = parseJson(event.attrs.get(MessageEventAttributes.CONTENT));
      if (isObject(message)) readMessage(message, EVENT_ROLES[event.name], MessageEventAttributes.CONTENT, span, into);
      else if (isNotText(message)) into.inputNotRead(span);
      else if (message === undefined) readContentBlocks(event.attrs.get(StrandsEventAttributes.CONTENT), EVENT_ROLES[event.name], StrandsEventAttributes.CONTENT, span, into);
    }
  }
}

/**
 * The attributes of the events that may hold the model's output (see {@link PROPOSING_EVENTS}): a
 * completion's list, a choice's message (the conventions', Strands'), the operation details'
 * output messages. One held as another type than text is read as one call not read.
 */
export const EVENT_OUTPUT_KEYS: ReadonlySet<string> = new Set([MessageEventAttributes.COMPLETION, MessageEventAttributes.CONTENT, StrandsEventAttributes.MESSAGE, GenAiAttributes.OUTPUT_MESSAGES]);

/**
 * The attributes of the events that hold what a model was told: a message's content (the
 * conventions', Strands'), a prompt's list, the operation details' input messages and system
 * instructions. One held as another type than text is input not read.
 */
export const EVENT_INPUT_KEYS: ReadonlySet<string> = new Set([MessageEventAttributes.CONTENT, StrandsEventAttributes.CONTENT, MessageEventAttributes.PROMPT, GenAiAttributes.INPUT_MESSAGES, GenAiAttributes.SYSTEM_INSTRUCTIONS]);

/** The events that record messages (of the events the evidence reads). */
const MESSAGE_EVENTS: ReadonlySet<string> = new Set(MESSAGE_EVENT_NAMES);
/** The events whose attributes hold the model's output (its calls proposed from them). */
const PROPOSING_EVENTS: ReadonlySet<string> = new Set([MessageEvents.COMPLETION, MessageEvents.CHOICE, MessageEvents.OPERATION_DETAILS]);

/**
 * An output event that writes a key twice with different values: the later copy is read as the
 * event (as ever), and every copy together is one unreadable call of the unnamed tool where they
 * may hold a call, as a span's arguments attribute written twice is: a secret path in the earlier
 * copy is still found, a call there counted as not checked. Returns the next position.
 */
function proposeEventCopies(span: ForeignSpan, event: ForeignEvent, position: number, into: TraceEvidence): number {
  for (const [key, earlier] of event.shadowed!) {
    const text = everyCopy(earlier, event.attrs.get(key));
    if (mayHoldCall(text)) proposeUnreadableOutput(span, key, text, into, ForeignArgumentRule.REPEATED_ATTRIBUTE, position++);
  }
  return position;
}

/**
 * A Strands message's content blocks (`text` in JSON, an array; text that is not JSON, the user's
 * or developer's words as they are): the user's and developer's text, tool results by call id, and the calls an assistant's message asks
 * for — proposed (numbered from `position`, returning how many) when `position` is given (a
 * choice: the model's output), else repeated (a prompt's history).
 */
function readContentBlocks(text: string | undefined, role: string | undefined, attribute: string, span: ForeignSpan, into: TraceEvidence, position?: number): number {
  const blocks = parseJson(text);
  if (!Array.isArray(blocks)) {
    // A task given as text (Strands' multi-agent spans): the user's words, as written.
    const plain = typeof blocks === 'string' ? blocks : blocks === undefined ? text : undefined;
    if (plain !== undefined && role === 'user') into.user(plain);
    else if (plain !== undefined && isDeveloperRole(role)) into.developer(plain);
    return 0;
  }
  let proposed = 0;
  for (const block of blocks) {
    if (!isObject(block)) continue;
    const use = block.toolUse;
    const result = block.toolResult;
    if (typeof block.text === 'string') {
      if (role === 'user') into.user(block.text);
      else if (isDeveloperRole(role)) into.developer(block.text);
    } else if (isObject(use)) {
      const id = typeof use.toolUseId === 'string' ? use.toolUseId : undefined;
      if (position === undefined) into.repeat(span, attribute, id);
      else into.proposed.push(proposal(span, attribute, use.name, id, use.input ?? {}, position + proposed++));
    } else if (isObject(result) && result.content !== undefined) {
      into.result(typeof result.toolUseId === 'string' ? result.toolUseId : undefined, result.content, span.startNs);
    }
  }
  return proposed;
}

/**
 * The span attribute Logfire's instrumentations (Pydantic AI's instrumentation format 1,
 * `logfire.instrument_openai`, its OpenAI Agents integration) write a model call's message events
 * in: one JSON list of `{"event.name": "gen_ai.user.message", role, content, …}` and
 * `{"event.name": "gen_ai.choice", message: {tool_calls}}`.
 */
export const EVENTS_ATTRIBUTE = 'events';

/**
 * Read the `events` attribute's list as the span events of the same names are read. Logfire's
 * Responses API events (pydantic/logfire, `llm_providers/openai.py`: `inputs_to_events`, then
 * `responses_output_events` appended when the response arrives) hold no `gen_ai.choice`: the
 * model's output is the run of `role: "assistant"` events that ends the list (every output event
 * is given that role), its tool calls the model's proposals; the assistant messages before it are
 * the history the request sent again. A request's input cannot end with a call still unanswered
 * (the API refuses it), so a call in that run is never an input's.
 */
export function readEventsAttribute(span: ForeignSpan, into: TraceEvidence): void {
  const value = span.attrs.get(EVENTS_ATTRIBUTE);
  const list = typeof value === 'string' ? parseJson(value) : undefined;
  if (list === undefined && typeof value === 'string') proposeCutOffOutput(span, EVENTS_ATTRIBUTE, value, into);
  if (!Array.isArray(list)) {
    // (the messages sent are in the same list: not read either)
    inputNotReadIn(typeof value === 'string' ? value : undefined, span, into);
    // (another shape, `{"events": […]}`, may hold the calls: one unreadable call where it may, not nothing)
    if (list !== undefined) proposeUnknownOutput(span, EVENTS_ATTRIBUTE, value as string, list, into);
    return;
  }
  const hasChoice = list.some((e) => isObject(e) && e['event.name'] === MessageEvents.CHOICE);
  let outputFrom = list.length;
  if (!hasChoice) while (outputFrom > 0 && isObject(list[outputFrom - 1]) && (list[outputFrom - 1] as Record<string, unknown>).role === 'assistant') outputFrom--;
  let position = 0;
  // (the whole text tested once, where an output message yielded no call: a text answer is not written out again)
  let marked: boolean | undefined;
  for (let i = 0; i < list.length; i++) {
    const e: unknown = list[i];
    const name = isObject(e) ? e['event.name'] : undefined;
    if (typeof name !== 'string') continue;
    if (name === MessageEvents.CHOICE || i >= outputFrom) {
      const event = e as Record<string, unknown>;
      const calls = name === MessageEvents.CHOICE ? toolCallsOf(event.message, event.tool_calls) : toolCallsOf(event);
      for (const call of calls) into.proposed.push(proposal(span, EVENTS_ATTRIBUTE, call.name, call.id, call.args, position++));
      // (an output message whose calls are in no field read — Anthropic's `tool_use` blocks — one unreadable call, not nothing)
      if (calls.length === 0 && (marked ??= mayHoldCall(value as string))) position = proposeUnknownShape(span, EVENTS_ATTRIBUTE, unknownShapeText(event), position, into);
    } else if (EVENT_ROLES[name] !== undefined) readMessage(e, EVENT_ROLES[name], EVENTS_ATTRIBUTE, span, into);
  }
}

/** The attributes in which Logfire's OpenAI integrations record a model call's request and response as the SDK's objects. */
export const LogfireOpenAiAttributes = {
  /** The OpenAI Agents integration's Responses span: the `Response` itself (`output`: its items, function calls among them). */
  RESPONSE: 'response',
  /**
   * `logfire.instrument_openai` (semconv version 1, its default): a chat completion's
   * `{message: {role, content, tool_calls}, usage}`; a streamed Responses API call's `Response`
   * (logfire 4.12 only: 4.13 put its output in `events`).
   */
  RESPONSE_DATA: 'response_data',
  /** `logfire.instrument_openai`: the chat completion request's body, `{model, messages, …}`. */
  REQUEST_DATA: 'request_data',
  /** The OpenAI Agents integration's Responses span: the request's input items (the conversation sent again). */
  RAW_INPUT: 'raw_input',
} as const;

/**
 * What Logfire's OpenAI integrations record as the SDK's own objects: the calls in a response
 * (`response` / `response_data`: a Responses API `Response`'s `function_call` items, named by their
 * `call_id`, or a chat completion message's `tool_calls`) are proposals — the same call in `events`
 * or `gen_ai.output.messages` too is found once, by call id and arguments, the others its copies;
 * a chat request's `messages` and an Agents request's `raw_input` are the conversation: the user's
 * and developer's words, tool results, and calls repeated.
 */
export function readLogfireOpenAiObjects(span: ForeignSpan, into: TraceEvidence): void {
  let position = 0;
  for (const attribute of [LogfireOpenAiAttributes.RESPONSE, LogfireOpenAiAttributes.RESPONSE_DATA]) {
    const value = span.attrs.get(attribute);
    const response = typeof value === 'string' ? parseJson(value) : undefined;
    if (response === undefined && typeof value === 'string') proposeCutOffOutput(span, attribute, value, into);
    if (!isObject(response)) continue;
    if (Array.isArray(response.output)) position = proposeResponseOutputCalls(span, attribute, response.output, position, into);
    else if (isObject(response.message)) {
      for (const call of toolCallsOf(response.message)) into.proposed.push(proposal(span, attribute, call.name, call.id, call.args, position++));
    }
  }
  const request = span.attrs.get(LogfireOpenAiAttributes.REQUEST_DATA);
  const body = typeof request === 'string' ? parseJson(request) : undefined;
  if (isObject(body) && Array.isArray(body.messages)) for (const m of body.messages) readMessage(m, undefined, LogfireOpenAiAttributes.REQUEST_DATA, span, into);
  // (a request cut off: what the model was told there is not read; one without messages, a Responses request, is read from `events`)
  else if (body === undefined) inputNotReadIn(typeof request === 'string' ? request : undefined, span, into);
  const rawInput = span.attrs.get(LogfireOpenAiAttributes.RAW_INPUT);
  const items = typeof rawInput === 'string' ? parseJson(rawInput) : undefined;
  if (Array.isArray(items)) for (const item of items) readResponsesInputItem(item, LogfireOpenAiAttributes.RAW_INPUT, span, into);
  // (cut off: not read; a plain input, `Runner.run(agent, "…")`, is the user's words in `events`)
  else if (items === undefined) inputNotReadIn(typeof rawInput === 'string' ? rawInput : undefined, span, into);
}

/**
 * Propose the calls of a Responses API `Response`'s `output` items recorded in `attribute`, numbered
 * from `position` (returns the next): its `function_call` items (`{type, id: "fc_…", call_id, name,
 * arguments}`), each named by its `call_id`, by which its output comes back (the item's own `id` is not the call's).
 */
export function proposeResponseOutputCalls(span: ForeignSpan, attribute: string, output: readonly unknown[], position: number, into: TraceEvidence): number {
  for (const item of output) {
    if (isObject(item) && item.type === 'function_call') {
      into.proposed.push(proposal(span, attribute, item.name, typeof item.call_id === 'string' ? item.call_id : undefined, item.arguments ?? undefined, position++));
    }
  }
  return position;
}

/**
 * One Responses API input item, recorded in `attribute`: a message (`{role, content}`), a call the
 * conversation repeats (`{type: "function_call", id: "fc_…", call_id, name, arguments}`, by its call
 * id, with its tool and arguments), or a call's output (`{type: "function_call_output", call_id, output}`).
 */
export function readResponsesInputItem(item: unknown, attribute: string, span: ForeignSpan, into: TraceEvidence): void {
  if (!isObject(item)) return;
  if (item.type === 'function_call') into.repeat(span, attribute, item.call_id, item.name, item.arguments);
  else if (item.type === 'function_call_output') {
    if (item.output !== undefined && item.output !== null) into.result(typeof item.call_id === 'string' ? item.call_id : undefined, item.output, span.startNs);
  } else if (item.type === undefined || item.type === 'message') readMessage(item, undefined, attribute, span, into);
}

/**
 * One chat message of a prompt (in attribute `attribute`): the user's and developer's words,
 * a tool's result, the calls an assistant message repeats (by id, with their tool and arguments,
 * as every reader records them). The assistant's own words assert nothing.
 */
function readMessage(m: unknown, eventRole: string | undefined, attribute: string, span: ForeignSpan, into: TraceEvidence): void {
  if (!isObject(m)) return;
  const role = typeof m.role === 'string' ? m.role.toLowerCase() : eventRole;
  if (role === 'assistant') for (const call of toolCallsOf(m)) into.repeat(span, attribute, call.id, call.name, call.args);
  if (role === 'user') contentTexts(m.content).forEach((t) => into.user(t));
  else if (isDeveloperRole(role)) contentTexts(m.content).forEach((t) => into.developer(t));
  else if (role === 'tool' && m.content !== undefined && m.content !== null) {
    const callId = m.tool_call_id ?? m.id;
    into.result(typeof callId === 'string' ? callId : undefined, m.content, span.startNs);
  }
}

/**
 * The tool calls of a completion message, in OpenAI's format: `{id, type: "function", function:
 * {name, arguments}}`, the arguments a JSON string or (Semantic Kernel .NET) an object. A choice
 * lists them in its message and again beside it (`calls`): the message's are read, else those.
 */
export function toolCallsOf(message: unknown, calls?: unknown): { name: unknown; id: string | undefined; args: unknown }[] {
  const list = isObject(message) && Array.isArray(message.tool_calls) && message.tool_calls.length > 0 ? message.tool_calls : calls;
  if (!Array.isArray(list)) return [];
  const out: { name: unknown; id: string | undefined; args: unknown }[] = [];
  for (const c of list) {
    if (!isObject(c)) continue;
    const fn = isObject(c.function) ? c.function : c;
    // OpenAI always sends the arguments (`"{}"` for none): absent, they were not recorded (the instrumentations leave them out with content capture off).
    out.push({ name: fn.name, id: typeof c.id === 'string' ? c.id : undefined, args: fn.arguments ?? undefined });
  }
  return out;
}
