import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Attributes, Context, HrTime, Link, Span, SpanOptions, Tracer } from '@opentelemetry/api';
import {
  ArgAttributes,
  CallAttributes,
  GenAiAttributes,
  INSTRUMENTATION_SCOPE,
  OtelAttributes,
  ResidencyRule,
  argumentSpanName,
  toolCallSpanName,
} from '@argspan/conventions';
import type { Residency } from '@argspan/conventions';
import { redactKeyPath, resultResidency } from '@argspan/core';
import { contextText, decideEnforcement, redactedPrefix, resolvePolicy, shownName, snapshotArgs, snapshotFailureReason } from '@argspan/core/internal';
import type { CallClassification, ClassifyOptions, GatePolicy, ToolCall } from '@argspan/core';
import { defaultClassifier } from './default-classifier.js';
import { errorTypeOf, gateError } from './errors.js';
import { leafExcerpt, MAX_EXCERPT_CHARS } from './excerpt.js';
import { classifySafely, failClosed } from './fail-closed.js';
import { hashKeyFromEnv, hasherFor } from './hash-key.js';
import { HashMemo } from './hash-memo.js';
import { stripForHop } from './strip.js';
import { recordedArguments, recordedResult } from './recorded-content.js';
import { ArgspanSession } from './session.js';
import { argsHashInput, callSpanAttributes, selectArgSpans, setArgSpanAttributes } from './span-attributes.js';
import type {
  ArgspanInstrumentationConfig,
  CallOptions,
  Classifier,
  Dispatch,
  InstrumentedDispatch,
  RemoteHop,
  ToolSchema,
} from './types.js';
import { VERSION } from './version.js';

/** @default 128 */
export const DEFAULT_MAX_ARG_SPANS = 128;
/** @default 4096 */
export const DEFAULT_HASH_MEMO_SIZE = 4096;
/** @default 1048576 */
export const DEFAULT_MAX_CONTEXT_CHARS = 1_048_576;
/** Longest `gen_ai.tool.description` written, in characters. */
const MAX_DESCRIPTION_CHARS = 1024;
/** Distinct tool descriptions kept redacted (one per tool; a server with more tools starts over). */
const MAX_DESCRIPTIONS = 1024;

/** The policy's lists, copied and frozen. */
function frozenLists(p: GatePolicy): Pick<GatePolicy, 'remoteAllowlist' | 'remoteTools' | 'secretSourceTools' | 'denyResidencies' | 'denyInferred'> {
  return {
    remoteAllowlist: Object.freeze([...p.remoteAllowlist]),
    remoteTools: Object.freeze([...p.remoteTools]),
    secretSourceTools: Object.freeze([...p.secretSourceTools]),
    denyResidencies: Object.freeze([...p.denyResidencies]),
    denyInferred: Object.freeze([...p.denyInferred]),
  };
}

/** Now as OpenTelemetry HrTime ([seconds, nanoseconds] since the epoch). */
function hrNow(): HrTime {
  const ms = performance.timeOrigin + performance.now();
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6) % 1e9];
}
/** Status message of a tool that failed: the tool's own message could quote a value, so it is not copied. */
const TOOL_FAILED = 'tool failed';

/**
 * Wraps tool dispatch so every call is classified, gated and recorded: one `execute_tool {tool}`
 * span per call (a child of the active span) and one `tool_arg {key}` child per argument leaf.
 * Denied and held calls never reach the tool (see the core's enforcement table). Uses only `@opentelemetry/api`, so it
 * joins whatever tracer provider the application registered.
 */
export class ArgspanInstrumentation {
  /** The session calls belong to unless a call names its own. */
  readonly session: ArgspanSession;
  private readonly tracer: Tracer;
  private readonly classifier: Classifier;
  /** The classifier's options: the user's policy plus whether a remote hop is configured. */
  private readonly policy: ClassifyOptions;
  /** The resolved policy enforcement is decided by (validated once, at construction). */
  private readonly gatePolicy: GatePolicy;
  private readonly enforce: boolean;
  private readonly schemas: Readonly<Record<string, ToolSchema>>;
  private readonly maxArgSpans: number;
  private readonly excerptChars: number;
  private readonly remote: RemoteHop | undefined;
  private readonly resultToContext: (tool: string, result: unknown) => unknown;
  private readonly maxContextChars: number;
  private readonly recordArguments: boolean;
  private readonly descriptions = new Map<string, string>();
  private readonly recordResults: boolean;
  private readonly hashKey: Uint8Array | undefined;
  private readonly stateDir: string;
  private readonly memoSize: number;
  private hasherLoad: Promise<HashMemo> | undefined;
  private hasher: HashMemo | undefined;

  constructor(config: ArgspanInstrumentationConfig = {}) {
    const provider = config.tracerProvider ?? trace.getTracerProvider();
    this.tracer = provider.getTracer(INSTRUMENTATION_SCOPE, VERSION);
    this.session = config.session ?? new ArgspanSession();
    this.classifier = config.classifier ?? defaultClassifier;
    // Validate the policy now: a bad option is a setup error, not a reason to refuse every call.
    this.gatePolicy = resolvePolicy(config.policy);
    // The lists are copied and frozen once: the caller's arrays cannot change the policy later,
    // and the core may cache lookups built from a frozen list.
    this.policy = { ...config.policy, ...frozenLists(this.gatePolicy), remoteHop: config.remote !== undefined };
    this.schemas = config.schemas ?? {};
    const cap = config.maxArgSpans ?? DEFAULT_MAX_ARG_SPANS;
    if (!Number.isInteger(cap) || cap < 0) throw new RangeError(`argspan: maxArgSpans must be an integer >= 0, got ${cap}`);
    this.maxArgSpans = cap;
    this.excerptChars = config.excerpts ? Math.min(config.excerptLength ?? MAX_EXCERPT_CHARS, MAX_EXCERPT_CHARS) : 0;
    this.remote = config.remote;
    this.enforce = config.enforce !== false;
    this.recordArguments = config.recordArguments === true;
    this.recordResults = config.recordResults === true;
    this.resultToContext = config.resultToContext ?? ((_tool, result) => result);
    this.maxContextChars = config.maxContextChars ?? DEFAULT_MAX_CONTEXT_CHARS;
    if (!Number.isInteger(this.maxContextChars) || this.maxContextChars < 0) {
      throw new RangeError(`argspan: maxContextChars must be an integer >= 0, got ${this.maxContextChars}`);
    }
    this.memoSize = config.hashMemoSize ?? DEFAULT_HASH_MEMO_SIZE;
    if (!Number.isInteger(this.memoSize) || this.memoSize < 0) {
      throw new RangeError(`argspan: hashMemoSize must be an integer >= 0, got ${this.memoSize}`);
    }
    this.hashKey = config.hashKey ?? hashKeyFromEnv();
    this.stateDir = config.stateDir ?? '.argspan';
  }

  /** A tool's description, redacted and cut once per distinct text (it is the same on every call). */
  private redactedDescription(description: string): string {
    let out = this.descriptions.get(description);
    if (out === undefined) {
      out = redactedPrefix(description, MAX_DESCRIPTION_CHARS);
      if (this.descriptions.size >= MAX_DESCRIPTIONS) this.descriptions.clear();
      this.descriptions.set(description, out);
    }
    return out;
  }

  /** The value hasher, loaded on the first call (no I/O at construction); never rejects. */
  private loadHasher(): Promise<HashMemo> {
    this.hasherLoad ??= hasherFor(this.hashKey, this.stateDir).then((h) => (this.hasher = new HashMemo(h, this.memoSize)));
    return this.hasherLoad;
  }

  /** Wrap a `dispatch(toolName, args)` function. */
  wrapDispatch<R>(dispatch: Dispatch<R>): InstrumentedDispatch<R> {
    return (tool, args, options) => this.call(tool, args, options, (a) => dispatch(tool, a));
  }

  /** Wrap one tool's function (for frameworks that give one function per tool). */
  wrapTool<A, R>(name: string, fn: (args: A) => Promise<R> | R): (args: A, options?: CallOptions) => Promise<R> {
    return (args, options) => this.call(name, args, options, (a) => fn(a as A));
  }

  /** Classify, gate, record and (when allowed) run one call. */
  async call<R>(
    tool: string,
    args: unknown,
    options: CallOptions | undefined,
    invoke: (args: unknown) => Promise<R> | R,
  ): Promise<R> {
    const callStarted = performance.now();
    const hasher = this.hasher ?? (await this.loadHasher());
    const session = options?.session ?? this.session;
    const callId = options?.callId ?? session.nextCallId();
    const schema = Object.hasOwn(this.schemas, tool) ? this.schemas[tool] : undefined;
    // One read of the arguments: what is classified, recorded, dispatched and hopped is this copy.
    const snapshot = snapshotOrFailure(args);
    const classified =
      'failure' in snapshot
        ? failClosed(tool, snapshot.failure)
        : classifySafely(this.classifier, { tool, args: snapshot.args, callId }, session.callContext(schema), this.policy);
    // Enforcement is the policy's, whatever classifier labelled the call.
    const c: CallClassification = { ...classified, enforcement: decideEnforcement(classified, this.gatePolicy, this.remote !== undefined) };
    const sent = 'failure' in snapshot ? undefined : snapshot.args;

    const parent = context.active();
    const emit = selectArgSpans(c, this.maxArgSpans);
    const attributes = callSpanAttributes(c, {
      callId,
      frameworkCallId: options?.callId !== undefined,
      runId: session.runId,
      conversationId: session.conversationId,
      toolType: schema?.type,
      toolDescription: schema?.description === undefined ? undefined : this.redactedDescription(schema.description),
      emitted: emit ? emit.length : c.leaves.length,
      argsHash: hasher.hash(argsHashInput(c.flat), memoisable(c, session)),
      hopBlocked: this.remote !== undefined && c.enforcement.action !== 'hop',
    });
    const span = this.tracer.startSpan(
      toolCallSpanName(c.tool),
      { kind: SpanKind.INTERNAL, attributes: options?.attributes === undefined ? attributes : { ...options.attributes, ...attributes } },
      parent,
    );
    const active = trace.setSpan(parent, span);
    if (this.gatePolicy.remoteTools.includes(tool)) span.setAttribute(CallAttributes.TOOL_REMOTE, true);
    if (this.recordArguments) {
      const recorded = recordedArguments(sent, c);
      if (recorded !== undefined) span.setAttribute(GenAiAttributes.TOOL_CALL_ARGUMENTS, recorded);
    }
    this.recordArgs(c, emit, active, session, hasher);

    const refusal = this.enforce ? gateError(callId, c) : undefined;
    if (refusal) {
      span.setAttributes(this.stopwatch(callStarted, undefined));
      span.setAttribute(OtelAttributes.ERROR_TYPE, refusal.errorType);
      span.setStatus({ code: SpanStatusCode.ERROR, message: c.enforcement.reason });
      span.end();
      throw refusal;
    }

    const remote = c.enforcement.action === 'hop' ? this.remote : undefined;
    const started = performance.now();
    let result: R;
    try {
      if (remote) {
        const stripped = stripForHop(sent, schema?.publicKeys, c);
        const request = { tool, callId, args: stripped.args, strippedKeys: stripped.stripped.map((k) => redactKeyPath(k)), residency: c.residency };
        result = (await context.with(active, () => remote(request, span))) as R;
      } else {
        result = await context.with(active, () => invoke(sent));
      }
    } catch (err) {
      span.setAttributes(this.stopwatch(callStarted, remote ? performance.now() - started : undefined));
      span.setAttribute(OtelAttributes.ERROR_TYPE, errorTypeOf(err));
      span.setStatus({ code: SpanStatusCode.ERROR, message: TOOL_FAILED });
      span.end();
      throw err;
    }
    span.setAttributes(this.stopwatch(callStarted, remote ? performance.now() - started : undefined));
    if (this.recordResults) {
      const recorded = recordedResult(result, c);
      if (recorded !== undefined) span.setAttribute(GenAiAttributes.TOOL_CALL_RESULT, recorded);
    }
    const passesOn = resultResidency(tool, c, this.gatePolicy);
    session.recordCall(callId, span.spanContext(), this.contextOf(tool, result, passesOn !== undefined), !isPublicish(c.residency), passesOn);
    span.end();
    return result;
  }

  private recordArgs(
    c: CallClassification,
    emit: number[] | undefined,
    active: Context,
    session: ArgspanSession,
    hasher: HashMemo,
  ): void {
    const n = emit ? emit.length : c.leaves.length;
    // Argument spans record labels, not work: one instant for all of them, given to the SDK as an
    // HrTime so it does not read and convert two clocks per span.
    const at = hrNow();
    const options: SpanOptions = { kind: SpanKind.INTERNAL, startTime: at };
    for (let j = 0; j < n; j++) {
      const i = emit ? emit[j]! : j;
      const label = c.leaves[i]!;
      const leaf = c.flat[i]!;
      // A value copied from the result of a call with secret or dirty-tree arguments is sensitive
      // whatever its own label: no excerpt, no memo.
      const tainted = label.sourceCallId !== undefined && session.isSensitiveSource(label.sourceCallId);
      const open = isPublicish(label.residency) && !tainted && !c.failedClosed;
      const excerpt = this.excerptChars > 0 && open ? leafExcerpt(label, leaf, this.excerptChars) : undefined;
      let links: Link[] | undefined;
      if (label.sourceCallId !== undefined) {
        const source = session.spanContextOf(label.sourceCallId);
        if (source) links = [{ context: source, attributes: { [ArgAttributes.SOURCE_CALL_ID]: shownName(label.sourceCallId) } }];
      }
      // Attributes go in after the start: in SDK 2.x start-option attributes are validated and
      // copied twice more (measured ~20% slower per span). Child spans are sampled by their parent,
      // so a sampler loses nothing; the tool span keeps its attributes in the start options.
      const span = this.tracer.startSpan(argumentSpanName(label.key), links ? { ...options, links } : options, active);
      setArgSpanAttributes(span, label, hasher.hash(leaf.text, open), excerpt);
      span.end(at);
    }
  }

  /**
   * Seed 000's stopwatch. `local_ms` is the time the call spent on this machine — classification,
   * gate and local dispatch — on every path, refusals included; a hop adds its round trip as
   * `remote_rtt_ms`, which `local_ms` then excludes.
   */
  private stopwatch(callStarted: number, remoteRttMs: number | undefined): Attributes {
    const total = performance.now() - callStarted;
    return remoteRttMs === undefined
      ? { [CallAttributes.LOCAL_MS]: total, [CallAttributes.HOP_REMOTE]: false }
      : { [CallAttributes.LOCAL_MS]: Math.max(0, total - remoteRttMs), [CallAttributes.REMOTE_RTT_MS]: remoteRttMs, [CallAttributes.HOP_REMOTE]: true };
  }

  private contextOf(tool: string, result: unknown, passesOnResidency: boolean): unknown {
    try {
      const content = this.resultToContext(tool, result);
      if (content === undefined || content === null) return undefined;
      // Bound what one result costs to index: past the cap its values are not found, which can
      // only make a later value model_inferred (asked about), never more trusted. A result that
      // passes on secret or dirty-tree (a vault's answer, a read of .env) has a cap 64 times as
      // large: a value copied from past the cap would lose that label and could run remote.
      const cap = passesOnResidency ? this.maxContextChars * SENSITIVE_CONTEXT_FACTOR : this.maxContextChars;
      const text = typeof content === 'string' ? content : contextText(content);
      return text.length > cap ? text.slice(0, cap) : content;
    } catch {
      return undefined;
    }
  }
}

/** How many times `maxContextChars` of a result that passes on secret or dirty-tree is indexed. */
const SENSITIVE_CONTEXT_FACTOR = 64;

/** The arguments as one plain JSON copy, or why they cannot be copied (the call then fails closed). */
function snapshotOrFailure(args: unknown): { args: unknown } | { failure: string } {
  try {
    return { args: snapshotArgs(args) };
  } catch (err) {
    return { failure: snapshotFailureReason(err) };
  }
}

/** Secret and dirty-tree values are never memoised (they are hashed afresh each time). */
function isPublicish(r: Residency): boolean {
  return r !== 'secret' && r !== 'dirty-tree';
}

/**
 * A call's argument hash input may be memoised only when no leaf of it is secret or dirty-tree
 * or copied from the result of a call whose arguments were.
 */
function memoisable(c: CallClassification, session: ArgspanSession): boolean {
  if (!isPublicish(c.residency) || c.failedClosed) return false;
  for (const l of c.leaves) if (l.sourceCallId !== undefined && session.isSensitiveSource(l.sourceCallId)) return false;
  return true;
}

/** Wrap `dispatch(toolName, args)`: the one-line entry point. */
export function instrumentDispatch<R>(dispatch: Dispatch<R>, config?: ArgspanInstrumentationConfig): InstrumentedDispatch<R> {
  return new ArgspanInstrumentation(config).wrapDispatch(dispatch);
}

/**
 * Wrap one tool function. Give the wrappers of one agent the same `session` (or build one
 * {@link ArgspanInstrumentation} and call its `wrapTool`) so results of one tool are context for another.
 */
export function wrapTool<A, R>(
  name: string,
  fn: (args: A) => Promise<R> | R,
  config?: ArgspanInstrumentationConfig,
): (args: A, options?: CallOptions) => Promise<R> {
  return new ArgspanInstrumentation(config).wrapTool(name, fn);
}
