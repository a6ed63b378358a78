import { ClaudeCodeToolResult } from './coding-agent-events.js';

/**
 * Span events that record a model call's messages, as Semantic Kernel and the GenAI conventions
 * before `gen_ai.input.messages` wrote them, with the attribute holding each one's JSON:
 *
 * - `gen_ai.content.prompt` (`gen_ai.prompt`) and `gen_ai.content.completion` (`gen_ai.completion`):
 *   the whole prompt and the completions, each a list of chat messages in OpenAI's format
 *   (Semantic Kernel .NET before May 2025, Python before January 2025; the conventions before 1.28);
 * - one event per message, `gen_ai.{system,user,assistant,tool}.message` and `gen_ai.choice`, the
 *   message in `gen_ai.event.content` (Semantic Kernel .NET since May 2025, Azure AI Inference):
 *   `{role, content, tool_calls}`, a choice `{index, message, tool_calls, finish_reason}`. SK names
 *   its developer message `gen_ai.tool.developer`. Strands Agents writes the same events with the
 *   message's content blocks (Bedrock Converse's `text`, `toolUse`, `toolResult`) as JSON in
 *   `content`, a choice's in `message` (see `StrandsEventAttributes` in `event-evidence.ts`). The official
 *   instrumentations write these as log records, the message in the record's body: an OTLP logs
 *   export, whose records `load/otlp-logs.ts` makes the span's events.
 * - `gen_ai.client.inference.operation.details`, the conventions' event since 1.37, with the
 *   span's messages in `gen_ai.input.messages`, `gen_ai.output.messages`, `gen_ai.system_instructions`
 *   as the span attributes of those names hold them (Strands Agents under
 *   `OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental`, its tool spans' call and result too).
 */
export const MessageEvents = {
  PROMPT: 'gen_ai.content.prompt',
  COMPLETION: 'gen_ai.content.completion',
  SYSTEM: 'gen_ai.system.message',
  DEVELOPER: 'gen_ai.developer.message',
  SK_DEVELOPER: 'gen_ai.tool.developer',
  USER: 'gen_ai.user.message',
  ASSISTANT: 'gen_ai.assistant.message',
  TOOL: 'gen_ai.tool.message',
  CHOICE: 'gen_ai.choice',
  OPERATION_DETAILS: 'gen_ai.client.inference.operation.details',
} as const;

/** The events that record messages (a GenAI log record of one of these names is read as its span's event). */
export const MESSAGE_EVENT_NAMES: readonly string[] = Object.values(MessageEvents);

/** Every event name the evidence reads — those and Claude Code's tool output: spans with one are candidates, and only these events cross into JavaScript. */
export const EVIDENCE_EVENT_NAMES: readonly string[] = [...MESSAGE_EVENT_NAMES, ClaudeCodeToolResult.OUTPUT_EVENT];

/** The event attributes that hold the messages. */
export const MessageEventAttributes = {
  PROMPT: 'gen_ai.prompt',
  COMPLETION: 'gen_ai.completion',
  CONTENT: 'gen_ai.event.content',
} as const;
