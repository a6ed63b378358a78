import type { Attributes, Span, TracerProvider } from '@opentelemetry/api';
import type { Residency } from '@argspan/conventions';
import type { CallClassification, ClassifyContext, ClassifyOptions, ToolCall } from '@argspan/core';
import type { ArgspanSession } from './session.js';

/** A tool dispatcher: runs the tool named `tool` with `args` and returns (or resolves to) its result. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Dispatch<R = unknown> = (tool: string, args: any) => Promise<R> | R;

/** Per-call options of an instrumented dispatcher. */
export interface CallOptions {
  /** The framework's tool-call id (`gen_ai.tool.call.id`). @default a generated `{runId}:{n}` */
  callId?: string;
  /** The session (run) this call belongs to. @default the instrumentation's session */
  session?: ArgspanSession;
  /**
   * Extra attributes for this call's `execute_tool` span, e.g. the MCP client that sent the call
   * (`McpAttributes`). argspan's own attributes win over an entry of the same key. Never put an
   * argument value here. @default undefined (none)
   */
  attributes?: Attributes;
}

/** A dispatcher wrapped by argspan: classify, gate, record, then dispatch. */
export type InstrumentedDispatch<R = unknown> = (tool: string, args: unknown, options?: CallOptions) => Promise<R>;

/** What a remote hop receives for a `remote-ok` call. */
export interface RemoteHopRequest {
  tool: string;
  callId: string;
  /** The arguments with every key outside the tool's public schema stripped. */
  args: unknown;
  /** Keys that were stripped (full dotted paths, credential-shaped keys redacted). */
  strippedKeys: readonly string[];
  /** The call's strongest residency label (`tiny-public` or `bulky-public` for a call the gate let hop). */
  residency: Residency;
}

/**
 * A remote hop: runs a `remote-ok` call somewhere else and resolves to the tool's result. The hop
 * protocol package (`@argspan/hop`) provides one; it may add events to `span` (the `execute_tool`
 * span, active while the hop runs).
 */
export type RemoteHop = (request: RemoteHopRequest, span: Span) => Promise<unknown>;

/**
 * The classification function; `classifyCall` from `@argspan/core` by default. A throw fails
 * closed. It labels the call; what is then done with it (enforcement) is always decided by the
 * instrumentation's policy, so a classifier's own `enforcement`, if any, is ignored.
 */
export type Classifier = (call: ToolCall, ctx: ClassifyContext, options?: ClassifyOptions) => Omit<CallClassification, 'enforcement'>;

/** What argspan knows about one tool: its JSON schema, and how the GenAI conventions describe it. */
export interface ToolSchema {
  /** `gen_ai.tool.type`: `function` (client-side code), `extension` (a server the agent calls, e.g. MCP), `datastore`. @default undefined (not written) */
  type?: string;
  /** `gen_ai.tool.description`. @default undefined (not written) */
  description?: string;
  /** Keys the public schema declares; on a remote hop every other key is stripped. @default undefined (strip nothing) */
  publicKeys?: readonly string[];
  /** Schema defaults by full path or leaf name (for `schema_default` provenance). @default {} */
  defaults?: Readonly<Record<string, unknown>>;
  /** Paths or leaf names whose schema default is safe to accept un-asserted. @default [] */
  safeDefaults?: readonly string[];
}

/** Configuration of {@link ArgspanInstrumentation} (and of `instrumentDispatch` / `wrapTool`). */
export interface ArgspanInstrumentationConfig {
  /** Tracer provider to get the tracer from. @default the global provider (`trace.getTracerProvider()`) */
  tracerProvider?: TracerProvider;
  /**
   * HMAC key for value hashes (at least 16 bytes). @default the hex key in `ARGSPAN_HASH_KEY`, else
   * read from (or created in, on the first call) `{stateDir}/hash.key`, mode 0600; if the state
   * directory cannot be used, a per-process key (one `ARGSPAN_EPHEMERAL_HASH_KEY` warning: hashes
   * then do not join across processes). Calls are gated and recorded either way.
   */
  hashKey?: Uint8Array;
  /**
   * Keyed hashes of this many recent values are memoised (never secret or dirty-tree values, never
   * values over 512 chars; in memory only); 0 turns the memo off. @default 4096
   */
  hashMemoSize?: number;
  /** Local state directory holding the hash key; nothing is created until the first call. @default '.argspan' */
  stateDir?: string;
  /** Classification policy: remote allowlist, inferred denylist, ask/block, limits, dirty set. @default {} (core defaults) */
  policy?: ClassifyOptions;
  /** Tool schemas by tool name. @default {} */
  schemas?: Readonly<Record<string, ToolSchema>>;
  /** Most `tool_arg` spans per call; the rest are counted in `argspan.args.truncated`. The gate still sees every leaf. @default 128 */
  maxArgSpans?: number;
  /**
   * Write the GenAI conventions' opt-in `gen_ai.tool.call.arguments` (the arguments as JSON, every
   * secret or dirty-tree leaf and credential key redacted), so GenAI backends (Langfuse, Phoenix)
   * show the tool's input. @default false
   */
  recordArguments?: boolean;
  /**
   * Write `gen_ai.tool.call.result` (credential shapes redacted; none for a call with secret or
   * dirty-tree arguments). @default false
   */
  recordResults?: boolean;
  /** Record `argspan.arg.excerpt` (redacted, never on secret or dirty-tree leaves). @default false */
  excerpts?: boolean;
  /** Longest excerpt in characters; values above 80 are clamped to 80. @default 80 */
  excerptLength?: number;
  /** The session (run) calls belong to unless a call names its own. @default a new session */
  session?: ArgspanSession;
  /**
   * `false` observes without enforcing (audit mode, to try a policy on a running agent): every
   * call is classified, gated and recorded as usual — `argspan.enforcement` says what the policy
   * would have done — and then dispatched anyway, as if argspan were not there (a call the policy
   * would hop still hops). `argspan analyze` reports what would have been held or denied.
   * @default true
   */
  enforce?: boolean;
  /** Remote hop for `remote-ok` calls. Without one, `remote-ok` calls run locally. @default undefined */
  remote?: RemoteHop;
  /** Classification function. @default classifyCall from @argspan/core */
  classifier?: Classifier;
  /**
   * What of a tool result becomes context for later calls' provenance; return `undefined` to add
   * nothing. A throw adds nothing. @default the result itself
   */
  resultToContext?: (tool: string, result: unknown) => unknown;
  /**
   * Most characters of one result's text indexed as context; the rest is not searched (a value
   * only found past the cap is then `model_inferred`: asked about, never trusted more). @default 1048576
   */
  maxContextChars?: number;
}
