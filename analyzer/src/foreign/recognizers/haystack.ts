import { Emitter } from '@argspan/conventions';
import type { ToolSpanRecognizer } from '../types.js';
import { argumentBlob, argumentsIn, opt, str } from './attributes.js';

/**
 * Haystack's own tracer (3.x; content tags only with `HAYSTACK_CONTENT_TRACING_ENABLED=true`): an
 * agent's steps (`haystack.agent.step`), each a model call (`haystack.agent.step.llm`) and a span
 * per tool call it ran (`haystack.agent.step.tool`). A tag value that is not text, a number or a
 * flag is written as the JSON of its `to_dict()` (`haystack/tracing/utils.py`).
 */
export const HaystackAttributes = {
  TOOL_NAME: 'haystack.tool.name',
  /** The call's arguments: the JSON of `ToolCall.arguments`, an object. */
  TOOL_INPUT: 'haystack.agent.step.tool.input',
  /** What the tool returned (its text as it is, anything else as JSON), or `{"error": …}`. */
  TOOL_OUTPUT: 'haystack.agent.step.tool.output',
  /** The model call's inputs: `{"messages": [ChatMessage…], "tools": [Tool…], …}`. */
  LLM_INPUT: 'haystack.agent.step.llm.input',
  /** The model call's result: `{"replies": [ChatMessage…]}`. */
  LLM_OUTPUT: 'haystack.agent.step.llm.output',
  /** The agent run's inputs (`{"messages": […], …}`) and its final state (every message of the run, written at its end). */
  AGENT_INPUT: 'haystack.agent.input',
  AGENT_OUTPUT: 'haystack.agent.output',
  /**
   * A pipeline component's inputs and outputs (2.x: every component, the agent's chat generator and
   * tool invoker among them, is a `haystack.component.run` span): a chat generator's
   * `{"messages", "tools"}` → `{"replies"}`, a tool invoker's `{"messages"}` → `{"tool_messages"}`.
   */
  COMPONENT_INPUT: 'haystack.component.input',
  COMPONENT_OUTPUT: 'haystack.component.output',
  /**
   * A human-in-the-loop confirmation of a call (3.x): the model's call it was asked about
   * (`{"tool_name", "tool_params", "tool_call_id", …}`) and the decision (`{"execute",
   * "final_tool_params", "feedback", …}`: the parameters the call runs with, as the person left them).
   */
  CONFIRMATION_INPUT: 'haystack.agent.hook.human_in_the_loop.strategy.input',
  CONFIRMATION_OUTPUT: 'haystack.agent.hook.human_in_the_loop.strategy.output',
} as const;

/** The span of one tool call an agent ran (3.x); `haystack.tool.name` is also on a confirmation strategy's span, which runs nothing. */
export const HAYSTACK_TOOL_SPAN = 'haystack.agent.step.tool';

const ARGUMENT_KEYS: readonly string[] = [HaystackAttributes.TOOL_INPUT];

/**
 * A Haystack agent's tool span (`haystack.agent.step.tool`): the tool in `haystack.tool.name`, the arguments the JSON of the
 * call's arguments, the result the tool's output. The span has no call id (the model's reply
 * holds it: the calls are matched to it by tool and arguments).
 */
export const haystack: ToolSpanRecognizer = {
  emitter: Emitter.HAYSTACK,
  keys: [HaystackAttributes.TOOL_NAME],
  argumentKeys: ARGUMENT_KEYS,
  toolCall(span) {
    const tool = str(span, HaystackAttributes.TOOL_NAME);
    if (tool === undefined || span.name !== HAYSTACK_TOOL_SPAN) return undefined;
    return {
      tool,
      args: argumentBlob(argumentsIn(span, ARGUMENT_KEYS), HaystackAttributes.TOOL_INPUT, { openedJsonIsCut: true }),
      ...opt('result', str(span, HaystackAttributes.TOOL_OUTPUT)),
    };
  },
};
