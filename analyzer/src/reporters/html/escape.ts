/**
 * Escaping for the HTML report. Tool names, keys, run ids and messages come from traces that may
 * be hostile: every one goes through {@link html} (text and quoted attribute values alike), and
 * data handed to the page's script through {@link jsonForScript}.
 */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe as element content and as a double- or single-quoted attribute value. */
export function html(s: string | number | null | undefined): string {
  if (s === null || s === undefined) return '';
  // A control character (a model may put one in a tool name) cannot be written in HTML even as a reference: shown as `\uXXXX`.
  return String(s).replace(/[&<>"']|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, (c) => HTML_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * JSON safe inside `<script type="application/json">`: `<`, `>` and `&` are written as JSON
 * unicode escapes, so no `</script>` or `<!--` can end or change the element, and U+2028/2029
 * as escapes too. JSON.parse reads the same value back.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
