/**
 * Attribute keys. The single source of truth for every attribute the instrumentation writes
 * and the analyzer reads (shared/DESIGN.md, "Span conventions"). No attribute key appears as a
 * string literal anywhere else in argspan.
 */

/**
 * OpenTelemetry GenAI semantic conventions (incubating). Copied as constants, like
 * opentelemetry-js-contrib's `semconv.ts`, because the npm incubating entry point is deprecated
 * and these names are still unstable upstream.
 */
export const GenAiAttributes = {
  OPERATION_NAME: 'gen_ai.operation.name',
  TOOL_NAME: 'gen_ai.tool.name',
  TOOL_CALL_ID: 'gen_ai.tool.call.id',
  TOOL_TYPE: 'gen_ai.tool.type',
  TOOL_DESCRIPTION: 'gen_ai.tool.description',
  /** Opt-in: the call's arguments as JSON. */
  TOOL_CALL_ARGUMENTS: 'gen_ai.tool.call.arguments',
  /** Opt-in: the call's result. */
  TOOL_CALL_RESULT: 'gen_ai.tool.call.result',
  CONVERSATION_ID: 'gen_ai.conversation.id',
  /** `invoke_agent` spans: the agent's name. */
  AGENT_NAME: 'gen_ai.agent.name',
  /** Model spans: the messages sent (JSON), the messages produced, the system instructions, the tools offered. */
  INPUT_MESSAGES: 'gen_ai.input.messages',
  OUTPUT_MESSAGES: 'gen_ai.output.messages',
  SYSTEM_INSTRUCTIONS: 'gen_ai.system_instructions',
  TOOL_DEFINITIONS: 'gen_ai.tool.definitions',
} as const;

/** Stable OpenTelemetry attributes argspan writes. */
export const OtelAttributes = {
  ERROR_TYPE: 'error.type',
  SERVICE_NAME: 'service.name',
} as const;

/** Attributes on the tool-call span (`execute_tool {tool}`). */
export const CallAttributes = {
  /**
   * argspan's id of the call: the framework's tool-call id when it gave one (then also
   * `gen_ai.tool.call.id`), else a generated `{run}:{n}` that links the call's results to later
   * arguments and is never passed off as the framework's.
   */
  CALL_ID: 'argspan.call.id',
  /** argspan's run (`ArgspanSession.runId`); `gen_ai.conversation.id` is the application's own conversation id. */
  RUN_ID: 'argspan.run.id',
  ARGS_COUNT: 'argspan.args.count',
  ARGS_TRUNCATED: 'argspan.args.truncated',
  ARGS_BYTES: 'argspan.args.bytes',
  ARGS_HASH: 'argspan.args.hash',
  /** Flatten limits that were hit (`depth`, `leaves`, `array`, `string`, `cycle`, `non-json`). */
  ARGS_LIMITS: 'argspan.args.limits',
  RESIDENCY: 'argspan.residency',
  VERDICT: 'argspan.verdict',
  VERDICT_REASON: 'argspan.verdict.reason',
  GATE_HITS: 'argspan.gate.hits',
  GATE_ACTION: 'argspan.gate.action',
  /** The one clarifying question, when the gate action is `ask`. Names the field, never the value. */
  GATE_QUESTION: 'argspan.gate.question',
  /** What the wrapper did with the call: `run`, `hop`, `hold` or `deny` (see `Enforcement`). */
  ENFORCEMENT: 'argspan.enforcement',
  /** Why it was enforced so: names the rule, the residency and keys, never a value. */
  ENFORCEMENT_REASON: 'argspan.enforcement.reason',
  /** Keys stripped from a remote hop because the tool's public schema does not declare them. */
  STRIPPED_KEYS: 'argspan.hop.stripped_keys',
  /** Seed 000 stopwatch. */
  LOCAL_MS: 'argspan.stopwatch.local_ms',
  REMOTE_RTT_MS: 'argspan.stopwatch.remote_rtt_ms',
  BYTES_REDACTED: 'argspan.stopwatch.bytes_after_redaction',
  HOP_BLOCKED: 'argspan.stopwatch.hop_blocked',
  /** Whether a hop actually went remote (`true`) or the call ran locally (`false`). */
  HOP_REMOTE: 'argspan.hop.remote',
  /**
   * `true` when the tool itself runs off this machine (the policy's `remoteTools`): if it was
   * dispatched, its arguments left the machine. Not written for tools on this machine.
   */
  TOOL_REMOTE: 'argspan.tool.remote',
  /** Seed 001 protocol step index of the hop, when the hop protocol ran. */
  HOP_STEP: 'argspan.hop.step',
  /** Payload fingerprint (keyed hash of the redacted payload) of the hop. Never the idempotency key. */
  HOP_FINGERPRINT: 'argspan.hop.fingerprint',
  /** True when classification failed and the verdict is the fail-closed default. */
  FAILED_CLOSED: 'argspan.failed_closed',
} as const;

/** Attributes on the argument span (`tool_arg {key}`). */
export const ArgAttributes = {
  KEY: 'argspan.arg.key',
  LEAF: 'argspan.arg.leaf',
  PROVENANCE: 'argspan.arg.provenance',
  RESIDENCY: 'argspan.arg.residency',
  RULE: 'argspan.arg.rule',
  VALUE_HASH: 'argspan.arg.value_hash',
  BYTES: 'argspan.arg.bytes',
  DENYLISTED: 'argspan.arg.denylisted',
  EXCERPT: 'argspan.arg.excerpt',
  /** Call id of the earlier tool result that supplied a `context_retrieved` value. */
  SOURCE_CALL_ID: 'argspan.arg.source_call_id',
} as const;

/** Attributes on hop/lease span events. */
export const EventAttributes = {
  STEP: 'argspan.step',
  FINGERPRINT: 'argspan.fingerprint',
  LEASE_ID: 'argspan.lease.id',
  LEASE_EPOCH: 'argspan.lease.epoch',
  RTT_MS: 'argspan.rtt_ms',
  BYTES: 'argspan.bytes',
  DECISION: 'argspan.decision',
  REASON: 'argspan.reason',
  PROBE_OK: 'argspan.probe.ok',
  QUEUE_DEPTH: 'argspan.queue.depth',
  QUEUE_ITEM: 'argspan.queue.item',
  HTTP_STATUS: 'http.response.status_code',
  /** Checkpoint phase written (`intent`, `queued`, `done`, `local`, `failed`). */
  CHECKPOINT_PHASE: 'argspan.checkpoint.phase',
  /** Checkpoint generation number (monotonic per state directory). */
  CHECKPOINT_GENERATION: 'argspan.checkpoint.generation',
  /** Base name of a quarantined state file (a file name, never its content). */
  STATE_FILE: 'argspan.state.file',
  /** Send attempt number of a hop (1 on the first try; higher after a 409 retry). */
  ATTEMPT: 'argspan.attempt',
} as const;

/**
 * Attributes `argspan mcp-proxy` adds to each tool-call span: who asked (the MCP client, from its
 * `initialize` request) and who answered (the server, from its `initialize` result). The OpenTelemetry
 * MCP conventions (incubating) name the protocol version, session and request id; they have no key
 * for the client's or server's name, so those are argspan's own.
 */
export const McpAttributes = {
  /** `clientInfo.name` of the `initialize` request (`claude-ai`, `cursor-vscode`, …). */
  CLIENT_NAME: 'argspan.mcp.client.name',
  /** `clientInfo.version` of the `initialize` request. */
  CLIENT_VERSION: 'argspan.mcp.client.version',
  /** `serverInfo.name` of the `initialize` result (`secure-filesystem-server`, …). */
  SERVER_NAME: 'argspan.mcp.server.name',
  /** `serverInfo.version` of the `initialize` result. */
  SERVER_VERSION: 'argspan.mcp.server.version',
  /** OpenTelemetry MCP conventions: the protocol version the client asked for. */
  PROTOCOL_VERSION: 'mcp.protocol.version',
  /** OpenTelemetry MCP conventions: the Streamable HTTP session id, on the HTTP front. */
  SESSION_ID: 'mcp.session.id',
  /** OpenTelemetry MCP conventions: the JSON-RPC id of the `tools/call` request. */
  REQUEST_ID: 'jsonrpc.request.id',
} as const;

/** Resource attributes argspan reads (set on the tracer provider's resource). */
export const ResourceAttributes = {
  /** string[]: tools allowed to make remote hops, as the gate was configured. Read by the analyzer's allowlist rule. */
  REMOTE_ALLOWLIST: 'argspan.remote.allowlist',
} as const;
