/**
 * Escaping for the HTML report. Tool names, keys, run ids and messages come from traces that may
 * be hostile: every one goes through {@link html} (text and quoted attribute values alike), and
 * data handed to the page's script through {@link jsonForScript}.
 */
import { codePointEscape } from '../../terminal-text.js';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** HTML's specials, and the characters a reader does not see as what they are (terminal-text.ts) but tab and line breaks. */
const TO_ESCAPE = /[&<>"']|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]|\p{Default_Ignorable_Code_Point}/gu;

/** Text safe as element content and as a double- or single-quoted attribute value. */
export function html(s: string | number | null | undefined): string {
  if (s === null || s === undefined) return '';
  // A control character (a model may put one in a tool name) cannot be written in HTML even as a
  // reference, and a bidirectional control, a zero-width or a tag character would show the cell as
  // something else than it holds: shown as `\uXXXX`.
  return String(s).replace(TO_ESCAPE, (c) => HTML_ESCAPES[c] ?? codePointEscape(c));
}

/**
 * JSON safe inside `<script type="application/json">`: `<`, `>` and `&` are written as JSON
 * unicode escapes, so no `</script>` or `<!--` can end or change the element, and U+2028/2029
 * as escapes too. JSON.parse reads the same value back.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
