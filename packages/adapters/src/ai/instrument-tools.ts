import { isAsyncIterable } from '@argspan/core/internal';
import type { ArgspanSession } from '@argspan/instrumentation';
import { gatedInstrumentation } from '../shared/gated-instrumentation.js';
import { jsonSchemaOf } from './schema.js';
import type { AiAdapterOptions, AiToolExecutionOptions, AiToolLike } from './types.js';
import { userTextsOf } from './user-text.js';

/**
 * Instrument a Vercel AI SDK `tools` record: each tool's `execute` is classified, gated and traced
 * (`execute_tool {name}`, call id from `options.toolCallId`) before it runs. Refused, blocked and
 * asked calls throw the typed gate error without running the tool; the AI SDK turns a throw into a
 * `tool-error` the model sees (the message names the rule and key, never a value). Each tool's
 * input schema (zod 4, `jsonSchema()`, plain JSON schema) feeds schema defaults and public keys;
 * results become provenance context for later calls. Returns a new record; the tools passed in are
 * not modified, and tools without `execute` are passed through.
 *
 * ```ts
 * const result = await generateText({ model, prompt, tools: instrumentAiTools({ getWeather }, { session }) });
 * ```
 */
export function instrumentAiTools<T extends Record<string, AiToolLike>>(tools: T, options: AiAdapterOptions = {}): T {
  const { userTextFromMessages = true, ...adapterOptions } = options;
  const gated = gatedInstrumentation({ resultToContext: (_tool, result) => (isAsyncIterable(result) ? undefined : result), ...adapterOptions });
  const session = gated.instrumentation.session;
  const out: Record<string, AiToolLike> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool?.execute;
    if (typeof execute !== 'function') {
      out[name] = tool;
      continue;
    }
    let schemaLearned: Promise<void> | undefined;
    const learnSchema = () =>
      (schemaLearned ??= jsonSchemaOf(tool.inputSchema).then((s) => {
        gated.learnTool(name, { type: 'function', description: tool.description, ...(s !== undefined ? { jsonSchema: s } : {}) });
      }));
    const run = async (input: unknown, execOptions: AiToolExecutionOptions): Promise<{ result: unknown; callId: string | undefined }> => {
      await learnSchema();
      if (userTextFromMessages) addNewUserText(session, userTextsOf(execOptions?.messages));
      const callId = typeof execOptions?.toolCallId === 'string' ? execOptions.toolCallId : undefined;
      const result = await gated.instrumentation.call(name, input, callId === undefined ? undefined : { callId }, (args) =>
        execute.call(tool, args, execOptions),
      );
      return { result, callId };
    };
    // A streaming tool (`async function*`) stays a generator, so the AI SDK still sees preliminary results.
    const wrapped = isAsyncGeneratorFunction(execute)
      ? async function* (input: unknown, execOptions: AiToolExecutionOptions) {
          const { result, callId } = await run(input, execOptions);
          if (isAsyncIterable(result)) yield* recordLast(result, session, callId);
          else yield result;
        }
      : async (input: unknown, execOptions: AiToolExecutionOptions) => (await run(input, execOptions)).result;
    out[name] = { ...tool, execute: wrapped };
  }
  return out as T;
}

function addNewUserText(session: ArgspanSession, texts: readonly string[]): void {
  if (texts.length === 0) return;
  const known = new Set(session.userText);
  for (const t of texts) {
    if (!known.has(t)) {
      session.addUserText(t);
      known.add(t);
    }
  }
}

function isAsyncGeneratorFunction(fn: unknown): boolean {
  return typeof fn === 'function' && fn.constructor?.name === 'AsyncGeneratorFunction';
}

/** Pass a streaming tool's values through; its last value (the final output) becomes context. */
async function* recordLast(source: AsyncIterable<unknown>, session: ArgspanSession, callId: string | undefined): AsyncGenerator<unknown> {
  let last: unknown;
  let any = false;
  for await (const v of source) {
    last = v;
    any = true;
    yield v;
  }
  if (any && last !== undefined) session.addContext(callId === undefined ? { content: last } : { callId, content: last });
}
