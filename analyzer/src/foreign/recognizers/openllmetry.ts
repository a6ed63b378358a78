import { Emitter, GenAiAttributes } from '@argspan/conventions';
import type { ToolSpanRecognizer } from '../types.js';
import { firstStr, opt, str } from './attributes.js';

export const TraceloopAttributes = {
  SPAN_KIND: 'traceloop.span.kind',
  ENTITY_NAME: 'traceloop.entity.name',
  ENTITY_INPUT: 'traceloop.entity.input',
  ENTITY_OUTPUT: 'traceloop.entity.output',
} as const;

/**
 * OpenLLMetry's tool span (`@tool` / `withTool`: `{name}.tool`, `traceloop.span.kind = tool`):
 * arguments in `traceloop.entity.input` as `{"args": [...], "kwargs": {...}}`, or — the
 * openai-agents instrumentation — the model's argument string in `gen_ai.tool.call.arguments`.
 * No call id.
 */
export const openllmetry: ToolSpanRecognizer = {
  emitter: Emitter.OPENLLMETRY,
  keys: [TraceloopAttributes.SPAN_KIND],
  toolCall(span) {
    if (str(span, TraceloopAttributes.SPAN_KIND) !== 'tool') return undefined;
    const tool = str(span, GenAiAttributes.TOOL_NAME) ?? str(span, TraceloopAttributes.ENTITY_NAME) ?? span.name.replace(/\.tool$/, '');
    const semconv = str(span, GenAiAttributes.TOOL_CALL_ARGUMENTS);
    const args =
      semconv !== undefined
        ? { kind: 'blob' as const, attribute: GenAiAttributes.TOOL_CALL_ARGUMENTS, text: semconv, decode: {} }
        : { kind: 'blob' as const, attribute: TraceloopAttributes.ENTITY_INPUT, text: str(span, TraceloopAttributes.ENTITY_INPUT), decode: { unwrap: unwrapArgsKwargs } };
    return { tool, args, ...opt('result', firstStr(span, [GenAiAttributes.TOOL_CALL_RESULT, TraceloopAttributes.ENTITY_OUTPUT])?.value) };
  },
};

/** `{"args": [a, b], "kwargs": {x}}` → `{x, args: [a, b]}` (positional arguments have no names). */
export function unwrapArgsKwargs(decoded: unknown): unknown {
  if (decoded === null || typeof decoded !== 'object' || Array.isArray(decoded)) return decoded;
  const { args, kwargs, ...rest } = decoded as { args?: unknown; kwargs?: unknown };
  if (args === undefined && kwargs === undefined) return decoded;
  const out: Record<string, unknown> = { ...rest, ...(kwargs !== null && typeof kwargs === 'object' && !Array.isArray(kwargs) ? kwargs : {}) };
  if (Array.isArray(args) && args.length > 0) out.args = args;
  return out;
}
