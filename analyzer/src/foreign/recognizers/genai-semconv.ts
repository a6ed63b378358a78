import { Emitter, GenAiAttributes, OPERATION_EXECUTE_TOOL, SpanNamePrefix } from '@argspan/conventions';
import type { ForeignSpan, ToolSpanRecognizer } from '../types.js';
import { opt, str } from './attributes.js';

/**
 * The GenAI semantic conventions' tool span (`@ai-sdk/otel`, Pydantic AI v3+, MS Agent
 * Framework, Microsoft.Extensions.AI): `execute_tool {name}`, `gen_ai.operation.name =
 * execute_tool`, arguments in the opt-in `gen_ai.tool.call.arguments`. Some emitters leave the
 * operation name out and write only `gen_ai.tool.name` (see {@link isToolSpanWithoutOperation}).
 */
export const genaiSemconv: ToolSpanRecognizer = {
  emitter: Emitter.GENAI_SEMCONV,
  keys: [GenAiAttributes.OPERATION_NAME, GenAiAttributes.TOOL_NAME],
  toolCall(span) {
    const operation = str(span, GenAiAttributes.OPERATION_NAME);
    if (operation === undefined ? !isToolSpanWithoutOperation(span) : operation !== OPERATION_EXECUTE_TOOL) return undefined;
    const tool = str(span, GenAiAttributes.TOOL_NAME) ?? (span.name.startsWith(TOOL_SPAN_NAME_PREFIX) ? span.name.slice(TOOL_SPAN_NAME_PREFIX.length) : span.name);
    return {
      tool,
      ...opt('callId', str(span, GenAiAttributes.TOOL_CALL_ID)),
      args: { kind: 'blob', attribute: GenAiAttributes.TOOL_CALL_ARGUMENTS, text: str(span, GenAiAttributes.TOOL_CALL_ARGUMENTS), decode: {} },
      ...opt('result', str(span, GenAiAttributes.TOOL_CALL_RESULT)),
    };
  },
};

const TOOL_SPAN_NAME_PREFIX = `${SpanNamePrefix.TOOL_CALL} `;

/**
 * A tool span that names its tool (`gen_ai.tool.name`) without `gen_ai.operation.name`: its name
 * is the conventions' `execute_tool` / `execute_tool {tool}`, or it records a call (a call id or
 * arguments). A span with another operation (a `chat` span naming a tool), or one that only
 * mentions a tool name, is not a call.
 */
export function isToolSpanWithoutOperation(span: ForeignSpan): boolean {
  if (str(span, GenAiAttributes.TOOL_NAME) === undefined) return false;
  if (span.name === SpanNamePrefix.TOOL_CALL || span.name.startsWith(TOOL_SPAN_NAME_PREFIX)) return true;
  return str(span, GenAiAttributes.TOOL_CALL_ID) !== undefined || str(span, GenAiAttributes.TOOL_CALL_ARGUMENTS) !== undefined;
}
