import { gatedInstrumentation } from '../shared/gated-instrumentation.js';
import { isGateError, refusalText } from '../shared/refusal.js';
import type { AdapterOptions } from '../shared/types.js';
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
  const sdkNames = tools.flatMap((t) => (t.type === 'function' && typeof t.name === 'string' ? [t.name] : []));
  const gated = gatedInstrumentation(withSdkToolNames(adapterOptions, sdkNames));
  return tools.map((tool) => {
    const invoke = tool.invoke;
    if (tool.type !== 'function' || typeof invoke !== 'function' || typeof tool.name !== 'string') return tool;
    const name = tool.name;
    gated.learnTool(name, { type: 'function', description: tool.description, ...(tool.parameters !== undefined ? { jsonSchema: tool.parameters } : {}) });
    const wrapped = async (runContext: unknown, input: string, details?: AgentToolCallDetails) => {
      const callId = typeof details?.toolCall?.callId === 'string' ? details.toolCall.callId : undefined;
      try {
        // The tool parses the text it is given: given anything but a string (invoke called directly),
        // it gets the JSON of what was gated, not the object's own toString.
        return await gated.instrumentation.call(name, parseArguments(input), callId === undefined ? undefined : { callId }, (args) =>
          untilAborted(invoke.call(tool, runContext, typeof input === 'string' ? input : JSON.stringify(args), details), details?.signal),
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
 * The tool's promise, or its rejection with the signal's reason once the SDK aborts the call (its
 * `timeoutMs`, a sibling's failure): the SDK goes on without the tool's answer, and the call's span
 * ends then, with the reason's class, instead of waiting for a tool that may never settle.
 */
function untilAborted<T>(result: T | Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return Promise.resolve(result);
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(result).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err as Error);
      },
    );
  });
}

/** The Agents SDK's spelling of a tool's name (its `toFunctionToolName`): what its function tools are called, by the model and in traces. */
const sdkToolName = (name: string): string => name.replace(/[^a-zA-Z0-9]/g, '_');

/**
 * The options with every tool the policy and the schemas name also under the SDK's spelling: the
 * SDK calls `tool({ name: 'web.post' })` `web_post`, and a policy written with the tool's own name
 * (`remoteTools: ['web.post']`, as for `instrumentDispatch`) must govern it. A `denyInferred` entry
 * `tool.key` is spelled anew for each of `tools` (SDK names) its tool part becomes.
 */
function withSdkToolNames(options: AdapterOptions, tools: readonly string[]): AdapterOptions {
  const spelled = (names: readonly string[] | undefined) => (names === undefined ? undefined : [...new Set([...names, ...names.map(sdkToolName)])]);
  const policy = options.policy;
  const out: AdapterOptions = { ...options };
  if (policy) {
    const denyInferred = policy.denyInferred?.flatMap((entry) => {
      const dots = [...entry.matchAll(/\./g)].map((m) => m.index);
      const respelled = dots.flatMap((at) => {
        const tool = sdkToolName(entry.slice(0, at));
        return tool !== entry.slice(0, at) && tools.includes(tool) ? [`${tool}${entry.slice(at)}`] : [];
      });
      return [entry, ...respelled];
    });
    out.policy = {
      ...policy,
      ...(policy.remoteAllowlist ? { remoteAllowlist: spelled(policy.remoteAllowlist) } : {}),
      ...(policy.remoteTools ? { remoteTools: spelled(policy.remoteTools) } : {}),
      ...(policy.secretSourceTools ? { secretSourceTools: spelled(policy.secretSourceTools) } : {}),
      ...(denyInferred ? { denyInferred } : {}),
    };
  }
  if (options.schemas) {
    const schemas = { ...options.schemas };
    for (const [name, schema] of Object.entries(options.schemas)) if (!Object.hasOwn(schemas, sdkToolName(name))) schemas[sdkToolName(name)] = schema;
    out.schemas = schemas;
  }
  return out;
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
