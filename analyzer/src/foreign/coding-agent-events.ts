/**
 * The log records of coding agents read as spans of their own (see `load/coding-agent-records.ts`),
 * by their full event name, which the span is named after.
 */
export const CodingAgentEvents = {
  /** Claude Code, after a tool ran: `tool_name`, `tool_use_id`, `tool_input` (`OTEL_LOG_TOOL_DETAILS=1`) or `tool_parameters`. */
  CLAUDE_CODE_TOOL_RESULT: 'claude_code.tool_result',
  /**
   * Claude Code, a permission decision on a call before it runs: `decision` (`accept`, `reject`),
   * `tool_name`, `tool_use_id`, `tool_parameters` (`OTEL_LOG_TOOL_DETAILS=1`). A refused call does
   * not run and writes no tool result: this record is all the events hold of it.
   */
  CLAUDE_CODE_TOOL_DECISION: 'claude_code.tool_decision',
  /** Claude Code, a prompt the user entered: `prompt` (`<REDACTED>` unless `OTEL_LOG_USER_PROMPTS=1`). */
  CLAUDE_CODE_USER_PROMPT: 'claude_code.user_prompt',
  /** Gemini CLI, after a tool call: `function_name`, `function_args` (with `telemetry.logPrompts`, on by default). */
  GEMINI_CLI_TOOL_CALL: 'gemini_cli.tool_call',
  /** Gemini CLI, a prompt the user entered: `prompt` (with `telemetry.logPrompts`). */
  GEMINI_CLI_USER_PROMPT: 'gemini_cli.user_prompt',
  /** Qwen Code (a fork of Gemini CLI), after a tool call: Gemini CLI's attributes, and the call's `call_id`. */
  QWEN_CODE_TOOL_CALL: 'qwen-code.tool_call',
  /** Qwen Code, a prompt the user entered: `prompt` (with `telemetry.logPrompts`). */
  QWEN_CODE_USER_PROMPT: 'qwen-code.user_prompt',
  /** Codex CLI, after a tool ran: `tool_name`, `call_id`, `arguments` (the model's JSON, always), `output`, `success`, `mcp_server`. */
  CODEX_TOOL_RESULT: 'codex.tool_result',
  /** Codex CLI, a prompt the user entered: `prompt` (`[REDACTED]` unless `[otel] log_user_prompt = true`). */
  CODEX_USER_PROMPT: 'codex.user_prompt',
} as const;

/** Qwen Code's span of a tool call (GenAI conventions' `execute_tool`, `gen_ai.tool.call.id`; no arguments), beside its `qwen-code.tool_call` record. */
export const QWEN_CODE_TOOL_SPAN = 'qwen-code.tool';

/**
 * Codex CLI's own spans (its `trace_exporter`; scope `codex_exec`, several hundred a turn): a tool
 * call's is named after its tool, with `tool_name`, `call_id`, `conversation.id` and
 * `codex.tool.phase = dispatch`. No span holds a call's arguments or output, or the prompt: their
 * events (`codex.tool_result`, `codex.user_prompt`, target `codex_otel.trace_safe`) write lengths only.
 */
export const CodexSpans = {
  PHASE: 'codex.tool.phase',
  DISPATCH: 'dispatch',
} as const;

/**
 * The event name Rust's `tracing` gives an event it was not told to name (`event {file}:{line}`),
 * which Codex CLI's log export writes as OTLP's event name: the event is then named by its
 * `event.name` attribute.
 */
export const RUST_TRACING_EVENT_NAME = /^event \S+:\d+$/;

/**
 * Claude Code's own spans (traces, beta: `CLAUDE_CODE_ENHANCED_TELEMETRY_BETA=1`), under the scope
 * `com.anthropic.claude_code.tracing`: a prompt's `claude_code.interaction`, and under it a
 * `claude_code.tool` per tool call (with `claude_code.tool.blocked_on_user` and
 * `claude_code.tool.execution` below it, which say nothing of the arguments).
 */
export const ClaudeCodeSpans = {
  /** A prompt: `user_prompt` (`<REDACTED>` unless `OTEL_LOG_USER_PROMPTS=1`); with detailed beta tracing `new_context`, the prompt after a line `[USER PROMPT]`. */
  INTERACTION: 'claude_code.interaction',
  /**
   * A model request; with detailed beta tracing `new_context`, what was new in it since the last:
   * the user's texts (each after a line `[USER]`) and the tools' results (each after a line
   * `[TOOL RESULT: {tool_use_id}]`), parted by lines `---` between blank lines.
   */
  LLM_REQUEST: 'claude_code.llm_request',
  /** A tool call: `tool_name`, `tool_use_id`; with `OTEL_LOG_TOOL_DETAILS=1` parts of the arguments, with detailed beta tracing `tool_input`; its result: {@link ClaudeCodeToolResult}. */
  TOOL: 'claude_code.tool',
  /** Under a `claude_code.tool`, the permission wait: `decision` (`accept`, `reject`); a rejected call has no `claude_code.tool.execution`. */
  BLOCKED_ON_USER: 'claude_code.tool.blocked_on_user',
} as const;

/**
 * How a `claude_code.tool` span records its tool's result. With detailed beta tracing, `new_context`:
 * the result as the model got it, after a line `[TOOL RESULT: {tool}]` (and `tool_input` the
 * arguments after a line `[TOOL INPUT: {tool}]`). With `OTEL_LOG_TOOL_CONTENT=1`, a `tool.output`
 * event: Read's `file_path` and `content` (the file's text), Bash's `bash_command` and `output`,
 * Edit's `file_path` and `diff`, Write's `file_path` and `content`: its `output` and `content` are
 * the result. Not of the tools that write what the model gave them (Write's `content`, Edit's
 * `diff` and its result's snippet of the file are the model's own text beside the file's): read
 * as a tool's, a value the model made up would pass for one a tool gave.
 */
export const ClaudeCodeToolResult = {
  OUTPUT_EVENT: 'tool.output',
  NEW_CONTEXT: 'new_context',
  RESULT_LINE: '[TOOL RESULT: ',
  INPUT_LINE: '[TOOL INPUT: ',
  OUTPUT: 'output',
  CONTENT: 'content',
  /** The tools whose result echoes the model's arguments: not read. */
  WRITING_TOOLS: new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']) as ReadonlySet<string>,
} as const;

/**
 * Gemini CLI's own spans (`telemetry.traces`, 0.5x and later; instrumentation scope `gemini-cli`):
 * one `llm_call` per model request (its `contents` in `gen_ai.input.messages`, the reply's content
 * in `gen_ai.output.messages`: Gemini's `Content`, not the GenAI conventions' parts), a
 * `schedule_tool_calls` per batch of calls and under it a `tool_call` per call. A tool span's
 * `gen_ai.input.messages` is the call's request (`{callId, name, args, …}`) and its
 * `gen_ai.output.messages` the completed call (`{status, request, response: {responseParts, …}}`):
 * not messages. Each attribute is cut at 10,000 characters, with {@link GEMINI_CLI_TRUNCATED} after.
 * The session id in `gen_ai.conversation.id` links a session's traces (each model call is a trace).
 */
export const GeminiCliSpans = {
  SCOPE: 'gemini-cli',
  LLM_CALL: 'llm_call',
  TOOL_CALL: 'tool_call',
  /** A batch of calls: its `gen_ai.input.messages` the requests (`[{callId, name, args, …}]`). */
  SCHEDULE: 'schedule_tool_calls',
  /** The call id (Gemini CLI's spelling; the conventions' is `gen_ai.tool.call.id`). */
  CALL_ID: 'gen_ai.tool.call_id',
} as const;

/** The end Gemini CLI writes on an attribute it cut (`...[TRUNCATED: original length 12345]`). */
export const GEMINI_CLI_TRUNCATED = /\.\.\.\[TRUNCATED: original length \d+\]$/;

/** Claude Code's `decision` (a tool decision record, a `tool.blocked_on_user` span) or `decision_type` (a tool result) of a call it refused to run. */
export const CLAUDE_REJECTED = 'reject';

/** The attributes of those records the readers read. */
export const CodingAgentAttributes = {
  /** Both agents' user prompt. */
  PROMPT: 'prompt',
  /** Claude Code's permission decision on a call (a tool decision record, a `tool.blocked_on_user` span). */
  CLAUDE_DECISION: 'decision',
  /** The decision on a tool result record. */
  CLAUDE_DECISION_TYPE: 'decision_type',
  /** Claude Code's user prompt on its `claude_code.interaction` span. */
  CLAUDE_USER_PROMPT: 'user_prompt',
  CLAUDE_TOOL_NAME: 'tool_name',
  CLAUDE_TOOL_USE_ID: 'tool_use_id',
  /** The model's arguments as JSON (values past 512 characters cut by Claude Code). */
  CLAUDE_TOOL_INPUT: 'tool_input',
  /** Claude Code's chosen parts of the arguments as JSON: Bash's `full_command`, an MCP tool's server and tool names. */
  CLAUDE_TOOL_PARAMETERS: 'tool_parameters',
  /**
   * The parts of a call's arguments Claude Code writes on its `claude_code.tool` span with
   * `OTEL_LOG_TOOL_DETAILS=1`: Read's, Edit's and Write's target file, Bash's command, the skill
   * and the subagent type asked for.
   */
  CLAUDE_TOOL_SPAN_DETAILS: ['file_path', 'full_command', 'skill_name', 'subagent_type'],
  GEMINI_FUNCTION_NAME: 'function_name',
  GEMINI_FUNCTION_ARGS: 'function_args',
  /** Gemini CLI's decision on a call (`accept`, `reject`, `modify`, `auto_accept`). */
  GEMINI_DECISION: 'decision',
  /** Gemini CLI's error of a call that failed (`invalid_tool_params`, `execution_failed`, …). */
  GEMINI_ERROR_TYPE: 'error_type',
  /** The call id on Qwen Code's and Codex CLI's records (Gemini CLI's record has none). */
  CALL_ID: 'call_id',
  CODEX_TOOL_NAME: 'tool_name',
  /** `functions` for Codex CLI's own tools, `mcp__{server}` for an MCP server's. */
  CODEX_TOOL_NAMESPACE: 'tool_namespace',
  /** The model's arguments (JSON; a freeform tool's text), written whatever `log_user_prompt` says. */
  CODEX_ARGUMENTS: 'arguments',
  /** What the tool gave the model (a command's output after Codex's own header lines). */
  CODEX_OUTPUT: 'output',
  /** Whether Codex CLI's call succeeded (`true`, `false`): a call it refused without running it is a failure. */
  CODEX_SUCCESS: 'success',
} as const;

/**
 * The output Codex CLI gives the model for a call it refused without running it (0.171's texts):
 * an escalation its approval policy (`never`, `codex exec`'s) forbids, a command or patch the
 * person declined, a write its sandbox settings refuse. With `success = false` only.
 */
export const CODEX_REFUSED_OUTPUT = /^(?:approval policy is Never; reject command\b|(?:exec command|patch) rejected by user$|writing (?:is blocked by read-only sandbox|outside of the project); rejected by user approval settings$)/;

/** What Claude Code and Codex CLI write as a prompt they were told not to record. */
export const REDACTED_PROMPTS: ReadonlySet<string> = new Set(['<REDACTED>', '[REDACTED]']);

/** Claude Code's `tool_name` for every tool of a user's MCP server (the server and tool are named in `tool_parameters`). */
export const CLAUDE_MCP_TOOL = 'mcp_tool';

/** Claude Code's log records' instrumentation scope. */
export const CLAUDE_CODE_EVENTS_SCOPE = 'com.anthropic.claude_code.events';
/** The prefix of Claude Code's event names, which its `event.name` attribute leaves out (its body has it). */
export const CLAUDE_CODE_PREFIX = 'claude_code.';

/** The records read as spans, by their full event name. */
export const CODING_AGENT_EVENT_NAMES: readonly string[] = Object.values(CodingAgentEvents);

/**
 * How both engines name a record's span when it carries no trace id, from texts only (a hash of
 * them: `codingAgentTraceId`, `codingAgentSpanId`): the trace by the agent, the session
 * (`session.id`, else Codex CLI's `conversation.id`) and the prompt (Claude Code's `prompt.id`, else Gemini CLI's `prompt_id`); the
 * span by its trace, event, time and the texts of the attributes that tell a record from another of
 * the same instant (Claude Code's `event.sequence` and call id, either agent's tool, arguments and
 * prompt). A record exported twice gets the same span.
 */
export const CodingAgentIds = {
  SESSION: 'session.id',
  /** Codex CLI's session (it writes no `session.id`). */
  CONVERSATION: 'conversation.id',
  PROMPT: ['prompt.id', 'prompt_id'],
  IDENTITY: ['event.sequence', 'tool_use_id', 'tool_name', 'tool_input', 'tool_parameters', 'function_name', 'function_args', 'prompt'],
} as const;
