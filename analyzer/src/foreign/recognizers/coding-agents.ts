import { Emitter } from '@argspan/conventions';
import { CLAUDE_MCP_TOOL, CodingAgentAttributes as A, CodingAgentEvents } from '../coding-agent-events.js';
import type { ToolSpanRecognizer } from '../types.js';
import { argumentBlob, argumentsIn, opt, str, UNNAMED_TOOL } from './attributes.js';

/** Where Claude Code writes a call's arguments: the model's own (`OTEL_LOG_TOOL_DETAILS=1`), else its chosen parts of them. */
const CLAUDE_ARGUMENT_KEYS: readonly string[] = [A.CLAUDE_TOOL_INPUT, A.CLAUDE_TOOL_PARAMETERS];

/**
 * Claude Code's `claude_code.tool_result` log record, read as a span of its own (see
 * `load/coding-agent-records.ts`): the tool in `tool_name`, the call id in `tool_use_id`, the
 * arguments in `tool_input` (the model's JSON, with `OTEL_LOG_TOOL_DETAILS=1`) or else
 * `tool_parameters` (Bash's `bash_command`, `full_command`, `description`). A user's MCP tool is
 * `tool_name = mcp_tool`, the server and tool named only in `tool_parameters`: the tool is then
 * `mcp__{server}__{tool}`, as Claude Code's permission rules name it, and without `tool_input`
 * its arguments are not recorded (those two names are not arguments).
 */
export const claudeCode: ToolSpanRecognizer = {
  emitter: Emitter.CLAUDE_CODE,
  keys: [],
  spanNames: [CodingAgentEvents.CLAUDE_CODE_TOOL_RESULT],
  argumentKeys: CLAUDE_ARGUMENT_KEYS,
  toolCall(span) {
    if (span.name !== CodingAgentEvents.CLAUDE_CODE_TOOL_RESULT) return undefined;
    const named = str(span, A.CLAUDE_TOOL_NAME) ?? UNNAMED_TOOL;
    const mcp = named === CLAUDE_MCP_TOOL ? mcpToolName(str(span, A.CLAUDE_TOOL_PARAMETERS)) : undefined;
    const held = named === CLAUDE_MCP_TOOL ? argumentsIn(span, [A.CLAUDE_TOOL_INPUT]) : argumentsIn(span, CLAUDE_ARGUMENT_KEYS);
    return {
      tool: mcp ?? named,
      ...opt('callId', str(span, A.CLAUDE_TOOL_USE_ID)),
      args: argumentBlob(held, A.CLAUDE_TOOL_INPUT, {}),
    };
  },
};

/**
 * Gemini CLI's `gemini_cli.tool_call` log record, read as a span of its own: the tool in
 * `function_name`, the arguments in `function_args` (indented JSON; only with
 * `telemetry.logPrompts`, on by default). The record has no call id.
 */
export const geminiCli: ToolSpanRecognizer = {
  emitter: Emitter.GEMINI_CLI,
  keys: [],
  spanNames: [CodingAgentEvents.GEMINI_CLI_TOOL_CALL],
  argumentKeys: [A.GEMINI_FUNCTION_ARGS],
  toolCall(span) {
    if (span.name !== CodingAgentEvents.GEMINI_CLI_TOOL_CALL) return undefined;
    return {
      tool: str(span, A.GEMINI_FUNCTION_NAME) ?? UNNAMED_TOOL,
      args: argumentBlob(argumentsIn(span, [A.GEMINI_FUNCTION_ARGS]), A.GEMINI_FUNCTION_ARGS, {}),
    };
  },
};

/** `mcp__{server}__{tool}` from Claude Code's `tool_parameters` of an MCP call, or undefined when it does not name both. */
function mcpToolName(parameters: string | undefined): string | undefined {
  if (parameters === undefined) return undefined;
  try {
    const p = JSON.parse(parameters) as unknown;
    if (p === null || typeof p !== 'object') return undefined;
    const { mcp_server_name: server, mcp_tool_name: tool } = p as Record<string, unknown>;
    return typeof server === 'string' && typeof tool === 'string' ? `mcp__${server}__${tool}` : undefined;
  } catch {
    return undefined;
  }
}
