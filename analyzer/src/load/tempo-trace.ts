import { InputError } from './input-error.js';
import type { SpanPath } from './malformed-span-positions.js';

/**
 * Grafana Tempo's trace answers, read as the OTLP JSON documents they nearly are:
 *
 * - `GET /api/traces/<id>`: `{"batches": [ResourceSpans…]}` (also Grafana's trace view "Export"
 *   of a Tempo trace, and APIs that copy Tempo's answer);
 * - `GET /api/v2/traces/<id>`: `{"trace": {"resourceSpans": […]}, "status": "COMPLETE" | "PARTIAL", "message": …}`.
 *
 * Tempo marshals its protobuf with Go's jsonpb, so ids are base64 (protobuf's JSON for bytes),
 * not OTLP/JSON's hex; Tempo before 2.0 and Grafana's export name the scope level as OTLP before
 * 1.0 did (`instrumentationLibrarySpans`, `instrumentationLibrary`). Both are made OTLP/JSON here;
 * every other field stays as it is.
 */
export interface TempoTrace {
  /** The answer as an OTLP JSON document (`resourceSpans`). */
  document: { resourceSpans: unknown[] };
  /** Where a staged span (resource, scope, span indexes) is in the answer, for naming a malformed one. */
  spanPath: SpanPath;
  /** Tempo answered with part of the trace (`status` other than `COMPLETE`: the trace is larger than its limit). */
  partial: boolean;
}

/** Why a Tempo answer that says it holds part of the trace is not analysed as a whole one. */
export const TEMPO_PARTIAL =
  'Grafana Tempo answered with part of the trace only ("status" is not COMPLETE: the trace is larger than Tempo\'s size limit): its other spans are not in the file';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `doc` (a parsed Tempo answer) as OTLP JSON; throws {@link InputError} naming `file` when it is not of that shape. */
export function tempoTraceOf(doc: unknown, file: string): TempoTrace {
  const shape = (what: string) => new InputError([{ file, line: 1, reason: `JSON of another shape: ${what}` }]);
  if (!isObject(doc)) throw shape('a Grafana Tempo trace answer must be a JSON object');
  let list: unknown;
  let listPath: string;
  let partial = false;
  if ('batches' in doc) {
    list = doc.batches;
    listPath = 'batches';
  } else {
    const trace = doc.trace;
    if (!isObject(trace)) throw shape('the "trace" of a Grafana Tempo answer (GET /api/v2/traces) must be an object');
    // A trace Tempo holds no span of answers `{"trace": {}}`.
    listPath = 'resourceSpans' in trace || !('batches' in trace) ? 'trace.resourceSpans' : 'trace.batches';
    list = 'resourceSpans' in trace ? trace.resourceSpans : 'batches' in trace ? trace.batches : Object.keys(trace).length === 0 ? [] : undefined;
    // PartialStatus: COMPLETE is its zero value, which jsonpb may leave out.
    partial = !(doc.status === undefined || doc.status === null || doc.status === 'COMPLETE' || doc.status === 0);
  }
  if (!Array.isArray(list) || !list.every(isObject)) throw shape(`the "${listPath}" of a Grafana Tempo trace answer must be a list of objects`);
  const scopeNames: string[] = [];
  const resourceSpans = list.map((rs, r) => {
    const { instrumentationLibrarySpans, ...rest } = rs;
    const old = rs.scopeSpans === undefined && instrumentationLibrarySpans !== undefined;
    scopeNames.push(old ? 'instrumentationLibrarySpans' : 'scopeSpans');
    const scopes = old ? instrumentationLibrarySpans : rs.scopeSpans;
    if (scopes === undefined || scopes === null) return rest;
    if (!Array.isArray(scopes) || !scopes.every(isObject)) throw shape(`${listPath}[${r}].${scopeNames[r]} must be a list of objects`);
    return { ...rest, scopeSpans: scopes.map(otlpScopeSpans) };
  });
  return {
    document: { resourceSpans },
    spanPath: ([r, s, i]) => `${listPath}[${r}].${scopeNames[r ?? 0] ?? 'scopeSpans'}[${s}].spans[${i}]`,
    partial,
  };
}

/** A scope's spans as OTLP/JSON: the scope under its 1.0 name, each span's ids (and its links') in hex. */
function otlpScopeSpans(ss: Json): Json {
  const { instrumentationLibrary, ...rest } = ss;
  const scope = ss.scope === undefined && instrumentationLibrary !== undefined ? { scope: instrumentationLibrary } : {};
  return { ...rest, ...scope, ...(Array.isArray(ss.spans) ? { spans: ss.spans.map(hexIds) } : {}) };
}

function hexIds(span: unknown): unknown {
  if (!isObject(span)) return span;
  const out: Json = { ...span, traceId: hexId(span.traceId, 16), spanId: hexId(span.spanId, 8), parentSpanId: hexId(span.parentSpanId, 8) };
  if (span.parentSpanId === undefined) delete out.parentSpanId;
  if (Array.isArray(span.links)) out.links = span.links.map((l) => (isObject(l) ? { ...l, traceId: hexId(l.traceId, 16), spanId: hexId(l.spanId, 8) } : l));
  return out;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * An id of `bytes` bytes in hex: base64 of exactly that many bytes (as jsonpb writes one) is
 * decoded; anything else — hex already, empty, the wrong length or type — stays as it is, for the
 * reader to check as it checks every id.
 */
export function hexId(v: unknown, bytes: number): unknown {
  if (typeof v !== 'string' || v.length !== 4 * Math.ceil(bytes / 3) || !BASE64.test(v)) return v;
  const decoded = Buffer.from(v, 'base64');
  return decoded.length === bytes ? decoded.toString('hex') : v;
}
