/**
 * Text from a trace (a tool name, a key, a file name) as a terminal may show it: control characters
 * (C0, DEL, C1: an escape sequence a terminal would act on, a carriage return that overwrites the
 * line) and the characters that reorder what follows them (bidirectional overrides and isolates,
 * line and paragraph separators) written as `\uXXXX`, so a row reads as what it holds.
 */
export function terminalText(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
