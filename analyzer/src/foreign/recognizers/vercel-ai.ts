import { Emitter } from '@argspan/conventions';
import type { ToolSpanRecognizer } from '../types.js';
import { argumentBlob, argumentsIn, firstStr, opt, str, UNNAMED_TOOL } from './attributes.js';

export const VercelAiAttributes = {
  TOOL_NAME: 'ai.toolCall.name',
  TOOL_CALL_ID: 'ai.toolCall.id',
  /** `args` up to AI SDK 4, `input` from 5. */
  TOOL_ARGS: ['ai.toolCall.args', 'ai.toolCall.input'],
  TOOL_RESULT: ['ai.toolCall.result', 'ai.toolCall.output'],
} as const;

/** The Vercel AI SDK's own telemetry: `ai.toolCall` with `ai.toolCall.{name,id,args,result}`. */
export const vercelAi: ToolSpanRecognizer = {
  emitter: Emitter.VERCEL_AI,
  // (the arguments' keys too: a span that left the name out, or wrote it as no text, is still a call)
  keys: [VercelAiAttributes.TOOL_NAME, ...VercelAiAttributes.TOOL_ARGS],
  argumentKeys: VercelAiAttributes.TOOL_ARGS,
  toolCall(span) {
    const tool = str(span, VercelAiAttributes.TOOL_NAME);
    const args = argumentsIn(span, VercelAiAttributes.TOOL_ARGS);
    // Without its name (or with a name that is no text), a call of the unnamed tool: its arguments are still read.
    if (tool === undefined && args === undefined) return undefined;
    return {
      tool: tool ?? UNNAMED_TOOL,
      ...opt('callId', str(span, VercelAiAttributes.TOOL_CALL_ID)),
      args: argumentBlob(args, VercelAiAttributes.TOOL_ARGS[0], {}),
      ...opt('result', firstStr(span, VercelAiAttributes.TOOL_RESULT)?.value),
    };
  },
};
