import { ForeignArgumentRule, type ArgumentDecoding, type ForeignSpan, type RecordedArguments } from '../types.js';

/**
 * The tool of a call whose record leaves its name out, or writes it as no text: a call still (by
 * its shape or its span's signature), its arguments read; `classifyCall` names it `(unnamed)`.
 */
export const UNNAMED_TOOL = '';

/** Whether a parsed JSON value is an object (not null, not a list). */
export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

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

/** A call's arguments as the span holds them under `key`: text, or (`notText`) a value of another type (its text then '': not carried). */
export interface HeldArguments {
  key: string;
  text: string;
  notText: boolean;
}

/**
 * The arguments under the first of `keys` the span holds, whatever the value's type: an int, a
 * bool or an array there is still a call's record of its arguments (read as unreadable), not their
 * absence — read as absent, the call would be passed over or counted as not recorded.
 */
export function argumentsIn(span: ForeignSpan, keys: readonly string[]): HeldArguments | undefined {
  for (const key of keys) {
    const value = span.attrs.get(key);
    if (typeof value === 'string') return { key, text: value, notText: false };
    if (span.nonText?.has(key)) return { key, text: '', notText: true };
  }
  return undefined;
}

/**
 * `held` as the call's recorded blob, read with `decode`; a value that is not text one unreadable
 * leaf ({@link ForeignArgumentRule.NOT_TEXT}); none held, not recorded (under `key`).
 */
export function argumentBlob(held: HeldArguments | undefined, key: string, decode: ArgumentDecoding): RecordedArguments {
  if (held === undefined) return { kind: 'blob', attribute: key, text: undefined, decode };
  return { kind: 'blob', attribute: held.key, text: held.text, decode: held.notText ? { ...decode, unreadable: ForeignArgumentRule.NOT_TEXT } : decode };
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
