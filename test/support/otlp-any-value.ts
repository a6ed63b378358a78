/** A plain JSON value written as an OTLP/JSON `AnyValue`, as an emitter writes a structured attribute (a map is a `kvlistValue`). */
export function toAnyValue(v: unknown): unknown {
  if (v === null || v === undefined) return {};
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isSafeInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  if (Array.isArray(v)) return { arrayValue: { values: v.map(toAnyValue) } };
  return { kvlistValue: { values: Object.entries(v as object).map(([key, x]) => ({ key, value: toAnyValue(x) })) } };
}
