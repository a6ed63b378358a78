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

/**
 * From the end of a key name to the start of its value: the rest of the key (bounded), an
 * optional closing quote (also `\"` inside JSON strings), an assignment (`=`, `:`, `:=`, `=>`,
 * `>` for XML) and an optional opening quote.
 */
export const ASSIGN_TAIL = String.raw`(?:\\?["'])?\]?\s{0,4}(?::=|=>|=|:|>)\s{0,4}(?:\\?["'\x60])?`;
/** {@link ASSIGN_TAIL} after up to 24 more key characters. */
export const ASSIGN = String.raw`[\w.-]{0,24}?` + ASSIGN_TAIL;

/** Build a global rule pattern from source fragments. */
export function re(...parts: string[]): RegExp {
  return new RegExp(parts.join(''), 'g');
}
