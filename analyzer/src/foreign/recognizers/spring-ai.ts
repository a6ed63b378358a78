import { Emitter } from '@argspan/conventions';
import type { ToolSpanRecognizer } from '../types.js';
import { argumentBlob, argumentsIn, opt, str, UNNAMED_TOOL } from './attributes.js';

export const SpringAiAttributes = {
  KIND: 'spring.ai.kind',
  TOOL_NAME: 'spring.ai.tool.definition.name',
  /** The tool's input schema as the model was given it (JSON text; an MCP tool's is its server's `inputSchema`). */
  TOOL_SCHEMA: 'spring.ai.tool.definition.schema',
  TOOL_CALL_ID: 'spring.ai.tool.call.id',
  TOOL_CALL_ARGUMENTS: 'spring.ai.tool.call.arguments',
  TOOL_CALL_RESULT: 'spring.ai.tool.call.result',
} as const;

/** `spring.ai.kind` of a tool-calling observation. */
const KIND_TOOL_CALL = 'tool_call';

/** The key a tool span's arguments are read from. */
const ARGUMENT_KEYS: readonly string[] = [SpringAiAttributes.TOOL_CALL_ARGUMENTS];

/**
 * Spring AI's tool-calling observation, as Micrometer Tracing exports it (`ToolCallingObservationDocumentation`):
 * `spring.ai.kind = tool_call`, the tool in `spring.ai.tool.definition.name`, the model's argument
 * string in `spring.ai.tool.call.arguments` and the result in `spring.ai.tool.call.result` (both
 * only with `spring.ai.tools.observations.include-content`). Spring AI 1.x names the span
 * `tool_call {tool}` with `gen_ai.operation.name = framework`; 2.0 `execute_tool {tool}` with
 * `execute_tool`, and adds the call id (`spring.ai.tool.call.id`). Neither writes `gen_ai.tool.*`.
 */
export const springAi: ToolSpanRecognizer = {
  emitter: Emitter.SPRING_AI,
  keys: [SpringAiAttributes.KIND],
  argumentKeys: ARGUMENT_KEYS,
  toolCall(span) {
    const tool = str(span, SpringAiAttributes.TOOL_NAME);
    if (str(span, SpringAiAttributes.KIND) !== KIND_TOOL_CALL) return undefined;
    return {
      tool: tool ?? UNNAMED_TOOL,
      ...opt('callId', str(span, SpringAiAttributes.TOOL_CALL_ID)),
      args: argumentBlob(argumentsIn(span, ARGUMENT_KEYS), SpringAiAttributes.TOOL_CALL_ARGUMENTS, {}),
      ...opt('result', str(span, SpringAiAttributes.TOOL_CALL_RESULT)),
    };
  },
};
