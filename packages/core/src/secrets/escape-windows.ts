/**
 * Where a text's JSON string escapes are worth undoing: the windows the detector decodes with
 * decodeJsonEscapes and scans again as a layer of their own (JSON inside a string, and inside
 * that again).
 */
import { HEXVAL, isHexDigit, isTokenStop, isWordChar, mayHideUnit } from './decoders.js';
import { base64RunEnd, couldBeBase64OfText } from './keyword-scanner.js';

/** Context decoded on each side of an escape. */
export const ESCAPE_WINDOW = 512;
/** How far after a keyword hit an escape is decoded (the value after a key name: \"password\":\"...). */
export const ESCAPE_NEAR = 64;
/**
 * How far before a keyword hit the match of a rule that is not anchored at its keyword may
 * begin (`[a-f0-9]{36}NRAL`, `abc8Q~...`, an Azure DevOps token's 77 characters before `ZDO`),
 * for glued escapes.
 */
export const GLUE_REACH = 80;
/** Longest token after a glued escape that its window stretches to hold (the longest base64 run decoded). */
const MAX_GLUED_TOKEN = 1 << 20;

/** Where matches can begin other than at keyword hits, for glued escapes (see escapeWindows). */
export interface GlueSites {
  /** Per keyword id: how far before its hit a match may begin (0 or absent: at the hit). */
  before?: ArrayLike<number>;
  /**
   * Per keyword id, 1: a match that begins before the hit begins in the key the hit stands in
   * (a key-named rule at its provider name), so an escape glued to the key counts only when
   * nothing but key characters (`[A-Za-z0-9_.-]`) comes between it and the hit.
   */
  inKey?: ArrayLike<number>;
  /** Some rule has no keyword and runs over the whole text: an escape glued to any word character counts. */
  anywhere?: boolean;
  /** Shortest base64 run that is decoded: a run glued to an escape counts from this length. */
  minRun?: number;
}

/**
 * Regions worth JSON-unescaping, as sorted, disjoint [start, end) pairs: windows of
 * ESCAPE_WINDOW characters on each side of
 * - every escape (`\"`, `\/`, `\uXXXX`, `\xNN`) from two characters before a keyword hit to ESCAPE_NEAR
 *   after it: a key name just before the escape (\"password\":\"...) or right after it (\"token\");
 * - every `\uXXXX` or `\xNN` (C's, Python's, `printf`'s) of a printable ASCII character and every
 *   escaped scheme (`:\/\/`), which can hide a keyword themselves (keywords are printable ASCII:
 *   `\u00e9` or `\u000a` hides none), and every `\uXXXX` of a character that hides text or
 *   stands in for it (`\u200b` inside a token, `\uff47`);
 * - every glued escape: one written with a final letter or digit (`\b \f \n \r \t`, `\uXXXX`, `\xNN`)
 *   that stands for a character that is neither, where a match can begin right after it: at a
 *   keyword hit (or up to `sites.before[keyword]` characters before one), at a base64 run, or,
 *   with a keyword-less rule, at any word character. Undecoded, the rules' left-boundary checks
 *   read the escape's last character as part of a word (`\nghp_…` is `n` then `ghp_`), and a
 *   base64 run starts at it; decoded, it is the newline it stands for. A glued escape's window
 *   reaches ESCAPE_WINDOW past the token that follows it, however long (up to 1 MB). `\\n`
 *   (JSON inside a JSON string) is glued too: its window decodes to `\n`, glued again.
 * One pass over the backslashes (found with indexOf), with pointers into the hits; windows are
 * merged as they are found, so a text of millions of escapes builds no list of them.
 */
export function escapeWindows(text: string, unordered: readonly number[], sites: GlueSites = {}): number[] {
  const hits = byStart(unordered); // the scanner reports hits by start already
  const reach = farthestReach(sites.before);
  const minRun = sites.minRun ?? 16;
  const windows: number[] = [];
  let near = 1; // position slot in `hits` of the first hit at or after p - ESCAPE_NEAR
  let ahead = 1; // ... of the first hit after p
  for (let p = text.indexOf('\\'); p >= 0; p = text.indexOf('\\', p + 1)) {
    let end = -1;
    const len = escapeLength(text, p);
    if (len > 0) {
      while (near < hits.length && hits[near]! < p - ESCAPE_NEAR) near += 2;
      const nearHit = near < hits.length && hits[near]! <= p + 2;
      if (nearHit || (len > 2 ? isRevealingEscape(text, p, len) : isEscapedScheme(text, p))) end = p + ESCAPE_WINDOW;
    }
    const glue = gluedLength(text, p);
    if (glue > 0) {
      const q = p + glue;
      while (ahead < hits.length && hits[ahead]! <= p) ahead += 2;
      if (gluedToHit(text, hits, ahead, p, q, sites, reach) || (sites.anywhere === true ? isWordChar(text.charCodeAt(q)) : gluedToRun(text, q, minRun))) {
        end = Math.max(end, tokenEnd(text, q) + ESCAPE_WINDOW);
      }
    }
    if (end >= 0) addWindow(windows, p - ESCAPE_WINDOW, end, text.length);
  }
  return windows;
}

/** farthestReach by `before` table: a detector's table is built once and read on every call. */
const reachByTable = new WeakMap<ArrayLike<number>, number>();

/** The farthest any hit reaches back (the largest of `before`), worked out once per table. */
function farthestReach(before: ArrayLike<number> | undefined): number {
  if (before === undefined) return 0;
  let reach = reachByTable.get(before);
  if (reach === undefined) {
    reach = 0;
    for (let k = 0; k < before.length; k++) reach = Math.max(reach, before[k]!);
    reachByTable.set(before, reach);
  }
  return reach;
}

/** Adds [start, end), clipped to [0, limit), to windows that start at or before it, merged where they overlap or touch. */
function addWindow(windows: number[], start: number, end: number, limit: number): void {
  const s = Math.max(0, start);
  const e = Math.min(limit, end);
  const last = windows.length - 1;
  if (last > 0 && s <= windows[last]!) {
    if (e > windows[last]!) windows[last] = e;
  } else windows.push(s, e);
}

/**
 * A hit, from position slot `ahead` on (the hits after p), that a match glued to the escape
 * [p, q) can begin at: right at q, or, for a rule not anchored at its keyword, up to
 * `before[keyword]` characters before the hit.
 */
function gluedToHit(text: string, hits: readonly number[], ahead: number, p: number, q: number, sites: GlueSites, reach: number): boolean {
  const { before, inKey } = sites;
  const last = Math.max(q, p + reach + 6);
  for (let j = ahead; j < hits.length && hits[j]! <= last; j += 2) {
    if (hits[j] === q) return true;
    const r = before === undefined ? 0 : before[hits[j - 1]!]!;
    if (r > 0 && hits[j]! <= p + r + 6 && (inKey?.[hits[j - 1]!] !== 1 || keyCharsOnly(text, q, hits[j]!))) return true;
  }
  return false;
}

/** Only key characters ([A-Za-z0-9_.-]) in [from, to). */
function keyCharsOnly(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 45)) return false;
  }
  return true;
}

/** The `\/` at p escapes the `/` of a URL scheme (`:\/\/`, `:\\/\\/` in JSON-in-JSON). */
function isEscapedScheme(text: string, p: number): boolean {
  if (text.charCodeAt(p + 1) !== 47) return false;
  let k = p - 1;
  while (text.charCodeAt(k) === 92) k--;
  return text.charCodeAt(k) === 58;
}

/** End of the token starting at q: the first whitespace, quote, angle bracket, backtick or backslash (at most MAX_GLUED_TOKEN on). */
function tokenEnd(text: string, q: number): number {
  const limit = Math.min(text.length, q + MAX_GLUED_TOKEN);
  let e = q;
  while (e < limit) {
    const c = text.charCodeAt(e);
    if (c === 92 || isTokenStop(c)) break;
    e++;
  }
  return e;
}

/** A base64 run the detector would decode starts at q. */
function gluedToRun(text: string, q: number, minRun: number): boolean {
  const c = text.charCodeAt(q);
  // Base64 of text starts with A-Z or a-f (checked again, with the rest, by couldBeBase64OfText).
  if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 102))) return false;
  const e = base64RunEnd(text, q);
  return e - q >= minRun && couldBeBase64OfText(text, q, e);
}

/** Hit pairs (keyword, start) ordered by start: the pairs themselves when they already are. */
function byStart(hits: readonly number[]): readonly number[] {
  for (let h = 3; h < hits.length; h += 2) {
    if (hits[h]! < hits[h - 2]!) {
      const order = Array.from({ length: hits.length >> 1 }, (_, i) => i).sort((a, b) => hits[2 * a + 1]! - hits[2 * b + 1]!);
      return order.flatMap((i) => [hits[2 * i]!, hits[2 * i + 1]!]);
    }
  }
  return hits;
}

/**
 * Length of the escape at p (\" and \/: 2, \uXXXX: 6; and \xNN: 4, the byte escape of C,
 * Python and shell `printf`, which JSON does not have), or 0 when p starts none.
 */
function escapeLength(text: string, p: number): number {
  if (text.charCodeAt(p) !== 92) return 0;
  const c = text.charCodeAt(p + 1);
  if (c === 34 || c === 47) return 2;
  if (c >= 48 && c <= 51) return isOctalDigit(text.charCodeAt(p + 2)) && isOctalDigit(text.charCodeAt(p + 3)) ? 4 : 0;
  const length = c === 117 ? 6 : c === 120 ? 4 : 0;
  for (let i = p + 2; i < p + length; i++) if (!isHexDigit(text.charCodeAt(i))) return 0;
  return length;
}

const isOctalDigit = (c: number): boolean => c >= 48 && c <= 55;

/** The byte a four-character escape at p (checked by escapeLength) stands for: `\xNN`, or octal `\NNN` (C's, Python's, `printf`'s). */
function byteEscapeCode(text: string, p: number): number {
  const c = text.charCodeAt(p + 1);
  if (c === 120) return (HEXVAL(text.charCodeAt(p + 2)) << 4) | HEXVAL(text.charCodeAt(p + 3));
  return ((c - 48) << 6) | ((text.charCodeAt(p + 2) - 48) << 3) | (text.charCodeAt(p + 3) - 48);
}

/**
 * The \uXXXX, \xNN or octal \NNN escape at p (checked by escapeLength, `length` long) stands for a printable
 * ASCII character (0020-007E), or, a \uXXXX, for a character that hides or stands in for one (see
 * decodeHiddenCharacters: `\u200b`, `\uff47`; `\udb40` and `\ud835`, the first halves of tag
 * characters and mathematical letters), as Python's `json.dumps` writes them.
 */
function isRevealingEscape(text: string, p: number, length: number): boolean {
  if (length === 4) {
    const v = byteEscapeCode(text, p);
    return v >= 0x20 && v <= 0x7e;
  }
  const v = (HEXVAL(text.charCodeAt(p + 4)) << 4) | HEXVAL(text.charCodeAt(p + 5));
  if (text.charCodeAt(p + 2) === 48 && text.charCodeAt(p + 3) === 48) return (v >= 0x20 && v <= 0x7e) || v === 0xad; // \u00..
  const code = (HEXVAL(text.charCodeAt(p + 2)) << 12) | (HEXVAL(text.charCodeAt(p + 3)) << 8) | v;
  return mayHideUnit(code);
}

/**
 * Length of the glued escape at p, 0 when p starts none: `\b \f \n \r \t` (2), or a `\uXXXX`
 * (6) or `\xNN` (4) that stands for a character other than a letter, digit or `_` (`\u0041ghp_`
 * is `Aghp_`, which no rule takes for a token either).
 */
function gluedLength(text: string, p: number): number {
  if (text.charCodeAt(p) !== 92) return 0;
  const c = text.charCodeAt(p + 1);
  if (c === 98 || c === 102 || c === 110 || c === 114 || c === 116) return 2;
  const length = escapeLength(text, p);
  if (length === 4) return isWordChar(byteEscapeCode(text, p)) ? 0 : 4;
  if (length !== 6) return 0;
  const v =
    (HEXVAL(text.charCodeAt(p + 2)) << 12) | (HEXVAL(text.charCodeAt(p + 3)) << 8) |
    (HEXVAL(text.charCodeAt(p + 4)) << 4) | HEXVAL(text.charCodeAt(p + 5));
  return isWordChar(v) ? 0 : 6;
}
