/** Characters XML 1.0 cannot hold even escaped (C0 controls but tab, LF, CR; U+FFFE, U+FFFF; a lone surrogate). */
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Escape text for XML content and attribute values. A character XML cannot hold (a model may put
 * a control character in a tool name) is written as the text `\uXXXX`, so the report stays
 * well-formed and the name still readable.
 */
export function xmlEscape(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(NOT_XML, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
