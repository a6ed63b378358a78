import { CallAttributes, GenAiAttributes } from '@argspan/conventions';
import { LangfuseAttributes } from './recognizers/langfuse.js';
import { LANGSMITH_THREAD_KEYS, LangSmithAttributes } from './recognizers/langsmith.js';
import { CodingAgentIds } from './coding-agent-events.js';

/** OpenTelemetry's session id, which OpenInference and Langfuse (v4) write. */
export const SESSION_ID = 'session.id';

/**
 * Attributes that name the run a span belongs to, strongest first: argspan's run id, the GenAI
 * conversation id, then the session id of OpenInference, Langfuse (v4 writes `session.id`) and
 * OpenTelemetry's session convention, then the thread of LangSmith's metadata (not
 * `langsmith.trace.session_id`: that is the project), then `conversation.id` (Codex CLI's session;
 * the conversation a VoltAgent agent was called in, on every span of its run). argspan's own calls are grouped by the first
 * two, in the same order.
 *
 * A foreign call's run is the first of these its own span names; else, of the trace's spans,
 * the first key whose values all agree (a `session.id` set once on the agent's root span, as
 * OpenInference's claude_agent_sdk does, names every call under it). A trace whose spans name
 * several runs leaves its other calls without one: reports group those by trace.
 */
export const RUN_ID_KEYS: readonly string[] = [
  CallAttributes.RUN_ID,
  GenAiAttributes.CONVERSATION_ID,
  SESSION_ID,
  LangfuseAttributes.SESSION_ID,
  // LangSmith's threads: run metadata its exporter writes as `langsmith.metadata.*`.
  ...LANGSMITH_THREAD_KEYS.map((key) => `${LangSmithAttributes.METADATA}.${key}`),
  CodingAgentIds.CONVERSATION,
];
