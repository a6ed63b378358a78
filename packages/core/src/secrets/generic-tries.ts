import { TAIL_OF_WORDS } from './rules/patterns.js';

/**
 * Tries of the generic assignment rule (rules/generic.ts) that cannot yield a judged candidate:
 * at a key whose value is a provider token (`GITHUB_TOKEN="ghp_…"`, `\"api_key\":\"sk-…`), the
 * rule's regex matches the token as the value, and the detector drops that candidate unjudged
 * because a specific finding covers it. The check below proves it without running the regex.
 *
 * What the regex can match at a secret word's hit `pos`: the word and the key after it
 * (`[\w.-]`, at most 37 characters), then ASSIGN_TAIL (rules/patterns.ts) or a spaced form, then
 * VALUE. So the value begins after the run of key characters from `pos` ends (at `keyEnd`; the
 * tail's only start that is a key character is the `.` of `.=`, right before it). Up to the next
 * covered span, every position is checked as a value start the way VALUE reads it. Past that
 * span's first character a value can begin only if the tail reads through it: the tail reads
 * letters and digits only in a type (`var key string =`, always before a `=` at most 64
 * characters on), in `value=`, or in a string prefix before a quote (`r"`, `b'`, within 7
 * characters). Where any of these could hold, the regex runs as before.
 */

/** Spans whose candidates the detector drops (its specific findings). */
export interface Covered {
  overlaps(start: number, end: number): boolean;
  /** The first start of a span at or after `at`, or -1. */
  firstStartFrom(at: number): number;
}

/** The secret word and the key characters after it (the longest word, `client_secret`, and 24). */
const KEY_REACH = 13 + 24;
/** How far a gap before the covered span is read (beyond it, the regex runs). */
const GAP_REACH = 96;
/** Farthest a type in the tail reaches before its `=`: `&`, a lifetime, `mut `, 40 type characters, 4 spaces. */
const TYPE_REACH = 1 + 15 + 4 + 40 + 4;
/** Type characters in a type. */
const TYPE_RUN = 40;
/** Farthest a string prefix reaches before its quote: two letters, `#`, three backslashes. */
const PREFIX_REACH = 2 + 1 + 3;

/**
 * Runs of TYPE's characters (`[\w.:<>\[\]*?&]`) and of key characters from lastIndex on,
 * bounded by how far either is read (an unbounded run would read a long run again at each hit).
 */
const TYPE_CHARS = /[\w.:<>[\]*?&]{0,64}/y;
const KEY_RUN = /[\w.-]{0,37}/y;
const isAlnum = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** JavaScript's `\s`. */
export function isRegexSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Per ASCII character: 1 where VALUE reads it after its first character (not `[\s"'\x60;,\\(){}<>\[\]]`), 2 where also first (not `=`, `|`, `&`). */
const VALUE_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (isRegexSpace(c) || '"\'`;,\\(){}<>[]'.includes(String.fromCharCode(c))) continue;
  VALUE_CHAR[c] = '=|&'.includes(String.fromCharCode(c)) ? 1 : 3;
}
/** VALUE's other characters (none past the end). */
const valueRest = (c: number): boolean => (c < 128 ? (VALUE_CHAR[c]! & 1) !== 0 : !Number.isNaN(c) && !isRegexSpace(c));
/** VALUE's first character. */
const valueFirst = (c: number): boolean => (c < 128 ? (VALUE_CHAR[c]! & 2) !== 0 : !Number.isNaN(c) && !isRegexSpace(c));

/**
 * False when a try of the generic assignment rule at `pos` (a secret word's hit) can only yield
 * candidates that overlap `covered`, or none: then the detector need not run its regex.
 */
export function genericTryCanYield(text: string, pos: number, covered: Covered): boolean {
  KEY_RUN.lastIndex = pos;
  KEY_RUN.test(text);
  const keyEnd = KEY_RUN.lastIndex;
  if (keyEnd - pos >= KEY_REACH) return true;
  // the forms whose tail reads letters, a line break or a brace (a Kubernetes `value:`, an HCL
  // `default =`, `--body`, `String::from(`): the regex runs
  TAIL_OF_WORDS.lastIndex = keyEnd;
  if (TAIL_OF_WORDS.test(text)) return true;
  const from = keyEnd + 1;
  const spanStart = covered.firstStartFrom(from);
  if (spanStart < 0 || spanStart - from > GAP_REACH) return true;
  // value starts before the span, read as VALUE reads them (a run of value characters is read
  // once for every start in it; 200 past the span is as far as any start's value reaches)
  let runEnd = -1;
  for (let p = from; p < spanStart; p++) {
    if (!valueFirst(text.charCodeAt(p))) continue;
    if (runEnd <= p + 1) {
      runEnd = p + 1;
      while (runEnd < spanStart + 200 && valueRest(text.charCodeAt(runEnd))) runEnd++;
    }
    const n = Math.min(199, runEnd - p - 1);
    if (n >= 7 && !covered.overlaps(p, p + 1 + n)) return true;
  }
  // the tail cannot read through the span's first character: it is a letter or digit, and
  // neither a type (`[\w.:<>\[\]*?&]`, up to 40 before spaces and a `=`; 64 with a lifetime or
  // `mut `, which hold a space or a quote) nor `value=` nor a string prefix (a quote within 7)
  // reads from it to a `=` or a quote
  if (!isAlnum(text.charCodeAt(spanStart))) return true;
  const last = Math.min(text.length, spanStart + TYPE_REACH);
  let spaced = false;
  for (let i = spanStart; i < last; i++) {
    // (type characters skipped by a sticky regex: a token is mostly made of them)
    TYPE_CHARS.lastIndex = i;
    TYPE_CHARS.test(text);
    i = TYPE_CHARS.lastIndex;
    if (i >= last) break;
    const c = text.charCodeAt(i);
    if (c === 61) return spaced || i - spanStart <= TYPE_RUN + 4;
    if (c === 34 || c === 39 || c === 96) {
      if (i <= spanStart + PREFIX_REACH) return true;
      if (c !== 39) break; // (only a lifetime's ' is read on to a type)
      spaced = true;
    } else if (c === 32 || c === 9) spaced = true;
    else break; // (no type or value= reads past it)
  }
  return false;
}
