/** Label and enum values shared by the instrumentation, the CLI and the analyzer. */

/** Residency labels, strongest first. Exactly one per leaf; a call carries the strongest. */
export const RESIDENCY_ORDER = ['secret', 'dirty-tree', 'bulky-public', 'tiny-public', 'unknown'] as const;
export type Residency = (typeof RESIDENCY_ORDER)[number];
export const Residency = {
  SECRET: 'secret',
  DIRTY_TREE: 'dirty-tree',
  BULKY_PUBLIC: 'bulky-public',
  TINY_PUBLIC: 'tiny-public',
  UNKNOWN: 'unknown',
} as const satisfies Record<string, Residency>;

/**
 * Strength for "strongest label wins" on a call. `unknown` ranks between the risky labels and
 * the public ones so that one unknown leaf is never outvoted by public leaves: unknown never means yes.
 */
export const RESIDENCY_STRENGTH: Readonly<Record<Residency, number>> = {
  secret: 5,
  'dirty-tree': 4,
  unknown: 3,
  'bulky-public': 2,
  'tiny-public': 1,
};

/**
 * Provenance labels, in the order they are checked (after schema defaults). `no_evidence` is the
 * fifth: where the user's words are not available (a trace recorded without its prompt, a proxy
 * that never sees the conversation), a value found nowhere else may have come from the user or
 * from the model — nobody can tell, so it is never called `model_inferred`.
 */
export const PROVENANCE_VALUES = ['user_explicit', 'context_retrieved', 'schema_default', 'model_inferred', 'no_evidence'] as const;
export type Provenance = (typeof PROVENANCE_VALUES)[number];
export const Provenance = {
  USER_EXPLICIT: 'user_explicit',
  CONTEXT_RETRIEVED: 'context_retrieved',
  SCHEMA_DEFAULT: 'schema_default',
  MODEL_INFERRED: 'model_inferred',
  NO_EVIDENCE: 'no_evidence',
} as const satisfies Record<string, Provenance>;

/** Where a call may run. */
export const VERDICT_VALUES = ['local', 'remote-ok', 'refuse'] as const;
export type Verdict = (typeof VERDICT_VALUES)[number];
export const Verdict = {
  LOCAL: 'local',
  REMOTE_OK: 'remote-ok',
  REFUSE: 'refuse',
} as const satisfies Record<string, Verdict>;

/** What the inferred-field gate does with the call. */
export const GATE_ACTION_VALUES = ['allow', 'block', 'ask'] as const;
export type GateAction = (typeof GATE_ACTION_VALUES)[number];
export const GateAction = {
  ALLOW: 'allow',
  BLOCK: 'block',
  ASK: 'ask',
} as const satisfies Record<string, GateAction>;

/**
 * What the wrapper does with a call (the verdict says where it may run; enforcement is what
 * happens): `run` it on this machine, `hop` it through the remote hop, `hold` it for one
 * clarifying question, or `deny` it. Only `run` and `hop` reach the tool.
 */
export const ENFORCEMENT_VALUES = ['run', 'hop', 'hold', 'deny'] as const;
export type Enforcement = (typeof ENFORCEMENT_VALUES)[number];
export const Enforcement = {
  RUN: 'run',
  HOP: 'hop',
  HOLD: 'hold',
  DENY: 'deny',
} as const satisfies Record<string, Enforcement>;

/**
 * Who wrote a tool call the analyzer reads: argspan's own instrumentation, or another library's
 * tracing. Rules about argspan's own evidence (stopwatch, gate consistency, hops) apply only to
 * `argspan`.
 */
export const Emitter = {
  ARGSPAN: 'argspan',
  /** Any library following the GenAI semantic conventions (`@ai-sdk/otel`, Pydantic AI v3+, MS Agent Framework, …). */
  GENAI_SEMCONV: 'genai-semconv',
  /** The Vercel AI SDK's own telemetry (`ai.toolCall`). */
  VERCEL_AI: 'vercel-ai',
  /** OpenInference (Phoenix): `openinference.span.kind = TOOL`. */
  OPENINFERENCE: 'openinference',
  /** Google ADK (`gcp.vertex.agent.*`), with or without OpenInference on top. */
  GOOGLE_ADK: 'google-adk',
  /** OpenLLMetry / Traceloop: `traceloop.span.kind = tool`. */
  OPENLLMETRY: 'openllmetry',
  /** Pydantic AI / Logfire instrumentation format 2 (`running tool`). */
  PYDANTIC_AI: 'pydantic-ai',
  /** LangSmith's OpenTelemetry export. */
  LANGSMITH: 'langsmith',
  /** The Langfuse SDK: `langfuse.observation.type = tool`. */
  LANGFUSE: 'langfuse',
  /** Logfire's own integrations: its OpenAI Agents integration's `Function: {name}` span. */
  LOGFIRE: 'logfire',
  /** Spring AI's tool-calling observation (`spring.ai.kind = tool_call`), exported by Micrometer Tracing. */
  SPRING_AI: 'spring-ai',
  /** LiteLLM's OpenTelemetry integration (its model spans, tracer `litellm`): it writes no tool span. */
  LITELLM: 'litellm',
  /** Mastra's OpenTelemetry exporter: `mastra.span.type = tool_call`. */
  MASTRA: 'mastra',
  /** Claude Code's OpenTelemetry events (`claude_code.tool_result`): log records, no span, read as a span each. */
  CLAUDE_CODE: 'claude-code',
  /** Gemini CLI's OpenTelemetry events (`gemini_cli.tool_call`): log records, no span, read as a span each. */
  GEMINI_CLI: 'gemini-cli',
  /** Haystack's own tracer (3.x): an agent's `haystack.agent.step.tool` span per call, `haystack.tool.name`. */
  HAYSTACK: 'haystack',
  /** Genkit's own tracing (JS, Go, Python): an action span per tool run, `genkit:metadata:subtype = tool`. */
  GENKIT: 'genkit',
  /** VoltAgent's own observability (`@voltagent/core`): a `tool.execution:{name}` span per tool run, `span.type = tool`. */
  VOLTAGENT: 'voltagent',
  /** OpenAI's Codex CLI (its `[otel]` log export): a `codex.tool_result` log record per call. */
  CODEX: 'codex',
  /** Qwen Code (a fork of Gemini CLI): a `qwen-code.tool_call` log record per call. */
  QWEN_CODE: 'qwen-code',
} as const;
export type Emitter = (typeof Emitter)[keyof typeof Emitter];

/** `gen_ai.operation.name` of a tool-call span. */
export const OPERATION_EXECUTE_TOOL = 'execute_tool';

/** `gen_ai.operation.name` of an agent turn's span (`invoke_agent {agent}`). */
export const OPERATION_INVOKE_AGENT = 'invoke_agent';

/** Hop protocol decisions (seed 001 `decide`). */
export const HOP_DECISION_VALUES = ['local', 'remote', 'queue', 'wait'] as const;
export type HopDecision = (typeof HOP_DECISION_VALUES)[number];

/** Default leaf names on which a model-inferred value is blocked or asked about (seed 002). */
export const DEFAULT_DENY_INFERRED: readonly string[] = Object.freeze([
  'timezone',
  'account_id',
  'price',
  'currency',
  'email',
  'to',
  'recipient',
]);

/**
 * Ids of the residency rules that are not secret-detector rules (those carry the detector's own
 * rule id, e.g. `aws-access-key-id`). Written to `argspan.arg.rule`; never the value.
 */
export const ResidencyRule = {
  /** The key names a credential slot (`password`, `api_key`, `authorization`) and the value is not a placeholder. */
  SECRET_KEY_NAME: 'secret-key-name',
  /** The value names a file that holds secrets (`.env`, `id_rsa`, `~/.aws/credentials`). */
  SECRET_FILE_NAME: 'secret-file-name',
  /** A credential shape in the key path itself. */
  SECRET_IN_KEY: 'secret-in-key',
  DIRTY_PATH: 'dirty-path',
  DIRTY_DIR: 'dirty-dir',
  DIRTY_HUNK: 'dirty-hunk',
  BULKY: 'bulky',
  BULKY_COMMITTED: 'bulky-committed',
  BULKY_UNPROVEN: 'bulky-unproven',
  TINY: 'tiny',
  EMPTY: 'empty',
  /** Flattening hit a limit (depth, cycle, truncated string, opaque value): what is hidden is unknown. */
  FLATTEN_LIMIT: 'flatten-limit',
  /** Classification threw; the call failed closed. */
  FAIL_CLOSED: 'fail-closed',
  /** The value was copied from the result of a secret source (a `.env` read, a secrets-manager tool, a result holding a credential). */
  INHERITED_SECRET: 'inherited-secret',
  /** The value was copied from the result of a dirty-tree source (a read of an uncommitted file). */
  INHERITED_DIRTY_TREE: 'inherited-dirty-tree',
} as const;
export type ResidencyRule = (typeof ResidencyRule)[keyof typeof ResidencyRule];
