import { Emitter, GenAiAttributes } from '@argspan/conventions';
import type { ToolSpanRecognizer } from '../types.js';
import { argumentBlob, argumentsIn, opt, str, UNNAMED_TOOL } from './attributes.js';

export const PydanticAiAttributes = {
  TOOL_ARGUMENTS: 'tool_arguments',
  TOOL_RESPONSE: 'tool_response',
} as const;

/** The key a tool span's arguments are read from. */
const ARGUMENT_KEYS: readonly string[] = [PydanticAiAttributes.TOOL_ARGUMENTS];

/**
 * Pydantic AI's instrumentation format 2 (the default of pydantic-ai 1.x, seen in Logfire):
 * `running tool`, arguments in `tool_arguments`. Formats 3 and later follow the GenAI conventions.
 */
export const pydanticAi: ToolSpanRecognizer = {
  emitter: Emitter.PYDANTIC_AI,
  keys: [PydanticAiAttributes.TOOL_ARGUMENTS],
  argumentKeys: ARGUMENT_KEYS,
  toolCall(span) {
    const args = argumentsIn(span, ARGUMENT_KEYS);
    const tool = str(span, GenAiAttributes.TOOL_NAME);
    if (args === undefined) return undefined;
    return {
      tool: tool ?? UNNAMED_TOOL,
      ...opt('callId', str(span, GenAiAttributes.TOOL_CALL_ID)),
      args: argumentBlob(args, PydanticAiAttributes.TOOL_ARGUMENTS, {}),
      ...opt('result', str(span, PydanticAiAttributes.TOOL_RESPONSE)),
    };
  },
};
