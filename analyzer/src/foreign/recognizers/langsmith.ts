import { Emitter } from '@argspan/conventions';
import type { ToolSpanRecognizer } from '../types.js';
import { argumentBlob, argumentsIn, kindOf, opt, str } from './attributes.js';

export const LangSmithAttributes = {
  SPAN_KIND: 'langsmith.span.kind',
  PROMPT: 'gen_ai.prompt',
  COMPLETION: 'gen_ai.completion',
  /** The LangSmith project (its API calls it a session): not a conversation. */
  PROJECT: 'langsmith.trace.session_id',
  /** Prefix of the run's metadata, one attribute per key. */
  METADATA: 'langsmith.metadata',
} as const;

/** Run metadata keys LangSmith groups a conversation's runs by (its threads). */
export const LANGSMITH_THREAD_KEYS: readonly string[] = ['thread_id', 'session_id', 'conversation_id'];

/** The key a tool span's arguments are read from. */
const ARGUMENT_KEYS: readonly string[] = [LangSmithAttributes.PROMPT];

/**
 * LangSmith's OpenTelemetry export of a tool run (`langsmith.span.kind = tool`): the run's inputs
 * in `gen_ai.prompt` (`{"input": {...}}` or the bound arguments), its output in
 * `gen_ai.completion`; the tool is the run's name. No call id.
 */
export const langsmith: ToolSpanRecognizer = {
  emitter: Emitter.LANGSMITH,
  keys: [LangSmithAttributes.SPAN_KIND],
  argumentKeys: ARGUMENT_KEYS,
  toolCall(span) {
    if (kindOf(span, LangSmithAttributes.SPAN_KIND) !== 'tool') return undefined;
    return {
      tool: span.name,
      args: argumentBlob(argumentsIn(span, ARGUMENT_KEYS), LangSmithAttributes.PROMPT, { unwrap: unwrapInput }),
      ...opt('result', str(span, LangSmithAttributes.COMPLETION)),
    };
  },
};

/** `{"input": {...}}` → `{...}`; anything else as it is. */
export function unwrapInput(decoded: unknown): unknown {
  if (decoded === null || typeof decoded !== 'object' || Array.isArray(decoded)) return decoded;
  const keys = Object.keys(decoded);
  return keys.length === 1 && keys[0] === 'input' ? (decoded as { input: unknown }).input : decoded;
}
