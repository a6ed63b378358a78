/** @argspan/adapters/openai-agents — OpenAI Agents SDK function tools whose every call is classified, gated and traced. */
export { instrumentAgentTools } from './instrument-tools.js';
export type { AgentToolCallDetails, AgentToolLike, AgentsAdapterOptions } from './types.js';
