import { gatedInstrumentation } from '../shared/gated-instrumentation.js';
import { isGateError, refusalText } from '../shared/refusal.js';
import type { AgentToolCallDetails, AgentToolLike, AgentsAdapterOptions } from './types.js';

/**
 * Instrument OpenAI Agents SDK function tools: each call's `invoke` is classified, gated and traced
 * (`execute_tool {name}`, call id from the tool call details' `callId`) before the tool parses and
 * runs its input. Refused, blocked and asked calls never reach `execute`. Each tool's `parameters`
 * JSON schema feeds schema defaults and public keys; results become provenance context for later
 * calls of any tool in the list. Returns new tool objects (the ones passed in are not modified);
 * non-function tools are passed through.
 *
 * ```ts
 * const agent = new Agent({ name: 'Assistant', tools: instrumentAgentTools([getWeather, bookMeeting], { session }) });
 * ```
 */
export function instrumentAgentTools<T extends AgentToolLike>(tools: readonly T[], options: AgentsAdapterOptions = {}): T[] {
  const { onRefused = 'throw', ...adapterOptions } = options;
  if (onRefused !== 'throw' && onRefused !== 'result') {
    throw new RangeError(`instrumentAgentTools: onRefused must be "throw" or "result", got ${JSON.stringify(onRefused)}`);
  }
  const gated = gatedInstrumentation(adapterOptions);
  return tools.map((tool) => {
    const invoke = tool.invoke;
    if (tool.type !== 'function' || typeof invoke !== 'function' || typeof tool.name !== 'string') return tool;
    const name = tool.name;
    gated.learnTool(name, { type: 'function', description: tool.description, ...(tool.parameters !== undefined ? { jsonSchema: tool.parameters } : {}) });
    const wrapped = async (runContext: unknown, input: string, details?: AgentToolCallDetails) => {
      const callId = typeof details?.toolCall?.callId === 'string' ? details.toolCall.callId : undefined;
      try {
        return await gated.instrumentation.call(name, parseArguments(input), callId === undefined ? undefined : { callId }, () =>
          invoke.call(tool, runContext, input, details),
        );
      } catch (err) {
        if (onRefused === 'result' && isGateError(err)) return refusalText(err);
        throw err;
      }
    };
    // A copy keeps the SDK's own symbol-keyed fields; only `invoke` is replaced.
    return { ...tool, invoke: wrapped };
  });
}

/**
 * The model's JSON arguments as a value to classify. Unparseable input is classified as the raw
 * string (so a secret in it is still found); the tool itself then rejects it as it would anyway.
 */
function parseArguments(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}
