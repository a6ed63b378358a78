import { Emitter, GenAiAttributes } from '@argspan/conventions';
import type { ToolSpanRecognizer } from '../types.js';
import { argumentBlob, argumentsIn, opt, str, UNNAMED_TOOL } from './attributes.js';

/** Attributes Google ADK writes on its own `execute_tool {name}` span (tracer `gcp.vertex.agent`). */
export const AdkAttributes = {
  TOOL_CALL_ARGS: 'gcp.vertex.agent.tool_call_args',
  TOOL_RESPONSE: 'gcp.vertex.agent.tool_response',
} as const;

/** The key a tool span's arguments are read from. */
const ARGUMENT_KEYS: readonly string[] = [AdkAttributes.TOOL_CALL_ARGS];

/**
 * What ADK writes for the arguments, and for the result, where it was told not to record content
 * (`ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS=false`): an empty object, as for a model request and response.
 */
const ADK_CONTENT_NOT_RECORDED = '{}';

/**
 * Google ADK's tool span, with or without OpenInference's `tool.*` / `input.value` on the same span:
 * arguments in `gcp.vertex.agent.tool_call_args`, the call id in `gen_ai.tool.call.id` (`adk-…` when
 * the model gave none). ADK's `(merged tools)` span of parallel calls holds no arguments of its own.
 * With content capture off, ADK writes `{}` for both the arguments and the result: such a call's
 * arguments are not recorded (counted as not checked), never a call without arguments that passed
 * clean. (A tool without parameters that returned `{}` is counted so too: the trace cannot tell.)
 */
export const googleAdk: ToolSpanRecognizer = {
  emitter: Emitter.GOOGLE_ADK,
  keys: [AdkAttributes.TOOL_CALL_ARGS],
  argumentKeys: ARGUMENT_KEYS,
  toolCall(span) {
    const args = argumentsIn(span, ARGUMENT_KEYS);
    const tool = str(span, GenAiAttributes.TOOL_NAME);
    if (args === undefined || tool === '(merged tools)') return undefined;
    const result = str(span, AdkAttributes.TOOL_RESPONSE);
    const hidden = !args.notText && args.text === ADK_CONTENT_NOT_RECORDED && result === ADK_CONTENT_NOT_RECORDED;
    return {
      tool: tool ?? UNNAMED_TOOL,
      ...opt('callId', str(span, GenAiAttributes.TOOL_CALL_ID)),
      args: argumentBlob(hidden ? undefined : args, AdkAttributes.TOOL_CALL_ARGS, {}),
      ...opt('result', hidden ? undefined : result),
    };
  },
};
