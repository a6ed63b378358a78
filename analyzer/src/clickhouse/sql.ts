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
 * OTLP value: an int from its digits (or a double's that is a whole number an Int64 holds: 2.5, 1e20
 * and NaN are nothing, as in DuckDB), a double, a bool from `true`/`false` (or `1`/`0`, an exporter's integer flag), an array from the JSON text the exporter writes for it
 * (elements as text: strings unquoted, numbers and bools as written). ClickHouse has no NULL
 * array, so a missing array is empty.
 */
export const CH_TYPED = {
  str: (v: string) => v,
  int: (v: string) =>
    `coalesce(toInt64OrNull(${v}), if(isFinite(ifNull(toFloat64OrNull(${v}), nan)) AND toFloat64OrNull(${v}) = floor(toFloat64OrNull(${v})) AND abs(toFloat64OrNull(${v})) < 9.2e18, CAST(toFloat64OrNull(${v}) AS Nullable(Int64)), NULL))`,
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
