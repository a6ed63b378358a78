import { Emitter } from '@argspan/conventions';
import type { ToolSpanRecognizer } from '../types.js';
import { argumentBlob, argumentsIn, opt, str, UNNAMED_TOOL } from './attributes.js';

/**
 * Logfire's OpenAI Agents integration (`logfire.instrument_openai_agents()`): each of the Agents
 * SDK's spans becomes a Logfire span whose name is its message template, with the SDK span data's
 * export as attributes. A function tool's run is `Function: {name}`: the tool in `name`, the
 * model's argument string in `input`, the result (`str()` of it, or JSON) in `output`.
 */
export const LogfireAgentsAttributes = {
  MSG_TEMPLATE: 'logfire.msg_template',
  TOOL_NAME: 'name',
  INPUT: 'input',
  OUTPUT: 'output',
} as const;

/** The name (and message template) of Logfire's span of an OpenAI Agents function tool run. */
export const LOGFIRE_FUNCTION_SPAN = 'Function: {name}';

/** The key a tool span's arguments are read from. */
const ARGUMENT_KEYS: readonly string[] = [LogfireAgentsAttributes.INPUT];

/**
 * Logfire's `Function: {name}` span (template and name both Logfire's). No call id: it is the
 * call the model proposed by tool and arguments. The Agents SDK leaves `input` and `output` unset
 * when told not to record sensitive data, and Logfire writes the `None` as `null`: not recorded.
 */
export const logfire: ToolSpanRecognizer = {
  emitter: Emitter.LOGFIRE,
  keys: [],
  argumentKeys: ARGUMENT_KEYS,
  spanNames: [LOGFIRE_FUNCTION_SPAN],
  toolCall(span) {
    if (span.name !== LOGFIRE_FUNCTION_SPAN || str(span, LogfireAgentsAttributes.MSG_TEMPLATE) !== LOGFIRE_FUNCTION_SPAN) return undefined;
    const input = argumentsIn(span, ARGUMENT_KEYS);
    return {
      tool: str(span, LogfireAgentsAttributes.TOOL_NAME) ?? UNNAMED_TOOL,
      args: argumentBlob(input?.notText === false && recorded(input.text) === undefined ? undefined : input, LogfireAgentsAttributes.INPUT, {}),
      ...opt('result', recorded(str(span, LogfireAgentsAttributes.OUTPUT))),
    };
  },
};

/** An attribute Logfire wrote, or undefined for the `null` it writes for an unset field. */
const recorded = (text: string | undefined) => (text === 'null' ? undefined : text);
