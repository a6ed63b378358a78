import { EventAttributes, GenAiAttributes, CallAttributes, HopEvents, ResourceAttributes, type Provenance, type Verdict } from '@argspan/conventions';
import { ArgspanTraceBuilder, type CallSpec, type EventSpec } from './argspan-trace.js';

/** A canary shaped like an AWS access key id. Tests grep every output for it. */
export const CANARY_AWS_KEY = 'AKIACANARYQ2345672XB';

/** Resource attribute every rule fixture carries: only `summarise` may hop remotely. */
export const FIXTURE_RESOURCE = { [ResourceAttributes.REMOTE_ALLOWLIST]: ['summarise'] };

type Parent = { traceId: string; spanId: string };
type Case = (b: ArgspanTraceBuilder, turn: Parent) => void;

/** A call that satisfies every gate rule and check; cases override one thing. */
export function cleanCall(over: Partial<CallSpec> = {}): CallSpec {
  return {
    tool: 'calendar.create',
    runId: 'run-1',
    args: [{ key: 'title', provenance: 'user_explicit', residency: 'tiny-public' }],
    verdict: 'local',
    gateAction: 'allow',
    stopwatch: { localMs: 2 },
    ...over,
  };
}

/** Hop events of a clean remote hop: checkpoint, lease, send, completion, release. */
export function hopEvents(fp: string, lease: string, opts: { checkpoint?: boolean; release?: boolean } = {}): EventSpec[] {
  const ev: EventSpec[] = [];
  if (opts.checkpoint !== false) ev.push({ name: HopEvents.CHECKPOINT_WRITTEN, atMs: 1, attrs: { [EventAttributes.STEP]: 1, [EventAttributes.FINGERPRINT]: fp } });
  ev.push({ name: HopEvents.LEASE_ACQUIRED, atMs: 2, attrs: { [EventAttributes.LEASE_ID]: lease, [EventAttributes.FINGERPRINT]: fp } });
  ev.push({ name: HopEvents.HOP_SENT, atMs: 3, attrs: { [EventAttributes.FINGERPRINT]: fp, [EventAttributes.BYTES]: 120 } });
  ev.push({ name: HopEvents.HOP_COMPLETED, atMs: 30, attrs: { [EventAttributes.FINGERPRINT]: fp, [EventAttributes.RTT_MS]: 27 } });
  if (opts.release !== false) ev.push({ name: HopEvents.LEASE_RELEASED, atMs: 31, attrs: { [EventAttributes.LEASE_ID]: lease } });
  return ev;
}

/** A clean remote call by `summarise`. */
export function remoteCall(over: Partial<CallSpec> = {}, fp = 'fp-1', lease = 'lease-1'): CallSpec {
  return cleanCall({
    tool: 'summarise',
    args: [{ key: 'text', provenance: 'user_explicit', residency: 'bulky-public' }],
    verdict: 'remote-ok',
    remote: true,
    hopFingerprint: fp,
    stopwatch: { localMs: 1, remoteRttMs: 27 },
    events: hopEvents(fp, lease),
    ...over,
  });
}

const inferredTz = { key: 'timezone', provenance: 'model_inferred' as Provenance, residency: 'tiny-public' as const, denylisted: true };
/** A denylisted field sent empty (null: not given, as OpenAI strict schemas send it): it asserts nothing. */
const emptyTz = { ...inferredTz, residency: 'unknown' as const, rule: 'empty' };
const asked = { gateAction: 'ask' as const, gateHits: ['calendar.create.timezone'], gateQuestion: 'Which timezone should the meeting use?' };

/**
 * Another library's record of one call under `parent`: a model span whose output proposes
 * `lookup({note: proposedNote})`, then the tool's span, which ran it with another note.
 */
function proposedThenRan(b: ArgspanTraceBuilder, parent: { traceId: string; spanId: string }, proposedNote: string): void {
  const callId = `call-${proposedNote.length}`;
  const toolCall = { type: 'tool_call', id: callId, name: 'lookup', arguments: { note: proposedNote } };
  b.otherSpan(parent, 'chat model', { atMs: 20, attributes: { [GenAiAttributes.OPERATION_NAME]: 'chat', [GenAiAttributes.OUTPUT_MESSAGES]: JSON.stringify([{ role: 'assistant', parts: [toolCall] }]) } });
  b.otherSpan(parent, 'execute_tool lookup', {
    atMs: 30,
    attributes: {
      [GenAiAttributes.OPERATION_NAME]: 'execute_tool',
      [GenAiAttributes.TOOL_NAME]: 'lookup',
      [GenAiAttributes.TOOL_CALL_ID]: callId,
      [GenAiAttributes.TOOL_CALL_ARGUMENTS]: JSON.stringify({ note: 'the note, redacted' }),
    },
  });
}

/** True-positive and false-positive trace for every shipped rule, by rule id. */
export const RULE_CASES: Readonly<Record<string, { tp: Case; fp: Case }>> = {
  assumption_span: {
    // A classifier that let the guess through: the call ran with it.
    tp: (b, t) => void b.call(t, cleanCall({ args: [inferredTz] })),
    fp: (b, t) => {
      b.call(t, cleanCall({ args: [inferredTz], ...asked })); // held: held_assumption, not this
      b.call(t, cleanCall({ args: [{ ...inferredTz, provenance: 'user_explicit' }] }));
      b.call(t, cleanCall({ args: [{ key: 'title', provenance: 'model_inferred', denylisted: false }] }));
      b.call(t, cleanCall({ args: [emptyTz] }));
    },
  },
  held_assumption: {
    tp: (b, t) => {
      b.call(t, cleanCall({ args: [inferredTz], ...asked }));
      b.call(t, cleanCall({ args: [{ ...inferredTz, key: 'to[1]' }], gateAction: 'block', gateHits: ['calendar.create.to'] }));
      // Behind argspan mcp-proxy with noEvidenceAction ask: held although nobody can say it was a guess.
      b.call(t, cleanCall({ args: [{ ...inferredTz, provenance: 'no_evidence' }], ...asked }));
    },
    fp: (b, t) => {
      b.call(t, cleanCall({ args: [inferredTz] })); // ran: assumption_span, not this
      b.call(t, cleanCall({ args: [{ ...inferredTz, provenance: 'user_explicit' }] }));
      // noEvidenceAction log: the unproven value ran, and nothing was held.
      b.call(t, cleanCall({ args: [{ ...inferredTz, provenance: 'no_evidence' }] }));
      // Denied for a secret beside an empty denylisted field: no assumption was held.
      b.call(t, cleanCall({ tool: 'fs.read', args: [emptyTz, { key: 'path', residency: 'secret', rule: 'secret-file-name' }], enforcement: 'deny' }));
    },
  },
  sensitive_arg_sent_remote: {
    tp: (b, t) => void b.call(t, remoteCall({ args: [{ key: 'text', residency: 'secret', rule: 'aws-access-key-id' }] })),
    fp: (b, t) => {
      b.call(t, cleanCall({ tool: 'summarise', args: [{ key: 'text', residency: 'secret', rule: 'aws-access-key-id' }], enforcement: 'deny' }));
      b.call(t, remoteCall());
    },
  },
  inherited_value_sent_remote: {
    tp: (b, t) => {
      const env = b.call(t, cleanCall({ tool: 'fs.read', args: [{ key: 'path', residency: 'secret', rule: 'secret-file-name' }] }));
      // Audit mode: a tool that runs off this machine, denied by the policy, reached anyway.
      const leaked = { key: 'text', provenance: 'context_retrieved' as Provenance, residency: 'secret' as const, rule: 'inherited-secret', linkTo: env };
      b.call(t, cleanCall({ atMs: 100, tool: 'summarise', args: [leaked], enforcement: 'deny', errorType: null, extra: { [CallAttributes.TOOL_REMOTE]: true } }));
      b.call(t, remoteCall({ atMs: 200, args: [{ ...leaked, residency: 'dirty-tree', rule: 'inherited-dirty-tree' }] }));
    },
    fp: (b, t) => {
      const env = b.call(t, cleanCall({ tool: 'fs.read', args: [{ key: 'path', residency: 'secret', rule: 'secret-file-name' }] }));
      const kept = { key: 'text', provenance: 'context_retrieved' as Provenance, residency: 'secret' as const, rule: 'inherited-secret', linkTo: env };
      // Kept on this machine; and a remote tool the gate stopped.
      b.call(t, cleanCall({ atMs: 100, args: [kept] }));
      b.call(t, cleanCall({ atMs: 200, tool: 'summarise', args: [kept], enforcement: 'deny', extra: { [CallAttributes.TOOL_REMOTE]: true } }));
      // Own-shape secrets that went remote are sensitive_arg_sent_remote's.
      b.call(t, remoteCall({ atMs: 300, args: [{ key: 'text', residency: 'secret', rule: 'aws-access-key-id' }] }));
    },
  },
  sensitive_arg_dispatched: {
    tp: (b, t) => void b.call(t, cleanCall({ tool: 'fs.read', args: [{ key: 'path', residency: 'secret', rule: 'secret-file-name' }] })),
    fp: (b, t) => {
      b.call(t, cleanCall({ tool: 'fs.read', args: [{ key: 'path', residency: 'secret', rule: 'secret-file-name' }], enforcement: 'deny' }));
      b.call(t, cleanCall({ tool: 'fs.read', args: [{ key: 'path', residency: 'dirty-tree', rule: 'dirty-path' }] }));
      // Went remote too: sensitive_arg_sent_remote reports it, once.
      b.call(t, remoteCall({ args: [{ key: 'text', residency: 'secret', rule: 'aws-access-key-id' }] }));
    },
  },
  remote_hop_not_allowlisted: {
    tp: (b, t) => void b.call(t, remoteCall({ tool: 'mail.send' })),
    fp: (b, t) => {
      b.call(t, remoteCall());
      b.call(t, cleanCall({ tool: 'mail.send' }));
    },
  },
  hop_without_checkpoint: {
    tp: (b, t) => void b.call(t, remoteCall({ events: hopEvents('fp-1', 'lease-1', { checkpoint: false }) })),
    fp: (b, t) => void b.call(t, remoteCall({ hopChild: true })),
  },
  duplicate_hop_during_lease: {
    tp: (b, t) => {
      b.call(t, remoteCall({ events: hopEvents('fp-dup', 'lease-a', { release: false }) }, 'fp-dup'));
      b.call(t, remoteCall({ atMs: 100, events: hopEvents('fp-dup', 'lease-b') }, 'fp-dup'));
    },
    fp: (b, t) => {
      b.call(t, remoteCall({ events: hopEvents('fp-dup', 'lease-a') }, 'fp-dup'));
      b.call(t, remoteCall({ atMs: 100, events: hopEvents('fp-dup', 'lease-b') }, 'fp-dup'));
      // A retry of one send under one lease (attempt 2, e.g. after a 409) is not a second hop.
      const retry = hopEvents('fp-retry', 'lease-r');
      retry.splice(3, 0, { name: HopEvents.HOP_SENT, atMs: 10, attrs: { [EventAttributes.FINGERPRINT]: 'fp-retry', [EventAttributes.ATTEMPT]: 2 } });
      b.call(t, remoteCall({ atMs: 200, events: retry }, 'fp-retry', 'lease-r'));
    },
  },
  excerpt_on_sensitive_leaf: {
    tp: (b, t) => void b.call(t, cleanCall({ args: [{ key: 'notes', residency: 'dirty-tree', rule: 'dirty-path', excerpt: 'uncommitted draft text' }] })),
    fp: (b, t) => void b.call(t, cleanCall({ args: [{ key: 'notes', residency: 'tiny-public', excerpt: 'team sync' }] })),
  },
  credential_in_attribute: {
    tp: (b, t) => {
      b.call(t, cleanCall({ args: [{ key: 'notes', residency: 'tiny-public', excerpt: `key=${CANARY_AWS_KEY}` }] }));
      // Where no attribute value holds it: a span's name, its status message, an attribute's key.
      b.otherSpan(t, `lookup ${CANARY_AWS_KEY}`);
      b.otherSpan(t, 'lookup', { statusMessage: `denied for ${CANARY_AWS_KEY}` });
      b.otherSpan(t, 'lookup', { attributes: { [`auth.${CANARY_AWS_KEY}`]: 'x' } });
      b.otherSpan(t, 'lookup', { linkAttributes: { 'request.note': `key=${CANARY_AWS_KEY}` } });
      // A file an API answered in base64: no keyword is left in the text.
      b.otherSpan(t, 'lookup', { attributes: { 'http.response.body': JSON.stringify({ encoding: 'base64', content: Buffer.from(`key=${CANARY_AWS_KEY}\n`).toString('base64') }) } });
      // A bytes value; an event's name and an attribute key on an event and on a link.
      const bytes = b.otherSpan(t, 'lookup', { linkAttributes: { [`auth.${CANARY_AWS_KEY}`]: 'x' } });
      bytes.attributes.push({ key: 'http.request.body', value: { bytesValue: Buffer.from(`key=${CANARY_AWS_KEY}`).toString('base64') } });
      bytes.events = [
        { timeUnixNano: bytes.startTimeUnixNano.toString(), name: `denied ${CANARY_AWS_KEY}`, attributes: [] },
        { timeUnixNano: bytes.startTimeUnixNano.toString(), name: 'retry', attributes: [{ key: `auth.${CANARY_AWS_KEY}`, value: { stringValue: 'x' } }] },
      ];
      // Another library's call whose arguments as it ran differ from the model's proposal, which holds the key.
      proposedThenRan(b, t, `key=${CANARY_AWS_KEY}`);
    },
    fp: (b, t) => {
      b.call(t, cleanCall({ args: [{ key: 'notes', residency: 'tiny-public', excerpt: 'AKIA is only a prefix, sk- too' }] }));
      b.otherSpan(t, 'lookup AKIA keys', { statusMessage: 'denied: AKIA is only a prefix', attributes: { 'auth.token_kind': 'AKIA' }, linkAttributes: { 'request.note': 'AKIA is only a prefix' } });
      b.otherSpan(t, 'lookup', { attributes: { 'http.response.body': JSON.stringify({ encoding: 'base64', content: Buffer.from('AKIA is only a prefix\n').toString('base64') }) } });
      const bytes = b.otherSpan(t, 'lookup', { linkAttributes: { 'auth.AKIA': 'x' } });
      bytes.attributes.push({ key: 'http.request.body', value: { bytesValue: Buffer.from('AKIA is only a prefix').toString('base64') } });
      bytes.events = [{ timeUnixNano: bytes.startTimeUnixNano.toString(), name: 'denied: AKIA is only a prefix', attributes: [{ key: 'auth.AKIA', value: { stringValue: 'x' } }] }];
      proposedThenRan(b, t, 'AKIA is only a prefix');
    },
  },
  incomplete_evidence: {
    tp: (b, t) => void b.call(t, cleanCall({ args: [{ key: 'title' }, { key: 'start' }], dropArgSpans: 1 })),
    fp: (b, t) => void b.call(t, cleanCall({ args: [{ key: 'title' }, { key: 'start' }] })),
  },
  inferred_gate_missed: {
    tp: (b, t) => void b.call(t, cleanCall({ args: [inferredTz], gateHits: ['calendar.create.timezone'] })),
    fp: (b, t) => {
      b.call(t, cleanCall({ args: [inferredTz], ...asked }));
      b.call(t, cleanCall({ args: [emptyTz] }));
    },
  },
  gate_hit_without_inferred_leaf: {
    tp: (b, t) => void b.call(t, cleanCall({ args: [inferredTz], ...asked, gateHits: ['calendar.create.timezone', 'calendar.create.title'] })),
    fp: (b, t) => {
      b.call(t, cleanCall({ args: [inferredTz], ...asked }));
      // One guessed recipient in a list: the hit names the list, the leaf its element.
      b.call(t, cleanCall({ tool: 'email.send', args: [{ ...inferredTz, key: 'to[0]', provenance: 'user_explicit' }, { ...inferredTz, key: 'to[1]' }], ...asked, gateHits: ['email.send.to'] }));
      // An unsafe schema default on a denylisted key is gated too.
      b.call(t, cleanCall({ tool: 'payments.quote', args: [{ ...inferredTz, key: 'currency', provenance: 'schema_default' }], ...asked, gateHits: ['payments.quote.currency'] }));
      // So is a no-evidence value under noEvidenceAction ask (argspan mcp-proxy).
      b.call(t, cleanCall({ args: [{ ...inferredTz, provenance: 'no_evidence' }], ...asked }));
    },
  },
  inferred_leaf_not_in_hits: {
    tp: (b, t) => void b.call(t, cleanCall({ args: [inferredTz], ...asked, gateHits: [] })),
    fp: (b, t) => {
      b.call(t, cleanCall({ args: [inferredTz], ...asked }));
      b.call(t, cleanCall({ tool: 'email.send', args: [{ ...inferredTz, key: 'to[1]' }, { ...inferredTz, key: 'cc[0].email' }], ...asked, gateHits: ['email.send.to', 'email.send.cc.email'] }));
      b.call(t, cleanCall({ args: [emptyTz] }));
    },
  },
  ask_without_question: {
    tp: (b, t) => void b.call(t, cleanCall({ args: [inferredTz], gateAction: 'ask', gateHits: asked.gateHits })),
    fp: (b, t) => void b.call(t, cleanCall({ args: [inferredTz], ...asked })),
  },
  held_call_dispatched: {
    tp: (b, t) => {
      b.call(t, remoteCall({ args: [{ ...inferredTz, key: 'text' }], gateAction: 'block', gateHits: ['summarise.text'] }));
      // Held for a question, yet no gate error: the tool ran.
      b.call(t, cleanCall({ atMs: 100, args: [inferredTz], ...asked, errorType: null }));
    },
    fp: (b, t) => {
      b.call(t, cleanCall({ args: [inferredTz], gateAction: 'block', gateHits: asked.gateHits }));
      b.call(t, cleanCall({ atMs: 100, args: [inferredTz], ...asked }));
      b.call(t, cleanCall({ atMs: 200, tool: 'fs.read', args: [{ key: 'path', residency: 'secret', rule: 'secret-file-name' }], enforcement: 'deny' }));
    },
  },
  gate_without_inferred_leaf: {
    tp: (b, t) => void b.call(t, cleanCall({ args: [{ ...inferredTz, provenance: 'user_explicit' }], gateAction: 'block' })),
    fp: (b, t) => {
      b.call(t, cleanCall({ args: [inferredTz], gateAction: 'block', gateHits: asked.gateHits }));
      b.call(t, cleanCall({ args: [{ ...inferredTz, provenance: 'no_evidence' }], gateAction: 'block', gateHits: asked.gateHits }));
    },
  },
  invalid_argument_label: {
    tp: (b, t) => void b.call(t, cleanCall({ args: [{ key: 'title', provenance: 'guessed' as Provenance }] })),
    fp: (b, t) => void b.call(t, cleanCall({ args: [{ key: 'title', provenance: 'schema_default', residency: 'unknown' }] })),
  },
  invalid_call_label: {
    // Upper case is another label (a rewrite between exporter and analyzer); an export from before enforcement was recorded is not.
    tp: (b, t) => void b.call(t, cleanCall({ verdict: 'LOCAL' as Verdict })),
    fp: (b, t) => void b.call(t, cleanCall({ enforcement: null })),
  },
  stopwatch_missing: {
    tp: (b, t) => void b.call(t, cleanCall({ stopwatch: {} })),
    fp: (b, t) => {
      b.call(t, cleanCall());
      // Another library's execute_tool span: argspan's own evidence is not expected of it.
      b.call(t, { tool: 'get_weather', runId: 'run-1', args: [], stopwatch: {}, declaredCount: null, enforcement: null, scope: 'some.genai.library' });
    },
  },
  remote_hop_without_rtt: {
    tp: (b, t) => void b.call(t, remoteCall({ stopwatch: { localMs: 1 } })),
    fp: (b, t) => void b.call(t, remoteCall()),
  },
  blocked_hop_went_remote: {
    tp: (b, t) => void b.call(t, remoteCall({ stopwatch: { localMs: 1, remoteRttMs: 20, hopBlocked: true } })),
    fp: (b, t) => void b.call(t, cleanCall({ stopwatch: { localMs: 1, hopBlocked: true } })),
  },
  local_verdict_went_remote: {
    tp: (b, t) => void b.call(t, remoteCall({ verdict: 'local' })),
    fp: (b, t) => void b.call(t, remoteCall()),
  },
  context_lineage_broken: {
    tp: (b, t) => void b.call(t, cleanCall({ args: [{ key: 'title', provenance: 'context_retrieved' }] })),
    fp: (b, t) => {
      const src = b.call(t, cleanCall({ tool: 'contacts.lookup', args: [{ key: 'name' }] }));
      b.call(t, cleanCall({ atMs: 100, args: [{ key: 'title', provenance: 'context_retrieved', linkTo: src }] }));
      b.call(t, cleanCall({ atMs: 200, args: [{ key: 'start', provenance: 'context_retrieved', sourceCallId: src.callId }] }));
    },
  },
  report_invented_fields_by_turn: {
    tp: (b, t) => void b.call(t, cleanCall({ args: [{ key: 'title', provenance: 'model_inferred' }] })),
    fp: (b, t) => {
      b.call(t, cleanCall());
      // a call with no arguments (`{}`): its one leaf `$`, empty, tagged model_inferred — nothing invented
      b.call(t, cleanCall({ tool: 'getCurrentLocation', args: [{ key: '$', provenance: 'model_inferred', residency: 'unknown', rule: 'empty', bytes: 0 }] }));
    },
  },
  report_run_summary: {
    tp: (b, t) => void b.call(t, cleanCall()),
    fp: () => undefined,
  },
  report_context_lineage: {
    tp: (b, t) => {
      const src = b.call(t, cleanCall({ tool: 'contacts.lookup', args: [{ key: 'name' }] }));
      b.call(t, cleanCall({ atMs: 100, args: [{ key: 'title', provenance: 'context_retrieved', linkTo: src }] }));
    },
    fp: (b, t) => void b.call(t, cleanCall({ args: [{ key: 'title', provenance: 'context_retrieved' }] })),
  },
  credential_in_log_record: {
    tp: (b, t) => {
      const call = b.call(t, cleanCall());
      // A framework logging a tool's arguments in the call's span, in its body and in an attribute; a request logger outside any span.
      b.appLog(call, `Function arguments: {"note": "key=${CANARY_AWS_KEY}"}`);
      b.appLog(call, 'calling tool', { attributes: { 'tool.arguments': `{"note": "key=${CANARY_AWS_KEY}"}` } });
      b.appLog(undefined, 'request sent', { attributes: { 'http.request.header.authorization': `AWS ${CANARY_AWS_KEY}` } });
    },
    fp: (b, t) => {
      // The same key already reported on the span the record was written in (credential_in_attribute's): not again.
      const span = b.otherSpan(t, 'lookup', { attributes: { 'request.note': `key=${CANARY_AWS_KEY}` } });
      b.appLog(span, `retrying with key=${CANARY_AWS_KEY}`);
      b.appLog(undefined, 'AKIA is only a prefix, sk- too', { attributes: { 'auth.token_kind': 'AKIA' } });
    },
  },
};

/** Attributes whose values tie spans of different traces together (run, payload, lease). */
const CROSS_TRACE_KEYS = new Set<string>([GenAiAttributes.CONVERSATION_ID, CallAttributes.RUN_ID, CallAttributes.HOP_FINGERPRINT, EventAttributes.FINGERPRINT, EventAttributes.LEASE_ID]);

/**
 * The OTLP JSON lines of one rule case. Ids come from a seed of their own and run ids,
 * fingerprints and lease ids are prefixed with the case name, so all cases can be loaded into
 * one database without one case's spans joining another's.
 */
export function ruleCaseLines(rule: string, which: 'tp' | 'fp'): string[] {
  const c = RULE_CASES[rule];
  if (!c) throw new Error(`no fixture case for rule ${rule}`);
  const index = Object.keys(RULE_CASES).indexOf(rule);
  const b = new ArgspanTraceBuilder(0x5e00 + index * 2 + (which === 'fp' ? 1 : 0));
  const turn = b.turn('turn 1', 'run-1');
  c[which](b, turn);
  const ns = (kv: { key: string; value: unknown }) => {
    const v = kv.value as { stringValue?: string };
    if (CROSS_TRACE_KEYS.has(kv.key) && v.stringValue !== undefined) v.stringValue = `${rule}.${which}.${v.stringValue}`;
  };
  for (const span of b.spans) {
    span.attributes.forEach(ns);
    for (const e of span.events ?? []) e.attributes.forEach(ns);
  }
  return b.lines('agent', 200, FIXTURE_RESOURCE);
}
