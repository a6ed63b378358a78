/**
 * Characters a reader does not see as what they are: control characters (C0, DEL, C1: an escape
 * sequence a terminal would act on, a carriage return that overwrites the line), line and paragraph
 * separators, and Unicode's default-ignorable characters — the bidirectional controls that reorder
 * what follows them, zero-width characters (`read\u200b_file` shows as `read_file`), tag characters
 * (text no one sees: the "ASCII smuggling" of prompt injections) and variation selectors.
 */
const UNSEEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|\p{Default_Ignorable_Code_Point}/gu;

/** One character as an escape: `\uXXXX`, or `\u{XXXXX}` beyond the Basic Multilingual Plane. */
export function codePointEscape(c: string): string {
  const cp = c.codePointAt(0)!;
  return cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, '0')}`;
}

/**
 * Text from a trace (a tool name, a key, a file name) as a terminal may show it: every character
 * a reader does not see as what it is written as an escape, so a row reads as what it holds.
 */
export function terminalText(s: string): string {
  return s.replace(UNSEEN, codePointEscape);
}
