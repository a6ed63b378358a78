import { Emitter } from '@argspan/conventions';
import type { ToolSpanRecognizer } from '../types.js';
import { argumentBlob, argumentsIn, kindOf, opt, str } from './attributes.js';
import { unwrapArgsKwargs } from './openllmetry.js';

export const LangfuseAttributes = {
  OBSERVATION_TYPE: 'langfuse.observation.type',
  INPUT: 'langfuse.observation.input',
  OUTPUT: 'langfuse.observation.output',
  SESSION_ID: 'langfuse.session.id',
} as const;

/** The key a tool span's arguments are read from. */
const ARGUMENT_KEYS: readonly string[] = [LangfuseAttributes.INPUT];

/**
 * The Langfuse SDK's tool observation (`langfuse.observation.type = tool`, any span name): the
 * input as JSON, or a plain string stored as it is (but one that opens as JSON and stops short is
 * cut off, not a string); the tool is the span's name. `@observe(as_type="tool")` records a
 * function's arguments as `{"args": [...], "kwargs": {...}}`: read as OpenLLMetry's are, the
 * keyword arguments by name. No call id.
 */
export const langfuse: ToolSpanRecognizer = {
  emitter: Emitter.LANGFUSE,
  keys: [LangfuseAttributes.OBSERVATION_TYPE],
  argumentKeys: ARGUMENT_KEYS,
  toolCall(span) {
    if (kindOf(span, LangfuseAttributes.OBSERVATION_TYPE) !== 'tool') return undefined;
    return {
      tool: span.name,
      args: argumentBlob(argumentsIn(span, ARGUMENT_KEYS), LangfuseAttributes.INPUT, { rawStringIsValue: true, openedJsonIsCut: true, unwrap: unwrapArgsKwargs }),
      ...opt('result', str(span, LangfuseAttributes.OUTPUT)),
    };
  },
};
