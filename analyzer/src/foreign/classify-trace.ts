import { INSTRUMENTATION_SCOPE, Provenance, Residency, RESIDENCY_STRENGTH } from '@argspan/conventions';
import type { ForeignEmitter } from './types.js';
import { classifyCall, defaultSecretDetector, defaultsFromJsonSchema, type ClassifyOptions, type SecretDetector, type ValueHasher } from '@argspan/core';
import { ProvenanceIndex } from '@argspan/core/internal';
import { collectEvidence, TraceEvidence } from './evidence.js';
import { TOOL_SPAN_RECOGNIZERS } from './recognizers/index.js';
import type { ForeignCall, ForeignSpan, RecordedArguments } from './types.js';

/** Rule ids of argument leaves the analyzer could not read from a foreign trace. */
export const ForeignArgumentRule = {
  /** The emitter did not record the arguments (capture is opt-in in most libraries). */
  NOT_RECORDED: 'arguments-not-recorded',
  /** The blob is not JSON. */
  NOT_JSON: 'arguments-not-json',
  /** The blob was cut off by the emitter (an attribute length limit). */
  TRUNCATED: 'arguments-truncated',
} as const;

/** One foreign tool call as a `tool_calls` row. */
export interface ForeignCallRow {
  traceId: string;
  spanId: string;
  turnSpanId: string | null;
  tool: string;
  callId: string | null;
  emitter: ForeignEmitter;
  residency: string;
  argsCount: number;
  argsBytes: number;
  source: ForeignCall['source'];
  /** No user text anywhere in the trace: unasserted values are `no_evidence`. */
  noEvidence: boolean;
  startNs: bigint;
}

/** One argument leaf of a foreign call as a `tool_args` row: labels, a keyed hash and a byte count, never the value. */
export interface ForeignArgRow {
  traceId: string;
  spanId: string;
  key: string;
  leaf: string;
  provenance: string;
  residency: string;
  rule: string;
  valueHash: string;
  bytes: number;
  denylisted: boolean;
  tool: string;
  callId: string | null;
  turnSpanId: string | null;
  emitter: ForeignEmitter;
}

/** An attribute holding (a copy of) a foreign call's recorded arguments. */
export interface ArgumentBlobRow {
  traceId: string;
  /** The span holding the attribute. */
  spanId: string;
  attribute: string;
  /** The span of the call the arguments belong to (`tool_args.span_id`). */
  callSpanId: string;
}

/** What classifying one trace's foreign calls needs besides its spans. */
export interface ForeignClassifyOptions {
  /** Keyed hash of leaf values (the analyzer's key; values are never kept). */
  hasher: ValueHasher;
  /** The gate policy the analysis judges by (denylist, thresholds, dirty set). */
  policy: ClassifyOptions;
}

/**
 * Find every foreign tool call in one trace's spans — on tool-execution spans, by each emitter's
 * signature, and in model spans' outputs, de-duplicated by call id (or, without one, by tool and
 * arguments) — and label each argument leaf as argspan labels its own: residency with the core's
 * detector and rules, provenance from the user text, tool results (earlier than the call, matched
 * by call id where known) and schema defaults the trace holds. A trace with no user text gives
 * `no_evidence` where nothing else asserted a value. argspan's own spans are left to its own tables.
 */
export function classifyForeignTrace(
  spans: readonly ForeignSpan[],
  options: ForeignClassifyOptions,
): { calls: ForeignCallRow[]; args: ForeignArgRow[]; blobs: ArgumentBlobRow[] } {
  const evidence = new TraceEvidence();
  const executed: ForeignCall[] = [];
  for (const span of spans) {
    if (span.scope === INSTRUMENTATION_SCOPE) continue;
    collectEvidence(span, evidence);
    for (const r of TOOL_SPAN_RECOGNIZERS) {
      const call = r.toolCall(span);
      if (!call) continue;
      executed.push({ ...call, emitter: r.emitter, spanId: span.spanId, parentSpanId: span.parentSpanId, atNs: span.startNs, source: 'tool-span' });
      if (call.result !== undefined) evidence.result(call.callId, call.result, span.endNs);
      break;
    }
  }
  const decoding = new Map<ForeignCall | Omit<ForeignCall, 'emitter'>, ReturnType<typeof decodeArguments>>();
  const decode = (c: ForeignCall | Omit<ForeignCall, 'emitter'>) => {
    let d = decoding.get(c);
    if (!d) decoding.set(c, (d = decodeArguments(c.args)));
    return d;
  };
  const { unexecuted, copies } = matchProposals(evidence, executed, spans, decode);
  const calls = [...executed, ...unexecuted].sort((a, b) => (a.atNs < b.atNs ? -1 : a.atNs > b.atNs ? 1 : 0));
  const traceId = spans[0]!.traceId;
  const blobs: ArgumentBlobRow[] = [...copies.map((c) => ({ traceId, ...c }))];
  const bySpan = new Map(spans.map((s) => [s.spanId, s]));
  for (const call of calls) {
    blobs.push({ traceId, spanId: call.spanId, attribute: call.args.attribute, callSpanId: call.spanId });
    // The same arguments recorded again on the call's span (OpenInference's tool.parameters, a hybrid's second copy).
    if (call.args.kind === 'blob' && call.args.text !== undefined && call.source === 'tool-span') {
      for (const [key, value] of bySpan.get(call.spanId)?.attrs ?? []) {
        if (key !== call.args.attribute && value === call.args.text) blobs.push({ traceId, spanId: call.spanId, attribute: key, callSpanId: call.spanId });
      }
    }
  }
  const callRows: ForeignCallRow[] = [];
  const argRows: ForeignArgRow[] = [];
  // One provenance index per trace: the asserted text once, then each result as the calls reach its time.
  const index = ProvenanceIndex.from({ userText: [...evidence.assertedTexts] });
  const results = [...evidence.results].sort((a, b) => (a.atNs < b.atNs ? -1 : a.atNs > b.atNs ? 1 : 0));
  let nextResult = 0;
  const detector = options.policy.detector ?? defaultSecretDetector;
  for (const call of calls) {
    // Results recorded up to the call's start: its own (recorded at its end) and later ones are not context for it.
    while (nextResult < results.length && results[nextResult]!.atNs <= call.atNs) {
      const r = results[nextResult++]!;
      index.addContext(r.callId !== undefined ? { callId: r.callId, content: r.content } : { content: r.content });
    }
    const schema = evidence.toolSchemas.get(call.tool);
    const decoded = decoding.get(call) ?? decodeArguments(call.args);
    const c = classifyCall(
      { tool: call.tool, args: decoded.value },
      {
        index,
        userTextAvailable: evidence.sawUserText,
        ...(schema !== undefined ? { schemaDefaults: defaultsFromJsonSchema(schema) } : {}),
      },
      { ...options.policy, detector: blobScannedDetector(call.args, detector) },
    );
    let strongest: string | undefined;
    let bytes = 0;
    c.leaves.forEach((l, i) => {
      const flat = c.flat[i]!;
      // An unreadable blob is one leaf: a credential in it is still found; otherwise it is unknown, saying why.
      const unreadable = decoded.unreadable !== undefined && l.residency !== Residency.SECRET;
      const residency = unreadable ? Residency.UNKNOWN : l.residency;
      const row: ForeignArgRow = {
        traceId: spans[0]!.traceId,
        spanId: call.spanId,
        key: l.key,
        leaf: l.leaf,
        provenance: unreadable ? Provenance.NO_EVIDENCE : l.provenance,
        residency,
        rule: unreadable ? decoded.unreadable! : l.rule,
        valueHash: options.hasher.hash(flat.text),
        bytes: l.bytes,
        denylisted: l.denylisted,
        tool: c.tool,
        callId: call.callId ?? null,
        turnSpanId: call.parentSpanId,
        emitter: call.emitter,
      };
      argRows.push(row);
      bytes += l.bytes;
      if (strongest === undefined || RESIDENCY_STRENGTH[residency] > RESIDENCY_STRENGTH[strongest as Residency]) strongest = residency;
    });
    callRows.push({
      traceId: spans[0]!.traceId,
      spanId: call.spanId,
      turnSpanId: call.parentSpanId,
      tool: c.tool,
      callId: call.callId ?? null,
      emitter: call.emitter,
      residency: strongest ?? Residency.UNKNOWN,
      argsCount: c.leaves.length,
      argsBytes: bytes,
      source: call.source,
      noEvidence: !evidence.sawUserText,
      startNs: call.atNs,
    });
  }
  return { calls: callRows, args: argRows, blobs };
}

/**
 * Match the calls models proposed with the calls tool spans executed: by call id, or without one
 * by tool name and equal arguments. A proposal no tool span executed is a call of its own — the
 * model asked for it with these values whether or not the trace shows it run — under the emitter of
 * the model span; a matched one is a copy of the executed call's arguments.
 */
function matchProposals(
  evidence: TraceEvidence,
  executed: readonly ForeignCall[],
  spans: readonly ForeignSpan[],
  decode: (c: ForeignCall | Omit<ForeignCall, 'emitter'>) => { value: unknown },
): { unexecuted: ForeignCall[]; copies: Omit<ArgumentBlobRow, 'traceId'>[] } {
  if (evidence.proposed.length === 0) return { unexecuted: [], copies: [] };
  const byId = new Map(executed.flatMap((c) => (c.callId !== undefined ? [[c.callId, c] as const] : [])));
  // Shapes (tool and canonical arguments) only where an id cannot match: built on first need.
  let byShape: Map<string, ForeignCall> | undefined;
  const shapeOf = (c: ForeignCall | Omit<ForeignCall, 'emitter'>) => `${c.tool}\u0000${canonical(decode(c).value)}`;
  const emitterOf = new Map(spans.map((s) => [s.spanId, modelEmitter(s)]));
  const first = new Map<string, ForeignCall>();
  const unexecuted: ForeignCall[] = [];
  const copies: Omit<ArgumentBlobRow, 'traceId'>[] = [];
  for (const p of evidence.proposed) {
    // The same proposal is repeated in every later model span's history: the first is the call.
    let call = p.callId !== undefined ? (byId.get(p.callId) ?? first.get(p.callId)) : undefined;
    let shape: string | undefined;
    if (!call) {
      shape = shapeOf(p);
      byShape ??= new Map(executed.map((c) => [shapeOf(c), c]));
      call = byShape.get(shape) ?? first.get(shape);
    }
    if (call) {
      copies.push({ spanId: p.spanId, attribute: p.args.attribute, callSpanId: call.spanId });
      continue;
    }
    const own: ForeignCall = { ...p, emitter: emitterOf.get(p.spanId) ?? 'genai-semconv' };
    first.set(p.callId ?? shape!, own);
    unexecuted.push(own);
  }
  return { unexecuted, copies };
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}

/** The emitter of a model span, by the attributes it wrote its messages in. */
function modelEmitter(span: ForeignSpan): ForeignEmitter {
  for (const key of span.attrs.keys()) {
    if (key.startsWith('llm.')) return 'openinference';
    if (key.startsWith('ai.')) return 'vercel-ai';
    if (key === 'pydantic_ai.all_messages') return 'pydantic-ai';
  }
  return 'genai-semconv';
}

/**
 * The detector to classify a call's leaves with. A recorded JSON blob is scanned once, whole: when
 * it holds nothing credential-shaped — and no `\u` or `\/` escape that could hide a token from
 * the raw scan — no leaf decoded from it can, so the leaves skip the scan. Otherwise each leaf is
 * scanned as argspan scans its own.
 */
function blobScannedDetector(args: RecordedArguments, detector: SecretDetector): SecretDetector {
  if (args.kind !== 'blob' || args.text === undefined || args.text.includes('\\u') || args.text.includes('\\/')) return detector;
  return detector.find(args.text) === undefined ? CLEAN : detector;
}

const CLEAN: SecretDetector = { find: () => undefined, findAll: () => [] };

/** The arguments as a value to classify, or the raw blob and why it could not be decoded. */
export function decodeArguments(args: RecordedArguments): { value: unknown; unreadable?: string } {
  if (args.kind === 'value') return { value: args.value ?? {} };
  const text = args.text;
  if (text === undefined) return { value: '', unreadable: ForeignArgumentRule.NOT_RECORDED };
  let decoded: unknown;
  try {
    decoded = JSON.parse(text) as unknown;
  } catch {
    if (args.decode.rawStringIsValue) return { value: text };
    return { value: text, unreadable: looksTruncated(text) ? ForeignArgumentRule.TRUNCATED : ForeignArgumentRule.NOT_JSON };
  }
  return { value: args.decode.unwrap ? args.decode.unwrap(decoded) : decoded };
}

/** A JSON object or array that stops before it closes: cut off by an attribute length limit. */
function looksTruncated(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('{') || t.startsWith('[');
}
