import { Emitter } from '@argspan/conventions';
import type { ForeignSpan, ToolSpanRecognizer } from '../types.js';
import { argumentBlob, argumentsIn, isObject, opt, str } from './attributes.js';

/**
 * VoltAgent's own observability (`@voltagent/core`, its tracer `@voltagent/core`): an agent's run
 * is a span (`entity.type = agent`, `input` what it was asked, `agent.instructions`, `agent.messages`
 * the conversation as the AI SDK's model messages), a model call a child (`span.type = llm`,
 * `llm.messages`, the last ten messages sent), each tool run a child (`span.type = tool`,
 * `tool.execution:{name}`: `tool.name`, `tool.call.id`, `input` the arguments as JSON, `output`
 * the result, `tool.parameters` the JSON of its Zod schema object). Every span of a run carries
 * the run's `operation.id` and `entity.type`. The model's replies are not recorded: a call is known
 * from its tool span only.
 */
export const VoltAgentAttributes = {
  /** `tool`, `llm`, `memory`, `workflow-step`…; the agent's own span has none. */
  SPAN_TYPE: 'span.type',
  /** `agent` on every span of an agent's run (the agent's, not the span's kind). */
  ENTITY_TYPE: 'entity.type',
  /** The run's id, on each of its spans. */
  OPERATION_ID: 'operation.id',
  /** Set on every span of an agent a supervisor agent delegated to: its input is the supervisor's model's words. */
  SUBAGENT_ID: 'subagent.id',
  TOOL_NAME: 'tool.name',
  TOOL_CALL_ID: 'tool.call.id',
  TOOL_PARAMETERS: 'tool.parameters',
  INPUT: 'input',
  OUTPUT: 'output',
  AGENT_INSTRUCTIONS: 'agent.instructions',
  AGENT_MESSAGES: 'agent.messages',
  LLM_MESSAGES: 'llm.messages',
} as const;

export const VoltAgentSpanType = { TOOL: 'tool', LLM: 'llm' } as const;

/** Whether `span` is one of a VoltAgent agent run's spans (its run id and entity written on each). */
export const isVoltAgentSpan = (span: ForeignSpan): boolean => span.attrs.has(VoltAgentAttributes.OPERATION_ID) && span.attrs.has(VoltAgentAttributes.ENTITY_TYPE);

const ARGUMENT_KEYS: readonly string[] = [VoltAgentAttributes.INPUT];

/**
 * A VoltAgent tool run's span: the tool in `tool.name`, the call id in `tool.call.id`, the
 * arguments in `input` (as the tool got them: after its schema's parsing, defaults filled in), the
 * result in `output`.
 */
export const voltagent: ToolSpanRecognizer = {
  emitter: Emitter.VOLTAGENT,
  keys: [VoltAgentAttributes.OPERATION_ID],
  argumentKeys: ARGUMENT_KEYS,
  toolCall(span) {
    if (str(span, VoltAgentAttributes.SPAN_TYPE) !== VoltAgentSpanType.TOOL || !isVoltAgentSpan(span)) return undefined;
    return {
      tool: str(span, VoltAgentAttributes.TOOL_NAME) ?? span.name.replace(/^tool\.execution:/, ''),
      ...opt('callId', str(span, VoltAgentAttributes.TOOL_CALL_ID)),
      args: argumentBlob(argumentsIn(span, ARGUMENT_KEYS), VoltAgentAttributes.INPUT, {}),
      ...opt('result', str(span, VoltAgentAttributes.OUTPUT)),
    };
  },
};

/**
 * The defaults a Zod 4 schema declares, as a JSON Schema that holds only them: VoltAgent records a
 * tool's schema as the JSON of the Zod object itself (`{"def": {"type": "object", "shape": {key:
 * {"def": {"type": "default", "defaultValue", "innerType"}}}}}`), not as JSON Schema. An optional,
 * nullable or read-only wrapper is looked through; any other shape declares nothing (Zod 3's
 * objects keep their shape in a function, which JSON leaves out).
 */
export function zodDefaultsAsJsonSchema(schema: unknown, depth = 0): Record<string, unknown> | undefined {
  if (depth > 32 || !isObject(schema) || !isObject(schema.def)) return undefined;
  const def = schema.def;
  if (def.type === 'default' || def.type === 'prefault') {
    const inner = zodDefaultsAsJsonSchema(def.innerType, depth + 1) ?? {};
    return 'defaultValue' in def ? { ...inner, default: def.defaultValue } : inner;
  }
  if (def.type === 'optional' || def.type === 'nullable' || def.type === 'readonly') return zodDefaultsAsJsonSchema(def.innerType, depth + 1);
  if (def.type !== 'object' || !isObject(def.shape)) return undefined;
  const properties: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(def.shape)) {
    const s = zodDefaultsAsJsonSchema(field, depth + 1);
    if (s !== undefined) properties[key] = s;
  }
  return { type: 'object', properties };
}
