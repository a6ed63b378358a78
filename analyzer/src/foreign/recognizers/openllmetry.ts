import { Emitter, GenAiAttributes } from '@argspan/conventions';
import type { ToolSpanRecognizer } from '../types.js';
import { argumentBlob, argumentsIn, firstStr, kindOf, opt, str } from './attributes.js';

export const TraceloopAttributes = {
  SPAN_KIND: 'traceloop.span.kind',
  ENTITY_NAME: 'traceloop.entity.name',
  ENTITY_INPUT: 'traceloop.entity.input',
  ENTITY_OUTPUT: 'traceloop.entity.output',
} as const;

/** The keys a tool span's arguments are read from, the first held first. */
const ARGUMENT_KEYS: readonly string[] = [GenAiAttributes.TOOL_CALL_ARGUMENTS, TraceloopAttributes.ENTITY_INPUT];

/**
 * OpenLLMetry's tool span (`@tool` / `withTool`: `{name}.tool`, `traceloop.span.kind = tool`):
 * arguments in `traceloop.entity.input` as `{"args": [...], "kwargs": {...}}` (its LangChain
 * instrumentation's tool runs: the callback's `inputs`), or — the openai-agents instrumentation —
 * the model's argument string in `gen_ai.tool.call.arguments`. The call id where the span records
 * one in `gen_ai.tool.call.id` (the Vercel AI SDK's tool spans as OpenLLMetry for Node rewrites
 * them); `withTool` records none.
 */
export const openllmetry: ToolSpanRecognizer = {
  emitter: Emitter.OPENLLMETRY,
  keys: [TraceloopAttributes.SPAN_KIND],
  argumentKeys: ARGUMENT_KEYS,
  toolCall(span) {
    if (kindOf(span, TraceloopAttributes.SPAN_KIND) !== 'tool') return undefined;
    const tool = str(span, GenAiAttributes.TOOL_NAME) ?? str(span, TraceloopAttributes.ENTITY_NAME) ?? span.name.replace(/\.tool$/, '');
    const held = argumentsIn(span, ARGUMENT_KEYS);
    const args =
      held?.key === GenAiAttributes.TOOL_CALL_ARGUMENTS
        ? argumentBlob(held, GenAiAttributes.TOOL_CALL_ARGUMENTS, {})
        : argumentBlob(held, TraceloopAttributes.ENTITY_INPUT, { unwrap: unwrapEntityInput });
    return { tool, ...opt('callId', str(span, GenAiAttributes.TOOL_CALL_ID)), args, ...opt('result', firstStr(span, [GenAiAttributes.TOOL_CALL_RESULT, TraceloopAttributes.ENTITY_OUTPUT])?.value) };
  },
};

/** A tool span's `traceloop.entity.input` as the arguments: a LangChain tool run's, or a decorated function's. */
export function unwrapEntityInput(decoded: unknown): unknown {
  return langChainToolInput(decoded) ?? unwrapArgsKwargs(decoded);
}

/**
 * The arguments of a LangChain tool run as OpenLLMetry's LangChain instrumentation records its
 * callback, `{"input_str", "tags", "metadata", "inputs", "kwargs"}`: `inputs`, the arguments as
 * a dict, else `input_str`, their text (a Python repr, read as the dict it writes). The run's tags,
 * metadata (LangGraph's thread and step, the app's configurable keys) and callback keywords are
 * not arguments. Undefined for any other shape.
 */
function langChainToolInput(decoded: unknown): unknown {
  if (decoded === null || typeof decoded !== 'object' || Array.isArray(decoded)) return undefined;
  const run = decoded as Record<string, unknown>;
  if (!('input_str' in run) || !('inputs' in run || 'metadata' in run || 'tags' in run)) return undefined;
  const inputs = run.inputs;
  return inputs !== null && inputs !== undefined && typeof inputs === 'object' ? inputs : run.input_str;
}

/**
 * A function's call as its decorator records it, `{"args": [a, b], "kwargs": {x}}` (OpenLLMetry's
 * `@tool`, Langfuse's `@observe`, OpenInference's bound arguments of `*args, **kwargs`) → `{x,
 * args: [a, b]}`: keyword arguments by name; positional ones have no name in the trace, so they are
 * the list `args`, read as leaves `args[0]`, `args[1]` (a value nested in one: `args[0].city`). A
 * keyword argument may itself be named `args` (`f(1, args=2)` into `def f(*args, **kwargs)`): then
 * the positional ones are `*args` (`["*args"][0]`, Python's own spelling of them), so neither hides
 * the other.
 */
export function unwrapArgsKwargs(decoded: unknown): unknown {
  if (decoded === null || typeof decoded !== 'object' || Array.isArray(decoded)) return decoded;
  const { args, kwargs, ...rest } = decoded as { args?: unknown; kwargs?: unknown };
  if (args === undefined && kwargs === undefined) return decoded;
  const byName = kwargs !== null && typeof kwargs === 'object' && !Array.isArray(kwargs);
  const out: Record<string, unknown> = { ...rest, ...(byName ? (kwargs as Record<string, unknown>) : {}) };
  // (a `kwargs` or `args` of another shape than the decorators write is kept as it is, not dropped: its values are still read)
  if (!byName && kwargs !== undefined && kwargs !== null) out[Object.hasOwn(out, 'kwargs') ? '**kwargs' : 'kwargs'] = kwargs;
  if (args !== undefined && args !== null && !(Array.isArray(args) && args.length === 0)) out[Object.hasOwn(out, POSITIONAL) ? `*${POSITIONAL}` : POSITIONAL] = args;
  return out;
}

/** The key positional arguments are read under (see {@link unwrapArgsKwargs}). */
const POSITIONAL = 'args';
