import { Emitter, GenAiAttributes, INSTRUMENTATION_SCOPE, Provenance, Residency, RESIDENCY_STRENGTH, ResidencyRule } from '@argspan/conventions';
import { defaultSecretDetector, defaultsFromJsonSchema, resultResidency, type ClassifyOptions, type ContextEntry, type InheritedResidency, type LeafClassification, type SecretDetector } from '@argspan/core';
import { classifySnapshot, ProvenanceIndex, secretInCutJson, valuesScannedDetector } from '@argspan/core/internal';
import { AdkModelCall, OpenLLMetryMessages, collectEvidence, parseJson, TraceEvidence, unescapedJson, type RunEvidence } from './evidence.js';
import { TOOL_SPAN_RECOGNIZERS } from './recognizers/index.js';
import { isObject, UNNAMED_TOOL } from './recognizers/attributes.js';
import { readAgentFrameworkNoArguments } from './recognizers/genai-semconv.js';
import { LangfuseAttributes } from './recognizers/langfuse.js';
import { LangSmithAttributes } from './recognizers/langsmith.js';
import { LogfireAgentsAttributes } from './recognizers/logfire.js';
import { GenkitAttributes } from './recognizers/genkit.js';
import { HaystackAttributes } from './recognizers/haystack.js';
import { isVoltAgentSpan } from './recognizers/voltagent.js';
import { MastraAttributes } from './recognizers/mastra.js';
import { ForeignArgumentRule, type ArgumentDecoding, type ForeignCall, type ForeignEmitter, type ForeignSpan, type RecordedArguments } from './types.js';
import { completePrefixOfCutJson } from './cut-json.js';
import { everyCopy } from './span-json.js';
import { argumentCredentialTexts } from '../credential-identity.js';
import { parsePythonLiteral } from './python-literal.js';
import { CLAUDE_REJECTED, ClaudeCodeSpans, CodingAgentAttributes, CodingAgentEvents, CodingAgentIds, GeminiCliSpans, QWEN_CODE_TOOL_SPAN } from './coding-agent-events.js';
import { isGeminiCliSpan } from './recognizers/coding-agents.js';

/** Rule ids of argument leaves the analyzer could not read from a foreign trace (defined beside the types the readers share). */
export { ForeignArgumentRule };


/** Unreadable arguments recorded in copies that disagree (an attribute written twice): no one copy is the call's. */
const COPIES_DISAGREE: ReadonlySet<string> = new Set([ForeignArgumentRule.REPEATED_ATTRIBUTE]);

/** One foreign tool call as a `tool_calls` row (its trace is the one classified). */
export interface ForeignCallRow {
  /** The span holding the call (for a proposal: the model span that made it), with its name, end and file. */
  spanId: string;
  name: string;
  endNs: bigint | null;
  fileId: number | null;
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

/** One argument leaf of a foreign call as a `tool_args` row: labels and a byte count (the value is hashed, never kept). */
export type ForeignArgRow = Pick<LeafClassification, 'key' | 'leaf' | 'provenance' | 'residency' | 'rule' | 'bytes' | 'denylisted'>;

/** An attribute holding (a copy of) a foreign call's recorded arguments. */
export interface ArgumentBlobRow {
  /** The span holding the attribute. */
  spanId: string;
  attribute: string;
  /** The span of the call the arguments belong to (`tool_args.span_id`). */
  callSpanId: string;
}

/** Where the rows of one trace's foreign calls go. */
export interface ForeignRowSink {
  /** Add a call; returns its number, which its argument rows name. */
  call(row: ForeignCallRow): number;
  /** Add an argument leaf of call `callNo`, with the keyed hash of its value `text` (the text itself is not kept). */
  arg(callNo: number, row: ForeignArgRow, text: string): void;
  /**
   * Add a credential of the secret argument `row` of call `callNo`: `text` is its text as
   * `credentialTexts` gives it, kept only as its keyed hash (what `credential_hits` holds for it).
   */
  credential(callNo: number, row: Pick<ForeignArgRow, 'key' | 'leaf'>, text: string): void;
  blob(row: ArgumentBlobRow): void;
}

/** What classifying one trace's foreign calls needs besides its spans. */
export interface ForeignClassifyOptions {
  /** The gate policy the analysis judges by (denylist, thresholds, dirty set). */
  policy: ClassifyOptions;
}

/**
 * Find every foreign tool call in one trace's spans — on tool-execution spans, by each emitter's
 * signature, and in model spans' outputs, de-duplicated by call id (or, without one, by tool and
 * arguments) — and label each argument leaf as argspan labels its own: residency with the core's
 * detector and rules, provenance from the user text, tool results (earlier than the call, matched
 * by call id where known) and schema defaults the trace holds — with `run`, also what the run's
 * earlier traces held, and this trace's evidence is added to it. A trace with no user text of its
 * own (whatever its run's earlier traces held) gives `no_evidence` where nothing asserted a value.
 * argspan's own spans are left to its own tables.
 */
export function classifyForeignTrace(
  spans: readonly ForeignSpan[],
  options: ForeignClassifyOptions,
  out: ForeignRowSink,
  run?: RunEvidence,
  ranElsewhere?: RanElsewhere,
): void {
  const evidence = new TraceEvidence();
  const executed: ForeignCall[] = [];
  for (const span of spans) {
    if (span.scope === INSTRUMENTATION_SCOPE) continue;
    collectEvidence(span, evidence);
    for (const r of TOOL_SPAN_RECOGNIZERS) {
      const call = r.toolCall(span);
      if (!call) continue;
      // Built field by field: spreading the recogniser's object (optional fields added by spread) is slow.
      const found: ForeignCall = { emitter: r.emitter, spanId: span.spanId, parentSpanId: span.parentSpanId, tool: call.tool, args: call.args, atNs: span.startNs, source: call.source ?? 'tool-span' };
      if (call.callId !== undefined) found.callId = call.callId;
      if (call.result !== undefined) found.result = call.result;
      executed.push(found);
      if (call.result !== undefined) evidence.result(call.callId, call.result, span.endNs, span.spanId);
      break;
    }
  }
  readAgentFrameworkNoArguments(executed, spans);
  geminiCliRecordIds(executed, spans);
  const bySpan = new Map(spans.map((s) => [s.spanId, s]));
  const decoding = new Map<ForeignCall | Omit<ForeignCall, 'emitter'>, ReturnType<typeof decodeArguments>>();
  const decode = (c: ForeignCall | Omit<ForeignCall, 'emitter'>) => {
    let d = decoding.get(c);
    if (!d) decoding.set(c, (d = decodeRecorded(c, bySpan.get(c.spanId))));
    return d;
  };
  const claude = claudeCodeCalls(executed, spans, bySpan);
  const agents = recordedAgentCalls(claude.kept, bySpan);
  const gemini = geminiCliCalls(agents.kept, bySpan, decode);
  const merged = mergeRecordedTwice(gemini.kept, (c) => bySpan.get(c.spanId)?.endNs ?? c.atNs, decode);
  const twice = [...claude.twice, ...agents.twice, ...gemini.twice, ...merged.twice];
  const { unexecuted, copies, byProposedId } = matchProposals(evidence, merged.kept, spans, decode);
  // (the user's words read up to a time: no user text, or some not read by then, and a value found nowhere has no evidence either way)
  const sawUserText = evidence.sawUserText;
  const userTextReadAt = (atNs: bigint) => sawUserText && (evidence.inputNotReadSinceNs === undefined || atNs < evidence.inputNotReadSinceNs);
  // A proposal another trace of the run ran (see `callsRanElsewhere`) is that run's call, not one of this trace's.
  const proposedHere = ranElsewhere && ranElsewhere.keys.size > 0 && run ? unexecuted.filter((p) => !proposalRanElsewhere(p, ranElsewhere, run, userTextReadAt, decode)) : unexecuted;
  const { kept, ranAs } = proposalsForUnrecordedRuns(merged.kept, proposedHere);
  for (const text of kernelSuppliedValues(merged.kept, evidence.proposed, bySpan, decode)) evidence.developer(text);
  const calls = [...kept, ...proposedHere].sort(byTime);
  // Each attribute holding (a copy of) a call's arguments, and any other attribute of its span with
  // the same text: the arguments recorded twice on one span (OpenInference's tool.parameters, a
  // hybrid's second copy, Mastra 0.x's generic `input` beside `gen_ai.tool.input` and `gen_ai.prompt`).
  // (each span's attributes scanned once per attribute: a later prompt repeats every earlier call in one)
  const twins = new Map<string, string[]>();
  const blob = (row: ArgumentBlobRow) => {
    out.blob(row);
    const at = `${row.spanId}\u0000${row.attribute}`;
    let same = twins.get(at);
    if (!same) {
      same = [];
      const attrs = bySpan.get(row.spanId)?.attrs;
      const text = attrs?.get(row.attribute);
      if (typeof text === 'string') for (const [key, value] of attrs!) if (key !== row.attribute && value === text) same.push(key);
      twins.set(at, same);
    }
    for (const key of same) out.blob({ spanId: row.spanId, attribute: key, callSpanId: row.callSpanId });
  };
  for (const c of copies) blob(c);
  // The second emitter's record of a call is a copy of its arguments; its span returns the call's
  // result. So does the tool span a proposal stands for (its arguments not recorded).
  const otherSpans = new Map<ForeignCall, string[]>(ranAs);
  for (const { call, copy } of twice) {
    for (const attribute of copy.args.kind === 'value' && copy.args.parts ? copy.args.parts : [copy.args.attribute]) blob({ spanId: copy.spanId, attribute, callSpanId: call.spanId });
    otherSpans.set(call, [...(otherSpans.get(call) ?? []), copy.spanId]);
  }
  for (const [spanId, attribute, call] of geminiCliScheduleCopies(calls, bySpan)) blob({ spanId, attribute, callSpanId: call.spanId });
  for (const call of calls) {
    blob({ spanId: call.spanId, attribute: call.args.attribute, callSpanId: call.spanId });
    if (call.args.kind === 'value' && call.args.parts) for (const part of call.args.parts.slice(1)) blob({ spanId: call.spanId, attribute: part, callSpanId: call.spanId });
  }
  // The prompts whose words this trace holds, all read: for the run's calls of those prompts in other traces.
  if (run && sawUserText && evidence.inputNotReadSinceNs === undefined) {
    for (const span of spans) {
      const prompt = promptIdOf(span);
      if (prompt !== undefined) run.promptsWithUserText.add(prompt);
    }
  }
  // One provenance index per trace (per run, for a run's trace, holding what its earlier traces
  // told): the asserted text once, then each result as the calls reach its time.
  let index: ProvenanceIndex;
  if (run) {
    for (const text of evidence.assertedTexts) run.addAsserted(text);
    index = run.index;
  } else index = ProvenanceIndex.from({ userText: [...evidence.assertedTexts] });
  // Whether this trace holds the user's words: a run's later trace recorded without its prompt
  // (its turn's tool loop traced apart, a prompt not captured) cannot tell what the user said in
  // that turn. The run's earlier words are still in the index (a value they hold is the user's);
  // a value found nowhere is `no_evidence` there, not the model's guess.
  const results = [...evidence.results].sort(byTime);
  let nextResult = 0;
  const policies = policiesOf(options.policy);
  // A tool's schema defaults, read once per trace; none when its schema declares none.
  const defaultsByTool = new Map<string, Record<string, unknown> | undefined>();
  // What the results of calls already classified pass on (a read of `.env` makes its result secret), by call id and by span.
  const passedOn = new Map<string, InheritedResidency>();
  // Calls with a secret argument by id (their own, or that of the proposal they ran), for the copies later prompts repeat.
  const secretById = new Map<string, ForeignCall>();
  const secretCalls = new Set<ForeignCall>();
  let wholeProposals: Map<string, ReturnType<typeof decodeArguments>> | undefined;
  const addResult = (r: TraceEvidence['results'][number]) => {
    // (a run's later prompt repeats its earlier results: each is indexed once, with the label its call passed on)
    if (run && !run.isNewResult(r.callId, r.content)) return;
    const residency =
      (r.callId !== undefined ? (passedOn.get(`id:${r.callId}`) ?? run?.passedOn.get(r.callId)) : undefined) ?? (r.spanId !== undefined ? passedOn.get(`span:${r.spanId}`) : undefined);
    const entry: ContextEntry = { content: r.content };
    if (r.callId !== undefined) entry.callId = r.callId;
    if (residency !== undefined) entry.residency = residency;
    index.addContext(entry);
  };
  for (const call of calls) {
    // Results recorded up to the call's start: its own (recorded at its end) and later ones are not context for it.
    while (nextResult < results.length && results[nextResult]!.atNs <= call.atNs) addResult(results[nextResult++]!);
    if (!defaultsByTool.has(call.tool)) defaultsByTool.set(call.tool, schemaDefaultsOf(evidence.toolSchemas.get(call.tool) ?? run?.toolSchemas.get(call.tool)));
    const schemaDefaults = defaultsByTool.get(call.tool);
    let decoded = decode(call);
    let fromProposal = false;
    // (not for copies that disagree: which one the tool ran with, the proposal does not tell)
    const notWhole = (decoded.unreadable !== undefined && !COPIES_DISAGREE.has(decoded.unreadable)) || (call.args.kind === 'value' && call.args.writtenAsNone === true);
    if (notWhole && call.source === 'tool-span' && call.callId !== undefined) {
      // The tool span's copy was not recorded, cut off, not text, or written as no arguments: the
      // model's proposal under the call's id, recorded whole, holds what the tool was called with
      // (or was asked to be: its arguments are in the trace, classified here once, as the call's).
      wholeProposals ??= wholeProposalsById(evidence.proposed, decode);
      const whole = wholeProposals.get(`${call.tool}\u0000${call.callId}`);
      if (whole !== undefined) [decoded, fromProposal] = [whole, true];
    }
    // (a run's call proposed in an earlier trace that held the user's words has them too, as has one of a prompt whose words an earlier trace held)
    const userTextAvailable =
      userTextReadAt(call.atNs) ||
      (run !== undefined &&
        ((call.callId !== undefined && run.proposedWithUserText.has(callKey(call.tool, call.callId))) || run.promptsWithUserText.has(promptIdOf(bySpan.get(call.spanId)!) ?? '')));
    // A blob cut off: its complete members read as arguments, the rest as one cut-off leaf below.
    const completePart = fromProposal ? undefined : decoded.completePart;
    const c = classifySnapshot(
      { tool: call.tool, args: completePart ? completePart.value : decoded.value },
      { index, userTextAvailable, ...(schemaDefaults !== undefined ? { schemaDefaults } : {}) },
      // (the clean shortcut only for the blob's own text: not a proposal's, nor copies joined)
      !fromProposal && decoded.unreadable !== ForeignArgumentRule.REPEATED_ATTRIBUTE && blobIsClean(call.args, policies.detector) ? policies.clean : policies.scanned,
    );
    // An unreadable blob is one leaf: a credential in it is still found; otherwise it is unknown, saying why.
    const passes = resultResidency(call.tool, c, options.policy);
    if (passes !== undefined) {
      if (call.callId !== undefined) passedOn.set(`id:${call.callId}`, passes);
      if (call.source === 'tool-span') passedOn.set(`span:${call.spanId}`, passes);
      for (const spanId of otherSpans.get(call) ?? []) passedOn.set(`span:${spanId}`, passes);
    }
    // For the run's later traces, where the result may be recorded (the next turn's input): the
    // last call under an id decides (an SDK that numbers calls per turn, `call_0` each time).
    if (run && call.callId !== undefined) {
      if (passes !== undefined) run.passedOn.set(call.callId, passes);
      else run.passedOn.delete(call.callId);
    }
    const unreadable = completePart ? undefined : decoded.unreadable;
    let rows: ForeignArgRow[] = unreadable === undefined ? c.leaves : c.leaves.map((l) => blobRow(l, decoded.value as string, unreadable));
    // A blob not wholly read that is secret still says why it was not read (the rest of it was not
    // checked): a row of no bytes, unknown, after the call's others, with the blob's text.
    // (so does a leaf cut short by a flattening limit, a subtree past the depth limit or an overlong string)
    const notRead: [row: ForeignArgRow, text: string][] = [];
    if (unreadable !== undefined && rows[0]?.residency === Residency.SECRET) notRead.push([notReadRow(rows[0], unreadable), decoded.value as string]);
    else for (let i = 0; i < c.flat.length; i++) if (c.flat[i]!.truncated && rows[i]!.residency === Residency.SECRET) notRead.push([notReadRow(rows[i]!, ResidencyRule.FLATTEN_LIMIT), c.flat[i]!.text]);
    let whole: string | undefined;
    if (c.droppedLeaves > 0 || decoded.repeatedKey || completePart) {
      // Leaves past the flattening limit were never produced, and the earlier copies of a repeated
      // key were dropped by the parse: the whole blob is read as one more leaf, as a cut-off blob is
      // (a secret file it names, a credential it holds), else unknown. Of a cut-off blob whose
      // complete members were read, that leaf is the rest, from the first member the cut left incomplete.
      whole = completePart ? completePart.rest : call.args.kind === 'blob' && call.args.text !== undefined ? call.args.text : (JSON.stringify(decoded.value) ?? '');
      const rest = classifySnapshot({ tool: call.tool, args: whole }, { index, userTextAvailable: false }, policies.scanned).leaves[0]!;
      const why = completePart ? ForeignArgumentRule.TRUNCATED : c.droppedLeaves > 0 ? ForeignArgumentRule.PAST_LEAF_LIMIT : ForeignArgumentRule.REPEATED_KEY;
      const wholeRow = blobRow(completePart ? rest : { ...rest, bytes: Math.max(0, c.bytes - rows.reduce((n, r) => n + r.bytes, 0)) }, whole, why);
      rows = [...rows, wholeRow];
      if (wholeRow.residency === Residency.SECRET) notRead.push([notReadRow(wholeRow, why), whole]);
    }
    let strongest: Residency | undefined;
    let bytes = 0;
    for (const r of rows) {
      bytes += r.bytes;
      if (strongest === undefined || RESIDENCY_STRENGTH[r.residency] > RESIDENCY_STRENGTH[strongest]) strongest = r.residency;
    }
    if (strongest === Residency.SECRET) {
      secretCalls.add(call);
      if (call.callId !== undefined && !secretById.has(call.callId)) secretById.set(call.callId, call);
    }
    const span = bySpan.get(call.spanId)!;
    const callNo = out.call({
      spanId: call.spanId,
      name: span.name,
      endNs: span.recordedEndNs,
      fileId: span.fileId,
      turnSpanId: call.parentSpanId,
      tool: c.tool,
      callId: call.callId ?? null,
      emitter: call.emitter,
      residency: strongest ?? Residency.UNKNOWN,
      argsCount: rows.length + notRead.length,
      argsBytes: bytes,
      source: call.source,
      noEvidence: !userTextAvailable,
      startNs: call.atNs,
    });
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      const text = i < c.flat.length ? c.flat[i]!.text : whole!;
      out.arg(callNo, row, text);
      // A secret argument's credentials, by which a hit in a blob of the call is told to be this
      // argument's: its value's, and its key's (`{"deploy AKIA…": "x"}`, labelled by the key).
      if (row.residency === Residency.SECRET) for (const credential of secretLeafCredentials(text, c.flat[i]?.path, policies.detector)) out.credential(callNo, row, credential);
    }
    for (const [row, text] of notRead) out.arg(callNo, row, text);
  }
  for (const [id, call] of byProposedId) {
    if (secretCalls.has(call) && !secretById.has(id)) secretById.set(id, call);
  }
  if (secretCalls.size > 0) {
    // Secret calls the trace names by no id (a tool span without one, which no proposal's id names).
    const named = new Set(byProposedId.values());
    const unnamed = [...secretCalls].filter((c) => c.callId === undefined && !named.has(c));
    const knownIds = new Set([...calls, ...evidence.proposed].flatMap((c) => (c.callId !== undefined ? [c.callId] : [])));
    blobsRepeated(evidence, { secretById, secretCalls, unnamed, knownIds }, decode, blob);
  }
  if (run) {
    // What this trace told, for the run's later traces: its results still unread, its schemas.
    while (nextResult < results.length) addResult(results[nextResult++]!);
    for (const [tool, schema] of evidence.toolSchemas) if (!run.toolSchemas.has(tool)) run.toolSchemas.set(tool, schema);
  }
}

/** The coding agent's prompt a span (one of its records) belongs to (`prompt.id`, Gemini CLI's `prompt_id`), else undefined. */
function promptIdOf(span: ForeignSpan): string | undefined {
  for (const key of CodingAgentIds.PROMPT) {
    const v = span.attrs.get(key);
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

/** Order by when it happened (`atNs`): calls, proposals, results. */
const byTime = (a: { atNs: bigint }, b: { atNs: bigint }): number => (a.atNs < b.atNs ? -1 : a.atNs > b.atNs ? 1 : 0);

/** A call's key across a run's traces: its tool and id. */
export function callKey(tool: string, callId: string): string {
  return `${tool}\u0000${callId}`;
}

/**
 * Whether proposal `p`, which no tool span of its trace ran, is the call a tool span of another
 * trace of the run runs (its tool and id in `ranElsewhere`; for a proposal cut off before its id,
 * the one call of its tool whose arguments agree with those it holds whole: {@link cutArgumentsAgree});
 * if so, `run` learns whether the user's words were read when the model made it, which the call then has too.
 */
function proposalRanElsewhere(p: ForeignCall, ranElsewhere: RanElsewhere, run: RunEvidence, userTextReadAt: (atNs: bigint) => boolean, decode: (c: ForeignCall) => DecodedArguments): boolean {
  let key = p.callId !== undefined ? callKey(p.tool, p.callId) : undefined;
  if (key === undefined && decode(p).completePart !== undefined) {
    const ran = ranElsewhere.calls().filter((c) => c.callId !== undefined && c.tool === p.tool && ranElsewhere.keys.has(callKey(c.tool, c.callId)) && cutArgumentsAgree(decode(p), decodeArguments(c.args)));
    if (ran.length === 1) key = callKey(ran[0]!.tool, ran[0]!.callId!);
  }
  if (key === undefined || !ranElsewhere.keys.has(key)) return false;
  if (userTextReadAt(p.atNs)) run.proposedWithUserText.add(key);
  return true;
}

/**
 * Whether the arguments of a proposal cut off at the emitter's size limit (`cut`: whole up to the
 * cut, see `completePrefixOfCutJson`) may be `other`'s, a call recorded whole or cut off too: each
 * argument both hold whole has the same value in both, and there are `atLeast` such (one unless told).
 */
function cutArgumentsAgree(cut: DecodedArguments, other: DecodedArguments, atLeast = 1): boolean {
  const mine = cut.completePart?.value;
  if (mine === undefined && atLeast === 0) return true;
  const theirs = other.completePart?.value ?? (other.unreadable === undefined ? other.value : undefined);
  if (!isObject(mine) || !isObject(theirs)) return atLeast === 0 && !(isObject(mine) && Object.keys(mine).length > 0);
  let common = 0;
  for (const [k, v] of Object.entries(mine)) {
    if (!Object.hasOwn(theirs, k)) continue;
    if (canonical(v) !== canonical(theirs[k])) return false;
    common++;
  }
  return common >= atLeast;
}

/** The calls tool spans of a run window's other traces run: see {@link callsRanElsewhere}. */
export interface RanElsewhere {
  /** Tool and id ({@link callKey}) of each call a tool span of another trace runs, each run once in the window. */
  keys: ReadonlySet<string>;
  /** Those traces' calls, for a proposal cut off before its id. */
  calls: () => readonly Pick<ForeignCall, 'tool' | 'callId' | 'args'>[];
}

/**
 * For each trace of a run's evidence window, the calls (tool and id) a tool span of another trace
 * of the window runs — each run once in the window: an SDK that numbers calls per turn (`call_0`
 * each time) leaves the pairing unknown, and those proposals stay calls of their own. A model's
 * proposal and the tool span that ran it are then one call though the emitter traced them apart
 * (Gemini CLI's `llm_call` and `tool_call`, each a trace of its own; an SDK without a context
 * manager, each span a trace).
 */
export function callsRanElsewhere(traces: readonly (readonly ForeignSpan[])[]): RanElsewhere[] {
  const ranIn = new Map<string, number>();
  const twice = new Set<string>();
  const callsOf: Pick<ForeignCall, 'spanId' | 'tool' | 'callId' | 'args'>[][] = [];
  traces.forEach((spans, t) => {
    const calls: Pick<ForeignCall, 'spanId' | 'tool' | 'callId' | 'args'>[] = [];
    for (const span of spans) {
      if (span.scope === INSTRUMENTATION_SCOPE) continue;
      for (const r of TOOL_SPAN_RECOGNIZERS) {
        const call = r.toolCall(span);
        if (!call) continue;
        calls.push({ spanId: span.spanId, tool: call.tool, args: call.args, ...(call.callId !== undefined ? { callId: call.callId } : {}) });
        break;
      }
    }
    geminiCliRecordIds(calls, spans);
    callsOf.push(calls);
    for (const call of new Set(calls.flatMap((c) => (c.callId !== undefined ? [callKey(c.tool, c.callId)] : [])))) {
      if (ranIn.has(call)) twice.add(call);
      else ranIn.set(call, t);
    }
  });
  const keys = traces.map(() => new Set<string>());
  for (const [key, t] of ranIn) if (!twice.has(key)) keys.forEach((set, i) => i !== t && set.add(key));
  return keys.map((set, i) => ({ keys: set, calls: () => callsOf.filter((_, t) => t !== i).flat() }));
}

/**
 * The tool spans that record one call twice — two emitters instrumenting the same tool (an agent
 * framework's own spans beside an auto-instrumentation's, a Langfuse `@observe` inside an
 * OpenInference tool span) — as one call: spans of different emitters, of the same tool, that
 * overlap in time, whose call ids do not differ, with equal arguments (or one of them unreadable:
 * the readable one is kept; else the first). Spans of one emitter are always calls of their own.
 */
function mergeRecordedTwice(
  executed: readonly ForeignCall[],
  spanEnd: (c: ForeignCall) => bigint,
  decode: (c: ForeignCall) => ReturnType<typeof decodeArguments>,
): { kept: ForeignCall[]; twice: { call: ForeignCall; copy: ForeignCall }[] } {
  const twice: { call: ForeignCall; copy: ForeignCall }[] = [];
  if (executed.length < 2 || executed.every((c) => c.emitter === executed[0]!.emitter)) return { kept: [...executed], twice };
  const dropped = new Set<ForeignCall>();
  const byTool = new Map<string, ForeignCall[]>();
  for (const c of executed) byTool.set(c.tool, [...(byTool.get(c.tool) ?? []), c]);
  for (const group of byTool.values()) {
    for (let i = 0; i < group.length; i++) {
      const a = group[i]!;
      if (dropped.has(a)) continue;
      // In start order: a later span that starts after this one ends overlaps none of it.
      for (let j = i + 1; j < group.length && group[j]!.atNs <= spanEnd(a); j++) {
        const b = group[j]!;
        if (dropped.has(b) || b.emitter === a.emitter) continue;
        if (a.callId !== undefined && b.callId !== undefined && a.callId !== b.callId) continue;
        const [da, db] = [decode(a), decode(b)];
        const same = da.unreadable !== undefined || db.unreadable !== undefined || canonical(da.value) === canonical(db.value);
        if (!same) continue;
        const [call, copy] = da.unreadable !== undefined && db.unreadable === undefined ? [b, a] : [a, b];
        dropped.add(copy);
        twice.push({ call, copy });
        if (copy === a) break;
      }
    }
  }
  return { kept: executed.filter((c) => !dropped.has(c)), twice };
}

/**
 * Claude Code's calls as its spans and its events together tell them. A `claude_code.tool` span
 * whose permission wait (`claude_code.tool.blocked_on_user`) says `reject` never ran: the model's
 * request. And a call recorded both as an event (`claude_code.tool_result`, or the
 * `claude_code.tool_decision` of a call refused) and as its span is one call ({@link recordAndSpanAsOne}).
 */
function claudeCodeCalls(
  executed: readonly ForeignCall[],
  spans: readonly ForeignSpan[],
  bySpan: ReadonlyMap<string, ForeignSpan>,
): { kept: ForeignCall[]; twice: { call: ForeignCall; copy: ForeignCall }[] } {
  const named = (c: ForeignCall, names: readonly string[]) => c.emitter === Emitter.CLAUDE_CODE && names.includes(bySpan.get(c.spanId)?.name ?? '');
  const refused = new Set<string>();
  for (const s of spans) if (s.name === ClaudeCodeSpans.BLOCKED_ON_USER && s.parentSpanId !== null && s.attrs.get(CodingAgentAttributes.CLAUDE_DECISION) === CLAUDE_REJECTED) refused.add(s.parentSpanId);
  for (const c of executed) if (refused.has(c.spanId) && named(c, CLAUDE_TOOL_SPANS)) c.source = 'model-output';
  return recordAndSpanAsOne(executed, (c) => named(c, CLAUDE_CALL_RECORDS), (c) => named(c, CLAUDE_TOOL_SPANS));
}

/**
 * A coding agent's call recorded both as a log record (`isRecord`) and as its span (`isSpan`) under
 * one call id (one trace: a record carries the trace of the span active when it was written) is
 * one call: the record's, which holds the model's whole arguments (Claude Code's `tool_input`,
 * Codex CLI's `arguments`) where the span holds parts of them or none, unless only the span
 * recorded any; the other is its copy.
 */
function recordAndSpanAsOne(
  executed: readonly ForeignCall[],
  isRecord: (c: ForeignCall) => boolean,
  isSpan: (c: ForeignCall) => boolean,
): { kept: ForeignCall[]; twice: { call: ForeignCall; copy: ForeignCall }[] } {
  const twice: { call: ForeignCall; copy: ForeignCall }[] = [];
  const toolSpans = new Map<string, ForeignCall>();
  for (const c of executed) if (c.callId !== undefined && isSpan(c)) toolSpans.set(c.callId, c);
  if (toolSpans.size === 0) return { kept: [...executed], twice };
  const recorded = (c: ForeignCall) => c.args.kind === 'value' || c.args.text !== undefined;
  const dropped = new Set<ForeignCall>();
  for (const record of executed) {
    if (record.callId === undefined || !isRecord(record)) continue;
    const span = toolSpans.get(record.callId);
    if (span === undefined || dropped.has(span)) continue;
    const [call, copy] = recorded(record) || !recorded(span) ? [record, span] : [span, record];
    // (either tells that the call never ran: the decision record, or the span's permission wait)
    if (copy.source === 'model-output') call.source = 'model-output';
    dropped.add(copy);
    twice.push({ call, copy });
  }
  return { kept: executed.filter((c) => !dropped.has(c)), twice };
}

/**
 * Codex CLI's and Qwen Code's calls: one recorded both by its record (`codex.tool_result`,
 * `qwen-code.tool_call`) and by its agent's tool span (Codex's trace export; Qwen Code's
 * `qwen-code.tool`, which holds no arguments) is one call, the record's.
 */
function recordedAgentCalls(executed: readonly ForeignCall[], bySpan: ReadonlyMap<string, ForeignSpan>): { kept: ForeignCall[]; twice: { call: ForeignCall; copy: ForeignCall }[] } {
  const name = (c: ForeignCall) => bySpan.get(c.spanId)?.name;
  const codexRecord = (c: ForeignCall) => c.emitter === Emitter.CODEX && name(c) === CodingAgentEvents.CODEX_TOOL_RESULT;
  const codex = recordAndSpanAsOne(executed, codexRecord, (c) => c.emitter === Emitter.CODEX && !codexRecord(c));
  const qwen = recordAndSpanAsOne(codex.kept, (c) => name(c) === CodingAgentEvents.QWEN_CODE_TOOL_CALL, (c) => name(c) === QWEN_CODE_TOOL_SPAN);
  return { kept: qwen.kept, twice: [...codex.twice, ...qwen.twice] };
}

/**
 * The call ids Gemini CLI's `gemini_cli.tool_call` records leave out, from the `schedule_tool_calls`
 * span of their trace (a record is written inside it): the request of the same tool and arguments
 * (canonical JSON), when one request alone has them. Set on the calls in place.
 */
function geminiCliRecordIds(calls: Pick<ForeignCall, 'spanId' | 'tool' | 'callId' | 'args'>[], spans: readonly ForeignSpan[]): void {
  let bySpan: Map<string, ForeignSpan> | undefined;
  let scheduled: Map<string, string | undefined> | undefined;
  for (const call of calls) {
    if (call.callId !== undefined || call.args.kind !== 'blob' || call.args.text === undefined) continue;
    bySpan ??= new Map(spans.map((s) => [s.spanId, s]));
    if (bySpan.get(call.spanId)?.name !== CodingAgentEvents.GEMINI_CLI_TOOL_CALL) continue;
    scheduled ??= geminiCliScheduled(spans);
    const args = parseJson(call.args.text);
    const id = args === undefined ? undefined : scheduled.get(`${call.tool}\u0000${canonical(args)}`);
    if (id !== undefined) call.callId = id;
  }
}

/**
 * The attributes of Gemini CLI's `schedule_tool_calls` spans that copy the arguments of calls its
 * `tool_call` spans under it ran: its requests and the completed calls, each `[span, attribute,
 * call]` (one per call the span holds). (A call known only from its record, refused before it ran,
 * has no `tool_call` span: the batch's copies of it stay attributes of their own.)
 */
function geminiCliScheduleCopies(calls: readonly ForeignCall[], bySpan: ReadonlyMap<string, ForeignSpan>): [string, string, ForeignCall][] {
  const out: [string, string, ForeignCall][] = [];
  for (const call of calls) {
    if (call.emitter !== Emitter.GEMINI_CLI || call.callId === undefined) continue;
    const own = bySpan.get(call.spanId);
    if (own === undefined || !isGeminiCliSpan(own, GeminiCliSpans.TOOL_CALL) || own.parentSpanId === null) continue;
    const schedule = bySpan.get(own.parentSpanId);
    if (schedule === undefined || !isGeminiCliSpan(schedule, GeminiCliSpans.SCHEDULE)) continue;
    const requests = schedule.attrs.get(GenAiAttributes.INPUT_MESSAGES);
    if (typeof requests !== 'string' || !requests.includes(JSON.stringify(call.callId))) continue;
    for (const attribute of [GenAiAttributes.INPUT_MESSAGES, GenAiAttributes.OUTPUT_MESSAGES]) if (schedule.attrs.has(attribute)) out.push([schedule.spanId, attribute, call]);
  }
  return out;
}

/** The requests of a trace's Gemini CLI `schedule_tool_calls` spans: call id by tool and canonical arguments (undefined where two requests share them). */
function geminiCliScheduled(spans: readonly ForeignSpan[]): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  for (const span of spans) {
    if (!isGeminiCliSpan(span, GeminiCliSpans.SCHEDULE)) continue;
    const requests = parseJson(span.attrs.get(GenAiAttributes.INPUT_MESSAGES) as string | undefined);
    for (const r of Array.isArray(requests) ? requests : []) {
      if (!isObject(r) || typeof r.callId !== 'string' || typeof r.name !== 'string') continue;
      const key = `${r.name}\u0000${canonical(r.args ?? {})}`;
      out.set(key, out.has(key) && out.get(key) !== r.callId ? undefined : r.callId);
    }
  }
  return out;
}

/**
 * Gemini CLI's calls as its events and its spans together tell them: its `gemini_cli.tool_call`
 * record, written inside the `schedule_tool_calls` span that ran the call (so in its trace), names
 * no call; with a `tool_call` span of the same tool and arguments in the trace (or either's not
 * readable), it is that span's call, whose id and result the span holds. The record is kept only
 * where its arguments are read and the span's are not, with the span's id and result.
 */
function geminiCliCalls(
  executed: readonly ForeignCall[],
  bySpan: ReadonlyMap<string, ForeignSpan>,
  decode: (c: ForeignCall) => ReturnType<typeof decodeArguments>,
): { kept: ForeignCall[]; twice: { call: ForeignCall; copy: ForeignCall }[] } {
  const twice: { call: ForeignCall; copy: ForeignCall }[] = [];
  const records = executed.filter((c) => c.emitter === Emitter.GEMINI_CLI && bySpan.get(c.spanId)?.name === CodingAgentEvents.GEMINI_CLI_TOOL_CALL);
  if (records.length === 0) return { kept: [...executed], twice };
  const toolSpans = executed.filter((c) => c.emitter === Emitter.GEMINI_CLI && isGeminiCliSpan(bySpan.get(c.spanId)!, GeminiCliSpans.TOOL_CALL));
  const dropped = new Set<ForeignCall>();
  for (const record of records) {
    const dr = decode(record);
    const span = toolSpans.find((c) => {
      if (dropped.has(c) || c.tool !== record.tool) return false;
      const dc = decode(c);
      return dr.unreadable !== undefined || dc.unreadable !== undefined || canonical(dr.value) === canonical(dc.value);
    });
    if (span === undefined) continue;
    const keepRecord = dr.unreadable === undefined && decode(span).unreadable !== undefined;
    const [call, copy] = keepRecord ? [record, span] : [span, record];
    if (keepRecord) {
      if (span.callId !== undefined) record.callId = span.callId;
      if (span.result !== undefined) record.result = span.result;
    }
    dropped.add(copy);
    twice.push({ call, copy });
  }
  return { kept: executed.filter((c) => !dropped.has(c)), twice };
}

const CLAUDE_TOOL_SPANS: readonly string[] = [ClaudeCodeSpans.TOOL];
const CLAUDE_CALL_RECORDS: readonly string[] = [CodingAgentEvents.CLAUDE_CODE_TOOL_RESULT, CodingAgentEvents.CLAUDE_CODE_TOOL_DECISION];

/** The tracer scope of Semantic Kernel Python's function spans (`trace.get_tracer(__name__)` in `kernel_function.py`). */
export const SEMANTIC_KERNEL_FUNCTION_SCOPE = 'semantic_kernel.functions.kernel_function';

/**
 * Semantic Kernel Python's function span records the arguments the function ran with
 * (`gen_ai.tool.call.arguments` = `KernelArguments.dumps()`): the invocation's own kernel
 * arguments (the application's, `kernel.invoke_prompt(…, arguments=KernelArguments(user_id=…))`)
 * with the model's merged over them (`Kernel.invoke_function_call`). A key the model's proposal
 * under the call's id does not hold is the application's, asserted as its system prompt is: its
 * value is returned, to be read as the developer's words. Without the proposal (SK writes it as a
 * log record, so a trace export alone lacks it) nothing tells the two apart, and nothing is returned.
 */
function kernelSuppliedValues(
  executed: readonly ForeignCall[],
  proposed: readonly Omit<ForeignCall, 'emitter'>[],
  bySpan: ReadonlyMap<string, ForeignSpan>,
  decode: (c: ForeignCall | Omit<ForeignCall, 'emitter'>) => ReturnType<typeof decodeArguments>,
): string[] {
  if (proposed.length === 0) return [];
  const kernelCalls = executed.filter((c) => c.callId !== undefined && bySpan.get(c.spanId)?.scope === SEMANTIC_KERNEL_FUNCTION_SCOPE);
  if (kernelCalls.length === 0) return [];
  const proposals = wholeProposalsById(proposed, decode);
  const values: string[] = [];
  for (const call of kernelCalls) {
    const proposal = proposals.get(`${call.tool}\u0000${call.callId}`)?.value;
    const ran = decode(call);
    if (!isObject(proposal) || ran.unreadable !== undefined || !isObject(ran.value)) continue;
    for (const [key, value] of Object.entries(ran.value)) {
      if (Object.hasOwn(proposal, key)) continue;
      values.push(typeof value === 'string' ? value : unescapedJson(JSON.stringify(value) ?? '', value));
    }
  }
  return values;
}

/**
 * The readable arguments of the model's proposals by tool and call id, for a tool span that did not
 * record its own whole; none for an id whose proposals disagree (an id used again for another call).
 * Also under the unnamed tool, for a tool span that left its tool's name out (Agent Framework's
 * `execute_tool` without `gen_ai.tool.name`): the id names the call, whatever its tool.
 */
function wholeProposalsById(
  proposed: readonly Omit<ForeignCall, 'emitter'>[],
  decode: (c: Omit<ForeignCall, 'emitter'>) => ReturnType<typeof decodeArguments>,
): Map<string, ReturnType<typeof decodeArguments>> {
  const found = new Map<string, { decoded: ReturnType<typeof decodeArguments>; shape: string } | null>();
  for (const p of proposed) {
    if (p.callId === undefined) continue;
    const decoded = decode(p);
    if (decoded.unreadable !== undefined) continue;
    const shape = `${p.tool}\u0000${canonical(decoded.value)}`;
    for (const key of p.tool === UNNAMED_TOOL ? [`${p.tool}\u0000${p.callId}`] : [`${p.tool}\u0000${p.callId}`, `${UNNAMED_TOOL}\u0000${p.callId}`]) {
      const seen = found.get(key);
      if (seen === undefined) found.set(key, { decoded, shape });
      else if (seen !== null && seen.shape !== shape) found.set(key, null);
    }
  }
  const out = new Map<string, ReturnType<typeof decodeArguments>>();
  for (const [key, v] of found) if (v !== null) out.set(key, v.decoded);
  return out;
}

/**
 * The one leaf of a blob not (wholly) read, `text`: secret when it is, or when a string in it
 * names a secret file (a blob longer than a path is not scanned as one) or a credential key in it
 * holds a value (`secretInCutJson`, as for a subtree past the depth limit); else unknown, saying why.
 */
function blobRow(leaf: ForeignArgRow, text: string, why: string): ForeignArgRow {
  if (leaf.residency === Residency.SECRET) return leaf;
  const rule = secretInCutJson(text);
  if (rule) return { ...leaf, residency: Residency.SECRET, rule };
  return { ...leaf, residency: Residency.UNKNOWN, provenance: Provenance.NO_EVIDENCE, rule: why };
}

/** The row saying why a secret blob was not wholly read, `why`, beside its secret row: no bytes of its own, unknown, no evidence. */
function notReadRow(secret: ForeignArgRow, why: string): ForeignArgRow {
  return { ...secret, bytes: 0, residency: Residency.UNKNOWN, provenance: Provenance.NO_EVIDENCE, rule: why };
}

/** The credential texts of a secret leaf: those of its value, and of any key on its path that holds one. */
function secretLeafCredentials(text: string, path: readonly (string | number)[] | undefined, detector: SecretDetector): Set<string> {
  const texts = new Set(argumentCredentialTexts(text, detector));
  for (const segment of path ?? []) {
    if (typeof segment === 'string' && detector.find(segment) !== undefined) for (const t of argumentCredentialTexts(segment, detector)) texts.add(t);
  }
  return texts;
}

/**
 * The attributes in which later prompts repeat a call with a secret argument (the conversation sent
 * again) are copies of its arguments, so the credential is reported once, by tool and argument. A
 * credential of the copy that no secret argument of the call holds (the user's own words beside
 * it) is still reported, by attribute: credential_in_attribute tells them apart by the credentials'
 * hashes. A call without a secret argument needs no copy: nothing in its arguments is reported from
 * another attribute (and on a busy trace, one row per prompt that repeats it would cost the
 * analysis several percent).
 *
 * A history entry is the call its id names; one named by a Responses API item id (`fc_…`), or by
 * no id (Google ADK for Go's parts), the call of its tool and arguments; one whose id no call of the trace has, where the call itself was
 * recorded without an id (Logfire's `Function: {name}` span beside the model's output calls in its
 * `events`), each such secret call of its tool — a copy only hides what that call's secret
 * arguments hold, reported by argument, so no credential goes unreported.
 */
function blobsRepeated(
  evidence: TraceEvidence,
  secret: { secretById: ReadonlyMap<string, ForeignCall>; secretCalls: ReadonlySet<ForeignCall>; unnamed: readonly ForeignCall[]; knownIds: ReadonlySet<string> },
  decode: (c: ForeignCall) => { value: unknown },
  blob: (row: ArgumentBlobRow) => void,
): void {
  const added = new Set<string>();
  // Secret calls by tool and arguments, for history entries named by a Responses API item id: built on first need.
  let byShape: Map<string, ForeignCall> | undefined;
  for (const r of evidence.repeated) {
    const call = secret.secretById.get(r.callId);
    let copied: readonly (ForeignCall | undefined)[] = [call];
    if (!call && r.call !== undefined && (r.callId === '' || r.callId.startsWith(RESPONSES_ITEM_ID_PREFIX))) {
      byShape ??= new Map([...secret.secretCalls].map((c) => [`${c.tool}\u0000${canonical(decode(c).value)}`, c]));
      const args = decodeArguments(typeof r.call.args === 'string' ? { kind: 'blob', attribute: r.attribute, text: r.call.args, decode: {} } : { kind: 'value', attribute: r.attribute, value: r.call.args });
      copied = [byShape.get(`${r.call.tool}\u0000${canonical(args.value)}`)];
    } else if (!call && !secret.knownIds.has(r.callId)) copied = secret.unnamed.filter((c) => r.call === undefined || r.call.tool === c.tool);
    for (const c of copied) {
      if (!c || (c.spanId === r.spanId && c.args.attribute === r.attribute)) continue;
      const key = `${r.spanId}\u0000${r.attribute}\u0000${c.spanId}`;
      if (added.has(key)) continue;
      added.add(key);
      blob({ spanId: r.spanId, attribute: r.attribute, callSpanId: c.spanId });
    }
  }
}

/**
 * The prefix of an OpenAI Responses API function-call item's own id (`fc_…`), which is not the
 * call's id (`call_…`, its `call_id`): OpenLLMetry's openai-agents instrumentation names the call
 * by it in the history a later prompt repeats (and by the call id in the model's output and the
 * call's result), and its openai instrumentation in the model's output, so such an entry or
 * proposal is matched to its call by tool and arguments instead.
 */
const RESPONSES_ITEM_ID_PREFIX = 'fc_';
const isItemId = (id: string | undefined): boolean => id !== undefined && id.startsWith(RESPONSES_ITEM_ID_PREFIX);

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
  decode: (c: ForeignCall | Omit<ForeignCall, 'emitter'>) => DecodedArguments,
): { unexecuted: ForeignCall[]; copies: Omit<ArgumentBlobRow, 'traceId'>[]; byProposedId: Map<string, ForeignCall> } {
  // The call each proposal's id names, for the copies later prompts repeat under that id.
  const byProposedId = new Map<string, ForeignCall>();
  if (evidence.proposed.length === 0) return { unexecuted: [], copies: [], byProposedId };
  const byId = new Map(executed.flatMap((c) => (c.callId !== undefined ? [[c.callId, c] as const] : [])));
  // Shapes (tool and canonical arguments) only where an id cannot match: built on first need.
  let byShape: Map<string, ForeignCall> | undefined;
  const shapeOf = (c: ForeignCall | Omit<ForeignCall, 'emitter'>) => `${c.tool}\u0000${canonical(decode(c).value)}`;
  // The model span's emitter is needed only for a proposal no tool span ran: spans found on first need.
  let spanById: Map<string, ForeignSpan> | undefined;
  const emitterOf = (spanId: string): ForeignEmitter | undefined => {
    spanById ??= new Map(spans.map((s) => [s.spanId, s]));
    const span = spanById.get(spanId);
    return span && modelEmitter(span);
  };
  // Unexecuted proposals so far: by shape (those without an id), and by id.
  const first = new Map<string, ForeignCall>();
  const firstById = new Map<string, ForeignCall[]>();
  // Unexecuted proposals under an id, by shape: for a call one record names by its item id (`fc_…`), or by none.
  const byIdShape = new Map<string, ForeignCall>();
  const unexecuted: ForeignCall[] = [];
  const copies: Omit<ArgumentBlobRow, 'traceId'>[] = [];
  for (const p of evidence.proposed) {
    // The same proposal recorded again (an outer span's copy of its step's output) is the call it
    // copies; under an id an earlier proposal had but with other arguments, it is another call
    // (a model or SDK that numbers calls per turn, `call_0` each time).
    let call = p.callId !== undefined ? byId.get(p.callId) : undefined;
    let shape: string | undefined;
    const earlier = call === undefined && p.callId !== undefined ? firstById.get(p.callId) : undefined;
    if (earlier) {
      shape = shapeOf(p);
      call = earlier.find((c) => shapeOf(c) === shape);
    }
    if (!call) {
      shape ??= shapeOf(p);
      byShape ??= new Map(executed.map((c) => [shapeOf(c), c]));
      // A proposal recorded without an id is the call an earlier one of the same tool and arguments
      // names by id (LiteLLM's `gen_ai.completion.{i}.function_call.*` beside its output messages).
      call = byShape.get(shape) ?? first.get(shape) ?? (p.callId === undefined ? byIdShape.get(shape) : undefined);
    }
    // A proposal a person let run with other arguments (a human-in-the-loop confirmation): the call that ran with them.
    if (!call && evidence.changedBeforeRun.length > 0) {
      const proposedArgs = canonical(decode(p).value);
      const changed = evidence.changedBeforeRun.find((c) => c.tool === p.tool && canonical(c.proposed) === proposedArgs);
      if (changed) call = byShape!.get(`${p.tool}\u0000${canonical(changed.ran)}`);
    }
    // A proposal cut off at the emitter's size limit before its id: the one call of its tool whose arguments agree with those it holds whole.
    if (!call && p.callId === undefined && decode(p).completePart !== undefined) {
      const ran = executed.filter((c) => c.tool === p.tool && cutArgumentsAgree(decode(p), decode(c)));
      if (ran.length === 1) call = ran[0];
    }
    if (!call) {
      // One call named by its Responses API item id (`fc_…`) in one record and by its call id in
      // another (OpenLLMetry's openai instrumentation and its openai-agents one on the same
      // response): the same tool and arguments are the same call, under the call id, by which its
      // result comes back.
      const named = byIdShape.get(shape!);
      if (named && (isItemId(p.callId) || isItemId(named.callId))) {
        call = named;
        if (isItemId(named.callId) && p.callId !== undefined && !isItemId(p.callId)) named.callId = p.callId;
      }
    }
    if (call) {
      copies.push({ spanId: p.spanId, attribute: p.args.attribute, callSpanId: call.spanId });
      if (p.callId !== undefined && !byProposedId.has(p.callId)) byProposedId.set(p.callId, call);
      continue;
    }
    const own: ForeignCall = { ...p, emitter: emitterOf(p.spanId) ?? 'genai-semconv' };
    if (p.callId !== undefined && !byIdShape.has(shape ??= shapeOf(p))) byIdShape.set(shape, own);
    if (p.callId === undefined) first.set(shape!, own);
    else if (earlier) earlier.push(own);
    else firstById.set(p.callId, [own]);
    unexecuted.push(own);
  }
  if (unexecuted.length === 0) return { unexecuted, copies, byProposedId };
  spanById ??= new Map(spans.map((s) => [s.spanId, s]));
  return { unexecuted: unreadableOutputsRun(unexecuted, executed, copies, spanById, decode), copies, byProposedId };
}

/** Why a proposal's arguments could not be read that leaves its calls unknown: its model's output cut off, not JSON, or of a shape no reader knows. */
const OUTPUT_NOT_READ: ReadonlySet<string | undefined> = new Set([ForeignArgumentRule.TRUNCATED, ForeignArgumentRule.NOT_JSON, ForeignArgumentRule.OUTPUT_SHAPE_UNKNOWN]);

/**
 * A proposal no tool span matched whose call could not be read (its model's output cut off at an
 * attribute length limit, or in a shape no reader knows) is the call a tool span ran after that
 * model span started and before the model's next call began (its turn) that no proposal claims —
 * of its tool (of any where the cut left the tool unnamed), with no argument the cut left whole of
 * another value: a copy of that call, which is
 * checked, not one more call not checked (Haystack 3.x and Genkit record the model's reply beside
 * the tool spans that run it). Paired in time order, one span to one proposal; a tool span whose
 * arguments were not recorded is left to {@link proposalsForUnrecordedRuns}, which reads the
 * arguments from the proposal. Returns the proposals still unexecuted.
 */
function unreadableOutputsRun(
  unexecuted: ForeignCall[],
  executed: readonly ForeignCall[],
  copies: Omit<ArgumentBlobRow, 'traceId'>[],
  spanById: ReadonlyMap<string, ForeignSpan>,
  decode: (c: ForeignCall | Omit<ForeignCall, 'emitter'>) => DecodedArguments,
): ForeignCall[] {
  const unread = unexecuted.filter((p) => p.callId === undefined && OUTPUT_NOT_READ.has(decode(p).unreadable));
  if (unread.length === 0) return unexecuted;
  const claimed = new Set(copies.map((c) => c.callSpanId));
  const unclaimed = executed.filter((c) => !claimed.has(c.spanId) && !(c.args.kind === 'blob' && c.args.text === undefined)).sort(byTime);
  if (unclaimed.length === 0) return unexecuted;
  const paired = new Set<ForeignCall>();
  for (const p of unread.sort(byTime)) {
    const model = spanById.get(p.spanId);
    const from = model?.startNs ?? p.atNs;
    const until = model ? nextModelCallNs(model, spanById) : undefined;
    const ran = unclaimed.find(
      (c) => !claimed.has(c.spanId) && c.atNs >= from && (until === undefined || c.atNs < until) && (p.tool === UNNAMED_TOOL || c.tool === p.tool) && cutArgumentsAgree(decode(p), decode(c), 0),
    );
    if (!ran) continue;
    claimed.add(ran.spanId);
    paired.add(p);
    copies.push({ spanId: p.spanId, attribute: p.args.attribute, callSpanId: ran.spanId });
  }
  return paired.size === 0 ? unexecuted : unexecuted.filter((p) => !paired.has(p));
}

/**
 * The start of the model's next call after `model` (the next span of its name and scope begun after
 * it ended): a tool span from then on belongs to a later turn, not to the reply `model` holds.
 */
function nextModelCallNs(model: ForeignSpan, spanById: ReadonlyMap<string, ForeignSpan>): bigint | undefined {
  let next: bigint | undefined;
  for (const s of spanById.values()) {
    if (s.name === model.name && s.scope === model.scope && s.startNs >= model.endNs && s !== model && (next === undefined || s.startNs < next)) next = s.startNs;
  }
  return next;
}

/**
 * A tool span that recorded no arguments, and either no call id (Logfire's `Function: {name}` span
 * when the Agents SDK is told not to record sensitive data — it still records the model's response)
 * or one its tool's proposal does not carry (Google ADK for Go with content in log records only:
 * their `tool_call` parts have no id), is the run of a proposal of its tool that no tool span
 * matched: one call, the proposal, whose arguments the model's output holds. Paired in order, one span to one proposal; the span is
 * returned with the proposal it ran, to pass its result's residency on.
 */
function proposalsForUnrecordedRuns(executed: ForeignCall[], unexecuted: readonly ForeignCall[]): { kept: ForeignCall[]; ranAs: Map<ForeignCall, string[]> } {
  const ranAs = new Map<ForeignCall, string[]>();
  const unrecorded = executed.filter((c) => c.args.kind === 'blob' && c.args.text === undefined);
  if (unrecorded.length === 0 || unexecuted.length === 0) return { kept: executed, ranAs };
  const taken = new Set<ForeignCall>();
  for (const p of unexecuted) {
    if (decodeArguments(p.args).unreadable === ForeignArgumentRule.NOT_RECORDED) continue;
    // (a span with a call id runs a proposal without one: ADK Go's content in log records only, whose parts carry no id)
    const run = unrecorded.find((c) => !taken.has(c) && c.tool === p.tool && (c.callId === undefined || p.callId === undefined));
    if (!run) continue;
    taken.add(run);
    ranAs.set(p, [run.spanId]);
    // The call ran (a tool span says so), with the arguments the model's output holds: read there, on the span holding them.
    p.source = 'tool-span';
  }
  return { kept: taken.size === 0 ? executed : executed.filter((c) => !taken.has(c)), ranAs };
}

/** A value as JSON with object keys sorted: equal for equal arguments whatever their key order. Built by appending (no array per node). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i === 0 ? '' : ',') + canonical(v[i]);
    return out + ']';
  }
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v).sort();
    let out = '{';
    for (let i = 0; i < keys.length; i++) out += (i === 0 ? '' : ',') + JSON.stringify(keys[i]) + ':' + canonical((v as Record<string, unknown>)[keys[i]!]);
    return out + '}';
  }
  return JSON.stringify(v) ?? 'undefined';
}

/** LiteLLM's default tracer name (`OTEL_TRACER_NAME`) and the call id its spans carry. */
const LITELLM_SCOPE = 'litellm';
const LITELLM_CALL_ID = 'litellm.call_id';

/** The emitter of a model span, by the attributes it wrote its messages in. */
function modelEmitter(span: ForeignSpan): ForeignEmitter {
  // LiteLLM's spans (its tracer `litellm`, or its call id) write OpenLLMetry's completions too.
  if (span.scope === LITELLM_SCOPE || span.attrs.has(LITELLM_CALL_ID)) return Emitter.LITELLM;
  // Mastra's exporter names every span's type (0.x writes its model output in `gen_ai.completion`, not OpenLLMetry's `gen_ai.completion.{i}.*`).
  if (span.attrs.has(MastraAttributes.SPAN_TYPE)) return Emitter.MASTRA;
  if (isGeminiCliSpan(span)) return Emitter.GEMINI_CLI;
  // (VoltAgent's model spans write `llm.*` keys of their own, not OpenInference's)
  if (isVoltAgentSpan(span)) return Emitter.VOLTAGENT;
  for (const key of span.attrs.keys()) {
    // OpenLLMetry writes `llm.request.type` too: its completions name it first.
    if (key.startsWith(OpenLLMetryMessages.COMPLETIONS)) return 'openllmetry';
  }
  for (const key of span.attrs.keys()) {
    if (key.startsWith('llm.')) return 'openinference';
    if (key.startsWith('ai.')) return 'vercel-ai';
    if (key === 'pydantic_ai.all_messages') return 'pydantic-ai';
  }
  if (span.attrs.has(AdkModelCall.RESPONSE)) return 'google-adk';
  if (span.attrs.has(LangfuseAttributes.OBSERVATION_TYPE)) return 'langfuse';
  if (span.attrs.has(LangSmithAttributes.SPAN_KIND)) return 'langsmith';
  if (span.attrs.has(HaystackAttributes.LLM_OUTPUT) || span.attrs.has(HaystackAttributes.COMPONENT_OUTPUT) || span.attrs.has(HaystackAttributes.AGENT_OUTPUT)) return Emitter.HAYSTACK;
  if (span.attrs.has(GenkitAttributes.TYPE)) return Emitter.GENKIT;
  // Logfire's own spans (`logfire.instrument_openai`, its OpenAI Agents integration) are named by their message template.
  if (span.attrs.has(LogfireAgentsAttributes.MSG_TEMPLATE)) return 'logfire';
  // An OpenInference span whose output is a model's choice without `llm.*` (DSPy's `Predict.forward`, a CHAIN).
  if (span.attrs.has('openinference.span.kind')) return 'openinference';
  return 'genai-semconv';
}

/**
 * Whether a call's leaves can skip the detector. A recorded JSON blob is scanned once, whole: when
 * it holds nothing credential-shaped — and no `\u`, `\/` or (Python's) `\x` escape that could hide a token from
 * the raw scan — no leaf decoded from it can. Otherwise each leaf is scanned as argspan scans its own.
 */
function blobIsClean(args: RecordedArguments, detector: SecretDetector): boolean {
  if (args.kind !== 'blob' || args.text === undefined || args.text.includes('\\u') || args.text.includes('\\/') || args.text.includes('\\x')) return false;
  return detector.find(args.text) === undefined;
}

/** The classify options of a policy, made once per policy: with its detector, and for clean blobs with none for values (names are still judged). */
const optionsByPolicy = new WeakMap<ClassifyOptions, { detector: SecretDetector; scanned: ClassifyOptions; clean: ClassifyOptions }>();

function policiesOf(policy: ClassifyOptions): { detector: SecretDetector; scanned: ClassifyOptions; clean: ClassifyOptions } {
  let p = optionsByPolicy.get(policy);
  if (!p) {
    const detector = policy.detector ?? defaultSecretDetector;
    optionsByPolicy.set(policy, (p = { detector, scanned: { ...policy, detector }, clean: { ...policy, detector: valuesScannedDetector(detector) } }));
  }
  return p;
}

/** Schema defaults by path, or undefined when the schema declares none (nothing to look up per leaf). */
function schemaDefaultsOf(schema: unknown): Record<string, unknown> | undefined {
  if (schema === undefined) return undefined;
  const defaults = defaultsFromJsonSchema(schema);
  return Object.keys(defaults).length > 0 ? defaults : undefined;
}

/**
 * The arguments of `call` as recorded on its span: {@link decodeArguments}, unless the span wrote
 * the attribute holding them more than once with different values. Then every copy is one text,
 * unreadable: a secret path or credential in any copy is still found, and the call is counted as
 * not checked (reading only the last copy let an earlier one pass unseen).
 */
function decodeRecorded(call: Pick<ForeignCall, 'args'>, span: ForeignSpan | undefined): { value: unknown; unreadable?: string } {
  const earlier = span?.shadowed?.get(call.args.attribute);
  if (earlier === undefined) return decodeArguments(call.args);
  return { value: everyCopy(earlier, span!.attrs.get(call.args.attribute)), unreadable: ForeignArgumentRule.REPEATED_ATTRIBUTE };
}

/** The arguments as a value to classify, or the raw blob and why it could not be decoded. */
export function decodeArguments(args: RecordedArguments): DecodedArguments {
  if (args.kind === 'value') return { value: args.value ?? {} };
  const text = args.text;
  // (absent because the emitter left it out as too long: cut off, as the recogniser says)
  if (text === undefined) return { value: '', unreadable: args.decode.unreadable ?? ForeignArgumentRule.NOT_RECORDED };
  if (args.decode.unreadable !== undefined) return { value: text, unreadable: args.decode.unreadable };
  // (no JSON text parses to undefined, so undefined is "not JSON": then read as Python; JSON's null is a value)
  let decoded = parseJson(text);
  // JSON.parse keeps the last copy of a repeated key (as most parsers, and the tool's, do): read so, and
  // the whole text as one more leaf, so a secret path or credential in an earlier copy is still found.
  const repeatedKey = decoded !== undefined && repeatsAKey(text, decoded);
  if (decoded === undefined) decoded = parsePythonLiteral(text);
  if (decoded === undefined) {
    if (args.decode.rawStringIsValue && !(args.decode.openedJsonIsCut && looksTruncated(text))) return { value: args.decode.unwrap ? args.decode.unwrap(text) : text };
    return withCompletePart({ value: text, unreadable: looksTruncated(text) ? ForeignArgumentRule.TRUNCATED : ForeignArgumentRule.NOT_JSON }, args.decode);
  }
  decoded = encodedAgain(decoded);
  const value = args.decode.unwrap ? encodedAgain(args.decode.unwrap(decoded)) : decoded;
  return repeatedKey ? { value, repeatedKey } : { value };
}

/** A blob decoded: the arguments (or, unreadable, the blob's text and why), and for a blob cut off, the part of it that is whole. */
export interface DecodedArguments {
  value: unknown;
  unreadable?: string;
  repeatedKey?: true;
  /**
   * Of a blob cut off (`unreadable` is `arguments-truncated`): the arguments its complete members
   * make (each read as any argument is: by its key, with its provenance), and the text from the
   * first member the cut left incomplete (read as one cut-off leaf, as the whole blob would be).
   */
  completePart?: { value: unknown; rest: string };
}

/**
 * A cut-off blob with the arguments its complete members make (see `completePrefixOfCutJson`),
 * unwrapped as the whole would be (none when the unwrap finds none there: Gemini CLI's request cut
 * before its `args`).
 */
function withCompletePart(decoded: DecodedArguments, decoding: ArgumentDecoding): DecodedArguments {
  if (decoded.unreadable !== ForeignArgumentRule.TRUNCATED || typeof decoded.value !== 'string' || decoding.modelOutput) return decoded;
  const part = completePrefixOfCutJson(decoded.value);
  if (part === undefined) return decoded;
  const value = decoding.unwrap ? decoding.unwrap(part.value) : part.value;
  if (value === undefined) return decoded;
  return { ...decoded, completePart: { value, rest: decoded.value.slice(part.restAt) } };
}

/**
 * A blob encoded twice is the object it encodes: a JSON string whose text is a JSON object or
 * array (an SDK that serialised the model's argument string again), or a Python dict or list as
 * `repr` writes it (LangChain's tool input, `{"input": "{'city': 'Tokyo'}"}`, as LangSmith records
 * it). Read as one string, its keys would be no argument's (a guessed `timezone` in it never
 * reported). Any other string is the value as it is.
 */
function encodedAgain(decoded: unknown): unknown {
  if (typeof decoded !== 'string' || !looksTruncated(decoded)) return decoded;
  let inner: unknown;
  try {
    inner = JSON.parse(decoded) as unknown;
  } catch {
    inner = parsePythonLiteral(decoded);
  }
  return inner !== null && typeof inner === 'object' ? inner : decoded;
}

/**
 * Whether the JSON `text`, parsed as `parsed`, names a key twice in one object: it writes more
 * member names than the parsed objects hold keys. Both are counted without recursion (arguments
 * may nest as deep as JSON.parse goes); strings are found with `indexOf`, not char by char.
 */
function repeatsAKey(text: string, parsed: unknown): boolean {
  if (parsed === null || typeof parsed !== 'object') return false;
  let held = 0;
  const stack: object[] = [parsed];
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (Array.isArray(v)) {
      for (const x of v) if (x !== null && typeof x === 'object') stack.push(x as object);
      continue;
    }
    for (const k in v) {
      held++;
      const x = (v as Record<string, unknown>)[k];
      if (x !== null && typeof x === 'object') stack.push(x);
    }
  }
  // A member name is a string followed, past whitespace, by a colon.
  let written = 0;
  for (let i = text.indexOf('"'); i !== -1; i = text.indexOf('"', i + 1)) {
    let end = text.indexOf('"', i + 1);
    while (end !== -1 && escapedAt(text, end)) end = text.indexOf('"', end + 1);
    if (end === -1) return false;
    let j = end + 1;
    while (text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x0a || text.charCodeAt(j) === 0x0d || text.charCodeAt(j) === 0x09) j++;
    if (text.charCodeAt(j) === 0x3a && ++written > held) return true;
    i = end;
  }
  return false;
}

/** Whether the character at `at` is escaped: an odd run of backslashes before it. */
function escapedAt(text: string, at: number): boolean {
  let n = 0;
  while (at - n - 1 >= 0 && text.charCodeAt(at - n - 1) === 0x5c) n++;
  return n % 2 === 1;
}

/** A JSON object or array that stops before it closes: cut off by an attribute length limit. */
function looksTruncated(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('{') || t.startsWith('[');
}
