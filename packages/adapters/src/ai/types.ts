import type { AdapterOptions } from '../shared/types.js';

/** The options the AI SDK passes to a tool's `execute` (the fields argspan reads). */
export interface AiToolExecutionOptions {
  /** The model's tool-call id; becomes `gen_ai.tool.call.id`. */
  toolCallId?: string;
  /** The messages sent to the model for this step (user turns are read for provenance). */
  messages?: readonly unknown[];
  [key: string]: unknown;
}

/** An AI SDK tool (`tool({ inputSchema, execute })` from `ai`); tools without `execute` are left alone. */
export interface AiToolLike {
  /** Written as `gen_ai.tool.description`. */
  description?: string;
  inputSchema?: unknown;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  execute?: (input: any, options: any) => unknown;
}

/** Options of {@link instrumentAiTools}. */
export interface AiAdapterOptions extends AdapterOptions {
  /**
   * Add the text of every user message in `execute`'s `options.messages` to the session's user
   * text (once each), so values the user typed are `user_explicit` without calling
   * `session.addUserText` yourself.
   * @default true
   */
  userTextFromMessages?: boolean;
}
