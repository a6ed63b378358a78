import { Emitter, GenAiAttributes, OPERATION_EXECUTE_TOOL, SpanNamePrefix } from '@argspan/conventions';
import { ForeignArgumentRule, type ForeignCall, type ForeignSpan, type RecordedArguments, type ToolSpanRecognizer } from '../types.js';
import { MessageEvents, StrandsEventAttributes } from '../event-evidence.js';
import { parseJson } from '../evidence.js';
import { isObject } from './attributes.js';
import { argumentBlob, argumentsIn, opt, str, toolOfPrefixedSpanName, UNNAMED_TOOL } from './attributes.js';

/** The key the conventions' tool span records its arguments in. */
const ARGUMENT_KEYS: readonly string[] = [GenAiAttributes.TOOL_CALL_ARGUMENTS];

/**
 * What Anthropic's SDKs write beside the conventions' attributes (their own OpenTelemetry traces,
 * content mode `content`): a tool run's result blocks, and the flag of a span whose content was cut
 * to `maxContentBytes` — whole message parts removed from the start, a tool result's last blocks,
 * and an attribute over the limit (a tool span's arguments) left out whole.
 */
export const AnthropicSdkAttributes = {
  TOOL_RESULT_CONTENT: 'anthropic.tool_result.content',
  CONTENT_TRUNCATED: 'anthropic.content.truncated',
} as const;

/** Whether the emitter says it cut the span's content (see {@link AnthropicSdkAttributes}): a flag, or its text where an export holds every value as text. */
export function contentCut(span: ForeignSpan): boolean {
  return span.nonText?.has(AnthropicSdkAttributes.CONTENT_TRUNCATED) === true || str(span, AnthropicSdkAttributes.CONTENT_TRUNCATED) === 'true';
}

/** Arguments left out whole by an emitter that says it cut the span's content: cut off, not "not recorded". */
const CUT_ARGUMENTS: RecordedArguments = { kind: 'blob', attribute: GenAiAttributes.TOOL_CALL_ARGUMENTS, text: undefined, decode: { unreadable: ForeignArgumentRule.TRUNCATED } };

/**
 * The GenAI semantic conventions' tool span (`@ai-sdk/otel`, Pydantic AI v3+, MS Agent
 * Framework, Microsoft.Extensions.AI, Anthropic's SDKs' `anthropic.custom_tool_use {name}`):
 * `execute_tool {name}`, `gen_ai.operation.name = execute_tool`, arguments in the opt-in
 * `gen_ai.tool.call.arguments`. Some emitters leave the
 * operation name out and write only `gen_ai.tool.name` (see {@link isUndeclaredToolSpan}).
 * Without `gen_ai.tool.name`, the tool is the one the span's name gives (`execute_tool {tool}`, or
 * another name as it is); a span named `execute_tool` alone is a call of the unnamed tool.
 */
export const genaiSemconv: ToolSpanRecognizer = {
  emitter: Emitter.GENAI_SEMCONV,
  // (the arguments' key too: a span that records a call's arguments is a call, whatever else it left out)
  keys: [GenAiAttributes.OPERATION_NAME, GenAiAttributes.TOOL_NAME, GenAiAttributes.TOOL_CALL_ARGUMENTS],
  argumentKeys: ARGUMENT_KEYS,
  toolCall(span) {
    const operation = str(span, GenAiAttributes.OPERATION_NAME);
    if (operation !== OPERATION_EXECUTE_TOOL && !isUndeclaredToolSpan(span, operation)) return undefined;
    const tool = str(span, GenAiAttributes.TOOL_NAME) ?? toolOfPrefixedSpanName(span.name, SpanNamePrefix.TOOL_CALL);
    const callId = str(span, GenAiAttributes.TOOL_CALL_ID);
    const held = argumentsIn(span, ARGUMENT_KEYS);
    const recorded = held === undefined && span.events ? callInEvents(span, tool, callId) : undefined;
    const parameters = held === undefined && recorded?.args === undefined ? functionParameters(span) : undefined;
    return {
      tool,
      ...opt('callId', callId),
      args: recorded?.args ?? parameters ?? (held?.notText === false && held.text === AGENT_FRAMEWORK_NO_ARGUMENTS && span.scope === AGENT_FRAMEWORK_SCOPE
        ? AGENT_FRAMEWORK_NONE
        : held === undefined && contentCut(span) ? CUT_ARGUMENTS : argumentBlob(held, GenAiAttributes.TOOL_CALL_ARGUMENTS, {})),
      ...opt('result', str(span, GenAiAttributes.TOOL_CALL_RESULT) ?? str(span, AnthropicSdkAttributes.TOOL_RESULT_CONTENT) ?? recorded?.result ?? (parameters ? str(span, FUNCTION_RETURN_VALUE) : undefined)),
    };
  },
};

/** google-genai's per-parameter attributes (see {@link functionParameters}): read as text whatever their type. */
export const PARAMETER_PREFIX = 'code.function.parameters.';
const PARAMETER_VALUE = '.value';
const PARAMETER_TYPE = '.type';
/** Where google-genai's instrumentation records the function's result (content capture on). */
const FUNCTION_RETURN_VALUE = 'code.function.return.value';

/**
 * The arguments as google-genai's instrumentation records an automatically called function's (with
 * content capture on): one attribute per parameter, `code.function.parameters.{name}.value`, beside
 * its Python type in `….type` — a `str` as it is, a dict, an object or a mixed list as JSON
 * (`json.dumps`), a number, a flag or a list of them as that type, read as its text (as the
 * exporter's ClickHouse map holds it; DuckDB's span text carries it so, `TYPED_ARGUMENT_PREFIXES`).
 * Undefined when the span has none (capture off: then the arguments were not recorded).
 */
function functionParameters(span: ForeignSpan): RecordedArguments | undefined {
  let value: Record<string, unknown> | undefined;
  let parts: string[] | undefined;
  for (const [key, text] of span.attrs) {
    if (!key.startsWith(PARAMETER_PREFIX) || !key.endsWith(PARAMETER_VALUE) || typeof text !== 'string') continue;
    const name = key.slice(PARAMETER_PREFIX.length, key.length - PARAMETER_VALUE.length);
    if (name === '') continue;
    const type = str(span, `${PARAMETER_PREFIX}${name}${PARAMETER_TYPE}`);
    value ??= {};
    (parts ??= []).push(key);
    value[name] = type === 'str' ? text : (parseJson(text) ?? text);
  }
  return value && parts ? { kind: 'value', attribute: parts[0]!, value, parts } : undefined;
}

/**
 * The call's arguments and result as the tool span's own events record them, where its attributes
 * do not (Strands Agents): `gen_ai.tool.message` with the input as JSON in `content` and the result
 * in a `gen_ai.choice`'s `message`; or, with the latest conventions,
 * `gen_ai.client.inference.operation.details` with a `tool_call` part in `gen_ai.input.messages`
 * and a `tool_call_response` part in `gen_ai.output.messages`. An event naming another call id is
 * not this call's.
 */
function callInEvents(span: ForeignSpan, tool: string, callId: string | undefined): { args?: RecordedArguments; result?: string } | undefined {
  let args: RecordedArguments | undefined;
  let result: string | undefined;
  const ours = (id: unknown) => callId === undefined || id === undefined || id === callId;
  for (const event of span.events ?? []) {
    const id = event.attrs.get(StrandsEventAttributes.ID);
    if (event.name === MessageEvents.TOOL && ours(id)) {
      const content = event.attrs.get(StrandsEventAttributes.CONTENT);
      // (A message's content blocks are a list; the call's input, an object.)
      if (args === undefined && content !== undefined && !Array.isArray(parseJson(content))) args = { kind: 'blob', attribute: StrandsEventAttributes.CONTENT, text: content, decode: {} };
    } else if (event.name === MessageEvents.CHOICE && ours(id)) {
      result ??= event.attrs.get(StrandsEventAttributes.MESSAGE);
    } else if (event.name === MessageEvents.OPERATION_DETAILS) {
      for (const part of messageParts(event.attrs.get(GenAiAttributes.INPUT_MESSAGES))) {
        if (args === undefined && part.type === 'tool_call' && (part.name === tool || tool === UNNAMED_TOOL) && ours(part.id)) {
          args = typeof part.arguments === 'string'
            ? { kind: 'blob', attribute: GenAiAttributes.INPUT_MESSAGES, text: part.arguments, decode: {} }
            : { kind: 'value', attribute: GenAiAttributes.INPUT_MESSAGES, value: part.arguments };
        }
      }
      for (const part of messageParts(event.attrs.get(GenAiAttributes.OUTPUT_MESSAGES))) {
        if (result === undefined && part.type === 'tool_call_response' && ours(part.id)) {
          const response = part.response ?? part.result;
          result = typeof response === 'string' ? response : JSON.stringify(response);
        }
      }
    }
  }
  return args === undefined && result === undefined ? undefined : { ...opt('args', args), ...opt('result', result) };
}

/** The parts of every message in a GenAI-conventions message list (JSON). */
function messageParts(text: string | undefined): Record<string, unknown>[] {
  const messages = parseJson(text);
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((m) => (isObject(m) && Array.isArray(m.parts) ? m.parts.filter(isObject) : []));
}

const TOOL_SPAN_NAME_PREFIX = `${SpanNamePrefix.TOOL_CALL} `;

/**
 * Microsoft Agent Framework (Python) writes the text `None` as the arguments of a function that
 * took none (`json.dumps(kwargs) if kwargs else "None"`, `FunctionTool.invoke`): no arguments, not
 * an unreadable blob. Under its tracer's scope here; where the export dropped the scope, by its
 * agent span in the trace ({@link readAgentFrameworkNoArguments}). Elsewhere `None` is not JSON,
 * so not read (counted as not checked).
 */
const AGENT_FRAMEWORK_SCOPE = 'agent_framework';
const AGENT_FRAMEWORK_NO_ARGUMENTS = 'None';
/** Agent Framework's `None` read: no arguments, unless the model's proposal under the call's id holds some (see `writtenAsNone`). */
const AGENT_FRAMEWORK_NONE: RecordedArguments = { kind: 'value', attribute: GenAiAttributes.TOOL_CALL_ARGUMENTS, value: {}, writtenAsNone: true };
/** The provider name Agent Framework writes on its agents' spans (`invoke_agent`), never on another library's. */
const AGENT_FRAMEWORK_PROVIDER = 'microsoft.agent_framework';
const PROVIDER_NAME = 'gen_ai.provider.name';

/**
 * The tool spans of a trace whose export dropped the instrumentation scope (Phoenix's download,
 * some collectors' file exports) that wrote Agent Framework's `None`: read as calls without
 * arguments, as under its scope, where an agent span of the trace is Agent Framework's
 * (`gen_ai.provider.name = microsoft.agent_framework`). Without one (a tool run outside an agent,
 * or another library's `None`) nothing tells, and the call stays counted as not checked. Only on
 * the rare path: the trace is searched only when such a call was found.
 */
export function readAgentFrameworkNoArguments(executed: ForeignCall[], spans: readonly ForeignSpan[]): void {
  const unscoped = (c: ForeignCall) =>
    c.emitter === Emitter.GENAI_SEMCONV && c.args.kind === 'blob' && c.args.text === AGENT_FRAMEWORK_NO_ARGUMENTS && c.args.decode.unreadable === undefined && c.args.attribute === GenAiAttributes.TOOL_CALL_ARGUMENTS;
  if (!executed.some(unscoped)) return;
  if (!spans.some((s) => s.scope === null && str(s, PROVIDER_NAME) === AGENT_FRAMEWORK_PROVIDER)) return;
  const scopeless = new Set(spans.filter((s) => s.scope === null).map((s) => s.spanId));
  for (const c of executed) if (unscoped(c) && scopeless.has(c.spanId)) c.args = AGENT_FRAMEWORK_NONE;
}

/**
 * A tool span that does not say `gen_ai.operation.name = execute_tool` (leaves it out, or writes
 * another): one that records a call's arguments (`gen_ai.tool.call.arguments`, which the
 * conventions define on the tool span only) is a call, whatever else it left out — passed over, its
 * arguments would go unchecked; without an operation, one named as the conventions name a tool span
 * (`execute_tool`, `execute_tool {tool}`: its arguments then read from its events, or counted as not
 * recorded), or one that names its tool
 * (`gen_ai.tool.name`) and records a call id. A span with another operation that only names a tool
 * (a `chat` span), or one that only mentions a tool name, is not a call.
 */
export function isUndeclaredToolSpan(span: ForeignSpan, operation: string | undefined = str(span, GenAiAttributes.OPERATION_NAME)): boolean {
  if (span.attrs.has(GenAiAttributes.TOOL_CALL_ARGUMENTS) || span.nonText?.has(GenAiAttributes.TOOL_CALL_ARGUMENTS)) return true;
  if (operation !== undefined) return false;
  if (span.name === SpanNamePrefix.TOOL_CALL || span.name.startsWith(TOOL_SPAN_NAME_PREFIX)) return true;
  return str(span, GenAiAttributes.TOOL_NAME) !== undefined && str(span, GenAiAttributes.TOOL_CALL_ID) !== undefined;
}
