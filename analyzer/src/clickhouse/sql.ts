/** SQL text for ClickHouse: quoting, and typed values from the exporter's string-valued attribute maps. */

/** A ClickHouse string literal (backslash is an escape character there, unlike in standard SQL). */
export function chString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A ClickHouse identifier, quoted. */
export function chIdent(s: string): string {
  return `\`${s.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``;
}

/** The attribute `key` of map `m`, NULL when the map does not hold it (the map itself gives '' then). */
export function attrValue(m: string, key: string): string {
  return `if(mapContains(${m}, ${chString(key)}), ${m}[${chString(key)}], NULL)`;
}

/**
 * Typed values from the exporter's text (pcommon's `AsString()`), read as DuckDB reads the typed
 * OTLP value: an int from its digits (a double rounded half away from zero, as DuckDB casts), a
 * double, a bool from `true`/`false` (or `1`/`0`, an exporter's integer flag), an array from the JSON text the exporter writes for it
 * (elements as text: strings unquoted, numbers and bools as written). ClickHouse has no NULL
 * array, so a missing array is empty.
 */
export const CH_TYPED = {
  str: (v: string) => v,
  int: (v: string) => `coalesce(toInt64OrNull(${v}), CAST(toFloat64OrNull(${v}) + if(toFloat64OrNull(${v}) < 0, -0.5, 0.5) AS Nullable(Int64)))`,
  num: (v: string) => `toFloat64OrNull(${v})`,
  bool: (v: string) => `CAST(multiIf(lower(${v}) IN ('true', '1'), 1, lower(${v}) IN ('false', '0'), 0, NULL) AS Nullable(Bool))`,
  arr: (v: string) => jsonArrayValues(v),
} as const;

/** The elements of a JSON array text as text (strings unquoted), empty when it is not one. */
export function jsonArrayValues(v: string): string {
  return `if(isValidJSON(coalesce(${v}, '')) AND JSONType(coalesce(${v}, '')) = 'Array',
    arrayMap(x -> if(JSONType(x) = 'String', JSONExtractString(x), x), JSONExtractArrayRaw(coalesce(${v}, ''))), CAST([] AS Array(String)))`;
}

/** ClickHouse column types for the typed attribute columns. */
export const CH_TYPE = {
  str: 'Nullable(String)',
  int: 'Nullable(Int64)',
  num: 'Nullable(Float64)',
  bool: 'Nullable(Bool)',
  arr: 'Array(String)',
} as const;
