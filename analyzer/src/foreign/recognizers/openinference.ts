import { Emitter } from '@argspan/conventions';
import type { ToolSpanRecognizer } from '../types.js';
import { opt, str } from './attributes.js';
import { unwrapArgsKwargs } from './openllmetry.js';

export const OpenInferenceAttributes = {
  SPAN_KIND: 'openinference.span.kind',
  TOOL_NAME: 'tool.name',
  TOOL_ID: 'tool.id',
  /** The call id on a TOOL span as some instrumentations write it (OpenInference's `SpanAttributes.TOOL_CALL_ID`). */
  TOOL_CALL_ID: 'tool_call.id',
  INPUT_VALUE: 'input.value',
  INPUT_MIME_TYPE: 'input.mime_type',
  OUTPUT_VALUE: 'output.value',
} as const;

/**
 * OpenInference's tool span (openai_agents, agno, claude_agent_sdk, …): `openinference.span.kind =
 * TOOL`, arguments in `input.value` (JSON, or text when `input.mime_type` says so; a method's bound
 * arguments, `{"args": [...], "kwargs": {...}}` as the LlamaIndex instrumentation records
 * `FunctionTool.call`, read by keyword). `tool.parameters` repeats the arguments in some
 * instrumentations and is not read.
 */
export const openinference: ToolSpanRecognizer = {
  emitter: Emitter.OPENINFERENCE,
  keys: [OpenInferenceAttributes.SPAN_KIND],
  toolCall(span) {
    if (str(span, OpenInferenceAttributes.SPAN_KIND) !== 'TOOL') return undefined;
    const text = str(span, OpenInferenceAttributes.INPUT_MIME_TYPE) === 'text/plain';
    return {
      tool: str(span, OpenInferenceAttributes.TOOL_NAME) ?? span.name,
      ...opt('callId', str(span, OpenInferenceAttributes.TOOL_ID) ?? str(span, OpenInferenceAttributes.TOOL_CALL_ID)),
      args: { kind: 'blob', attribute: OpenInferenceAttributes.INPUT_VALUE, text: str(span, OpenInferenceAttributes.INPUT_VALUE), decode: { rawStringIsValue: text, unwrap: unwrapArgsKwargs } },
      ...opt('result', str(span, OpenInferenceAttributes.OUTPUT_VALUE)),
    };
  },
};
