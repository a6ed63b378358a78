import {
  ArgAttributes,
  CallAttributes,
  ErrorType,
  GenAiAttributes,
  INSTRUMENTATION_SCOPE,
  OPERATION_EXECUTE_TOOL,
  OtelAttributes,
  RESIDENCY_STRENGTH,
  argumentSpanName,
  hopSpanName,
  toolCallSpanName,
  type Enforcement,
  type GateAction,
  type HopEventName,
  type Provenance,
  type Residency,
  type Verdict,
} from '@argspan/conventions';
import { IdSource, attributes, resourceSpansLine, type AttrValue, type OtlpSpan } from './otlp-json.js';

/** One argument leaf of a synthetic tool call. */
export interface ArgSpec {
  key: string;
  provenance?: Provenance;
  residency?: Residency;
  denylisted?: boolean;
  /** Secret/dirty rule id that matched. */
  rule?: string;
  /** Opt-in excerpt text (tests plant canaries here). */
  excerpt?: string;
  /** Span id of the earlier tool-call span whose result supplied the value (span link). */
  linkTo?: { traceId: string; spanId: string };
  sourceCallId?: string;
  bytes?: number;
}

/** A hop/lease event on the call (or on its `hop {tool}` child). */
export interface EventSpec {
  name: HopEventName;
  /** Milliseconds after the call started. */
  atMs: number;
  attrs?: Record<string, AttrValue>;
}

export interface CallSpec {
  tool: string;
  runId: string;
  args: ArgSpec[];
  callId?: string;
  verdict?: Verdict;
  verdictReason?: string;
  gateAction?: GateAction;
  gateHits?: string[];
  gateQuestion?: string;
  /** `argspan.hop.remote`. */
  remote?: boolean;
  hopFingerprint?: string;
  events?: EventSpec[];
  /** Put the events on a `hop {tool}` child span instead of the call span. */
  hopChild?: boolean;
  /** Override `argspan.args.count` (default: number of args). `null` omits it. */
  declaredCount?: number | null;
  stopwatch?: { localMs?: number; remoteRttMs?: number; bytesAfterRedaction?: number; hopBlocked?: boolean };
  /** Extra call-span attributes (tests use this for planted values). */
  extra?: Record<string, AttrValue>;
  /** Milliseconds after the trace start. */
  atMs?: number;
  /** Leave this many declared leaves without a `tool_arg` span (incomplete evidence). */
  dropArgSpans?: number;
  /**
   * `argspan.enforcement`. @default derived like the instrumentation: ask → hold, block → deny,
   * remote → hop, otherwise run. `null` omits it.
   */
  enforcement?: Enforcement | null;
  /** `error.type`. @default the gate error of a held or denied call. `null` omits it (the tool ran). */
  errorType?: string | null;
  /** Instrumentation scope of the call and its argument spans. @default argspan's own */
  scope?: string;
}

const MS = 1_000_000n;

/** Builds argspan-shaped traces: a turn span per agent turn, tool-call spans and argument spans. */
export class ArgspanTraceBuilder {
  readonly spans: OtlpSpan[] = [];
  /** Spans written under another instrumentation scope than argspan's. */
  private readonly scopes = new Map<OtlpSpan, string>();
  private readonly ids: IdSource;
  /** The application's own log records (see {@link appLog}). */
  private readonly appLogs: object[] = [];
  constructor(
    seed = 1,
    private readonly baseNs: bigint = 1_764_460_800_000_000_000n,
  ) {
    this.ids = new IdSource(seed);
  }

  /** A turn span (the parent of tool calls), in a new trace unless one is given. */
  turn(name: string, runId: string, traceId: string = this.ids.traceId(), atMs = 0): { traceId: string; spanId: string } {
    const spanId = this.ids.spanId();
    this.spans.push(this.span(traceId, spanId, undefined, name, 1, atMs, 1000, attributes({ [GenAiAttributes.CONVERSATION_ID]: runId })));
    return { traceId, spanId };
  }

  /** A tool call under `parent`, with one `tool_arg` child per argument. Returns the call span's ids. */
  call(parent: { traceId: string; spanId: string }, spec: CallSpec): { traceId: string; spanId: string; callId: string } {
    const spanId = this.ids.spanId();
    const callId = spec.callId ?? `call_${spanId.slice(-8)}`;
    const enforcement =
      spec.enforcement === undefined
        ? spec.gateAction === 'ask'
          ? 'hold'
          : spec.gateAction === 'block'
            ? 'deny'
            : spec.remote
              ? 'hop'
              : 'run'
        : (spec.enforcement ?? undefined);
    const errorType =
      spec.errorType === undefined
        ? enforcement === 'hold'
          ? ErrorType.CLARIFICATION
          : enforcement === 'deny'
            ? spec.gateAction === 'block'
              ? ErrorType.BLOCKED
              : ErrorType.REFUSED
            : undefined
        : (spec.errorType ?? undefined);
    const at = spec.atMs ?? 10;
    const strongest = spec.args.reduce<Residency | undefined>((acc, a) => {
      const r = a.residency ?? 'tiny-public';
      return acc === undefined || RESIDENCY_STRENGTH[r] > RESIDENCY_STRENGTH[acc] ? r : acc;
    }, undefined);
    const genAi = {
      [GenAiAttributes.OPERATION_NAME]: OPERATION_EXECUTE_TOOL,
      [GenAiAttributes.TOOL_NAME]: spec.tool,
      [GenAiAttributes.TOOL_CALL_ID]: callId,
    };
    // Another library's tool span carries the GenAI attributes only, and no argument spans.
    const foreign = spec.scope !== undefined && spec.scope !== INSTRUMENTATION_SCOPE;
    const call = this.span(
      parent.traceId,
      spanId,
      parent.spanId,
      toolCallSpanName(spec.tool),
      1,
      at,
      50,
      attributes(foreign ? { ...genAi, ...spec.extra } : {
        ...genAi,
        [CallAttributes.CALL_ID]: callId,
        [CallAttributes.RUN_ID]: spec.runId,
        [CallAttributes.ARGS_COUNT]: spec.declaredCount === null ? undefined : (spec.declaredCount ?? spec.args.length),
        [CallAttributes.ARGS_TRUNCATED]: 0,
        [CallAttributes.ARGS_BYTES]: spec.args.reduce((n, a) => n + (a.bytes ?? 16), 0),
        [CallAttributes.ARGS_HASH]: `h${spanId}`,
        [CallAttributes.RESIDENCY]: strongest ?? 'tiny-public',
        [CallAttributes.VERDICT]: spec.verdict ?? 'local',
        [CallAttributes.VERDICT_REASON]: spec.verdictReason,
        [CallAttributes.GATE_ACTION]: spec.gateAction ?? 'allow',
        [CallAttributes.GATE_HITS]: spec.gateHits,
        [CallAttributes.GATE_QUESTION]: spec.gateQuestion,
        [CallAttributes.ENFORCEMENT]: enforcement,
        [OtelAttributes.ERROR_TYPE]: errorType,
        [CallAttributes.HOP_REMOTE]: spec.remote,
        [CallAttributes.HOP_FINGERPRINT]: spec.hopFingerprint,
        [CallAttributes.LOCAL_MS]: spec.stopwatch?.localMs,
        [CallAttributes.REMOTE_RTT_MS]: spec.stopwatch?.remoteRttMs,
        [CallAttributes.BYTES_REDACTED]: spec.stopwatch?.bytesAfterRedaction,
        [CallAttributes.HOP_BLOCKED]: spec.stopwatch?.hopBlocked,
        ...spec.extra,
      }),
    );
    this.spans.push(call);
    if (spec.scope) this.scopes.set(call, spec.scope);
    let carrier = call;
    if (spec.events?.length && spec.hopChild) {
      carrier = this.span(parent.traceId, this.ids.spanId(), spanId, hopSpanName(spec.tool), 3, at + 1, 40, []);
      this.spans.push(carrier);
    }
    if (spec.events?.length) {
      carrier.events = spec.events.map((e) => ({
        timeUnixNano: String(this.baseNs + BigInt(at + e.atMs) * MS),
        name: e.name,
        attributes: attributes(e.attrs ?? {}),
      }));
    }
    const emitted = foreign ? [] : spec.args.slice(0, spec.args.length - (spec.dropArgSpans ?? 0));
    for (const a of emitted) {
      const leaf = a.key.replace(/\[\d+\]$/, '').split('.').pop() ?? a.key;
      const s = this.span(
        parent.traceId,
        this.ids.spanId(),
        spanId,
        argumentSpanName(a.key),
        1,
        at,
        1,
        attributes({
          [ArgAttributes.KEY]: a.key,
          [ArgAttributes.LEAF]: leaf,
          [ArgAttributes.PROVENANCE]: a.provenance ?? 'user_explicit',
          [ArgAttributes.RESIDENCY]: a.residency ?? 'tiny-public',
          [ArgAttributes.RULE]: a.rule,
          [ArgAttributes.VALUE_HASH]: `v${this.spans.length.toString(16).padStart(15, '0')}`,
          [ArgAttributes.BYTES]: a.bytes ?? 16,
          [ArgAttributes.DENYLISTED]: a.denylisted ?? false,
          [ArgAttributes.EXCERPT]: a.excerpt,
          [ArgAttributes.SOURCE_CALL_ID]: a.sourceCallId,
        }),
      );
      if (a.linkTo) s.links = [{ traceId: a.linkTo.traceId, spanId: a.linkTo.spanId }];
      this.spans.push(s);
      if (spec.scope) this.scopes.set(s, spec.scope);
    }
    return { traceId: parent.traceId, spanId, callId };
  }

  /** A span another library wrote under `parent` (scope `other-library`): a name, attributes, and an error status with `statusMessage`. */
  otherSpan(
    parent: { traceId: string; spanId: string },
    name: string,
    options: { attributes?: Record<string, AttrValue>; statusMessage?: string; atMs?: number; linkAttributes?: Record<string, AttrValue> } = {},
  ): OtlpSpan {
    const span = this.span(parent.traceId, this.ids.spanId(), parent.spanId, name, 1, options.atMs ?? 10, 10, attributes(options.attributes ?? {}));
    if (options.statusMessage !== undefined) span.status = { code: 2, message: options.statusMessage };
    // A link to the parent, carrying `linkAttributes`.
    if (options.linkAttributes !== undefined) span.links = [{ traceId: parent.traceId, spanId: parent.spanId, attributes: attributes(options.linkAttributes) }];
    this.spans.push(span);
    this.scopes.set(span, 'other-library');
    return span;
  }

  /**
   * A log record the application wrote (no GenAI event name: a framework's own log line), inside
   * `span` (its trace and span id) or outside any span; written after the spans, as one logs message.
   */
  appLog(span: { traceId: string; spanId: string } | undefined, body: string, options: { attributes?: Record<string, AttrValue>; atMs?: number } = {}): void {
    this.appLogs.push({
      ...(span ? { traceId: span.traceId, spanId: span.spanId } : {}),
      timeUnixNano: String(this.baseNs + BigInt(options.atMs ?? 20) * MS),
      severityText: 'INFO',
      body: { stringValue: body },
      attributes: attributes(options.attributes ?? {}),
    });
  }

  /** The spans as OTLP JSON lines, `perLine` spans per `resourceSpans` message; then the application's log records, if any, as one `resourceLogs` message (one exporter writing both signals). */
  lines(service = 'agent', perLine = 200, resource: Record<string, AttrValue | undefined> = {}): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.spans.length; i += perLine) {
      out.push(resourceSpansLine(service, INSTRUMENTATION_SCOPE, this.spans.slice(i, i + perLine), resource, (s) => this.scopes.get(s)));
    }
    if (this.appLogs.length) {
      out.push(JSON.stringify({ resourceLogs: [{ resource: { attributes: attributes({ 'service.name': service }) }, scopeLogs: [{ scope: { name: 'app' }, logRecords: this.appLogs }] }] }));
    }
    return out;
  }

  private span(
    traceId: string,
    spanId: string,
    parentSpanId: string | undefined,
    name: string,
    kind: number,
    atMs: number,
    durMs: number,
    attrs: OtlpSpan['attributes'],
  ): OtlpSpan {
    const start = this.baseNs + BigInt(atMs) * MS;
    return {
      traceId,
      spanId,
      ...(parentSpanId ? { parentSpanId } : {}),
      name,
      kind,
      startTimeUnixNano: String(start),
      endTimeUnixNano: String(start + BigInt(durMs) * MS),
      attributes: attrs,
    };
  }
}
