import { Emitter, GenAiAttributes } from '@argspan/conventions';
import { CLAUDE_MCP_TOOL, CLAUDE_REJECTED, ClaudeCodeSpans, ClaudeCodeToolResult, CODEX_REFUSED_OUTPUT, CodexSpans, CodingAgentAttributes as A, CodingAgentEvents, GEMINI_CLI_TRUNCATED, GeminiCliSpans } from '../coding-agent-events.js';
import { type ForeignSpan, type RecordedArguments, type ToolSpanRecognizer } from '../types.js';
import { argumentBlob, argumentsIn, isObject, opt, str, UNNAMED_TOOL } from './attributes.js';

/** Where Claude Code writes a call's arguments: the model's own (`OTEL_LOG_TOOL_DETAILS=1`), else its chosen parts of them. */
const CLAUDE_ARGUMENT_KEYS: readonly string[] = [A.CLAUDE_TOOL_INPUT, A.CLAUDE_TOOL_PARAMETERS];

/**
 * Claude Code's calls, as its events and its traces record them.
 *
 * The `claude_code.tool_result` log record, read as a span of its own (see
 * `load/coding-agent-records.ts`): the tool in `tool_name`, the call id in `tool_use_id`, the
 * arguments in `tool_input` (the model's JSON, with `OTEL_LOG_TOOL_DETAILS=1`) or else
 * `tool_parameters` (Bash's `bash_command`, `full_command`, `description`). A user's MCP tool is
 * `tool_name = mcp_tool`, the server and tool named only in `tool_parameters`: the tool is then
 * `mcp__{server}__{tool}`, as Claude Code's permission rules name it, and without `tool_input`
 * its arguments are not recorded (those two names are not arguments). A call refused before it
 * ran writes no tool result: its `claude_code.tool_decision` record (`decision = reject`, the same
 * names, `tool_parameters` with `OTEL_LOG_TOOL_DETAILS=1`) is then the model's request, read alike.
 *
 * The `claude_code.tool` span (traces, beta): the same `tool_name` and `tool_use_id`; the model's
 * arguments in `tool_input` with detailed beta tracing (after a line `[TOOL INPUT: {tool}]`), else
 * (`OTEL_LOG_TOOL_DETAILS=1`) the parts Claude Code writes one attribute each — `file_path`,
 * `full_command`, `skill_name`, `subagent_type` — read as the call's arguments by those names; else
 * not recorded. Its tool's result, where the span records one (`new_context`, a `tool.output`
 * event: see `ClaudeCodeToolResult`), is the call's result: a value a later call copies out of it
 * is the tool's, not the model's guess, and a value out of a read of `.env` is still secret. (Whether it
 * ran, its `claude_code.tool.blocked_on_user` child tells; a call both exported as a record and
 * traced as a span is one call: see `claudeCodeCalls` in `classify-trace.ts`.)
 */
export const claudeCode: ToolSpanRecognizer = {
  emitter: Emitter.CLAUDE_CODE,
  keys: [],
  // (a tool span's permission wait too: not a call, but whether its call ran, read with it)
  spanNames: [CodingAgentEvents.CLAUDE_CODE_TOOL_RESULT, CodingAgentEvents.CLAUDE_CODE_TOOL_DECISION, ClaudeCodeSpans.TOOL, ClaudeCodeSpans.BLOCKED_ON_USER],
  argumentKeys: CLAUDE_ARGUMENT_KEYS,
  toolCall(span) {
    if (span.name === ClaudeCodeSpans.TOOL) return claudeCodeToolSpan(span);
    let refused: boolean;
    if (span.name === CodingAgentEvents.CLAUDE_CODE_TOOL_RESULT) refused = str(span, A.CLAUDE_DECISION_TYPE) === CLAUDE_REJECTED;
    // (an accepted call's decision record is its tool result's twin, which holds more: only a refused call's is read)
    else if (span.name === CodingAgentEvents.CLAUDE_CODE_TOOL_DECISION && str(span, A.CLAUDE_DECISION) === CLAUDE_REJECTED) refused = true;
    else return undefined;
    const named = str(span, A.CLAUDE_TOOL_NAME) ?? UNNAMED_TOOL;
    const mcp = named === CLAUDE_MCP_TOOL ? mcpToolName(str(span, A.CLAUDE_TOOL_PARAMETERS)) : undefined;
    const held = named === CLAUDE_MCP_TOOL ? argumentsIn(span, [A.CLAUDE_TOOL_INPUT]) : argumentsIn(span, CLAUDE_ARGUMENT_KEYS);
    return {
      tool: mcp ?? named,
      ...opt('callId', str(span, A.CLAUDE_TOOL_USE_ID)),
      args: argumentBlob(held, A.CLAUDE_TOOL_INPUT, {}),
      ...(refused ? { source: 'model-output' as const } : {}),
    };
  },
};

/** A `claude_code.tool` span's call (see {@link claudeCode}), with its tool's result where the span records it. */
function claudeCodeToolSpan(span: ForeignSpan): ReturnType<ToolSpanRecognizer['toolCall']> {
  const recorded = argumentsIn(span, [A.CLAUDE_TOOL_INPUT]);
  const held = recorded && !recorded.notText ? { ...recorded, text: afterClaudeLabel(recorded.text, ClaudeCodeToolResult.INPUT_LINE) ?? recorded.text } : recorded;
  const tool = str(span, A.CLAUDE_TOOL_NAME) ?? UNNAMED_TOOL;
  return {
    tool,
    ...opt('callId', str(span, A.CLAUDE_TOOL_USE_ID) ?? str(span, GenAiAttributes.TOOL_CALL_ID)),
    args: held === undefined ? (toolSpanDetails(span) ?? argumentBlob(undefined, A.CLAUDE_TOOL_INPUT, {})) : argumentBlob(held, A.CLAUDE_TOOL_INPUT, {}),
    ...opt('result', claudeCodeToolResult(span, tool)),
  };
}

/**
 * What a `claude_code.tool` span records of its tool's result (see {@link ClaudeCodeToolResult}):
 * `new_context` without its label line, else its `tool.output` events' `output` and `content`, one
 * a line; undefined when it records none, or the tool writes what the model gave it.
 */
function claudeCodeToolResult(span: ForeignSpan, tool: string): string | undefined {
  if (ClaudeCodeToolResult.WRITING_TOOLS.has(tool)) return undefined;
  const context = str(span, ClaudeCodeToolResult.NEW_CONTEXT);
  if (context !== undefined) return afterClaudeLabel(context, ClaudeCodeToolResult.RESULT_LINE) ?? context;
  let texts: string[] | undefined;
  for (const event of span.events ?? []) {
    if (event.name !== ClaudeCodeToolResult.OUTPUT_EVENT) continue;
    for (const key of [ClaudeCodeToolResult.OUTPUT, ClaudeCodeToolResult.CONTENT]) {
      const text = event.attrs.get(key);
      if (text !== undefined) (texts ??= []).push(text);
    }
  }
  return texts?.join('\n');
}

/**
 * A text of Claude Code's detailed beta tracing after its first line, when that line starts with
 * `label` (`[TOOL INPUT: ` of `[TOOL INPUT: Bash]`); undefined when the text has no such line.
 */
export function afterClaudeLabel(text: string, label: string): string | undefined {
  if (!text.startsWith(label)) return undefined;
  const end = text.indexOf('\n');
  return end === -1 ? undefined : text.slice(end + 1);
}

/** The parts of the arguments a `claude_code.tool` span writes one attribute each, by their names; undefined when it writes none. */
function toolSpanDetails(span: ForeignSpan): RecordedArguments | undefined {
  let value: Record<string, string> | undefined;
  let parts: string[] | undefined;
  for (const key of A.CLAUDE_TOOL_SPAN_DETAILS) {
    const text = str(span, key);
    if (text === undefined) continue;
    (value ??= {})[key] = text;
    (parts ??= []).push(key);
  }
  return value && parts ? { kind: 'value', attribute: parts[0]!, value, parts } : undefined;
}

/**
 * Gemini CLI's `gemini_cli.tool_call` log record, read as a span of its own: the tool in
 * `function_name`, the arguments in `function_args` (indented JSON; only with
 * `telemetry.logPrompts`, on by default). The record has no call id.
 */
export const geminiCli: ToolSpanRecognizer = geminiCliToolCall(Emitter.GEMINI_CLI, CodingAgentEvents.GEMINI_CLI_TOOL_CALL);

/** Qwen Code's `qwen-code.tool_call` record: Gemini CLI's (Qwen Code is its fork), with the call id in `call_id`. */
export const qwenCode: ToolSpanRecognizer = geminiCliToolCall(Emitter.QWEN_CODE, CodingAgentEvents.QWEN_CODE_TOOL_CALL);

/** The recogniser of Gemini CLI's tool call record, and of its forks' (the same attributes under their own event name). */
function geminiCliToolCall(emitter: typeof Emitter.GEMINI_CLI | typeof Emitter.QWEN_CODE, event: string): ToolSpanRecognizer {
  return {
    emitter,
    keys: [],
    spanNames: [event],
    argumentKeys: [A.GEMINI_FUNCTION_ARGS],
    toolCall(span) {
      if (span.name !== event) return undefined;
      const refused = str(span, A.GEMINI_DECISION) === GEMINI_REJECTED || GEMINI_REFUSED_ERRORS.has(str(span, A.GEMINI_ERROR_TYPE) ?? '');
      return {
        tool: str(span, A.GEMINI_FUNCTION_NAME) ?? UNNAMED_TOOL,
        ...opt('callId', str(span, A.CALL_ID)),
        args: argumentBlob(argumentsIn(span, [A.GEMINI_FUNCTION_ARGS]), A.GEMINI_FUNCTION_ARGS, {}),
        ...(refused ? { source: 'model-output' as const } : {}),
      };
    },
  };
}

/**
 * Codex CLI's `codex.tool_result` log record (its `[otel]` log export), read as a span of its own:
 * the tool in `tool_name` — an MCP server's under its namespace (`tool_namespace = mcp__{server}`:
 * `mcp__{server}__{tool}`, as Claude Code names them; its built-in tools' namespace, `functions`,
 * is left out) —, the call id in `call_id`, the model's arguments in `arguments` (written always,
 * whatever `log_user_prompt` says), the tool's output in `output`. (Its trace export's events of the
 * same name leave the arguments and output out: their lengths only.) A function tool's arguments are
 * JSON; a freeform tool's (`apply_patch` for the models that write patches as text) are the text the
 * model wrote, the Responses API's `input` of its `custom_tool_call`: read as that one argument, so
 * a credential written into a patch is reported by tool and key, and the call is checked. A call
 * Codex refused without running it (`success = false` and its refusal as the output: see
 * `CODEX_REFUSED_OUTPUT`) is the model's request, not a call that ran.
 */
export const codex: ToolSpanRecognizer = {
  emitter: Emitter.CODEX,
  keys: [],
  spanNames: [CodingAgentEvents.CODEX_TOOL_RESULT],
  argumentKeys: [A.CODEX_ARGUMENTS],
  toolCall(span) {
    if (span.name !== CodingAgentEvents.CODEX_TOOL_RESULT) return undefined;
    const output = str(span, A.CODEX_OUTPUT);
    const refused = str(span, A.CODEX_SUCCESS) === 'false' && output !== undefined && CODEX_REFUSED_OUTPUT.test(output);
    return {
      tool: codexToolName(span),
      ...opt('callId', str(span, A.CALL_ID)),
      args: argumentBlob(argumentsIn(span, [A.CODEX_ARGUMENTS]), A.CODEX_ARGUMENTS, { rawStringIsValue: true, openedJsonIsCut: true, unwrap: freeformInput }),
      ...(refused ? { source: 'model-output' as const } : opt('result', output)),
    };
  },
};

/**
 * Codex CLI's tool span (its trace export, {@link CodexSpans}): the tool in `tool_name`, the call id
 * in `call_id`; its arguments are in no span (the log export's `codex.tool_result` holds them), so
 * the call is counted as not checked — unless that record is given too: then the call is the record's.
 */
export const codexSpans: ToolSpanRecognizer = {
  emitter: Emitter.CODEX,
  keys: [CodexSpans.PHASE],
  argumentKeys: [],
  toolCall(span) {
    if (str(span, CodexSpans.PHASE) !== CodexSpans.DISPATCH) return undefined;
    return {
      tool: codexToolName(span),
      ...opt('callId', str(span, A.CALL_ID)),
      args: argumentBlob(undefined, A.CODEX_ARGUMENTS, {}),
    };
  },
};

/** A freeform tool's text as its one argument, `input` (see {@link codex}); JSON arguments as they are. */
function freeformInput(decoded: unknown): unknown {
  return typeof decoded === 'string' ? { [CODEX_FREEFORM_INPUT]: decoded } : decoded;
}

/** The Responses API's field for a freeform (custom) tool call's text. */
const CODEX_FREEFORM_INPUT = 'input';

/** A Codex CLI call's tool: `tool_name`, under its `tool_namespace` unless that is the built-in tools' (`functions`). */
function codexToolName(span: ForeignSpan): string {
  const tool = str(span, A.CODEX_TOOL_NAME) ?? UNNAMED_TOOL;
  const namespace = str(span, A.CODEX_TOOL_NAMESPACE);
  return namespace === undefined || namespace === '' || namespace === CODEX_BUILTIN_NAMESPACE ? tool : `${namespace}__${tool}`;
}

/** The namespace of Codex CLI's own tools (`exec_command`, `apply_patch`, …). */
const CODEX_BUILTIN_NAMESPACE = 'functions';

/** Gemini CLI's `decision` on a call the user refused. */
const GEMINI_REJECTED = 'reject';
/** Gemini CLI's `error_type` of a call refused before it ran: arguments its tool refused (a path its ignore files list), a tool it does not have, a policy's refusal. */
const GEMINI_REFUSED_ERRORS: ReadonlySet<string> = new Set(['invalid_tool_params', 'tool_not_registered', 'policy_violation']);

/** Whether `span` is one of Gemini CLI's own spans (its scope) of the operation `operation`. */
export function isGeminiCliSpan(span: ForeignSpan, operation?: string): boolean {
  return span.scope === GeminiCliSpans.SCOPE && (operation === undefined || str(span, GenAiAttributes.OPERATION_NAME) === operation);
}

/**
 * Gemini CLI's `tool_call` span (see {@link GeminiCliSpans}): the tool in `gen_ai.tool.name`, the
 * call id in `gen_ai.tool.call_id`, the arguments in the request in `gen_ai.input.messages`
 * (`args`), the result in the completed call in `gen_ai.output.messages` (its `response`). A request
 * Gemini CLI cut at its attribute limit is arguments cut off.
 */
export const geminiCliSpans: ToolSpanRecognizer = {
  emitter: Emitter.GEMINI_CLI,
  keys: [GeminiCliSpans.CALL_ID],
  argumentKeys: [GenAiAttributes.INPUT_MESSAGES],
  toolCall(span) {
    if (!isGeminiCliSpan(span, GeminiCliSpans.TOOL_CALL)) return undefined;
    const held = argumentsIn(span, [GenAiAttributes.INPUT_MESSAGES]);
    const cut = held !== undefined && GEMINI_CLI_TRUNCATED.test(held.text);
    return {
      tool: str(span, GenAiAttributes.TOOL_NAME) ?? UNNAMED_TOOL,
      ...opt('callId', str(span, GeminiCliSpans.CALL_ID)),
      args: argumentBlob(held, GenAiAttributes.INPUT_MESSAGES, {
        // (a request of another shape is read whole: what it holds is still checked; of a request
        // cut off, and so read as cut off, only its complete `args`: before them the call's own fields)
        unwrap: (request) => (isObject(request) && 'args' in request ? request.args : cut ? undefined : request),
      }),
      ...opt('result', completedCallResponse(str(span, GenAiAttributes.OUTPUT_MESSAGES))),
    };
  },
};

/** The response of Gemini CLI's completed call (its JSON), else the text as written (cut off, or another shape): the tool's result. */
function completedCallResponse(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const completed = JSON.parse(text) as unknown;
    // (the completed call repeats the request: its arguments are not the tool's result)
    if (isObject(completed) && completed.response !== undefined) return JSON.stringify(completed.response);
  } catch {
    // cut off: the text as written
  }
  return text;
}

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
