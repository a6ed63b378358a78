import { GenAiAttributes } from '@argspan/conventions';
import type { InheritedResidency } from '@argspan/core';
import { ProvenanceIndex } from '@argspan/core/internal';
import { ForeignArgumentRule, type ForeignCall, type ForeignSpan } from './types.js';
import { completePrefixOfCutJson, textOfCutString } from './cut-json.js';
import { EVENTS_ATTRIBUTE, LogfireOpenAiAttributes, proposeResponseOutputCalls, readEventsAttribute, readLogfireOpenAiObjects, readMessageEvents, readResponsesInputItem, toolCallsOf } from './event-evidence.js';
import { firstStr, isObject, kindOf, str, UNNAMED_TOOL } from './recognizers/attributes.js';
import { afterClaudeLabel, isGeminiCliSpan } from './recognizers/coding-agents.js';
import { GenkitAttributes, GenkitSubtype, isGenkitRoot, isGenkitToolSpan } from './recognizers/genkit.js';
import { HaystackAttributes } from './recognizers/haystack.js';
import { LangfuseAttributes } from './recognizers/langfuse.js';
import { LangSmithAttributes, langSmithInputsHidden, langSmithOutputsHidden } from './recognizers/langsmith.js';
import { contentCut } from './recognizers/genai-semconv.js';
import { MastraAttributes, MastraSpanTypes } from './recognizers/mastra.js';
import { OpenInferenceAttributes } from './recognizers/openinference.js';
import { SpringAiAttributes } from './recognizers/spring-ai.js';
import { ClaudeCodeSpans, ClaudeCodeToolResult, CodingAgentAttributes, CodingAgentEvents, GeminiCliSpans, REDACTED_PROMPTS } from './coding-agent-events.js';
import { TraceloopAttributes } from './recognizers/openllmetry.js';
import { isVoltAgentSpan, VoltAgentAttributes, VoltAgentSpanType, zodDefaultsAsJsonSchema } from './recognizers/voltagent.js';

const PYDANTIC_ALL_MESSAGES = 'pydantic_ai.all_messages';
/** OpenLLMetry's flattened messages and functions (its `SpanAttributes.LLM_PROMPTS`, `LLM_COMPLETIONS`, `LLM_REQUEST_FUNCTIONS`). */
export const OpenLLMetryMessages = {
  PROMPTS: 'gen_ai.prompt.',
  COMPLETIONS: 'gen_ai.completion.',
  FUNCTIONS: 'llm.request.functions.',
} as const;
/** Google ADK's own model span (`call_llm`, tracer `gcp.vertex.agent`): Gemini's request and response as JSON. */
export const AdkModelCall = {
  REQUEST: 'gcp.vertex.agent.llm_request',
  RESPONSE: 'gcp.vertex.agent.llm_response',
} as const;
const VercelPrompt = {
  PROMPT: 'ai.prompt',
  MESSAGES: 'ai.prompt.messages',
  TOOLS: 'ai.prompt.tools',
  RESPONSE_TOOL_CALLS: 'ai.response.toolCalls',
} as const;

/**
 * Attribute keys evidence is read from (messages, prompts, system instructions, tool definitions),
 * besides the run inputs on spans a recogniser's key already marks.
 */
export const EVIDENCE_KEYS: readonly string[] = [
  GenAiAttributes.INPUT_MESSAGES,
  GenAiAttributes.OUTPUT_MESSAGES,
  GenAiAttributes.SYSTEM_INSTRUCTIONS,
  GenAiAttributes.TOOL_DEFINITIONS,
  PYDANTIC_ALL_MESSAGES,
  VercelPrompt.PROMPT,
  VercelPrompt.MESSAGES,
  VercelPrompt.RESPONSE_TOOL_CALLS,
  AdkModelCall.REQUEST,
  AdkModelCall.RESPONSE,
  EVENTS_ATTRIBUTE,
  ...Object.values(LogfireOpenAiAttributes),
  HaystackAttributes.LLM_INPUT,
  HaystackAttributes.LLM_OUTPUT,
  HaystackAttributes.AGENT_INPUT,
  HaystackAttributes.AGENT_OUTPUT,
  HaystackAttributes.COMPONENT_INPUT,
  HaystackAttributes.COMPONENT_OUTPUT,
  HaystackAttributes.CONFIRMATION_INPUT,
  HaystackAttributes.CONFIRMATION_OUTPUT,
  GenkitAttributes.INPUT,
  GenkitAttributes.OUTPUT,
];
/**
 * Families of flattened keys evidence is read from: OpenInference's messages and tool schemas, and
 * OpenLLMetry's own layout (`gen_ai.prompt.{i}.*`, `gen_ai.completion.{i}.*`, `llm.request.functions.{i}.*`,
 * what its instrumentations write unless told to follow the GenAI conventions).
 */
export const EVIDENCE_PREFIXES: readonly string[] = ['llm.input_messages.', 'llm.output_messages.', 'llm.tools.', ...Object.values(OpenLLMetryMessages)];
/** Coding agents' user prompts (log records read as spans): the user's words, `prompt`. */
const CODING_AGENT_PROMPTS: readonly string[] = [CodingAgentEvents.CLAUDE_CODE_USER_PROMPT, CodingAgentEvents.GEMINI_CLI_USER_PROMPT, CodingAgentEvents.QWEN_CODE_USER_PROMPT, CodingAgentEvents.CODEX_USER_PROMPT];
/** Span names evidence is read from where no attribute key tells them: coding agents' user prompts (log records read as spans, Claude Code's interaction spans), Claude Code's model requests. */
export const EVIDENCE_SPAN_NAMES: readonly string[] = [...CODING_AGENT_PROMPTS, ClaudeCodeSpans.INTERACTION, ClaudeCodeSpans.LLM_REQUEST];

/** Array-valued attributes evidence reads (the Vercel AI SDK's tools, one JSON string each). */
export const EVIDENCE_ARRAY_KEYS: readonly string[] = [VercelPrompt.TOOLS];

/** What a trace tells about who asserted the values its tool calls carry. Filled span by span. */
export class TraceEvidence {
  /** Text the user wrote (and the developer's system instructions: asserted, not invented). */
  readonly assertedTexts = new Set<string>();
  /** Whether any of it is the user's own words (else values found nowhere have no evidence either way). */
  sawUserText = false;
  /**
   * The start of the first span whose input (a prompt, input messages, a run's input, a message
   * event's content) is held as another type than text, or the end of the first tool run whose
   * result is not recorded: what was said there is not read, so from then on a value found nowhere
   * has no evidence either way, not the model's guess.
   */
  inputNotReadSinceNs: bigint | undefined;
  /** Tool input schemas by tool name (for schema defaults). */
  readonly toolSchemas = new Map<string, unknown>();
  /** Tool results the model saw, with the call they answer when known (by call id, or the tool span that returned it). */
  readonly results: { callId?: string; spanId?: string; content: string; atNs: bigint }[] = [];
  /** Tool calls a model proposed (its output messages). */
  readonly proposed: Omit<ForeignCall, 'emitter'>[] = [];
  /**
   * Tool calls a later prompt repeats in its history (the conversation sent again), by call id:
   * the attribute holding the copy, on the model span that sent it; with the call's tool and
   * arguments where the history records them (GenAI-conventions messages).
   */
  readonly repeated: { spanId: string; attribute: string; callId: string; call?: { tool: string; args: unknown } }[] = [];
  /**
   * Calls a person let run with other arguments than the model proposed (a human-in-the-loop
   * confirmation that changed them): the proposal of `tool` with `proposed` is the call that ran
   * with `ran`.
   */
  readonly changedBeforeRun: { tool: string; proposed: unknown; ran: unknown }[] = [];

  user(text: string): void {
    if (text.trim() === '') return;
    this.assertedTexts.add(text);
    this.sawUserText = true;
  }

  developer(text: string): void {
    if (text.trim() !== '') this.assertedTexts.add(text);
  }

  /** `span` holds an input not read, told to the model from `atNs` on (see {@link inputNotReadSinceNs}). */
  inputNotRead(span: ForeignSpan, atNs = span.startNs): void {
    if (this.inputNotReadSinceNs === undefined || atNs < this.inputNotReadSinceNs) this.inputNotReadSinceNs = atNs;
  }

  result(callId: string | undefined, content: unknown, atNs: bigint, spanId?: string): void {
    const json = typeof content === 'string' ? content : JSON.stringify(content);
    if (json === undefined || json === '') return;
    // (a value already parsed is not parsed again from its JSON)
    const entry: TraceEvidence['results'][number] = { content: unescapedJson(json, typeof content === 'string' ? undefined : content), atNs };
    if (callId !== undefined) entry.callId = callId;
    if (spanId !== undefined) entry.spanId = spanId;
    this.results.push(entry);
  }

  repeat(span: ForeignSpan, attribute: string, callId: unknown, tool?: unknown, args?: unknown): void {
    const named = typeof callId === 'string' && callId !== '';
    // (a history entry without an id — Google ADK for Go writes its parts so — is known by its tool and arguments: `callId` '')
    if (!named && (typeof tool !== 'string' || args === undefined)) return;
    this.repeated.push({ spanId: span.spanId, attribute, callId: named ? callId : '', ...(typeof tool === 'string' ? { call: { tool, args } } : {}) });
  }

  schema(tool: unknown, schema: unknown): void {
    if (typeof tool === 'string' && schema !== undefined && !this.toolSchemas.has(tool)) this.toolSchemas.set(tool, schema);
  }
}

/**
 * What a run's carried evidence holds at most: distinct texts (user and developer texts, tool
 * results) and their characters. Each value of a call is looked for in every text, so a run that
 * never ends (a session id an app sets once for all its users) would make each lookup slower; past
 * either limit the run starts afresh at its next trace: what was said before is then read from
 * that trace's own prompt only (an agent that sends the conversation again has it there), so a
 * value may be reported as a guess, never the other way round.
 */
export const RunEvidenceLimits = { TEXTS: 64, CHARS: 4 * 1024 * 1024 } as const;

/**
 * What the earlier traces of a run (a conversation or session recorded as a trace per turn) told:
 * their user and developer texts and tool results, indexed once and grown trace by trace, and
 * their tool schemas. A value a later trace's call carries that the user gave in an earlier turn is
 * the user's, not the model's guess; one copied out of an earlier turn's result is that result's,
 * and inherits its residency (an earlier read of `.env`).
 */
export class RunEvidence {
  /** The provenance index every trace of the run adds to and reads. */
  readonly index = new ProvenanceIndex();
  /** Tool input schemas by tool name, the first seen. */
  readonly toolSchemas = new Map<string, unknown>();
  /**
   * What the results of the run's calls pass on, by call id, as the last call under the id left it:
   * a call's result may be recorded only in a later trace (OpenAI's Responses API sends a tool's
   * output as the next turn's input), and a value copied out of it is still the secret it was.
   */
  readonly passedOn = new Map<string, InheritedResidency>();
  /**
   * Calls (tool and id, `callKey`) the model proposed in an earlier trace that held the user's
   * words, run by a tool span of a later one: what the user said is known for them there too.
   */
  readonly proposedWithUserText = new Set<string>();
  /** Coding agents' prompts (`prompt.id`, `prompt_id`) whose words an earlier trace of the run held, all read: what the user said is known for their calls. */
  readonly promptsWithUserText = new Set<string>();
  /** Texts and characters indexed so far (see {@link RunEvidenceLimits}). */
  private texts = 0;
  private chars = 0;
  private readonly asserted = new Set<string>();
  private readonly results = new Set<string>();

  /** Index an asserted text the run has not seen yet. */
  addAsserted(text: string): void {
    if (this.asserted.has(text)) return;
    this.asserted.add(text);
    this.texts++;
    this.chars += text.length;
    this.index.addUserText(text);
  }

  /** Whether a result is new to the run (a later prompt repeats the earlier results); counts it if so. */
  isNewResult(callId: string | undefined, content: string): boolean {
    const key = `${callId ?? ''}\u0000${content}`;
    if (this.results.has(key)) return false;
    this.results.add(key);
    this.texts++;
    this.chars += content.length;
    return true;
  }

  /** Whether the run's next trace starts afresh (see {@link RunEvidenceLimits}). */
  get full(): boolean {
    return this.texts > RunEvidenceLimits.TEXTS || this.chars > RunEvidenceLimits.CHARS;
  }
}

/**
 * Span attributes that hold a model's output, its calls inside, as one JSON text: one held as
 * another type than text (`ForeignSpan.nonText`) is one call of the unnamed tool, not read
 * (`arguments-not-text`), not none.
 */
export const OUTPUT_KEYS: readonly string[] = [GenAiAttributes.OUTPUT_MESSAGES, VercelPrompt.RESPONSE_TOOL_CALLS];

/**
 * Span attributes that hold what a model was told — the user's and the developer's words, the
 * conversation sent again, with the tools' results — as one JSON text (the run inputs that are
 * also a tool span's arguments are judged by the span's kind: `readRunInputs`). One held as another
 * type than text is input not read ({@link TraceEvidence.inputNotReadSinceNs}).
 */
export const INPUT_KEYS: readonly string[] = [
  GenAiAttributes.INPUT_MESSAGES,
  GenAiAttributes.SYSTEM_INSTRUCTIONS,
  PYDANTIC_ALL_MESSAGES,
  VercelPrompt.PROMPT,
  VercelPrompt.MESSAGES,
  AdkModelCall.REQUEST,
  LogfireOpenAiAttributes.REQUEST_DATA,
  LogfireOpenAiAttributes.RAW_INPUT,
];
const INPUT_KEY_SET: ReadonlySet<string> = new Set(INPUT_KEYS);

/**
 * Families of flattened input messages (OpenInference's, OpenLLMetry's): a key of one ending in a
 * message's text (`….content`, `….text`) held as another type than text is input not read.
 */
const INPUT_PREFIXES: readonly string[] = ['llm.input_messages.', OpenLLMetryMessages.PROMPTS];

/** Whether `key`, held as another type than text, is a flattened input message's text (see {@link INPUT_PREFIXES}). */
export function isFlattenedInputText(key: string): boolean {
  return (key.endsWith('content') || key.endsWith('.text')) && INPUT_PREFIXES.some((p) => key.startsWith(p));
}

/**
 * A user's words held whole in an attribute: the user's, unless the text is a JSON number or
 * boolean — an input held as another type than text, which the ClickHouse exporter writes as its
 * text (`3`, `true`) where DuckDB reads the type: no one's words, an input not read, alike in both.
 */
export function userText(text: string, span: ForeignSpan, into: TraceEvidence): void {
  if (NUMBER_OR_BOOLEAN.test(text)) inputNotReadIn(text, span, into);
  else into.user(text);
}

const NUMBER_OR_BOOLEAN = /^\s*(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false)\s*$/;

/** `text`, an input of `span` no reader could read (cut off, not JSON, another shape), is input not read, unless it is empty. */
export function inputNotReadIn(text: string | undefined, span: ForeignSpan, into: TraceEvidence): void {
  if (text !== undefined && text.trim() !== '') into.inputNotRead(span);
}

/** Read every kind of evidence a span may carry, whoever wrote it. */
export function collectEvidence(span: ForeignSpan, into: TraceEvidence): void {
  if (span.nonText) {
    for (const key of OUTPUT_KEYS) if (span.nonText.has(key)) proposeUnreadableOutput(span, key, '', into, ForeignArgumentRule.NOT_TEXT);
    for (const key of span.nonText) if (INPUT_KEY_SET.has(key) || isFlattenedInputText(key)) into.inputNotRead(span);
  }
  // Content its emitter cut to a size (Anthropic's SDKs drop a request's first message parts, the
  // user's words among them, and a result's last blocks): what the model was told is not all here.
  if (contentCut(span)) into.inputNotRead(span);
  readGenAiMessages(span, into);
  readOpenInferenceMessages(span, into);
  readOpenInferenceLlmOutput(span, into);
  readOpenInferenceLlmInput(span, into);
  readDspyPrediction(span, into);
  readOpenLLMetryMessages(span, into);
  readOpenLitToolArgs(span, into);
  readVercelPrompt(span, into);
  readAdkModelCall(span, into);
  readRunInputs(span, into);
  readLangfuseGenerationOutput(span, into);
  readLangSmithLlmOutput(span, into);
  readSpringAiToolDefinition(span, into);
  readMastraPrompt(span, into);
  readCrewAiCrew(span, into);
  readOpenInferenceToolSchema(span, into);
  if (span.events) readMessageEvents(span, span.events, into);
  readEventsAttribute(span, into);
  readLogfireOpenAiObjects(span, into);
  readCodingAgentPrompt(span, into);
  readClaudeCodeNewContext(span, into);
  readHaystack(span, into);
  readGenkit(span, into);
  readVoltAgent(span, into);
}

/**
 * A coding agent's user prompt (Claude Code's `claude_code.user_prompt`, Gemini CLI's
 * `gemini_cli.user_prompt` and Qwen Code's `qwen-code.user_prompt`, Codex CLI's `codex.user_prompt`, log records read as spans; Claude
 * Code's `claude_code.interaction` span's `user_prompt`): the user's text, unless the agent was told
 * not to record it (Claude Code writes `<REDACTED>` without `OTEL_LOG_USER_PROMPTS=1`, Codex CLI
 * `[REDACTED]` without `log_user_prompt = true`; Gemini CLI leaves it out without
 * `telemetry.logPrompts`): then the trace holds no user text.
 */
function readCodingAgentPrompt(span: ForeignSpan, into: TraceEvidence): void {
  const key =
    CODING_AGENT_PROMPTS.includes(span.name)
      ? CodingAgentAttributes.PROMPT
      : span.name === ClaudeCodeSpans.INTERACTION
        ? CodingAgentAttributes.CLAUDE_USER_PROMPT
        : undefined;
  if (key === undefined) return;
  const prompt = str(span, key);
  if (prompt !== undefined && !REDACTED_PROMPTS.has(prompt)) into.user(prompt);
}

/**
 * What detailed beta tracing records as new on Claude Code's spans (`new_context`): on its
 * interaction span the user's prompt (after a line `[USER PROMPT]`); on a model request the user's
 * texts (after `[USER]`) and the tools' results (after `[TOOL RESULT: {tool_use_id}]`), parted by a
 * line `---` between blank lines (see `ClaudeCodeSpans`). A part ends only where the next label
 * follows that line, and a result ends only at the next result: a result holding such a line and a
 * `[USER]` after it stays one result (its text still the tool's, never read as the user's words).
 */
function readClaudeCodeNewContext(span: ForeignSpan, into: TraceEvidence): void {
  if (span.name !== ClaudeCodeSpans.INTERACTION && span.name !== ClaudeCodeSpans.LLM_REQUEST) return;
  const context = str(span, ClaudeCodeToolResult.NEW_CONTEXT);
  if (context === undefined) return;
  if (span.name === ClaudeCodeSpans.INTERACTION) {
    const prompt = afterClaudeLabel(context, CLAUDE_USER_PROMPT_LINE);
    if (prompt !== undefined && !REDACTED_PROMPTS.has(prompt)) into.user(prompt);
    return;
  }
  const part = (from: number, to: number) => {
    const body = context.slice(from, to);
    const user = afterClaudeLabel(body, CLAUDE_USER_LINE);
    const result = afterClaudeLabel(body, ClaudeCodeToolResult.RESULT_LINE);
    if (user !== undefined) {
      if (!REDACTED_PROMPTS.has(user)) into.user(user);
    } else if (result !== undefined) {
      const label = body.slice(0, body.indexOf('\n'));
      into.result(label.endsWith(']') ? label.slice(ClaudeCodeToolResult.RESULT_LINE.length, -1) : undefined, result, span.startNs);
    }
  };
  let start = 0;
  for (const m of context.matchAll(CLAUDE_CONTEXT_PARTS)) {
    // (in a result, only the next result ends it)
    if (context.startsWith(ClaudeCodeToolResult.RESULT_LINE, start) && m[1] === CLAUDE_USER_LINE) continue;
    part(start, m.index);
    start = m.index + m[0].length;
  }
  part(start, context.length);
}

const CLAUDE_USER_PROMPT_LINE = '[USER PROMPT]';
const CLAUDE_USER_LINE = '[USER]';
/** A line `---` between blank lines before a part's label (the label captured). */
const CLAUDE_CONTEXT_PARTS = /\n\n---\n\n(?=(\[USER\]|\[TOOL RESULT: )[^\n]*\n)/g;

/**
 * Evidence recorded as JSON text (a tool's result, a run's input) as the words it holds: its keys
 * and scalars in document order, one a line, JSON's escapes undone. Matched as written, a value
 * after an escaped newline (`\nops@example.com`) or one Python's `json.dumps` wrote with `\u`
 * escapes (`Zo\u00eb`) would not be found in it, and a value the user or a tool gave would read
 * as the model's guess. Text without a backslash (or that is not JSON) is returned as it is: it reads
 * as the same words either way.
 */
export function unescapedJson(text: string, parsed?: unknown): string {
  if (!text.includes('\\')) return text;
  const value = parsed ?? parseJson(text);
  if (value === undefined) return text;
  const out: string[] = [];
  // Iterative, children pushed last-first so they come out in document order, each key before its value.
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') out.push(v);
    else if (typeof v === 'number' || typeof v === 'boolean') out.push(String(v));
    else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    else if (isObject(v)) {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) stack.push(v[keys[i]!], keys[i]);
    }
  }
  return out.join('\n');
}

/** `text` parsed as JSON, or undefined when it is absent or not JSON. */
export function parseJson(text: string | undefined): unknown {
  if (text === undefined || !mayBeJson(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Whether `text` may be JSON: its first character after JSON's whitespace can open a value. A run's
 * input is often the user's plain words; `JSON.parse` would throw on them, and a thrown error (its
 * stack captured) cost about as much as parsing a span.
 */
export function mayBeJson(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // space, tab, line feed, carriage return: the whitespace JSON skips before a value
    if (c === 32 || c === 9 || c === 10 || c === 13) continue;
    // { [ " - 0-9 t f n
    return c === 123 || c === 91 || c === 34 || c === 45 || (c >= 48 && c <= 57) || c === 116 || c === 102 || c === 110;
  }
  return false;
}

/**
 * A number or a flag where a message or instructions belong: no text of anyone's, so what it stood
 * for was not read (the ClickHouse exporter's text of a value held as another type parses to one).
 */
export const isNotText = (v: unknown): v is number | boolean => typeof v === 'number' || typeof v === 'boolean';

/**
 * A message role whose words are the developer's instructions: `system`, or `developer`, as
 * OpenAI's reasoning models and Responses API take the system prompt (and the emitters record it).
 */
export const isDeveloperRole = (role: unknown): boolean => role === 'system' || role === 'developer';

/** The types of a text part: the conventions' and most APIs' `text`, OpenAI's Responses API's `input_text` / `output_text`. */
const TEXT_PART_TYPES: ReadonlySet<unknown> = new Set([undefined, 'text', 'input_text', 'output_text']);

/** Text of a message's content: a string, or the text of its parts (`content` / `text` fields of text parts). */
export function contentTexts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  const out: string[] = [];
  for (const part of content) {
    if (typeof part === 'string') out.push(part);
    else if (isObject(part) && TEXT_PART_TYPES.has(part.type)) {
      const t = part.content ?? part.text;
      if (typeof t === 'string') out.push(t);
    }
  }
  return out;
}

/**
 * GenAI-conventions messages (`gen_ai.input.messages`, `gen_ai.output.messages`, Pydantic AI's
 * `pydantic_ai.all_messages`): `[{role, parts: [{type: text|tool_call|tool_call_response, …}]}]`;
 * `gen_ai.system_instructions`; `gen_ai.tool.definitions`. Read from the span's attributes, or
 * from `attrs`, those of an event of it that records them (`gen_ai.client.inference.operation.details`).
 * A message may keep OpenAI's fields beside its parts, as LiteLLM's OpenTelemetry integration
 * writes them: the calls in `tool_calls` (`{id, function: {name, arguments}}`, not parts) and a
 * tool's result as a `tool` message's text parts naming its call by `tool_call_id`.
 */
export function readGenAiMessages(span: ForeignSpan, into: TraceEvidence, attrs: ReadonlyMap<string, string | readonly string[]> = span.attrs): void {
  const get = (key: string) => {
    const v = attrs.get(key);
    return typeof v === 'string' ? v : undefined;
  };
  // (Gemini CLI's tool spans hold a call's request and its completed call under these keys: its recogniser reads them)
  const notMessages = isGeminiCliSpan(span) && !isGeminiCliSpan(span, GeminiCliSpans.LLM_CALL);
  for (const key of notMessages ? [] : [GenAiAttributes.INPUT_MESSAGES, PYDANTIC_ALL_MESSAGES, GenAiAttributes.OUTPUT_MESSAGES]) {
    const text = get(key);
    let messages = parseJson(text);
    const output = key === GenAiAttributes.OUTPUT_MESSAGES;
    // An output cut off at the emitter's size limit: read as far as it is whole, the call the cut went through from its arguments on.
    const cut = output && messages === undefined ? cutOutput(text) : undefined;
    if (cut) messages = cut.items;
    else if (output && messages === undefined) proposeUnreadableOutput(span, key, text, into);
    if (!Array.isArray(messages)) {
      // One message written for the list of one (the conventions' schema is a list; some emitters write the choice itself).
      if (isObject(messages) && Array.isArray(messages.parts)) messages = [messages];
      else {
        // Any other shape (`{"messages": […]}`, a list encoded twice) read as nothing would let its calls pass unseen.
        // (a JSON string is a list encoded twice only where it opens as JSON: else it is a text answer)
        if (output && messages !== undefined) proposeUnknownOutput(span, key, text!, messages, into);
        // An input cut off, not JSON or of another shape: what the model was told there is not read.
        else if (!output) inputNotReadIn(text, span, into);
        continue;
      }
    }
    let position = 0;
    const list = messages as unknown[];
    for (let mi = 0; mi < list.length; mi++) {
      const m = list[mi];
      if (!isObject(m)) {
        if (output) position = proposeUnknownShape(span, key, JSON.stringify(m) ?? '', position, into);
        else into.inputNotRead(span);
        continue;
      }
      const proposedBefore = into.proposed.length;
      const parts = Array.isArray(m.parts) ? m.parts : [];
      if (m.role === 'user' || isDeveloperRole(m.role)) {
        for (const t of [...contentTexts(parts), ...contentTexts(m.content)]) (m.role === 'user' ? into.user(t) : into.developer(t));
      }
      for (let pi = 0; pi < parts.length; pi++) {
        const p: unknown = parts[pi];
        if (!isObject(p)) {
          if (output) position = proposeUnknownShape(span, key, JSON.stringify(p) ?? '', position, into);
          continue;
        }
        // (the part the cut went through: the last one, left open)
        const cutPart = cut !== undefined && cut.openAt.length > PART_DEPTH && mi === cut.items.length - 1 && pi === parts.length - 1 ? cut : undefined;
        // Gemini's `Content` parts, as Gemini CLI records its model calls here: `{functionCall: {name, args, id}}`, `{functionResponse: {name, response, id}}`.
        const geminiCall = p.type === undefined ? p.functionCall : undefined;
        const geminiResponse = p.type === undefined ? p.functionResponse : undefined;
        if (isObject(geminiResponse)) into.result(typeof geminiResponse.id === 'string' ? geminiResponse.id : undefined, geminiResponse.response, span.startNs);
        else if (isObject(geminiCall)) {
          const id = typeof geminiCall.id === 'string' ? geminiCall.id : undefined;
          if (cutPart) into.proposed.push(cutProposal(span, key, geminiCall.name, id, cutPart, PART_DEPTH, PART_DEPTH + 2, geminiCall.args, position++));
          else if (output) into.proposed.push(proposal(span, key, geminiCall.name, id, geminiCall.args ?? {}, position++));
          else into.repeat(span, key, id, geminiCall.name, geminiCall.args);
        } else if (p.type === undefined && isGeminiTextPart(p)) continue;
        else if (p.type === 'tool_call_response') into.result(typeof p.id === 'string' ? p.id : undefined, p.response ?? p.result, span.startNs);
        else if (p.type === 'tool_call' && cutPart) into.proposed.push(cutProposal(span, key, p.name, typeof p.id === 'string' ? p.id : undefined, cutPart, PART_DEPTH, PART_DEPTH + 1, p.arguments, position++));
        else if (p.type === 'tool_call' && output) {
          into.proposed.push(proposal(span, key, p.name, typeof p.id === 'string' ? p.id : undefined, p.arguments ?? {}, position++));
        } else if (p.type === 'tool_call') into.repeat(span, key, p.id, p.name, p.arguments);
        else if (output && !NON_CALL_PART_TYPES.has(p.type)) {
          // (checks past the known types only: the common path never gets here)
          if (typeof p.type === 'string' && CALL_PART_TYPES.has(p.type.toLowerCase())) {
            const id = p.id ?? p.call_id;
            into.proposed.push(proposal(span, key, p.name, typeof id === 'string' ? id : undefined, p.arguments ?? p.args ?? p.input, position++));
          } else position = proposeUnknownShape(span, key, JSON.stringify(p), position, into);
        }
      }
      // A message the emitter left in the AI SDK's shape (`content` parts, no `parts`): Mastra 1.x
      // converts only messages whose every part is text, a tool call or a tool result, so one with
      // an image or a file keeps its `tool-call` / `tool-result` parts there.
      if (!Array.isArray(m.parts) && Array.isArray(m.content)) position = readAiSdkParts(m.content, span, key, output, position, into);
      // OpenAI's fields kept beside the parts (LiteLLM).
      for (const call of toolCallsOf(m)) {
        if (output) into.proposed.push(proposal(span, key, call.name, call.id, call.args, position++));
        else into.repeat(span, key, call.id, call.name, call.args);
      }
      if (m.role === 'tool' && typeof m.tool_call_id === 'string') for (const t of contentTexts(parts)) into.result(m.tool_call_id, t, span.startNs);
      // A message without parts that no known field yielded a call from (the older `function_call`, a call under another key).
      // (empty lists and nulls left out: `"tool_calls": []` holds no call)
      if (output && !Array.isArray(m.parts) && into.proposed.length === proposedBefore) position = proposeUnknownShape(span, key, unknownShapeText(m), position, into);
    }
  }
  const system = get(GenAiAttributes.SYSTEM_INSTRUCTIONS);
  if (system !== undefined) {
    const parsed = parseJson(system) ?? system;
    // Held as a number or a flag, the instructions were not read (as where the span holds them as another type than text).
    if (isNotText(parsed)) inputNotReadIn(system, span, into);
    else for (const t of contentTexts(parsed)) into.developer(t);
  }
  readToolDefinitions(parseJson(get(GenAiAttributes.TOOL_DEFINITIONS)), into);
}

/** The tools' schemas of a list of tool definitions (`gen_ai.tool.definitions`, a request's `tools`); anything else is no list. */
function readToolDefinitions(definitions: unknown, into: TraceEvidence): void {
  if (!Array.isArray(definitions)) return;
  for (const d of definitions) {
    // Chat-completions tools wrap the function: `{type: "function", function: {name, parameters}}`.
    // Gemini's tools (Gemini CLI): `{functionDeclarations: [{name, parametersJsonSchema}]}`.
    const declarations = isObject(d) ? d.functionDeclarations : undefined;
    if (Array.isArray(declarations)) {
      for (const g of declarations) if (isObject(g)) into.schema(g.name, g.parametersJsonSchema ?? g.parameters);
      continue;
    }
    const f = isObject(d) && isObject(d.function) ? d.function : d;
    if (isObject(f)) into.schema(f.name, bedrockSchema(f.parameters ?? f.inputSchema ?? f.input_schema));
  }
}


/**
 * The `tool-call` and `tool-result` parts of a message in the AI SDK's shape (`{type: "tool-call",
 * toolCallId, toolName, input}` (v5; v4 `args`), `{type: "tool-result", toolCallId, output: {type,
 * value}}` (v4 `result`)), recorded in `attribute`: an output's calls are proposals (numbered from
 * `position`; returns the next), an input's the history repeated (by id, with the tool and arguments
 * where the part names its tool), a result the call's.
 */
function readAiSdkParts(content: readonly unknown[], span: ForeignSpan, attribute: string, output: boolean, position: number, into: TraceEvidence): number {
  for (const p of content) {
    if (!isObject(p)) continue;
    const id = typeof p.toolCallId === 'string' ? p.toolCallId : undefined;
    if (p.type === 'tool-result') into.result(id, isObject(p.output) && 'value' in p.output ? p.output.value : (p.result ?? p.output), span.startNs);
    else if (p.type !== 'tool-call') continue;
    else if (!output) into.repeat(span, attribute, id, p.toolName, p.input ?? p.args);
    else into.proposed.push(proposal(span, attribute, p.toolName, id, p.input ?? p.args ?? {}, position++));
  }
  return position;
}

/**
 * A tool's input schema as Bedrock's Converse API (and Strands Agents' tool specs, in its
 * `gen_ai.tool.definitions`) wrap it, `{"json": {…schema}}`: the schema inside; any other as it is.
 */
export function bedrockSchema(schema: unknown): unknown {
  return isObject(schema) && isObject(schema.json) && schema.type === undefined && schema.properties === undefined ? schema.json : schema;
}

/**
 * A model's output `text` in `attribute` that does not parse (cut off at the emitter's attribute
 * length limit) and may hold calls: one call of an unnamed tool, its arguments the text,
 * unreadable (counted as not checked; a secret path or credential in it still found). Skipped, the
 * calls it held were never seen and the trace passed as clean. With `unreadable`, a text that does
 * parse, read as one text for that reason.
 */
export function proposeUnreadableOutput(span: ForeignSpan, attribute: string, text: string | undefined, into: TraceEvidence, unreadable?: string, position = 0): void {
  if (text === undefined) return;
  into.proposed.push({ ...proposal(span, attribute, undefined, undefined, text, position), args: { kind: 'blob', attribute, text, decode: unreadable === undefined ? { modelOutput: true } : { unreadable } } });
}

/** A list (of messages, of calls) cut off at the emitter's size limit: its items as far as they are whole (see `completePrefixOfCutJson`). */
interface CutOutput {
  items: unknown[];
  text: string;
  /** Where each container the cut left open opens: the list, its last message, that message's parts, its last part, … */
  openAt: number[];
  /** Where the first item or member the cut left with nothing whole starts. */
  restAt: number;
}

/** The end of an arguments member's name (Gemini's and the AI SDK's `args`, the conventions' `arguments`, the AI SDK's `input`), before its value opens. */
const ARGUMENTS_MEMBER_END = /"(?:args|arguments|input)"\s*:\s*$/;

/** An arguments member whose value is a string, to its opening quote: the last one in the text (the one the cut went through). */
const ARGUMENTS_STRING_OPENS = /"(?:args|arguments|input)"\s*:\s*"(?![\s\S]*"(?:args|arguments|input)"\s*:)/;

/** Depth of a message part in a list of messages (list, message, parts, part): where the cut leaves containers open past it, it went through that part. */
const PART_DEPTH = 3;
/** Depth of a call in a list of calls (the AI SDK's `ai.response.toolCalls`). */
const CALL_DEPTH = 1;

function cutOutput(text: string | undefined): CutOutput | undefined {
  const cut = text === undefined ? undefined : completePrefixOfCutJson(text);
  return cut && Array.isArray(cut.value) ? { items: cut.value, text: text!, openAt: cut.openAt, restAt: cut.restAt } : undefined;
}

/**
 * The call of a part the cut went through. Its arguments (the container at `argsDepth`), cut
 * too, are their text from where they open: a cut-off blob, its complete members read by key as
 * any argument and the rest one cut-off leaf. Complete arguments are read as they are (the cut
 * came after them); none (the cut came before them) make one cut-off leaf of the part's text.
 */
function cutProposal(span: ForeignSpan, attribute: string, tool: unknown, callId: string | undefined, cut: CutOutput, partDepth: number, argsDepth: number, args: unknown, position: number): Omit<ForeignCall, 'emitter'> {
  // (the container open there is the arguments only where their member opens it: another member of the part may be the one cut)
  const at = cut.openAt[argsDepth];
  if (at !== undefined && ARGUMENTS_MEMBER_END.test(cut.text.slice(Math.max(0, at - 32), at))) return proposal(span, attribute, tool, callId, cut.text.slice(at), position);
  if (args !== undefined) return proposal(span, attribute, tool, callId, args, position);
  // Arguments written as JSON text (the AI SDK's `input` since 5, OpenAI's `arguments`), cut inside it: that text, a cut-off blob.
  const member = ARGUMENTS_STRING_OPENS.exec(cut.text.slice(cut.openAt[partDepth]));
  const cutText = member ? textOfCutString(cut.text, cut.openAt[partDepth]! + member.index + member[0].length - 1) : undefined;
  if (cutText !== undefined) return proposal(span, attribute, tool, callId, cutText, position);
  return { ...proposal(span, attribute, tool, callId, undefined, position), args: { kind: 'blob', attribute, text: cut.text.slice(cut.openAt[partDepth]), decode: { unreadable: ForeignArgumentRule.TRUNCATED } } };
}

/**
 * A model output in `attribute` that does not parse, in an attribute that may hold the model's text
 * alone (not JSON, or JSON with no call): one unreadable call ({@link proposeUnreadableOutput}) where
 * it opens as JSON and may hold a call ({@link mayHoldCall}); a text answer, whole or cut off, is none.
 */
export function proposeCutOffOutput(span: ForeignSpan, attribute: string, text: string | undefined, into: TraceEvidence): void {
  if (text === undefined) return;
  const t = text.trimStart();
  if ((t.startsWith('{') || t.startsWith('[')) && mayHoldCall(text)) proposeUnreadableOutput(span, attribute, text, into);
}

/**
 * JSON structure that may hold a call: a key some library writes a call's arguments under
 * (`arguments`, `args`, `input`, Mastra's streamed `toolInput`), or a name calls are recorded by
 * (`tool_calls`, `function_call`, `functionCall`, `toolCalls`, `tool_use`, `tool_call`,
 * `tool-call`), as a key or a type. Its quote must not be escaped: a model's text answer that
 * mentions `"arguments":` is a JSON string, its quotes escaped, and is no call.
 */
const CALL_MARK = /(?<!\\)"(?:(?:arguments|args|input|toolInput)"\s*:|(?:tool_calls|toolCalls|function_call|functionCall|tool_use|tool_call|tool-call)")/;

/** Whether a model output's JSON `text` may hold a call ({@link CALL_MARK}). */
export const mayHoldCall = (text: string): boolean => CALL_MARK.test(text);

/** Part types of the conventions' messages (and the APIs' text parts) that hold no call of the model's to run. */
const NON_CALL_PART_TYPES: ReadonlySet<unknown> = new Set(['text', 'tool_call_response', 'reasoning', 'blob', 'file', 'uri', 'input_text', 'output_text', 'refusal', 'server_tool_call', 'server_tool_call_response']);
/** Part types that are the conventions' `tool_call` spelled as other APIs and emitters spell a call (OpenAI's Responses items, the AI SDK's parts), any case. */
const CALL_PART_TYPES: ReadonlySet<string> = new Set(['tool_call', 'tool-call', 'toolcall', 'function_call', 'function-call', 'functioncall', 'tool_use']);

const withoutEmpty = (_: string, v: unknown): unknown => (v === null || (Array.isArray(v) && v.length === 0) ? undefined : v);

/**
 * Part of a model's output, in `attribute`, whose shape no reader knows, as `text` (the attribute's, or
 * the part's JSON): one unreadable call of the unnamed tool when it may hold a call ({@link mayHoldCall}),
 * as a cut-off output is, so the calls it holds do not pass unseen; nothing for anything else (a text
 * answer). Returns the next position.
 */
export function proposeUnknownShape(span: ForeignSpan, attribute: string, text: string, position: number, into: TraceEvidence): number {
  if (!mayHoldCall(text)) return position;
  proposeUnreadableOutput(span, attribute, text, into, ForeignArgumentRule.OUTPUT_SHAPE_UNKNOWN, position);
  return position + 1;
}

/**
 * A whole model output `text` in `attribute` that parses (as `parsed`) in a shape its reader does not
 * know: one unreadable call where it may hold one ({@link proposeUnknownShape}). A JSON string is the
 * output encoded twice where it opens as JSON (read as its inner text); else it is a text answer, no call.
 */
export function proposeUnknownOutput(span: ForeignSpan, attribute: string, text: string, parsed: unknown, into: TraceEvidence): void {
  proposeUnknownShape(span, attribute, unknownShapeText(parsed, text), 0, into);
}

/**
 * The text of a parsed value whose shape no reader knows, to test for a call: a string's where it
 * opens as JSON (the value encoded twice), else none (a text answer); any other value's as
 * `written` (its text as recorded, or written out without nulls and empty lists).
 */
export function unknownShapeText(parsed: unknown, written: string | undefined = JSON.stringify(parsed, withoutEmpty)): string {
  if (typeof parsed === 'string') return OPENS_AS_JSON.test(parsed) ? parsed : '';
  return written ?? '';
}

/** Text that opens as a JSON object or list (a JSON string holding it is it encoded twice; other text is a text answer). */
const OPENS_AS_JSON = /^\s*[[{]/;

/**
 * A proposed call from a model span's output attribute `attribute`; `args` is the decoded value or a
 * JSON string. A call is one by its shape (a tool-call part, a `tool_calls` entry), named or not:
 * one whose name is missing, or not text, is the unnamed tool ({@link UNNAMED_TOOL}), so the secret its arguments
 * carry is still reported.
 */
export function proposal(span: ForeignSpan, attribute: string, tool: unknown, callId: string | undefined, args: unknown, position: number): Omit<ForeignCall, 'emitter'> {
  return {
    spanId: span.spanId,
    parentSpanId: span.parentSpanId,
    tool: typeof tool === 'string' ? tool : UNNAMED_TOOL,
    ...(callId !== undefined ? { callId } : {}),
    // No arguments at all (not `{}`): the library did not record them (content capture off).
    args: typeof args === 'string' || args === undefined ? { kind: 'blob', attribute, text: args, decode: {} } : { kind: 'value', attribute, value: args },
    atNs: span.endNs,
    source: 'model-output',
    position,
  };
}

const OI_MESSAGE = /^llm\.(input|output)_messages\.(\d+)\.message\.(.+)$/;
// (where that misses, any index: a call under `.x.` or `tool_calls.-1.` is read as one, not passed over)
const OI_MESSAGE_ANY_INDEX = /^llm\.(input|output)_messages\.()([^.]+)\.message\.(.+)$/;

/**
 * OpenInference's flattened messages: `llm.input_messages.{i}.message.{role,content,contents.{k}.
 * message_content.text,tool_call_id}`, `llm.output_messages.{i}.message.tool_calls.{j}.tool_call.
 * {id,function.name,function.arguments}`, and `llm.tools.{i}.tool.json_schema`.
 */
function readOpenInferenceMessages(span: ForeignSpan, into: TraceEvidence): void {
  const messages = new Map<string, Map<string, string>>();
  let written: Map<string, string> | undefined;
  for (const [key, value] of span.attrs) {
    // Every key read here starts with `llm.`: the rest of the span's attributes are passed over.
    if (typeof value !== 'string' || !key.startsWith('llm.')) continue;
    if (key.startsWith('llm.tools.') && key.endsWith('.tool.json_schema')) {
      const tool = parseJson(value);
      if (isObject(tool)) into.schema(tool.name ?? (isObject(tool.function) ? tool.function.name : undefined), tool.input_schema ?? tool.parameters ?? (isObject(tool.function) ? tool.function.parameters : undefined));
      continue;
    }
    const numbered = OI_MESSAGE.exec(key);
    const m = numbered ?? OI_MESSAGE_ANY_INDEX.exec(key);
    if (!m) continue;
    // (an index that is not digits is kept as written, for the call's attribute)
    const id = numbered ? `${m[1]}.${m[2]!.padStart(6, '0')}` : `${m[1]}.~${m[3]!}`;
    if (!numbered) (written ??= new Map()).set(id, m[3]!);
    let fields = messages.get(id);
    if (!fields) messages.set(id, (fields = new Map()));
    fields.set(numbered ? m[3]! : m[4]!, value);
  }
  let position = 0;
  for (const [id, fields] of [...messages].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const role = fields.get('role');
    const texts = [...fields].filter(([f]) => f === 'content' || /^contents\.\d+\.message_content\.text$/.test(f)).map(([, v]) => v);
    if (role === 'user') texts.forEach((t) => userText(t, span, into));
    else if (isDeveloperRole(role)) texts.forEach((t) => into.developer(t));
    else if (role === 'tool') for (const t of texts) into.result(fields.get('tool_call_id'), t, span.startNs);
    if (!id.startsWith('output')) {
      // A call the history repeats: only its id is read (`tool_calls.{j}.tool_call.id`).
      for (const [f, v] of fields) {
        if (f.startsWith('tool_calls.') && f.endsWith('.tool_call.id')) into.repeat(span, `llm.input_messages.${indexAsWritten(id, written)}.message.${f.slice(0, -'id'.length)}function.arguments`, v);
      }
      continue;
    }
    const calls = new Map<string, Map<string, string>>();
    const messagePrefix = `llm.output_messages.${indexAsWritten(id, written)}.message.`;
    for (const [f, v] of fields) {
      const c = /^tool_calls\.([^.]+)\.tool_call\.(.+)$/.exec(f);
      if (!c) continue;
      let call = calls.get(c[1]!);
      if (!call) calls.set(c[1]!, (call = new Map()));
      call.set(c[2]!, v);
    }
    // Each call recorded is one, named or not; arguments missing (or not text) were not recorded.
    for (const [j, call] of [...calls].sort(([a], [b]) => byIndex(a, b))) {
      const attribute = `${messagePrefix}tool_calls.${j}.tool_call.function.arguments`;
      into.proposed.push(proposal(span, attribute, call.get('function.name'), call.get('id'), call.get('function.arguments'), position++));
    }
  }
}


/** The index of a message id (`{input|output}.{index padded}`) as its keys write it: a number, or (`written`) what is not one. */
const indexAsWritten = (id: string, written: ReadonlyMap<string, string> | undefined): string => written?.get(id) ?? String(Number(id.slice(id.indexOf('.') + 1)));

/** Indexes in order: by value where both are numbers (`-1` too), else by text. */
function byIndex(a: string, b: string): number {
  const d = Number(a) - Number(b);
  return Number.isNaN(d) ? (a < b ? -1 : a > b ? 1 : 0) : d;
}

const OPENLLMETRY_FIELD = /^(?:gen_ai\.(prompt|completion)|llm\.request\.(functions))\.(\d+)\.(.+)$/;

/**
 * OpenLLMetry's flattened messages: `gen_ai.prompt.{i}.{role,content,tool_call_id}` (content a
 * string, or a list of parts as JSON), `gen_ai.completion.{i}.tool_calls.{j}.{id,name,arguments}`
 * (or the older `function_call.{name,arguments}`), and `llm.request.functions.{i}.{name,parameters}`.
 */
function readOpenLLMetryMessages(span: ForeignSpan, into: TraceEvidence): void {
  let groups: Map<string, Map<string, string>> | undefined;
  for (const [key, value] of span.attrs) {
    if (typeof value !== 'string' || !(key.startsWith('gen_ai.') || key.startsWith('llm.request.'))) continue;
    const m = OPENLLMETRY_FIELD.exec(key);
    if (!m) continue;
    const id = `${m[1] ?? m[2]}.${m[3]!.padStart(6, '0')}`;
    groups ??= new Map();
    let fields = groups.get(id);
    if (!fields) groups.set(id, (fields = new Map()));
    fields.set(m[4]!, value);
  }
  if (!groups) return;
  let position = 0;
  for (const [id, fields] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [kind, index] = id.split('.') as [string, string];
    if (kind === 'functions') {
      into.schema(fields.get('name'), parseJson(fields.get('parameters')));
      continue;
    }
    const role = fields.get('role');
    const content = fields.get('content');
    const texts = content === undefined ? [] : contentTexts(content.startsWith('[') ? (parseJson(content) ?? content) : content);
    if (kind === 'prompt') {
      if (role === 'user') texts.forEach((t) => userText(t, span, into));
      else if (isDeveloperRole(role)) texts.forEach((t) => into.developer(t));
      else if (role === 'tool' && content !== undefined) into.result(fields.get('tool_call_id'), content, span.startNs);
      for (const [f, v] of fields) {
        // A call the history repeats: only its id is read (`tool_calls.{j}.id`).
        if (f.startsWith('tool_calls.') && f.endsWith('.id')) into.repeat(span, `${OpenLLMetryMessages.PROMPTS}${Number(index)}.${f.slice(0, -'id'.length)}arguments`, v);
      }
      continue;
    }
    const prefix = `${OpenLLMetryMessages.COMPLETIONS}${Number(index)}.`;
    const calls = new Map<number, Map<string, string>>();
    for (const [f, v] of fields) {
      const c = /^tool_calls\.(\d+)\.(id|name|arguments)$/.exec(f);
      if (!c) continue;
      let call = calls.get(Number(c[1]));
      if (!call) calls.set(Number(c[1]), (call = new Map()));
      call.set(c[2]!, v);
    }
    // Each call recorded is one, named or not; arguments missing (or not text) were not recorded.
    for (const [j, call] of [...calls].sort(([a], [b]) => a - b)) {
      into.proposed.push(proposal(span, `${prefix}tool_calls.${j}.arguments`, call.get('name'), call.get('id'), call.get('arguments'), position++));
    }
    const fn = fields.get('function_call.name');
    const fnArgs = fields.get('function_call.arguments');
    if (fn !== undefined || fnArgs !== undefined) into.proposed.push(proposal(span, `${prefix}function_call.arguments`, fn, undefined, fnArgs, position++));
  }
}

/** Where OpenLIT's model spans record the calls the model asked for. */
export const OpenLitAttributes = {
  TOOL_ARGS: 'gen_ai.tool.args',
} as const;

/**
 * OpenLIT's model spans (`chat {model}`): the calls the model asked for, written whether or not
 * message content is captured — `gen_ai.tool.name`, `gen_ai.tool.call.id` and `gen_ai.tool.args`,
 * each the calls' values joined with `", "` (the arguments the model's JSON text, or a Python dict
 * as `str()` writes one). Each call is proposed with its name and id where the three lists pair up
 * (an id missing from the list leaves the ids unpaired: the calls are then matched by tool and
 * arguments); where the output messages hold the same call, the two are one call.
 */
function readOpenLitToolArgs(span: ForeignSpan, into: TraceEvidence): void {
  const joined = str(span, OpenLitAttributes.TOOL_ARGS);
  if (joined === undefined || str(span, GenAiAttributes.OPERATION_NAME) === 'execute_tool') return;
  const args = splitJoinedValues(joined);
  const names = str(span, GenAiAttributes.TOOL_NAME)?.split(', ') ?? [];
  const ids = str(span, GenAiAttributes.TOOL_CALL_ID)?.split(', ') ?? [];
  args.forEach((text, i) => {
    const name = names.length === args.length ? names[i] : undefined;
    const id = ids.length === args.length && ids[i] !== '' ? ids[i] : undefined;
    into.proposed.push(proposal(span, OpenLitAttributes.TOOL_ARGS, name, id, text, i));
  });
}

/**
 * Texts joined with `", "`, each a JSON or Python value: split where a `", "` stands outside every
 * bracket and string (so a `", "` inside an argument's text stays in it). Text that is not such a
 * list is one value.
 */
export function splitJoinedValues(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === ',' && depth === 0 && text[i + 1] === ' ') {
      parts.push(text.slice(from, i));
      from = i + 2;
      i++;
    }
  }
  parts.push(text.slice(from));
  // (a text that does not split into bracketed values — a bare string holding ", " — is one value)
  return parts.length > 1 && parts.every((p) => OPENS_AS_JSON.test(p)) ? parts : [text];
}

/**
 * The Vercel AI SDK's prompt and response: `ai.prompt` (`{system, prompt, messages}` as the call
 * was given them, `{system, messages}` from AI SDK 7's `@ai-sdk/otel`), `ai.prompt.messages` (text,
 * `tool-call` and `tool-result` parts), `ai.prompt.tools` (one JSON string per tool) and
 * `ai.response.toolCalls`. Since AI SDK 5 the `prompt` may be a list of messages rather than a
 * string, and the `system` a system message (`{role: "system", content}`) or a list of them.
 */
function readVercelPrompt(span: ForeignSpan, into: TraceEvidence): void {
  const promptText = str(span, VercelPrompt.PROMPT);
  const prompt = parseJson(promptText);
  // (a prompt cut off, not JSON or of another shape: what the model was told there is not read)
  if (!isObject(prompt)) inputNotReadIn(promptText, span, into);
  if (isObject(prompt)) {
    if (typeof prompt.prompt === 'string') into.user(prompt.prompt);
    else readVercelMessages(prompt.prompt, VercelPrompt.PROMPT, span, into);
    for (const system of Array.isArray(prompt.system) ? prompt.system : [prompt.system]) {
      if (typeof system === 'string') into.developer(system);
      else if (isObject(system)) contentTexts(system.content).forEach((t) => into.developer(t));
    }
    readVercelMessages(prompt.messages, VercelPrompt.PROMPT, span, into);
  }
  const messagesText = str(span, VercelPrompt.MESSAGES);
  const messages = parseJson(messagesText);
  if (!Array.isArray(messages) || !messages.every(isObject)) inputNotReadIn(messagesText, span, into);
  readVercelMessages(messages, VercelPrompt.MESSAGES, span, into);
  const tools = span.attrs.get(VercelPrompt.TOOLS);
  for (const t of Array.isArray(tools) ? tools : typeof tools === 'string' ? [tools] : []) {
    const tool = parseJson(t);
    if (isObject(tool)) into.schema(tool.name, tool.parameters ?? tool.inputSchema);
  }
  const callsText = str(span, VercelPrompt.RESPONSE_TOOL_CALLS);
  let calls = parseJson(callsText);
  // (cut off at an attribute length limit: read as far as it is whole, the call the cut went through from its arguments on)
  const cut = calls === undefined ? cutOutput(callsText) : undefined;
  if (cut) calls = cut.items;
  else if (calls === undefined) {
    proposeUnreadableOutput(span, VercelPrompt.RESPONSE_TOOL_CALLS, callsText, into);
    return;
  }
  // (one call written for the list of one is the list; any other shape, or an entry that is not a
  // call object — a call encoded as text — one unreadable call where it may hold one, not nothing)
  const list = Array.isArray(calls) ? calls : isObject(calls) && 'toolName' in calls ? [calls] : undefined;
  if (list === undefined) proposeUnknownOutput(span, VercelPrompt.RESPONSE_TOOL_CALLS, callsText!, calls, into);
  list?.forEach((c, position) => {
    const id = isObject(c) && typeof c.toolCallId === 'string' ? c.toolCallId : undefined;
    // (the call the cut went through: the last, left open)
    if (isObject(c) && cut !== undefined && cut.openAt.length > CALL_DEPTH && position === list.length - 1) {
      into.proposed.push(cutProposal(span, VercelPrompt.RESPONSE_TOOL_CALLS, c.toolName, id, cut, CALL_DEPTH, CALL_DEPTH + 1, c.args ?? c.input, position));
    } else if (isObject(c)) into.proposed.push(proposal(span, VercelPrompt.RESPONSE_TOOL_CALLS, c.toolName, id, c.args ?? c.input ?? {}, position));
    else proposeUnknownShape(span, VercelPrompt.RESPONSE_TOOL_CALLS, unknownShapeText(c, JSON.stringify(c)), position, into);
  });
  // (a call the cut left with nothing whole, after the whole ones: one call of the unnamed tool, not read — not none)
  if (cut !== undefined && cut.openAt.length === CALL_DEPTH && cut.text.includes('{', cut.restAt)) {
    into.proposed.push({
      ...proposal(span, VercelPrompt.RESPONSE_TOOL_CALLS, undefined, undefined, undefined, cut.items.length),
      args: { kind: 'blob', attribute: VercelPrompt.RESPONSE_TOOL_CALLS, text: cut.text.slice(cut.restAt), decode: { unreadable: ForeignArgumentRule.TRUNCATED } },
    });
  }
}

function readVercelMessages(messages: unknown, attribute: string, span: ForeignSpan, into: TraceEvidence): void {
  if (!Array.isArray(messages)) return;
  for (const m of messages) {
    if (!isObject(m)) continue;
    if (m.role === 'user') contentTexts(m.content).forEach((t) => into.user(t));
    else if (isDeveloperRole(m.role)) contentTexts(m.content).forEach((t) => into.developer(t));
    // (the history sent again: its calls are repeated, never proposed)
    if (Array.isArray(m.content)) readAiSdkParts(m.content, span, attribute, false, 0, into);
  }
}

/**
 * Google ADK's model call, as ADK alone records it (`gcp.vertex.agent.llm_request` / `llm_response`,
 * Gemini's types, snake_case or camelCase): the user's text parts, the system instruction, the
 * function declarations (schemas), function responses (results), the function calls the history
 * repeats, and those the response asks for.
 */
function readAdkModelCall(span: ForeignSpan, into: TraceEvidence): void {
  const requestText = str(span, AdkModelCall.REQUEST);
  const request = parseJson(requestText);
  if (!isObject(request)) inputNotReadIn(requestText, span, into);
  else {
    const config = isObject(request.config) ? request.config : {};
    geminiTexts(config.system_instruction ?? config.systemInstruction).forEach((t) => into.developer(t));
    for (const tool of Array.isArray(config.tools) ? config.tools : []) {
      const declarations = isObject(tool) ? (tool.function_declarations ?? tool.functionDeclarations) : undefined;
      for (const f of Array.isArray(declarations) ? declarations : []) {
        if (isObject(f)) into.schema(f.name, f.parameters ?? f.parameters_json_schema ?? f.parametersJsonSchema);
      }
    }
    for (const content of Array.isArray(request.contents) ? request.contents : []) {
      if (!isObject(content) || !Array.isArray(content.parts)) continue;
      for (const part of content.parts) {
        if (!isObject(part)) continue;
        const response = part.function_response ?? part.functionResponse;
        const call = part.function_call ?? part.functionCall;
        if (isObject(response)) into.result(typeof response.id === 'string' ? response.id : undefined, response.response, span.startNs);
        else if (isObject(call)) into.repeat(span, AdkModelCall.REQUEST, call.id);
        else if (content.role === 'user' && typeof part.text === 'string') into.user(part.text);
      }
    }
  }
  const responseText = str(span, AdkModelCall.RESPONSE);
  const response = parseJson(responseText);
  if (response === undefined) proposeCutOffOutput(span, AdkModelCall.RESPONSE, responseText, into);
  const content = isObject(response) && isObject(response.content) ? response.content : undefined;
  const parts = content && Array.isArray(content.parts) ? content.parts : undefined;
  // A response in another shape, or a part that is neither a function call nor text, that may hold
  // a call is one unreadable call each, not nothing.
  if (response !== undefined && parts === undefined) proposeUnknownOutput(span, AdkModelCall.RESPONSE, responseText!, response, into);
  let position = 0;
  for (const part of parts ?? []) {
    const call = isObject(part) ? (part.function_call ?? part.functionCall) : undefined;
    if (isObject(call)) {
      into.proposed.push(proposal(span, AdkModelCall.RESPONSE, call.name, typeof call.id === 'string' ? call.id : undefined, call.args ?? {}, position++));
    } else if (!isGeminiTextPart(part)) position = proposeUnknownShape(span, AdkModelCall.RESPONSE, JSON.stringify(part) ?? '', position, into);
  }
}

/** Keys of a Gemini part that holds the model's text (or thought) and nothing else. */
const GEMINI_TEXT_PART_KEYS: ReadonlySet<string> = new Set(['text', 'thought', 'thought_signature', 'thoughtSignature']);

/**
 * A part of a Gemini response that is text only: no call in it (the common part, passed over
 * without being written out again). Any other part — a call under another key, a kind no reader
 * knows — is checked for what may be a call.
 */
function isGeminiTextPart(part: unknown): boolean {
  if (!isObject(part)) return false;
  for (const key in part) if (!GEMINI_TEXT_PART_KEYS.has(key) && part[key] !== null) return false;
  return true;
}

/** The texts of a Gemini system instruction: a string, a `Content` (`{parts: [{text}]}`), or a list of parts or strings. */
function geminiTexts(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  const parts = isObject(v) ? v.parts : v;
  return Array.isArray(parts) ? parts.flatMap((p) => (typeof p === 'string' ? [p] : isObject(p) && typeof p.text === 'string' ? [p.text] : [])) : [];
}

/**
 * The inputs of runs that are not tool calls, where the user's request is all a trace may hold:
 * an OpenInference AGENT or CHAIN span's `input.value`, a LangSmith chain or LLM run's
 * `gen_ai.prompt`, a Langfuse observation's input, an OpenLLMetry workflow's input. Also a LangSmith
 * tool run's output it hid: a result the model was told, not recorded.
 */
function readRunInputs(span: ForeignSpan, into: TraceEvidence): void {
  const oiKind = kindOf(span, OpenInferenceAttributes.SPAN_KIND);
  if (oiKind === 'agent' || oiKind === 'chain') runInput(dspyInputWithoutTrajectory(span) ?? str(span, OpenInferenceAttributes.INPUT_VALUE), OpenInferenceAttributes.INPUT_VALUE, span, into);
  const lsKind = kindOf(span, LangSmithAttributes.SPAN_KIND);
  // (a tool run's output LangSmith hid: what the model was told from its end on is not recorded)
  if (lsKind === 'tool' && langSmithOutputsHidden(span)) into.inputNotRead(span, span.endNs);
  if (lsKind !== undefined && lsKind !== 'tool') {
    const input = str(span, LangSmithAttributes.PROMPT);
    // (the `{}` of inputs LangSmith hid: what the run was told is not recorded)
    if (langSmithInputsHidden(span, input)) into.inputNotRead(span);
    else runInput(input, LangSmithAttributes.PROMPT, span, into);
  }
  const lfType = kindOf(span, LangfuseAttributes.OBSERVATION_TYPE);
  if (lfType !== undefined && lfType !== 'tool') runInput(str(span, LangfuseAttributes.INPUT), LangfuseAttributes.INPUT, span, into);
  if (kindOf(span, TraceloopAttributes.SPAN_KIND) === 'workflow') runInput(str(span, TraceloopAttributes.ENTITY_INPUT), TraceloopAttributes.ENTITY_INPUT, span, into);
}

/** OpenInference's DSPy instrumentation's tracer (`_ModuleForwardWrapper`: a module's `forward` is a CHAIN span `{Module}.forward`). */
const DSPY_SCOPE = 'openinference.instrumentation.dspy';

/**
 * A DSPy module span's input without ReAct's `trajectory`: the earlier steps' thoughts, the tool
 * names and arguments the model chose and their observations, as one text the agent builds. Read
 * as the user's words it would make every value the model chose in an earlier step (a guessed zone)
 * the user's. Undefined when the span is no DSPy module's or its input has no trajectory.
 */
function dspyInputWithoutTrajectory(span: ForeignSpan): string | undefined {
  if (span.scope !== DSPY_SCOPE || !span.name.endsWith('.forward')) return undefined;
  const text = str(span, OpenInferenceAttributes.INPUT_VALUE);
  if (text === undefined || !text.includes('"trajectory"')) return undefined;
  const input = parseJson(text);
  if (!isObject(input) || !('trajectory' in input)) return undefined;
  const { trajectory: _, ...rest } = input;
  return JSON.stringify(rest);
}

/**
 * The tool a DSPy ReAct step chose: its `Predict` module's output (`{"next_thought", "next_tool_name",
 * "next_tool_args"}`, recorded on the `Predict.forward` span and again on the inner
 * `Predict(StringSignature).forward`) is the model's proposal, without a call id. The tool's own
 * span (`{tool}.__call__`, its `{"kwargs"}` the same arguments) is the call it proposed, matched by
 * tool and arguments, so each call is counted once; a choice no tool span ran is a call of its own.
 */
function readDspyPrediction(span: ForeignSpan, into: TraceEvidence): void {
  if (span.scope !== DSPY_SCOPE || !span.name.startsWith('Predict') || !span.name.endsWith('.forward')) return;
  const text = str(span, OpenInferenceAttributes.OUTPUT_VALUE);
  if (text === undefined || !text.includes('"next_tool_name"')) return;
  const output = parseJson(text);
  if (isObject(output) && typeof output.next_tool_name === 'string' && isObject(output.next_tool_args)) {
    into.proposed.push(proposal(span, OpenInferenceAttributes.OUTPUT_VALUE, output.next_tool_name, undefined, output.next_tool_args, 0));
  }
}

/** The crew a CrewAI kickoff span records (OpenInference's `crewai` instrumentation, `_KickoffWrapper`). */
export const CrewAiAttributes = {
  /** `json.dumps` of the crew's tasks, `[{"id", "description", "expected_output", "context", …}]`. */
  TASKS: 'crew_tasks',
  /** `json.dumps` of the crew's agents, `[{"role", "goal", "backstory", …}]`. */
  AGENTS: 'crew_agents',
} as const;

/**
 * A CrewAI crew as OpenInference's `crewai` instrumentation records it on the kickoff span (a
 * CHAIN): the tasks' descriptions are the user's request — what a crew is asked to do is written
 * there, not in a prompt (the instrumentation records no model span, and the kickoff's
 * `input.value` is only its `inputs`, interpolated into the descriptions) — and their expected
 * outputs and the agents' roles, goals and backstories the developer's. Read as words, a value
 * a task names (`fetch text from http://…`) is the user's, not the model's guess.
 */
function readCrewAiCrew(span: ForeignSpan, into: TraceEvidence): void {
  if (kindOf(span, OpenInferenceAttributes.SPAN_KIND) !== 'chain') return;
  const tasks = parseJson(str(span, CrewAiAttributes.TASKS));
  if (Array.isArray(tasks)) {
    for (const task of tasks) {
      if (!isObject(task)) continue;
      if (typeof task.description === 'string') into.user(task.description);
      if (typeof task.expected_output === 'string') into.developer(task.expected_output);
    }
  }
  const agents = parseJson(str(span, CrewAiAttributes.AGENTS));
  if (Array.isArray(agents)) {
    for (const agent of agents) {
      if (!isObject(agent)) continue;
      for (const text of [agent.role, agent.goal, agent.backstory]) if (typeof text === 'string') into.developer(text);
    }
  }
}

/**
 * An OpenInference TOOL span's `tool.parameters` where it is the tool's JSON schema (CrewAI's
 * instrumentation: `args_schema.model_json_schema()`, `{"type": "object", "properties": …}`): its
 * defaults are the schema's, not the model's guesses. Most instrumentations write the call's
 * arguments there (or their types, AG2; smolagents the tool's `inputs`), never an object schema
 * with `properties`: those are not read.
 */
function readOpenInferenceToolSchema(span: ForeignSpan, into: TraceEvidence): void {
  if (kindOf(span, OpenInferenceAttributes.SPAN_KIND) !== 'tool') return;
  const schema = parseJson(str(span, OpenInferenceAttributes.TOOL_PARAMETERS));
  if (isObject(schema) && schema.type === 'object' && isObject(schema.properties)) into.schema(str(span, OpenInferenceAttributes.TOOL_NAME), schema);
}

/**
 * The tool's input schema Spring AI's tool-calling observation records beside the call
 * (`spring.ai.tool.definition.schema`, JSON text, by the tool's `spring.ai.tool.definition.name`):
 * its defaults are the schema's, not the model's guesses.
 */
function readSpringAiToolDefinition(span: ForeignSpan, into: TraceEvidence): void {
  const schema = str(span, SpringAiAttributes.TOOL_SCHEMA);
  if (schema !== undefined) into.schema(str(span, SpringAiAttributes.TOOL_NAME), parseJson(schema));
}

/**
 * A Mastra model span's prompt and output, as `@mastra/otel-exporter` writes them beside (1.x) or
 * instead of (0.x) the GenAI conventions' messages: the span's input as Mastra's JSON —
 * `gen_ai.prompt` (0.x), `mastra.model_generation.input` (1.x) —, `{"messages": [...]}` or a list of
 * messages, each in the AI SDK's shape (`{role, content}`, content a string or `text`, `tool-call` and
 * `tool-result` parts); its output as the generation's result ({@link readMastraCompletion}). 1.x
 * also writes each step's result (`model_step`) and each streamed call (`model_chunk`): the same
 * calls by the same ids, read as the model's requests so that each is known as a copy of its call
 * (a credential in them is the call's, reported once by argument). Read on spans that carry
 * `mastra.span.type` only: `gen_ai.prompt` is LangSmith's run input elsewhere.
 */
function readMastraPrompt(span: ForeignSpan, into: TraceEvidence): void {
  const type = str(span, MastraAttributes.SPAN_TYPE);
  if (type === undefined) return;
  const input = firstStr(span, [MastraAttributes.MODEL_PROMPT, MastraAttributes.GENERATION_INPUT]);
  const inputKey = input?.key ?? MastraAttributes.MODEL_PROMPT;
  if (span.nonText?.has(inputKey)) into.inputNotRead(span);
  const prompt = parseJson(input?.value);
  readVercelMessages(isObject(prompt) ? prompt.messages : prompt, inputKey, span, into);
  if (MastraSpanTypes.MODEL.has(type)) readMastraCompletion(span, firstStr(span, [MastraAttributes.MODEL_COMPLETION, MastraAttributes.GENERATION_OUTPUT])?.key ?? MastraAttributes.MODEL_COMPLETION, into);
  else if (type === MastraSpanTypes.STEP) readMastraCompletion(span, MastraAttributes.STEP_OUTPUT, into);
  else if (type === MastraSpanTypes.CHUNK) readMastraChunk(span, into);
  else if (type === MastraSpanTypes.AGENT_RUN) {
    // 0.x's generic `input`, 1.x's `mastra.agent_run.input`: one of them.
    const input = firstStr(span, [MastraAttributes.AGENT_INPUT, MastraAttributes.INPUT]);
    if (input) readMastraAgentInput(input.value, input.key, span, into);
  }
}

/**
 * A Mastra 0.x model span's output (`gen_ai.completion`, the generation's result as Mastra's JSON),
 * read as AI SDK parts: the calls the model asked for and the results its tools returned, listed
 * in the result (`toolCalls`, `toolResults`: the AI SDK's parts, v4 `args` / `result`, v5 `input` /
 * `output`, or Mastra's stream chunks, the part in `payload`: the last step's only) and in its
 * response messages (`messages`, `response.messages`, or a list of messages: `tool-call` and
 * `tool-result` parts, every step's), each call and result once, by call id.
 * Its text is the model's own words, not evidence.
 */
function readMastraCompletion(span: ForeignSpan, attribute: string, into: TraceEvidence): void {
  const text = str(span, attribute);
  const output = parseJson(text);
  if (output === undefined) {
    proposeCutOffOutput(span, attribute, text, into);
    return;
  }
  if (!isMastraResult(output)) {
    proposeUnknownOutput(span, attribute, text!, output, into);
    return;
  }
  const result = isObject(output) ? output : {};
  const listed = (list: unknown, type: string): Record<string, unknown>[] => (Array.isArray(list) ? list : []).map((c) => ({ ...(isObject(c) && isObject(c.payload) ? c.payload : isObject(c) ? c : {}), type }));
  const parts = [...listed(result.toolCalls, 'tool-call'), ...listed(result.toolResults, 'tool-result')];
  const messages = Array.isArray(output) ? output : Array.isArray(result.messages) ? result.messages : isObject(result.response) ? result.response.messages : undefined;
  const inMessages = (Array.isArray(messages) ? messages : []).flatMap((m) => (isObject(m) && Array.isArray(m.content) ? m.content : []));
  // The result lists the last step's calls and results only; its messages hold every step's. Each
  // part once, by its kind and call id: the earlier steps' from the messages, then the listed ones
  // (a part without an id the messages hold is read only where nothing is listed).
  const listedIds = new Set(parts.map((p) => `${p.type}\u0000${String(p.toolCallId)}`));
  const earlier = inMessages.filter((p) => isObject(p) && (parts.length === 0 || (typeof p.toolCallId === 'string' && !listedIds.has(`${p.type}\u0000${p.toolCallId}`))));
  readAiSdkParts([...earlier, ...parts], span, attribute, true, 0, into);
}

/**
 * A Mastra 1.x `model_chunk` span's output: a call the model streamed, `{toolName, toolCallId,
 * toolInput}`, read as its request; a chunk of text or reasoning holds none. A chunk that does not
 * parse is one unreadable call where it is a call's or may hold one ({@link proposeCutOffOutput}).
 */
function readMastraChunk(span: ForeignSpan, into: TraceEvidence): void {
  const text = str(span, MastraAttributes.CHUNK_OUTPUT);
  const chunk = parseJson(text);
  if (chunk === undefined) {
    // (cut before its input, a call's chunk is still one: its first key names the tool)
    if (text?.trimStart().startsWith(MASTRA_CALL_CHUNK)) proposeUnreadableOutput(span, MastraAttributes.CHUNK_OUTPUT, text, into);
    else proposeCutOffOutput(span, MastraAttributes.CHUNK_OUTPUT, text, into);
    return;
  }
  if (!isObject(chunk) || typeof chunk.toolName !== 'string') return;
  readAiSdkParts([{ type: 'tool-call', toolCallId: chunk.toolCallId, toolName: chunk.toolName, input: chunk.toolInput }], span, MastraAttributes.CHUNK_OUTPUT, true, 0, into);
}

/** How a Mastra 1.x chunk of a streamed call starts. */
const MASTRA_CALL_CHUNK = '{"toolName"';

/** The generation result's keys Mastra 0.x writes (the AI SDK's result): its text, calls, results, response messages. */
const MASTRA_RESULT_KEYS = ['text', 'toolCalls', 'toolResults', 'messages', 'response'];

/**
 * A Mastra model output in a shape {@link readMastraCompletion} reads: a list of messages, or the
 * generation's result, its calls and messages (where written) lists.
 */
function isMastraResult(output: unknown): boolean {
  if (Array.isArray(output)) return true;
  if (!isObject(output) || !MASTRA_RESULT_KEYS.some((k) => Object.hasOwn(output, k))) return false;
  const listOrNone = (v: unknown) => v === undefined || v === null || Array.isArray(v);
  return listOrNone(output.toolCalls) && listOrNone(output.toolResults) && listOrNone(output.messages) && (output.response === undefined || output.response === null || (isObject(output.response) && listOrNone(output.response.messages)));
}

/**
 * What a Mastra agent was asked (its `agent_run` span's input): the user's text (a string, or
 * strings), or messages in the AI SDK's shape (`{role, content}`, or a UI message's `parts`), or
 * `{messages}`. Anything else is the user's request as a whole.
 */
function readMastraAgentInput(text: string, attribute: string, span: ForeignSpan, into: TraceEvidence): void {
  const parsed = parseJson(text);
  if (parsed === undefined || typeof parsed === 'string') {
    into.user(typeof parsed === 'string' ? parsed : text);
    return;
  }
  const list = isObject(parsed) ? parsed.messages : parsed;
  if (!Array.isArray(list)) {
    userText(unescapedJson(text, parsed), span, into);
    return;
  }
  for (const m of list) {
    if (typeof m === 'string') into.user(m);
    else if (isObject(m) && m.role === 'user' && Array.isArray(m.parts)) contentTexts(m.parts).forEach((t) => into.user(t));
  }
  readVercelMessages(list, attribute, span, into);
}

/**
 * The calls a model asked for in a Langfuse generation's output (`langfuse.observation.type =
 * generation`): the assistant message its OpenAI integration records (`{role, content, tool_calls}`,
 * or the older `function_call`; a list of them for several choices), or LangChain's (its callback
 * handler). A call no tool observation ran is still the model's call with these values. An output
 * cut off, or a message in another shape that may hold a call, is one unreadable call.
 */
function readLangfuseGenerationOutput(span: ForeignSpan, into: TraceEvidence): void {
  if (kindOf(span, LangfuseAttributes.OBSERVATION_TYPE) !== 'generation') return;
  const text = str(span, LangfuseAttributes.OUTPUT);
  const output = parseJson(text);
  if (output === undefined) {
    proposeCutOffOutput(span, LangfuseAttributes.OUTPUT, text, into);
    return;
  }
  if (!isObject(output) && !Array.isArray(output)) {
    proposeUnknownOutput(span, LangfuseAttributes.OUTPUT, text!, output, into);
    return;
  }
  let position = 0;
  // (the whole text tested once, where a message yielded no call: a text answer has no mark, and is not written out again)
  let marked: boolean | undefined;
  for (const message of Array.isArray(output) ? output : [output]) {
    const before = position;
    position = proposeMessageCalls(span, LangfuseAttributes.OUTPUT, message, position, into);
    // (a message whose calls are in no field read here — Anthropic's `tool_use` blocks, another key — one unreadable call, not nothing)
    if (position === before && (marked ??= mayHoldCall(text!))) position = proposeUnknownShape(span, LangfuseAttributes.OUTPUT, unknownShapeText(message), position, into);
  }
}

/**
 * The calls a model asked for in a LangSmith LLM run's outputs (`langsmith.span.kind = llm`, its
 * `gen_ai.completion`).
 */
function readLangSmithLlmOutput(span: ForeignSpan, into: TraceEvidence): void {
  if (kindOf(span, LangSmithAttributes.SPAN_KIND) !== 'llm') return;
  const text = str(span, LangSmithAttributes.COMPLETION);
  const output = parseJson(text);
  if (output === undefined) proposeCutOffOutput(span, LangSmithAttributes.COMPLETION, text, into);
  else if (!proposeLlmOutputCalls(span, LangSmithAttributes.COMPLETION, output, into)) proposeUnknownOutput(span, LangSmithAttributes.COMPLETION, text!, output, into);
}

/**
 * The calls an OpenInference LLM span's `output.value` holds where it is the model call's whole
 * result: LangChain's `LLMResult` (OpenInference's LangChain instrumentation writes the run's
 * outputs there), a chat completion or a Responses API `Response` (the `openai` instrumentation),
 * or an Anthropic `Message` (its `tool_use` blocks; the `anthropic` instrumentation). The span's
 * `llm.output_messages.*` name the same calls (read first), so these are the copies of their
 * arguments, matched by call id and arguments; a call only this attribute records (output
 * messages not captured) is found here.
 */
function readOpenInferenceLlmOutput(span: ForeignSpan, into: TraceEvidence): void {
  if (kindOf(span, OpenInferenceAttributes.SPAN_KIND) !== 'llm') return;
  const text = str(span, OpenInferenceAttributes.OUTPUT_VALUE);
  // (only a result that can hold calls is parsed: most LLM spans' output is the model's text or another SDK's object)
  if (text === undefined || !(text.includes('"generations"') || text.includes('"choices"') || text.includes('"tool_use"') || text.includes('"function_call"'))) return;
  const output = parseJson(text);
  // (cut off, it is the only record of its calls where no `llm.output_messages.*` names them)
  if (output === undefined && ![...span.attrs.keys()].some((k) => k.startsWith('llm.output_messages.'))) proposeUnreadableOutput(span, OpenInferenceAttributes.OUTPUT_VALUE, text, into);
  proposeLlmOutputCalls(span, OpenInferenceAttributes.OUTPUT_VALUE, output, into);
}

/**
 * The calls an OpenInference LLM span's `input.value` repeats where it is the request as sent (the
 * `openai` instrumentations write the request body there: Python's and the JS instrumentations'
 * `JSON.stringify`): a chat request's history, whose assistant messages repeat the model's earlier
 * calls (OpenAI's `tool_calls`, Anthropic's `tool_use` blocks), or a Responses API request's `input`
 * items (a `function_call` item repeats a call, a `function_call_output` item is its result). By
 * call id, copies of those calls' arguments, as the span's `llm.input_messages.*` are; the
 * history's words are not read again (those messages hold them).
 */
function readOpenInferenceLlmInput(span: ForeignSpan, into: TraceEvidence): void {
  if (kindOf(span, OpenInferenceAttributes.SPAN_KIND) !== 'llm') return;
  const text = str(span, OpenInferenceAttributes.INPUT_VALUE);
  // (only a request that can repeat calls is parsed)
  if (text === undefined || !(text.includes('"tool_calls"') || text.includes('"tool_use"') || text.includes('"function_call"'))) return;
  const attribute = OpenInferenceAttributes.INPUT_VALUE;
  for (const m of conversationOf(parseJson(text)) ?? []) {
    if (m.role === 'responses item') readResponsesInputItem(m.content, attribute, span, into);
    else repeatModelCalls(m, attribute, span, into);
  }
}

/**
 * Propose the calls of a model call's result recorded in `attribute` (true when it is one of these
 * shapes, whether or not it holds a call): the chat completion
 * `wrap_openai` records (`choices[].message`), a Responses API `Response` (`output[]` items of
 * type `function_call`), LangChain's `LLMResult` (`generations[][].message`, an AIMessage
 * serialised: its fields in `kwargs`), or an Anthropic `Message` (`content[]` blocks
 * `{type: "tool_use", id, name, input}`), or an assistant message itself.
 */
function proposeLlmOutputCalls(span: ForeignSpan, attribute: string, output: unknown, into: TraceEvidence): boolean {
  if (!isObject(output)) return false;
  const known = Array.isArray(output.output) || (output.type === 'message' && Array.isArray(output.content)) || Array.isArray(output.choices) || Array.isArray(output.generations);
  // An assistant message itself (a run that returned the message, not the API's result).
  if (!known && isAssistantMessage(output)) {
    // (one whose calls are in no field read here, as the conventions' messages without parts are: one unreadable call)
    if (proposeMessageCalls(span, attribute, output, 0, into) === 0) proposeUnknownShape(span, attribute, unknownShapeText(output), 0, into);
    return true;
  }
  let position = Array.isArray(output.output) ? proposeResponseOutputCalls(span, attribute, output.output, 0, into) : 0;
  if (output.type === 'message' && Array.isArray(output.content)) {
    for (const b of output.content) {
      if (isObject(b) && b.type === 'tool_use') into.proposed.push(proposal(span, attribute, b.name, typeof b.id === 'string' ? b.id : undefined, b.input ?? {}, position++));
    }
  }
  const messages: unknown[] = [];
  for (const choice of Array.isArray(output.choices) ? output.choices : []) if (isObject(choice)) messages.push(choice.message);
  for (const generation of Array.isArray(output.generations) ? output.generations.flat() : []) {
    const message = isObject(generation) ? generation.message : undefined;
    messages.push(isObject(message) && isObject(message.kwargs) ? message.kwargs : message);
  }
  for (const message of messages) position = proposeMessageCalls(span, attribute, message, position, into);
  return known;
}

/** An object in the shape of an assistant message as OpenAI or LangChain write it: its calls in `tool_calls` or `function_call`. */
const isAssistantMessage = (v: Record<string, unknown>): boolean => Array.isArray(v.tool_calls) || isObject(v.function_call) || v.role === 'assistant';

/**
 * Propose the calls of one assistant message recorded in `attribute`, numbered from `position`
 * (returns the next): `tool_calls` in OpenAI's shape (`{id, type, function: {name, arguments}}`) or
 * LangChain's (`{name, args, id}`; its `additional_kwargs` repeat them in OpenAI's and are not read
 * again), or the older `function_call`.
 */
function proposeMessageCalls(span: ForeignSpan, attribute: string, message: unknown, position: number, into: TraceEvidence): number {
  if (!isObject(message)) return position;
  const extra = isObject(message.additional_kwargs) ? message.additional_kwargs : {};
  const calls = Array.isArray(message.tool_calls) && message.tool_calls.length > 0 ? message.tool_calls : extra.tool_calls;
  for (const c of Array.isArray(calls) ? calls : []) {
    const fn = isObject(c) && isObject(c.function) ? c.function : c;
    if (!isObject(c) || !isObject(fn)) continue;
    // (Langfuse's OpenAI integration writes an empty id for a legacy function call)
    const id = typeof c.id === 'string' && c.id !== '' ? c.id : undefined;
    into.proposed.push(proposal(span, attribute, fn.name, id, fn.arguments ?? fn.args ?? fn.input ?? {}, position++));
  }
  const legacy = message.function_call ?? extra.function_call;
  if (isObject(legacy)) into.proposed.push(proposal(span, attribute, legacy.name, undefined, legacy.arguments ?? {}, position++));
  return position;
}

/**
 * A run's input as evidence. Where it holds a conversation (a list of messages, or `messages` of
 * an object, as LangChain, LangGraph and the chat APIs write them), only the user's messages are
 * the user's words, the system's the developer's, a tool's message an earlier result: the
 * assistant's messages and tool calls are the model's own, and the calls they repeat are copies
 * of those calls' arguments (in `attribute`); so are a Responses item list's `function_call` items,
 * its `function_call_output` items results. Any other input is the user's request as a whole.
 */
function runInput(text: string | undefined, attribute: string, span: ForeignSpan, into: TraceEvidence): void {
  if (text === undefined) {
    // (held as another type than text: a run input not read)
    if (span.nonText?.has(attribute)) into.inputNotRead(span);
    return;
  }
  const parsed = parseJson(text);
  const messages = conversationOf(parsed);
  if (messages === undefined) {
    userText(unescapedJson(text, parsed), span, into);
    return;
  }
  readConversation(messages, attribute, span, into);
  // (a model request's tools beside its messages, as a Langfuse generation's input holds them: their schemas' defaults)
  if (isObject(parsed)) readToolDefinitions(parsed.tools, into);
}

/** A conversation's messages as evidence, recorded in `attribute` of `span` (see {@link runInput}). */
function readConversation(messages: readonly RunMessage[], attribute: string, span: ForeignSpan, into: TraceEvidence): void {
  for (const m of messages) {
    if (m.role === 'user') contentTexts(m.content).forEach((t) => into.user(t));
    else if (m.role === 'system') contentTexts(m.content).forEach((t) => into.developer(t));
    else if (m.role === 'tool') {
      into.result(m.callId, m.content, span.startNs);
      // (the call a Haystack result names as its origin: a copy of its arguments)
      for (const call of m.calls) if (call.args !== undefined) into.repeat(span, attribute, call.id, call.name, call.args);
    } else if (m.role === 'responses item') readResponsesInputItem(m.content, attribute, span, into);
    else repeatModelCalls(m, attribute, span, into);
  }
}

/**
 * The calls a model's message of a conversation recorded in `attribute` repeats (OpenAI's
 * `tool_calls`, LangChain's, Anthropic's `tool_use` blocks): by call id, copies of those calls'
 * arguments, so a credential in them is the call's argument, reported once.
 */
function repeatModelCalls(m: RunMessage, attribute: string, span: ForeignSpan, into: TraceEvidence): void {
  if (m.role !== 'model') return;
  for (const call of m.calls) into.repeat(span, attribute, call.id, call.name, call.args);
  for (const b of Array.isArray(m.content) ? m.content : []) if (isObject(b) && b.type === 'tool_use') into.repeat(span, attribute, b.id, b.name, b.input);
}

/**
 * A message of a run's input; `calls`: the tool calls a model's message holds (OpenAI's `tool_calls`, LangChain's).
 * A Responses API `function_call` or `function_call_output` item has no role: it is a `responses item`, its `content` the item.
 */
type RunMessage = { role: 'user' | 'system' | 'tool' | 'model' | 'responses item'; content: unknown; callId?: string; calls: ReturnType<typeof toolCallsOf> };

const MESSAGE_ROLES: Record<string, RunMessage['role']> = {
  user: 'user', human: 'user', humanmessage: 'user', humanmessagechunk: 'user',
  system: 'system', developer: 'system', systemmessage: 'system',
  tool: 'tool', function: 'tool', toolmessage: 'tool', functionmessage: 'tool',
  assistant: 'model', ai: 'model', model: 'model', aimessage: 'model', aimessagechunk: 'model',
};

/**
 * The messages of a conversation-shaped input: an array of messages (or of such arrays: LangSmith
 * writes a batch of prompts), or an object's `messages` or `input` list (under `inputs` where OpenLLMetry records
 * a LangChain chain's callback). A message is `{role|type, content}`, a
 * LangChain serialised message (`{lc, id: [..., 'HumanMessage'], kwargs: {content}}`), a
 * `[role, content]` pair, or a Responses API call or call output item. `undefined` when the input is not one (no element has a known role).
 */
function conversationOf(input: unknown): RunMessage[] | undefined {
  // OpenLLMetry's LangChain chain span records the callback: `{"inputs", "tags", "metadata", "kwargs"}`.
  if (isObject(input) && isObject(input.inputs) && ('metadata' in input || 'tags' in input)) return conversationOf(input.inputs);
  // (LangSmith records a traceable function's one argument as `{"input": …}`: a conversation there too)
  const list = isObject(input) ? (input.messages ?? (Array.isArray(input.input) ? input.input : undefined)) : input;
  if (!Array.isArray(list)) return undefined;
  const out: RunMessage[] = [];
  for (const item of list.flatMap((m: unknown) => (Array.isArray(m) && m.some((x) => isObject(x) || Array.isArray(x)) ? m : [m]))) {
    const m = runMessage(item);
    if (m) out.push(m);
  }
  return out.length > 0 ? out : undefined;
}

function runMessage(m: unknown): RunMessage | undefined {
  if (Array.isArray(m)) {
    const role = typeof m[0] === 'string' ? MESSAGE_ROLES[m[0].toLowerCase()] : undefined;
    return role && m.length === 2 ? { role, content: m[1], calls: [] } : undefined;
  }
  if (!isObject(m)) return undefined;
  // (an openai-agents run's input is a Responses item list: `to_input_list()`)
  if (m.type === 'function_call' || m.type === 'function_call_output') return { role: 'responses item', content: m, calls: [] };
  // LangChain's serialised form: the class names the role, the fields are in `kwargs`.
  const id: unknown = m.id;
  const serialised = Array.isArray(id) && isObject(m.kwargs) ? m.kwargs : undefined;
  const name: unknown = serialised && Array.isArray(id) ? id[id.length - 1] : (m.role ?? m.type);
  const role = typeof name === 'string' ? MESSAGE_ROLES[name.toLowerCase()] : undefined;
  if (!role) return undefined;
  const fields = serialised ?? m;
  // (Haystack's and Genkit's tool messages hold their results as parts, beside the call each answers: the result alone is the tool's)
  const results = role === 'tool' ? partResults(fields.content) : [];
  if (results.length > 0) {
    const callId = results.length === 1 ? results[0]!.origin.id : undefined;
    return { role, content: results.length === 1 ? results[0]!.result : results.map((r) => r.result), ...(callId !== undefined ? { callId } : {}), calls: results.map((r) => r.origin) };
  }
  const callId = fields.tool_call_id ?? fields.toolCallId;
  return { role, content: fields.content, ...(typeof callId === 'string' ? { callId } : {}), calls: role === 'model' ? [...toolCallsOf(fields), ...partCalls(fields.content)] : [] };
}

/**
 * The calls a message holds as content parts keyed by their kind: Haystack's (`ChatMessage.to_dict()`)
 * `{"tool_call": {tool_name, arguments, id}}`, Genkit's `{"toolRequest": {name, input, ref}}`.
 */
function partCalls(content: unknown): RunMessage['calls'] {
  const out: RunMessage['calls'] = [];
  for (const part of Array.isArray(content) ? content : []) {
    if (!isObject(part)) continue;
    const call = part.tool_call;
    if (isObject(call)) out.push({ name: call.tool_name, id: typeof call.id === 'string' ? call.id : undefined, args: call.arguments });
    const request = part.toolRequest;
    // (a request without input is a call with no arguments: Genkit leaves out what is undefined)
    if (isObject(request)) out.push({ name: request.name, id: typeof request.ref === 'string' ? request.ref : undefined, args: request.input ?? {} });
  }
  return out;
}

/**
 * The results a tool message holds as content parts, each with the call it answers: Haystack's
 * `{"tool_call_result": {result, origin: {the call}, error}}`, Genkit's `{"toolResponse": {name,
 * ref, output}}` (the call by its id only: `args` undefined).
 */
function partResults(content: unknown): { origin: RunMessage['calls'][number]; result: unknown }[] {
  const out: { origin: RunMessage['calls'][number]; result: unknown }[] = [];
  for (const part of Array.isArray(content) ? content : []) {
    if (!isObject(part)) continue;
    const r = part.tool_call_result;
    if (isObject(r)) {
      const o = isObject(r.origin) ? r.origin : {};
      out.push({ origin: { name: o.tool_name, id: typeof o.id === 'string' ? o.id : undefined, args: o.arguments }, result: r.result });
    }
    const response = part.toolResponse;
    if (isObject(response)) out.push({ origin: { name: response.name, id: typeof response.ref === 'string' ? response.ref : undefined, args: undefined }, result: response.output });
  }
  return out;
}

/**
 * Haystack's own tracer. A model call's inputs (3.x: `haystack.agent.step.llm.input`; 2.x: the chat
 * generator's `haystack.component.input`, the conversation so far and the tools' schemas) and the
 * agent run's (`haystack.agent.input`) as a conversation; a text Haystack could not write as JSON
 * (Python's text of it: a streaming callback among the inputs) that holds messages is input not read,
 * not the user's words. Other components' inputs (a prompt builder's variables, a retriever's query)
 * are not read: what the model was told is in its own input. The model's reply (`{"replies": […]}`)
 * proposes its calls — in 3.x each also ran in a tool span, matched by tool and arguments; in 2.x no
 * span runs one, and the tool invoker's output (`{"tool_messages": […]}`) gives their results by call
 * id. An agent's final state (`haystack.agent.output`, an agent component's output: every message of
 * the run, written at its end) is no evidence: the calls in it are copies.
 */
function readHaystack(span: ForeignSpan, into: TraceEvidence): void {
  for (const key of [HaystackAttributes.LLM_INPUT, HaystackAttributes.AGENT_INPUT, HaystackAttributes.COMPONENT_INPUT]) {
    const text = str(span, key);
    if (text === undefined) {
      if (key !== HaystackAttributes.COMPONENT_INPUT && span.nonText?.has(key)) into.inputNotRead(span);
      continue;
    }
    const parsed = parseJson(text);
    const messages = conversationOf(parsed);
    if (messages === undefined) {
      if (key !== HaystackAttributes.COMPONENT_INPUT || (parsed === undefined && text.includes(HAYSTACK_MESSAGE_REPR))) into.inputNotRead(span);
      continue;
    }
    readConversation(messages, key, span, into);
    const tools = isObject(parsed) && Array.isArray(parsed.tools) ? parsed.tools : [];
    for (const t of tools) if (isObject(t) && isObject(t.data)) into.schema(t.data.name, t.data.parameters);
  }
  for (const key of [HaystackAttributes.LLM_OUTPUT, HaystackAttributes.COMPONENT_OUTPUT]) {
    const text = str(span, key);
    if (text === undefined) continue;
    const parsed = parseJson(text);
    const output = isObject(parsed) ? parsed : undefined;
    if (output && Array.isArray(output.replies)) {
      let position = 0;
      for (const reply of output.replies) {
        for (const c of partCalls(isObject(reply) ? reply.content : undefined)) into.proposed.push(proposal(span, key, c.name, c.id, c.args ?? {}, position++));
      }
    } else if (output && Array.isArray(output.tool_messages)) {
      for (const m of output.tool_messages) {
        for (const r of partResults(isObject(m) ? m.content : undefined)) {
          into.result(r.origin.id, r.result, span.startNs);
          into.repeat(span, key, r.origin.id, r.origin.name, r.origin.args);
        }
      }
    } else if (output && Array.isArray(output.messages)) {
      for (const m of conversationOf(output) ?? []) repeatModelCalls(m, key, span, into);
    } else if (key === HaystackAttributes.LLM_OUTPUT) {
      if (parsed === undefined) proposeCutOffOutput(span, key, text, into);
      else proposeUnknownOutput(span, key, text, parsed, into);
    } else if (parsed === undefined && text.includes(HAYSTACK_CALL_REPR)) {
      // (a 2.x component's output Haystack wrote as Python's text, a call in it: one unreadable call, not none)
      proposeUnreadableOutput(span, key, text, into, ForeignArgumentRule.NOT_JSON);
    }
  }
  const final = str(span, HaystackAttributes.AGENT_OUTPUT);
  for (const m of final === undefined ? [] : (conversationOf(parseJson(final)) ?? [])) repeatModelCalls(m, HaystackAttributes.AGENT_OUTPUT, span, into);
  readHaystackConfirmation(span, into);
}

/**
 * A human-in-the-loop confirmation (Haystack 3.x): the call it was asked about is a copy of the
 * model's; a parameter the person changed before letting the call run (the decision's
 * `final_tool_params` differing from the call's) is theirs, asserted, not the model's guess — and
 * so is the feedback they wrote; the model's proposal is the call that ran with the changed ones.
 */
function readHaystackConfirmation(span: ForeignSpan, into: TraceEvidence): void {
  const asked = parseJson(str(span, HaystackAttributes.CONFIRMATION_INPUT));
  if (!isObject(asked)) return;
  into.repeat(span, HaystackAttributes.CONFIRMATION_INPUT, asked.tool_call_id, asked.tool_name, asked.tool_params);
  const decided = parseJson(str(span, HaystackAttributes.CONFIRMATION_OUTPUT));
  if (!isObject(decided) || decided.execute !== true) return;
  if (typeof decided.feedback === 'string') into.user(decided.feedback);
  const proposed = isObject(asked.tool_params) ? asked.tool_params : {};
  if (!isObject(decided.final_tool_params) || typeof asked.tool_name !== 'string') return;
  let changed = false;
  for (const [key, value] of Object.entries(decided.final_tool_params)) {
    if (JSON.stringify(value) === JSON.stringify(proposed[key])) continue;
    changed = true;
    into.user(typeof value === 'string' ? value : JSON.stringify(value));
  }
  if (changed || Object.keys(proposed).some((key) => !(key in (decided.final_tool_params as object)))) into.changedBeforeRun.push({ tool: asked.tool_name, proposed, ran: decided.final_tool_params });
}

/** Python's text of a Haystack message and of a call (`repr`), in a tag Haystack could not write as JSON. */
const HAYSTACK_MESSAGE_REPR = 'ChatMessage(';
const HAYSTACK_CALL_REPR = 'ToolCall(';

/**
 * Genkit's own tracing ({@link GenkitAttributes}). A model action's input is a conversation — the
 * user's and the developer's words, earlier results (`toolResponse` parts), the model's earlier
 * calls (copies) — with the tools' schemas (`inputSchema`); its output proposes the calls
 * (`toolRequest` parts, by `ref`), each of which also ran in a tool span (matched by tool and
 * arguments). The outermost span's input (a flow's argument: what the application was called with)
 * is the user's request. Any other span (the `generate` loop's, a nested flow's: its input may be
 * made from the model's values) is read for copies of the calls only. A model input that does not
 * parse (cut at an attribute length limit) is input not read; an output that does not parse and
 * may hold a call, one call not checked.
 */
function readGenkit(span: ForeignSpan, into: TraceEvidence): void {
  const subtype = str(span, GenkitAttributes.SUBTYPE);
  if (subtype === undefined && !span.attrs.has(GenkitAttributes.TYPE)) return;
  // (a tool's own span is the call: its recogniser reads it)
  if (isGenkitToolSpan(span)) return;
  const input = str(span, GenkitAttributes.INPUT);
  const output = str(span, GenkitAttributes.OUTPUT);
  if (subtype === GenkitSubtype.MODEL) {
    const request = input === undefined ? undefined : parseJson(input);
    const messages = conversationOf(request);
    if (messages !== undefined) readConversation(messages, GenkitAttributes.INPUT, span, into);
    else if (input !== undefined || span.nonText?.has(GenkitAttributes.INPUT)) into.inputNotRead(span);
    const tools = isObject(request) && Array.isArray(request.tools) ? request.tools : [];
    for (const t of tools) if (isObject(t)) into.schema(t.name, t.inputSchema);
    if (output === undefined) return;
    const response = parseJson(output);
    const replies = genkitReplies(response);
    if (replies === undefined) {
      if (response === undefined) proposeCutOffOutput(span, GenkitAttributes.OUTPUT, output, into);
      else proposeUnknownOutput(span, GenkitAttributes.OUTPUT, output, response, into);
      return;
    }
    let position = 0;
    for (const reply of replies) for (const c of partCalls(reply.content)) into.proposed.push(proposal(span, GenkitAttributes.OUTPUT, c.name, c.id, c.args, position++));
    return;
  }
  if (isGenkitRoot(span)) runInput(input, GenkitAttributes.INPUT, span, into);
  else for (const m of (input === undefined ? undefined : conversationOf(parseJson(input))) ?? []) repeatModelCalls(m, GenkitAttributes.INPUT, span, into);
  // (the `generate` loop's result: its reply and the request that asked for it, copies of the calls)
  const response = output === undefined ? undefined : parseJson(output);
  if (!isObject(response)) return;
  const request = isObject(response.request) && Array.isArray(response.request.messages) ? response.request.messages : [];
  for (const m of conversationOf({ messages: [...(genkitReplies(response) ?? []), ...request] }) ?? []) repeatModelCalls(m, GenkitAttributes.OUTPUT, span, into);
}

/** The model's messages in a Genkit model response: `{message}` (1.x), `{candidates: [{message}]}` (0.x); undefined in another shape. */
function genkitReplies(response: unknown): Record<string, unknown>[] | undefined {
  if (!isObject(response)) return undefined;
  if (isObject(response.message)) return [response.message];
  if (Array.isArray(response.candidates)) return response.candidates.flatMap((c) => (isObject(c) && isObject(c.message) ? [c.message] : []));
  return undefined;
}

/**
 * VoltAgent's own observability ({@link VoltAgentAttributes}). An agent's span holds what it was
 * asked (`input`: the user's words, or the messages it was called with), its instructions (the
 * developer's) and the conversation as the AI SDK's model messages (`agent.messages`); a model
 * call's span the messages it sent (`llm.messages`, the last ten: the history with its calls,
 * copies, and their results). A tool span's schema is the JSON of its Zod object, read for its
 * defaults. An agent a supervisor delegated to (`subagent.id` on its spans) was asked by the
 * supervisor's model: its input and messages are not the user's words, and are not read.
 */
function readVoltAgent(span: ForeignSpan, into: TraceEvidence): void {
  if (!isVoltAgentSpan(span)) return;
  const type = str(span, VoltAgentAttributes.SPAN_TYPE);
  if (type === VoltAgentSpanType.TOOL) {
    const parameters = parseJson(str(span, VoltAgentAttributes.TOOL_PARAMETERS));
    const schema = zodDefaultsAsJsonSchema(parameters) ?? parameters;
    into.schema(str(span, VoltAgentAttributes.TOOL_NAME), schema ?? undefined);
    return;
  }
  const instructions = str(span, VoltAgentAttributes.AGENT_INSTRUCTIONS);
  if (instructions !== undefined) into.developer(instructions);
  if (span.attrs.has(VoltAgentAttributes.SUBAGENT_ID)) return;
  const key = type === VoltAgentSpanType.LLM ? VoltAgentAttributes.LLM_MESSAGES : type === undefined ? VoltAgentAttributes.AGENT_MESSAGES : undefined;
  if (key === undefined) return;
  const text = str(span, key);
  const messages = parseJson(text);
  // (cut off or not a list of messages: what the model was told there is not read)
  if (!Array.isArray(messages) || !messages.every(isObject)) inputNotReadIn(text, span, into);
  else readVercelMessages(messages, key, span, into);
  if (type === undefined) runInput(str(span, VoltAgentAttributes.INPUT), VoltAgentAttributes.INPUT, span, into);
}
