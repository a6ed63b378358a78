import { Emitter, GenAiAttributes, OPERATION_EXECUTE_TOOL, SpanNamePrefix } from '@argspan/conventions';
import type { ToolSpanRecognizer } from '../types.js';
import { opt, str } from './attributes.js';

/**
 * The GenAI semantic conventions' tool span (`@ai-sdk/otel`, Pydantic AI v3+, MS Agent
 * Framework, Microsoft.Extensions.AI): `execute_tool {name}`, `gen_ai.operation.name =
 * execute_tool`, arguments in the opt-in `gen_ai.tool.call.arguments`.
 */
export const genaiSemconv: ToolSpanRecognizer = {
  emitter: Emitter.GENAI_SEMCONV,
  keys: [GenAiAttributes.OPERATION_NAME],
  toolCall(span) {
    if (str(span, GenAiAttributes.OPERATION_NAME) !== OPERATION_EXECUTE_TOOL) return undefined;
    const prefix = `${SpanNamePrefix.TOOL_CALL} `;
    const tool = str(span, GenAiAttributes.TOOL_NAME) ?? (span.name.startsWith(prefix) ? span.name.slice(prefix.length) : span.name);
    return {
      tool,
      ...opt('callId', str(span, GenAiAttributes.TOOL_CALL_ID)),
      args: { kind: 'blob', attribute: GenAiAttributes.TOOL_CALL_ARGUMENTS, text: str(span, GenAiAttributes.TOOL_CALL_ARGUMENTS), decode: {} },
      ...opt('result', str(span, GenAiAttributes.TOOL_CALL_RESULT)),
    };
  },
};
