import { Emitter, GenAiAttributes, SpanNamePrefix } from '@argspan/conventions';
import type { ToolSpanRecognizer } from '../types.js';
import { argumentBlob, argumentsIn, firstStr, opt, str, toolOfPrefixedSpanName } from './attributes.js';

export const MastraAttributes = {
  SPAN_TYPE: 'mastra.span.type',
  /** The tool's input and output as `@mastra/otel-exporter` wrote them before it followed the GenAI conventions. */
  TOOL_INPUT: 'gen_ai.tool.input',
  TOOL_OUTPUT: 'gen_ai.tool.output',
  /**
   * A model span's input as 0.x wrote it (`llm_generation`): Mastra's own JSON, `{"messages": [...]}`
   * (or the prompt's list of messages) in the AI SDK's message shape, not the GenAI conventions'.
   */
  MODEL_PROMPT: 'gen_ai.prompt',
  /**
   * A model span's output as 0.x wrote it: Mastra's JSON of the generation's result (`{text,
   * toolCalls, …}`, or its response `messages`), the calls the model asked for among it.
   */
  MODEL_COMPLETION: 'gen_ai.completion',
  /** Any span's input as 0.x wrote it (`input`): on an `agent_run` span, what the agent was asked (text, or messages). */
  INPUT: 'input',
  /** An `agent_run` span's input as 1.x writes it (`mastra.{type}.input`). */
  AGENT_INPUT: 'mastra.agent_run.input',
  /**
   * A `model_generation` span's input and output as 1.x writes them: what 0.x wrote in `gen_ai.prompt`
   * and `gen_ai.completion` (`{"messages": [...]}`; the generation's result, `{text, toolCalls, …}`).
   */
  GENERATION_INPUT: 'mastra.model_generation.input',
  GENERATION_OUTPUT: 'mastra.model_generation.output',
  /** A `model_step` span's output (1.x): the step's result, `{text, toolCalls}`. */
  STEP_OUTPUT: 'mastra.model_step.output',
  /** A `model_chunk` span's output (1.x): a streamed part, a call as `{toolName, toolCallId, toolInput}`. */
  CHUNK_OUTPUT: 'mastra.model_chunk.output',
} as const;

/** Mastra's span types of a model call (0.x `llm_generation`; 1.x `model_generation`, `model_inference`) and of an agent's run. */
export const MastraSpanTypes = {
  MODEL: new Set(['llm_generation', 'model_generation', 'model_inference']) as ReadonlySet<string>,
  /** 1.x: one step of the model loop, and one part of its streamed output. */
  STEP: 'model_step',
  CHUNK: 'model_chunk',
  AGENT_RUN: 'agent_run',
} as const;

/** The name 0.x gives a tool span, before the tool (`tool.execute {tool}`; 1.x: `execute_tool {tool}`). */
const TOOL_SPAN_NAME_0X = 'tool.execute';

/** Mastra's span types of a tool's run (`SpanType` / `AISpanType` of `@mastra/core`). */
const TOOL_SPAN_TYPES: ReadonlySet<string> = new Set(['tool_call', 'mcp_tool_call']);

/** The keys a tool span's arguments are read from, the first held first. */
const ARGUMENT_KEYS: readonly string[] = [GenAiAttributes.TOOL_CALL_ARGUMENTS, MastraAttributes.TOOL_INPUT];

/**
 * Mastra's tool span as `@mastra/otel-exporter` writes it (`mastra.span.type = tool_call` or
 * `mcp_tool_call`, the tool in `gen_ai.tool.name`): 0.x names it `tool.execute {tool}` with
 * `gen_ai.operation.name = tool.execute` and the input (the tool's arguments, JSON) in
 * `gen_ai.tool.input`; 1.x follows the GenAI conventions (`execute_tool {tool}`,
 * `gen_ai.tool.call.arguments`, the call id).
 */
export const mastra: ToolSpanRecognizer = {
  emitter: Emitter.MASTRA,
  keys: [MastraAttributes.SPAN_TYPE],
  argumentKeys: ARGUMENT_KEYS,
  toolCall(span) {
    const type = str(span, MastraAttributes.SPAN_TYPE);
    if (type === undefined || !TOOL_SPAN_TYPES.has(type)) return undefined;
    const args = argumentsIn(span, ARGUMENT_KEYS);
    return {
      tool: str(span, GenAiAttributes.TOOL_NAME) ?? toolOfPrefixedSpanName(span.name, span.name.startsWith(TOOL_SPAN_NAME_0X) ? TOOL_SPAN_NAME_0X : SpanNamePrefix.TOOL_CALL),
      ...opt('callId', str(span, GenAiAttributes.TOOL_CALL_ID)),
      args: argumentBlob(args, GenAiAttributes.TOOL_CALL_ARGUMENTS, {}),
      ...opt('result', firstStr(span, [GenAiAttributes.TOOL_CALL_RESULT, MastraAttributes.TOOL_OUTPUT])?.value),
    };
  },
};
