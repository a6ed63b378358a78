import { Emitter } from '@argspan/conventions';
import type { ForeignSpan, ToolSpanRecognizer } from '../types.js';
import { argumentBlob, argumentsIn, opt, str } from './attributes.js';

/**
 * Genkit's own tracing (`genkit-tracer`; JS `runInNewSpan`, Go `tracing.RunInNewSpan`, Python
 * `_record_input_metadata` write the same keys): every action — a flow, a model, a tool — is a span
 * whose input and output are the JSON of the action's (`genkit:input`, `genkit:output`), recorded
 * always, with no opt-in. A model's input is a `GenerateRequest` (`{messages: [{role, content:
 * [parts]}], tools: [{name, inputSchema}]}`), its output the reply (`{message}`; 0.x `{candidates:
 * [{message}]}`); a call is a `{toolRequest: {name, ref, input}}` part, its result a `{toolResponse:
 * {name, ref, output}}` part.
 */
export const GenkitAttributes = {
  /** `action`, `util` (the `generate` loop), `flowStep`… */
  TYPE: 'genkit:type',
  /** An action's kind: `flow`, `model`, `tool` (`tool.v2` a multipart one), `executable-prompt`… */
  SUBTYPE: 'genkit:metadata:subtype',
  NAME: 'genkit:name',
  /** Where the span sits among Genkit's: `/{weatherFlow,t:flow}/{generate,t:util}/{getWeather,t:action,s:tool}`. */
  PATH: 'genkit:path',
  INPUT: 'genkit:input',
  OUTPUT: 'genkit:output',
} as const;

export const GenkitSubtype = { TOOL: 'tool', MODEL: 'model' } as const;

/** A tool's action kinds: `tool`, and `tool.v2` (a multipart tool, `defineTool({multipart: true})`: its output `{output, content}`). */
const TOOL_SUBTYPES: ReadonlySet<string | undefined> = new Set([GenkitSubtype.TOOL, 'tool.v2']);

/** Whether `span` is a Genkit tool's action span: one call. */
export const isGenkitToolSpan = (span: ForeignSpan): boolean => TOOL_SUBTYPES.has(str(span, GenkitAttributes.SUBTYPE));

/** Whether `span` is Genkit's outermost (`genkit:path` one step long): its input is what the application was called with. */
export function isGenkitRoot(span: ForeignSpan): boolean {
  const path = str(span, GenkitAttributes.PATH);
  return path !== undefined && path.startsWith('/{') && path.indexOf('/{', 2) < 0;
}

const ARGUMENT_KEYS: readonly string[] = [GenkitAttributes.INPUT];

/**
 * A Genkit tool action's span: the tool in `genkit:name`, the arguments the JSON of its input, the
 * result the JSON of its output. The span has no call id (the model's reply names the call by
 * `ref`: the calls are matched to it by tool and arguments).
 */
export const genkit: ToolSpanRecognizer = {
  emitter: Emitter.GENKIT,
  keys: [GenkitAttributes.SUBTYPE],
  argumentKeys: ARGUMENT_KEYS,
  toolCall(span) {
    if (!isGenkitToolSpan(span)) return undefined;
    return {
      tool: str(span, GenkitAttributes.NAME) ?? span.name,
      args: argumentBlob(argumentsIn(span, ARGUMENT_KEYS), GenkitAttributes.INPUT, {}),
      ...opt('result', str(span, GenkitAttributes.OUTPUT)),
    };
  },
};
