/** @argspan/adapters/ai — a Vercel AI SDK `tools` record whose every `execute` is classified, gated and traced. */
export { instrumentAiTools } from './instrument-tools.js';
export { jsonSchemaOf } from './schema.js';
export type { AiAdapterOptions, AiToolExecutionOptions, AiToolLike } from './types.js';
