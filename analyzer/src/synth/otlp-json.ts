/**
 * Builders for OTLP/JSON trace data in exactly the shape argspan's instrumentation exports
 * (shared/DESIGN.md, "Span conventions"). Used by the trace fixtures, the tests and the
 * benchmark; never by the analyzer's read path.
 */

/** An OTLP/JSON `AnyValue`. */
export type OtlpAnyValue =
  | { stringValue: string }
  | { intValue: string | number }
  | { doubleValue: number }
  | { boolValue: boolean }
  | { bytesValue: string }
  | { arrayValue: { values: OtlpAnyValue[] } };

/** An OTLP/JSON `KeyValue`. */
export interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}

/** Attribute values the builders accept; integers become `intValue` (as strings, like the collector). */
export type AttrValue = string | number | boolean | readonly string[];

export interface OtlpEvent {
  timeUnixNano: string;
  name: string;
  attributes: OtlpKeyValue[];
}

export interface OtlpLink {
  traceId: string;
  spanId: string;
  attributes?: OtlpKeyValue[];
}

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes: OtlpKeyValue[];
  events?: OtlpEvent[];
  links?: OtlpLink[];
  status?: { code?: number; message?: string };
}

/** Turn one value into an OTLP `AnyValue`. */
export function anyValue(v: AttrValue): OtlpAnyValue {
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  return { arrayValue: { values: v.map((s) => ({ stringValue: s })) } };
}

/** Turn a record into OTLP attributes, skipping `undefined` values. */
export function attributes(rec: Readonly<Record<string, AttrValue | undefined>>): OtlpKeyValue[] {
  const out: OtlpKeyValue[] = [];
  for (const [key, v] of Object.entries(rec)) if (v !== undefined) out.push({ key, value: anyValue(v) });
  return out;
}

/**
 * One line of an OTLP JSON lines file: `{"resourceSpans":[…]}` with one resource and one scope
 * (or, given `scopeOf`, one `scopeSpans` entry per scope, in order of first appearance).
 */
export function resourceSpansLine(
  service: string,
  scope: string,
  spans: readonly OtlpSpan[],
  resourceAttributes: Readonly<Record<string, AttrValue | undefined>> = {},
  scopeOf?: (span: OtlpSpan) => string | undefined,
): string {
  const groups = new Map<string, OtlpSpan[]>();
  for (const span of spans) {
    const name = scopeOf?.(span) ?? scope;
    let g = groups.get(name);
    if (!g) groups.set(name, (g = []));
    g.push(span);
  }
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: attributes({ 'service.name': service, ...resourceAttributes }) },
        scopeSpans: [...groups].map(([name, list]) => ({ scope: { name, version: '0.1.0' }, spans: list })),
      },
    ],
  });
}

/** Deterministic ids: 32-hex trace ids and 16-hex span ids from counters. */
export class IdSource {
  private trace = 0;
  private span = 0;
  constructor(private readonly seed = 0) {}
  traceId(): string {
    this.trace += 1;
    return (this.seed.toString(16).padStart(8, '0') + this.trace.toString(16).padStart(24, '0')).slice(-32);
  }
  spanId(): string {
    this.span += 1;
    return (this.seed.toString(16).padStart(4, '0') + this.span.toString(16).padStart(12, '0')).slice(-16);
  }
}
