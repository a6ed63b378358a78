import { Emitter } from '@argspan/conventions';
import type { ForeignSpan, ToolSpanRecognizer } from '../types.js';
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

/** What LangSmith writes for a run's inputs or outputs it was told to hide: an empty object. */
const HIDDEN = '{}';

/**
 * The run metadata LangSmith copies from its environment (each `LANGSMITH_*`/`LANGCHAIN_*` variable
 * but its keys and endpoints) that says it hid every run's inputs, or outputs.
 */
const hideMetadata = (what: 'INPUTS' | 'OUTPUTS'): readonly string[] => ['LANGSMITH', 'LANGCHAIN'].map((prefix) => `${LangSmithAttributes.METADATA}.${prefix}_HIDE_${what}`);
const HIDE_INPUTS_METADATA = hideMetadata('INPUTS');
const HIDE_OUTPUTS_METADATA = hideMetadata('OUTPUTS');

/**
 * LangSmith's OpenTelemetry export of a tool run (`langsmith.span.kind = tool`): the run's inputs
 * in `gen_ai.prompt` (`{"input": {...}}` or the bound arguments), its output in
 * `gen_ai.completion`; the tool is the run's name. No call id. With `LANGSMITH_HIDE_INPUTS=true`
 * every run's inputs are written `{}`: a tool run's `{}` beside that flag (its run metadata) is
 * arguments not recorded (counted as not checked), never a call without arguments that passed
 * clean. (A tool without parameters is counted so too there: the trace cannot tell. Inputs hidden
 * by the client's own `hideInputs` option leave no flag.) Likewise `LANGSMITH_HIDE_OUTPUTS=true`
 * writes `{}` for every run's output: a tool run's is no result (what it returned is not recorded).
 */
export const langsmith: ToolSpanRecognizer = {
  emitter: Emitter.LANGSMITH,
  keys: [LangSmithAttributes.SPAN_KIND],
  argumentKeys: ARGUMENT_KEYS,
  toolCall(span) {
    if (kindOf(span, LangSmithAttributes.SPAN_KIND) !== 'tool') return undefined;
    const held = argumentsIn(span, ARGUMENT_KEYS);
    const hidden = held !== undefined && !held.notText && langSmithInputsHidden(span, held.text);
    return {
      tool: span.name,
      args: argumentBlob(hidden ? undefined : held, LangSmithAttributes.PROMPT, { unwrap: unwrapInput }),
      ...opt('result', langSmithResult(span)),
    };
  },
};

/** `{"input": {...}}` → `{...}`; anything else as it is. */
export function unwrapInput(decoded: unknown): unknown {
  if (decoded === null || typeof decoded !== 'object' || Array.isArray(decoded)) return decoded;
  const keys = Object.keys(decoded);
  return keys.length === 1 && keys[0] === 'input' ? (decoded as { input: unknown }).input : decoded;
}

/** Whether `input`, a LangSmith run's `gen_ai.prompt`, is the `{}` LangSmith writes for inputs it hid (see {@link langsmith}). */
export function langSmithInputsHidden(span: ForeignSpan, input: string | undefined): boolean {
  return input === HIDDEN && HIDE_INPUTS_METADATA.some((key) => str(span, key) === 'true');
}

/** Whether a LangSmith run's `gen_ai.completion` is the `{}` LangSmith writes for outputs it hid (see {@link langsmith}). */
export function langSmithOutputsHidden(span: ForeignSpan): boolean {
  return str(span, LangSmithAttributes.COMPLETION) === HIDDEN && HIDE_OUTPUTS_METADATA.some((key) => str(span, key) === 'true');
}

/** A LangSmith run's output as recorded; undefined where it hid it. */
function langSmithResult(span: ForeignSpan): string | undefined {
  return langSmithOutputsHidden(span) ? undefined : str(span, LangSmithAttributes.COMPLETION);
}
