import type { ForeignSpan } from '../types.js';

/**
 * The tool of a call whose record leaves its name out, or writes it as no text: a call still (by
 * its shape or its span's signature), its arguments read; `classifyCall` names it `(unnamed)`.
 */
export const UNNAMED_TOOL = '';

/** A string attribute, or undefined (an array attribute is not a string). */
export function str(span: ForeignSpan, key: string): string | undefined {
  const v = span.attrs.get(key);
  return typeof v === 'string' ? v : undefined;
}

/**
 * An emitter's kind attribute (`openinference.span.kind`, `traceloop.span.kind`,
 * `langsmith.span.kind`, `langfuse.observation.type`) lower-cased: the libraries and their exports
 * spell one kind in either case (Langfuse's API `TOOL`, its SDK's attribute `tool`), and a kind
 * read in one case only would pass over the other's calls.
 */
export function kindOf(span: ForeignSpan, key: string): string | undefined {
  return str(span, key)?.toLowerCase();
}

/** The first of `keys` the span has as a string. */
export function firstStr(span: ForeignSpan, keys: readonly string[]): { key: string; value: string } | undefined {
  for (const key of keys) {
    const value = str(span, key);
    if (value !== undefined) return { key, value };
  }
  return undefined;
}

/** An optional property, only when defined (exactOptionalPropertyTypes). */
export function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/**
 * The tool a span's name gives where no attribute names it: `{prefix} {tool}` → the tool; the
 * prefix alone (an emitter's span name that leaves the tool out) → the unnamed tool; any other
 * name as it is.
 */
export function toolOfPrefixedSpanName(name: string, prefix: string): string {
  if (name === prefix) return UNNAMED_TOOL;
  return name.startsWith(prefix) && name.charCodeAt(prefix.length) === 32 ? name.slice(prefix.length + 1) : name;
}
