import { Emitter } from '@argspan/conventions';
import type { ForeignSpan, ToolSpanRecognizer } from '../types.js';
import { argumentBlob, argumentsIn, kindOf, opt, str } from './attributes.js';
import { unwrapArgsKwargs } from './openllmetry.js';

export const OpenInferenceAttributes = {
  SPAN_KIND: 'openinference.span.kind',
  TOOL_NAME: 'tool.name',
  TOOL_ID: 'tool.id',
  /** The call's arguments again in most instrumentations; the tool's JSON schema in CrewAI's (read as a schema only when it is one). */
  TOOL_PARAMETERS: 'tool.parameters',
  /** The call id on a TOOL span as some instrumentations write it (OpenInference's `SpanAttributes.TOOL_CALL_ID`). */
  TOOL_CALL_ID: 'tool_call.id',
  /** The call's arguments (OpenInference's `ToolCallAttributes.TOOL_CALL_FUNCTION_ARGUMENTS_JSON`), where a TOOL span records them apart from its input. */
  TOOL_CALL_ARGUMENTS: 'tool_call.function.arguments',
  INPUT_VALUE: 'input.value',
  INPUT_MIME_TYPE: 'input.mime_type',
  OUTPUT_VALUE: 'output.value',
} as const;

/** The keys a tool span's arguments are read from, the first held first. */
const ARGUMENT_KEYS: readonly string[] = [OpenInferenceAttributes.TOOL_CALL_ARGUMENTS, OpenInferenceAttributes.INPUT_VALUE];

/**
 * OpenInference's tool span (openai_agents, agno, claude_agent_sdk, …): `openinference.span.kind =
 * TOOL`, arguments in `input.value` (JSON, or text when `input.mime_type` says so; a method's bound
 * arguments, `{"args": [...], "kwargs": {...}}` as the LlamaIndex instrumentation records
 * `FunctionTool.call`, read by keyword; smolagents' `Tool.__call__`, `{"args": [...],
 * "sanitize_inputs_outputs": true, "kwargs": {...}}`, whose flag is the agent's, not an argument).
 * `tool.parameters` repeats the arguments in some instrumentations and is not read. Where the span
 * records the call's arguments apart, in `tool_call.function.arguments`, they are read from there:
 * the AG2 instrumentation's `input.value` is the whole `func_call` (`{"name", "arguments": "<JSON
 * text>"}`), not the arguments. The BeeAI instrumentation's `input.value` is the run's parameters,
 * `{"input": <the tool's input>, "options": <run options>}`: the input is the arguments. The DSPy
 * instrumentation writes no `tool.name`: its span is named `{tool}.__call__` (`{tool}.acall`).
 */
export const openinference: ToolSpanRecognizer = {
  emitter: Emitter.OPENINFERENCE,
  keys: [OpenInferenceAttributes.SPAN_KIND],
  argumentKeys: ARGUMENT_KEYS,
  toolCall(span) {
    if (kindOf(span, OpenInferenceAttributes.SPAN_KIND) !== 'tool') return undefined;
    const text = str(span, OpenInferenceAttributes.INPUT_MIME_TYPE) === 'text/plain';
    const args = argumentsIn(span, ARGUMENT_KEYS);
    return {
      tool: str(span, OpenInferenceAttributes.TOOL_NAME) ?? toolOfSpanName(span.name),
      ...opt('callId', str(span, OpenInferenceAttributes.TOOL_ID) ?? str(span, OpenInferenceAttributes.TOOL_CALL_ID)),
      args: args?.key === OpenInferenceAttributes.TOOL_CALL_ARGUMENTS
        ? argumentBlob(args, OpenInferenceAttributes.TOOL_CALL_ARGUMENTS, {})
        : argumentBlob(args, OpenInferenceAttributes.INPUT_VALUE, { rawStringIsValue: text, unwrap: isBeeAiSpan(span) ? beeAiToolInput : unwrapBoundArguments }),
      ...opt('result', str(span, OpenInferenceAttributes.OUTPUT_VALUE)),
    };
  },
};

/**
 * A tool's bound arguments as the OpenInference instrumentations record them: read by keyword
 * (see {@link unwrapArgsKwargs}), without smolagents' `sanitize_inputs_outputs`, a keyword-only
 * parameter of `Tool.__call__(self, *args, sanitize_inputs_outputs=False, **kwargs)` that the
 * agent sets and the signature binding records beside the arguments (no tool input can share its
 * name: it would be bound to the parameter). Read as an argument, the call would carry one the
 * model never gave, and would not be the call the model proposed.
 */
export function unwrapBoundArguments(decoded: unknown): unknown {
  if (decoded === null || typeof decoded !== 'object' || Array.isArray(decoded)) return decoded;
  const { [SMOLAGENTS_FLAG]: flag, ...rest } = decoded as Record<string, unknown>;
  const smolagentsCall = typeof flag === 'boolean' && 'args' in rest && 'kwargs' in rest;
  return unwrapArgsKwargs(smolagentsCall ? rest : decoded);
}

const SMOLAGENTS_FLAG = 'sanitize_inputs_outputs';

/** The BeeAI instrumentation's tracer (`openinference.instrumentation.beeai`). */
const BEEAI_SCOPE = 'openinference.instrumentation.beeai';
/**
 * The attribute the BeeAI instrumentation's processors write on every span (`processors/base.py`:
 * `f"{SpanAttributes.METADATA}.class_name"`, the class that ran). The other OpenInference
 * instrumentations write `metadata` whole, as JSON, never this flattened key.
 */
const BEEAI_CLASS_NAME = 'metadata.class_name';

/**
 * A span of the BeeAI instrumentation: by its tracer, or — where the export dropped the scope
 * (Phoenix's "Download → OTLP JSON" writes none) — by the class name its processors record.
 * Without it the run parameters would be read as the arguments (`input.location_name`), not the
 * call the model proposed, and the one call would be counted twice.
 */
function isBeeAiSpan(span: ForeignSpan): boolean {
  return span.scope === BEEAI_SCOPE || (span.scope === null && str(span, BEEAI_CLASS_NAME) !== undefined);
}

/**
 * A BeeAI tool run's parameters as the instrumentation records them (`RunContextStartEvent.input`,
 * `Tool.run`'s `{"input": input, "options": options}`): the tool's input. Another shape is read as it is.
 */
function beeAiToolInput(decoded: unknown): unknown {
  if (decoded === null || typeof decoded !== 'object' || Array.isArray(decoded) || !('input' in decoded)) return decoded;
  return Object.keys(decoded).every((k) => k === 'input' || k === 'options') ? (decoded as { input: unknown }).input : decoded;
}

/**
 * The tool a TOOL span without `tool.name` is named after: the DSPy instrumentation names it
 * `{tool}.__call__` (`.acall` when awaited), `dspy.Tool`'s name (`add`, ReAct's own `finish`).
 * Taken whole, the call would be reported, and matched against a policy, as a tool `add.__call__`
 * the agent does not have. Another span name is the tool's as it is.
 */
export function toolOfSpanName(name: string): string {
  const m = /^(.+)\.(?:__call__|acall)$/.exec(name);
  return m ? m[1]! : name;
}
