/**
 * A recorded transcript replayed as an OpenAI Agents SDK model: each `getResponse` returns the next
 * step's output items (function calls, then a final message). The SDK's own test helpers
 * (`@openai/agents/testing`) arrived in versions that need Node 22; this serves the versions that
 * run on Node 20. Not shipped.
 */
import { Usage } from '@openai/agents';
import type { Model, ModelRequest, ModelResponse } from '@openai/agents';

type OutputItem = ModelResponse['output'][number];

/** A function call the model makes. */
export function functionCall(name: string, args: unknown, options: { callId: string }): OutputItem {
  return { type: 'function_call', id: options.callId, callId: options.callId, name, status: 'completed', arguments: JSON.stringify(args) } as OutputItem;
}

/** The model's final text. */
export function assistantMessage(text: string): OutputItem {
  return { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] } as OutputItem;
}

export class ScriptedModel implements Model {
  private step = 0;
  /** The calls the runner made, in order (to check what the model was shown). */
  readonly calls: { request: ModelRequest }[] = [];

  constructor(private readonly steps: readonly (readonly OutputItem[])[]) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.calls.push({ request });
    const output = this.steps[this.step++];
    if (!output) throw new Error(`ScriptedModel: no step ${this.step} in the script`);
    return { usage: new Usage(), output: [...output], responseId: `resp_${this.step}` };
  }

  // eslint-disable-next-line require-yield
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('ScriptedModel: streaming is not scripted');
  }
}
