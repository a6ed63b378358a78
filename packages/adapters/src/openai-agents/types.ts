import type { AdapterOptions, RefusalMode } from '../shared/types.js';

/** The tool-call details the Agents SDK passes to `invoke` (the fields argspan reads). */
export interface AgentToolCallDetails {
  toolCall?: { callId?: string; name?: string; [key: string]: unknown };
  /** Aborted by the SDK when the call times out (`timeoutMs`) or a sibling call fails. */
  signal?: AbortSignal;
  [key: string | symbol]: unknown;
}

/**
 * An OpenAI Agents SDK tool. Function tools (`type: 'function'`, from `tool({ name, parameters,
 * execute })`) are instrumented; every other tool (hosted, computer, handoff) is passed through.
 */
export interface AgentToolLike {
  type: string;
  name?: string;
  /** Written as `gen_ai.tool.description`. */
  description?: string;
  parameters?: unknown;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  invoke?: (runContext: any, input: string, details?: any) => Promise<unknown>;
}

/** Options of {@link instrumentAgentTools}. */
export interface AgentsAdapterOptions extends AdapterOptions {
  /**
   * What a refused, blocked or asked call does: `'throw'` the typed gate error out of `invoke` (the
   * run rejects with it, so the application can ask the user and resume), or `'result'`: return its
   * text (the clarifying question or the refusal reason) as the tool output, so the model can
   * answer or ask the user itself. Either way the tool's `execute` never runs.
   * @default 'throw'
   */
  onRefused?: RefusalMode;
}
