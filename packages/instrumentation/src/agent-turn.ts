import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Attributes, TracerProvider } from '@opentelemetry/api';
import { GenAiAttributes, INSTRUMENTATION_SCOPE, OPERATION_INVOKE_AGENT, OtelAttributes } from '@argspan/conventions';
import { shownName } from '@argspan/core/internal';
import { errorTypeOf } from './errors.js';
import type { ArgspanSession } from './session.js';
import { VERSION } from './version.js';

/** Options of {@link runAgentTurn}. */
export interface AgentTurnOptions {
  /** `gen_ai.agent.name`, and the span name `invoke_agent {agentName}`. @default undefined (span name `invoke_agent`) */
  agentName?: string;
  /** The session whose `conversationId` (if any) the turn span carries as `gen_ai.conversation.id`. @default undefined */
  session?: ArgspanSession;
  /** Where the tracer comes from. @default the global tracer provider */
  tracerProvider?: TracerProvider;
}

/**
 * Run one agent turn inside an `invoke_agent {agent}` span (the GenAI conventions' agent span), so
 * the turn's tool calls are its children and one trace holds the whole turn. An agent framework
 * that already opens such a span (the AI SDK, the OpenAI Agents SDK) does not need this; a plain
 * loop over tool calls does, or every call becomes a trace of its own. A throw from `fn` marks the
 * span as an error (`error.type` = the error's class name, no message copied) and is rethrown.
 */
export async function runAgentTurn<T>(fn: () => Promise<T> | T, options: AgentTurnOptions = {}): Promise<T> {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(INSTRUMENTATION_SCOPE, VERSION);
  const attributes: Attributes = { [GenAiAttributes.OPERATION_NAME]: OPERATION_INVOKE_AGENT };
  // (names and ids the app gives are shown with any credential in them as its marker, as tool names are)
  const agentName = options.agentName === undefined ? undefined : shownName(options.agentName);
  if (agentName !== undefined) attributes[GenAiAttributes.AGENT_NAME] = agentName;
  const conversationId = options.session?.conversationId;
  if (conversationId !== undefined) attributes[GenAiAttributes.CONVERSATION_ID] = shownName(conversationId);
  const name = agentName === undefined ? OPERATION_INVOKE_AGENT : `${OPERATION_INVOKE_AGENT} ${agentName}`;
  const span = tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes });
  try {
    return await context.with(trace.setSpan(context.active(), span), fn);
  } catch (err) {
    span.setAttribute(OtelAttributes.ERROR_TYPE, errorTypeOf(err));
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw err;
  } finally {
    span.end();
  }
}
