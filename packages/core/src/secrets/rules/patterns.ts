/** Regex fragments shared by the built-in rules (as source strings). */

/** Left boundary of a token: no word character before. */
export const L = '(?<![A-Za-z0-9_])';
/** Right boundary of a token: no word character after. */
export const R = '(?![A-Za-z0-9_])';
/** Right boundary of a token whose body may hold `-`. */
export const RD = '(?![A-Za-z0-9_-])';

/** Case-insensitive literal, for patterns that are otherwise case-sensitive. */
export function ci(word: string): string {
  let out = '';
  for (const ch of word) {
    const lo = ch.toLowerCase();
    const up = ch.toUpperCase();
    out += lo === up ? ch.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&') : `[${lo}${up}]`;
  }
  return out;
}

/** Assignment operators: = : := ::= :::= ?= += .= ||= ??= => <- (Makefile, Go, PHP, Ruby, R, ...). */
const OPERATOR = String.raw`(?::{1,3}=|[?+.]=|\|\|=|\?\?=|=>|<-|=|:)`;
/** A type between a name and its `=`: `: string`, `: &'static str`, `: Option<String>`, Go's ` string`. */
const TYPE = String.raw`&?(?:'[a-z]{1,12}[ \t]{1,2})?(?:mut[ \t])?[\w.:<>\[\]*?&]{1,40}`;
/** The quote closing a quoted key, escaped up to three times (JSON inside JSON inside JSON). */
const KEY_QUOTE = String.raw`\\{0,3}["'\x60]`;
/**
 * The opening of a quoted value: a quote, escaped up to three times, maybe after a string prefix
 * (Python's r b u f, C#'s @ and $, Rust's r#).
 */
export const OPEN_QUOTE = String.raw`(?:(?:[rRbBuUfF]{1,2}#?|@|\$)?\\{0,3}["'\x60])`;

/**
 * From the end of a key name to the start of its value, in the assignment syntax of the
 * languages and config formats agents touch. Space and tab only, never a line break, around an
 * operator: an empty `.env` value (`A_KEY=⏎B_KEY=`) must not take the next line as its value.
 * - `key = v`, `key: v`, `key := v`, Makefile `::=` `:::=` `?=` `+=`, PHP `.=`, `=>`, R `<-`;
 * - a quoted key (`"key": "v"`, `'key' => 'v'`, `ENV["KEY"] = "v"`, `\"key\":\"v\"`);
 * - a type between name and `=` (`val key: String = "v"`, `const KEY: &str = "v"`,
 *   `var key string = "v"`);
 * - a quoted key, a comma and a quoted value: call arguments (`System.setProperty("X_TOKEN", "v")`,
 *   `os.Setenv`, `define('KEY', 'v')`), and XML attributes (`key="Secret" value="v"`);
 * - a quoted value on the next line (pretty-printed JSON, YAML);
 * - an XML element, the value on the same line or its own (`<key>⏎  v⏎</key>`).
 */
export const ASSIGN_TAIL =
  // (the first character decides most tries at once: after a key, code goes on with other characters)
  String.raw`(?=[ \t"'\x60\\\]=:,>?+.|<])(?:` +
  [
    String.raw`(?:${KEY_QUOTE})?\]?[ \t]{0,4}${OPERATOR}[ \t]{0,4}${OPEN_QUOTE}?`,
    String.raw`${KEY_QUOTE}\]?[ \t]{0,4}(?:,|[ \t][vV]alue[ \t]{0,2}=)[ \t]{0,4}${OPEN_QUOTE}`,
    String.raw`(?:${KEY_QUOTE})?(?:[ \t]{0,4}:[ \t]{0,4}${TYPE}|[ \t]{1,4}${TYPE})[ \t]{0,4}=[ \t]{0,4}${OPEN_QUOTE}?`,
    String.raw`(?:${KEY_QUOTE})?[ \t]{0,4}[:=][ \t]{0,4}\r?\n\s{0,40}${OPEN_QUOTE}`,
    String.raw`(?:${KEY_QUOTE})?>\s{0,40}`,
  ].join('|') +
  ')';
/** {@link ASSIGN_TAIL} after up to 24 more key characters. */
export const ASSIGN = String.raw`[\w.-]{0,24}?` + ASSIGN_TAIL;

/** Build a global rule pattern from source fragments. */
export function re(...parts: string[]): RegExp {
  return new RegExp(parts.join(''), 'g');
}
