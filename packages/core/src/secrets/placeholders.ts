/**
 * Placeholder judgement: is a candidate value a placeholder or a documentation example
 * (`${API_KEY}`, `<your-token>`, `sk_live_xxxx…`, `AKIAIOSFODNN7EXAMPLE`) rather than a credential?
 *
 * Some marks settle it wherever they stand (template syntax, masks, `example`, `your_`). Others
 * a random token holds by chance (`fake`, `dummy`, `sample`, `xxxx`, six equal characters, a run
 * like `1234567`): about 35 to 190 in a million random GitHub, AWS, Slack or database
 * credentials. Those count only when they are set apart as words (`fake-token`, `sk_test_xxxx`),
 * or when what remains of the value without them, and without filler words (`token`, `key`,
 * `test`, …), holds too little randomness to be a credential (`fakeToken123`, `AKIAFAKEFAKE1234`).
 */

import { isWordChar } from './decoders.js';

/**
 * Masks: ****, ####, ...., •, …, and ***, ### or ... with fewer than six other characters on a
 * side (`sk-***3f9a`, a mask; `ghp_Ab12...`, a display cut short): a random password holds three
 * of its symbols between longer runs by chance (`lw_TbPH***gNmKcC7`, `C8N###~OZyk2Rk`,
 * `xIrXGIPTPn6...pkXvUdtZI.0y2`).
 */
const MASKS = /\*{4,}|(?<![^*\s]{6})\*{3}|\*{3}(?![^*\s]{6})|#{4,}|(?<![^#\s]{6})#{3}|#{3}(?![^#\s]{6})|\.{4,}|(?<![^.\s]{6})\.{3}|\.{3}(?![^.\s]{6})|[•…]/;

/** True when a value holds a mask (MASKS): the one judgement of masks, for the placeholder filter and the quoted generic rule alike. */
export function hasMask(value: string): boolean {
  return MASKS.test(value);
}

/** Marks that make any value a placeholder: ${X}, {{ x }}, $(x), <x>, %X%, and masks (MASKS). */
const PLACEHOLDER_MARKS = new RegExp(String.raw`\$\{|\{\{|\}\}|\$\(|<[^>]{0,40}>|(?<![A-Za-z0-9])%[A-Z_]{2,}%(?![A-Za-z0-9])|${MASKS.source}|<.+`);
/**
 * The same marks but `...`, for a value that matched a provider's fixed format: a format whose
 * alphabet holds dots (Azure's client secrets) has three in a row by chance about once in ten
 * thousand, and a display cut short with `...` no longer has the format's length.
 */
const FORMAT_PLACEHOLDER_MARKS = /\$\{|\{\{|\}\}|\$\(|<[^>]{0,40}>|(?<![A-Za-z0-9])%[A-Z_]{2,}%(?![A-Za-z0-9])|\*{3,}|#{3,}|[•…]|<.+/;
/** Placeholder words, strong and weak (one pass finds whether any occurs). */
const PLACEHOLDER_WORDS =
  /example|changeme|change_me|placeholder|redacted|your[_-]|[_-]here\b|insert[_-]|replace[_-]?(?:me|with)|\bnull\b|undefined|fake|dummy|sample|x{4,}/i;
/**
 * Placeholder words no random token holds by chance (seven letters or more, or punctuation),
 * when written as people write them (see writtenAsWord); `your_` begins a word.
 */
const STRONG_WORDS = /example|changeme|change_me|placeholder|redacted|(?<![A-Za-z0-9])your[_-]|[_-]here\b|insert[_-]|replace[_-]?(?:me|with)|\bnull\b|undefined/gi;
/** Weak marks: short placeholder words (written as words), and runs of x in one case (`xxxx`, `XXXX`; not `XxXx`). */
const WEAK_WORDS = /fake|dummy|sample/gi;
const X_RUNS = /x{4,}|X{4,}/g;
/** Sequences in code order. */
const SEQUENCES = /0123456\d*|1234567\d*|abcdefgh[a-z]*|ABCDEFGH[A-Z]*/g;
/** Words placeholders are made of besides their marks (`fakeSecretToken`, `dummy_api_key_for_test`). */
const FILLER_WORDS = /secret|token|password|passwd|pass|key|api|test|access|auth|client|value|demo|mock|my|for|here|abc|app|user/gi;
/**
 * Randomness (bits) the rest of a value must hold for weak marks to be chance: a random AWS key
 * id holding FAKE keeps 16 characters of about 5 bits; `fakeToken123` keeps `123`.
 */
const MIN_RANDOM_BITS = 40;

/** Characters one of PLACEHOLDER_MARKS needs (besides a run of four x, counted apart). */
export const MARK_CHAR = new Uint8Array(128);
for (const ch of '${}<%*.#') MARK_CHAR[ch.charCodeAt(0)] = 1;

/** Placeholder shape bits (see placeholderShape): the same character six times in a row, line breaks aside. */
export const SHAPE_REPEATED = 1;
/** Seven or more consecutive characters in code order (0123456, abcdefgh). */
export const SHAPE_ASCENDING = 2;
/** A character one of PLACEHOLDER_MARKS needs, or four x in a row. */
export const SHAPE_MARKS = 4;

/**
 * What one pass over the characters says about a placeholder: which of its marks can occur at
 * all. The WebAssembly scanner computes the same bits from a scanned text's bytes (see
 * keyword-scan.wat, profile).
 */
export function placeholderShape(value: string): number {
  let shape = 0;
  let xRun = 0;
  let run = 1; // the same character six or more times in a row (aaaaaa, 000000), not line breaks
  let ascending = 1; // seven or more consecutive characters in code order (0123456, abcdefgh)
  let prev = -2;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 128 ? MARK_CHAR[c] === 1 : c === 0x2022 || c === 0x2026) shape |= SHAPE_MARKS;
    if ((c | 32) === 120) {
      if (++xRun >= 4) shape |= SHAPE_MARKS;
    } else xRun = 0;
    if (c === prev && c !== 10 && c !== 13 && c !== 0x2028 && c !== 0x2029) {
      if (++run >= 6) shape |= SHAPE_REPEATED;
    } else run = 1;
    ascending = c === prev + 1 ? ascending + 1 : 1;
    if (ascending === 7) shape |= SHAPE_ASCENDING;
    prev = c;
  }
  return shape;
}

/**
 * True when a value is a placeholder or a documentation example rather than a credential:
 * `${API_KEY}`, `{{ secrets.X }}`, `<your-api-key>`, `xxxx…`, `****`, `AKIAIOSFODNN7EXAMPLE`,
 * `$TOKEN`, `fake-token`, a run of one repeated character, `1234567890abcdef`; not a random
 * token that holds `fake` or `xxxx` by chance.
 */
export function isPlaceholder(value: string): boolean {
  return isPlaceholderShaped(value, placeholderShape(value));
}

/**
 * isPlaceholder, given the value's placeholderShape. `inFormat`: the value matched a provider's
 * fixed format, where `...` is chance (see FORMAT_PLACEHOLDER_MARKS).
 */
export function isPlaceholderShaped(value: string, shape: number, inFormat = false): boolean {
  if ((shape & SHAPE_MARKS) !== 0 && (inFormat ? FORMAT_PLACEHOLDER_MARKS : PLACEHOLDER_MARKS).test(value)) return true;
  if (value.charCodeAt(0) === 36 && /^\$[A-Za-z_]/.test(value)) return true; // $TOKEN, $env:TOKEN
  return hasPlaceholderWords(value, shape);
}

/** Longest word glued after a token that is judged as a placeholder's mark. */
const MAX_GLUED_WORD = 64;

/**
 * Whether the word glued after a token that ends at `end` (`_EXAMPLE`, `_fake`, `-placeholder`: the
 * one separator there, then word characters) marks the token as a placeholder, as documentation
 * marks an example (`sk_test_…_EXAMPLE`): for a token found glued on its right.
 */
export function placeholderGlued(text: string, end: number): boolean {
  let e = end + 1;
  while (e < text.length && e - end <= MAX_GLUED_WORD && isWordChar(text.charCodeAt(e))) e++;
  const word = text.slice(end, e);
  return isPlaceholderShaped(word, placeholderShape(word), true);
}

/**
 * The placeholder judgement by words alone (`example`, `changeme`, `your_`, `fake-token`), runs and
 * sequences, given the value's placeholderShape: for a rule that judges templates and `$NAME` by
 * their whole construct itself.
 */
export function hasPlaceholderWords(value: string, shape: number): boolean {
  // Without a placeholder word, only a run (SHAPE_REPEATED) or a sequence (SHAPE_ASCENDING) can be a weak mark.
  const word = PLACEHOLDER_WORDS.exec(value);
  if (word === null && (shape & (SHAPE_REPEATED | SHAPE_ASCENDING)) === 0) return false;
  return weakMarksDecide(value);
}

/** A strong placeholder word, written as people write words (writtenAsWord). */
function strongWord(value: string): boolean {
  for (const m of value.matchAll(STRONG_WORDS)) if (writtenAsWord(m[0])) return true;
  return false;
}

/**
 * Letters written as people write a word: lowercase, uppercase or capitalised, and a word of
 * seven letters or more also in camelCase (`changeMe`, `PlaceHolder`). Random letters of both
 * cases spell `yOUR_`, `nuLl` or `faKe` now and then (about once in two hundred thousand OpenAI
 * project keys); they seldom keep to those forms.
 */
function writtenAsWord(word: string): boolean {
  const w = word.replace(/[^A-Za-z]/g, '');
  const rest = w.slice(1);
  if (rest === rest.toLowerCase() || w === w.toUpperCase()) return true;
  return w.length >= 7 && !MIXED_CASE.test(w);
}
/** Two capitals in a row, a capital after a small letter and not before one, or after a first small letter alone. */
const MIXED_CASE = /[A-Z]{2}|[a-z][A-Z](?![a-z])|^[a-z][A-Z]/;

/** The weak marks of a value, as [start, end) pairs: words, runs of x, repeated characters, sequences. */
function weakMarks(value: string): { words: number[]; runs: number[] } {
  const words: number[] = [];
  for (const m of value.matchAll(WEAK_WORDS)) if (writtenAsWord(m[0])) words.push(m.index, m.index + m[0].length);
  for (const m of value.matchAll(X_RUNS)) words.push(m.index, m.index + m[0].length);
  const runs: number[] = [];
  for (const m of value.matchAll(SEQUENCES)) runs.push(m.index, m.index + m[0].length);
  let start = 0;
  for (let i = 1; i <= value.length; i++) {
    const c = value.charCodeAt(i);
    // (line breaks aside, as SHAPE_REPEATED has it)
    if (i < value.length && c === value.charCodeAt(i - 1) && c !== 10 && c !== 13 && c !== 0x2028 && c !== 0x2029) continue;
    if (i - start >= 6) runs.push(start, i);
    start = i;
  }
  return { words, runs };
}

const isAlnum = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** Weak marks make a placeholder when one stands apart as a word, or when little randomness is left without them. */
function weakMarksDecide(value: string): boolean {
  if (strongWord(value)) return true;
  const { words, runs } = weakMarks(value);
  if (words.length === 0 && runs.length === 0) return false;
  for (let i = 0; i < words.length; i += 2) {
    const s = words[i]!;
    const e = words[i + 1]!;
    if ((s === 0 || !isAlnum(value.charCodeAt(s - 1))) && (e === value.length || !isAlnum(value.charCodeAt(e)))) return true;
  }
  const covered = new Uint8Array(value.length);
  const cover = (spans: readonly number[]): void => {
    for (let i = 0; i < spans.length; i += 2) covered.fill(1, spans[i]!, spans[i + 1]!);
  };
  cover(words);
  cover(runs);
  for (const m of value.matchAll(FILLER_WORDS)) covered.fill(1, m.index, m.index + m[0].length);
  return randomBits(value, covered) < MIN_RANDOM_BITS;
}

/**
 * Bits of randomness in the characters not covered: each run of letters and digits counts its
 * length times log2 of the alphabet its character classes span (10 digits, 16 hex, 26 letters of
 * one case, 36 with digits, 52 of both cases, 62 with digits).
 */
function randomBits(value: string, covered: Uint8Array): number {
  let bits = 0;
  let length = 0;
  let classes = 0;
  for (let i = 0; i <= value.length; i++) {
    const c = i < value.length ? value.charCodeAt(i) : 0;
    if (i < value.length && covered[i] === 0 && isAlnum(c)) {
      length++;
      classes |= c <= 57 ? 1 : c <= 90 ? 2 : c <= 102 ? 4 : 8; // digit, upper, a-f, g-z
      continue;
    }
    if (length > 0) bits += length * Math.log2(alphabetOf(classes));
    length = 0;
    classes = 0;
  }
  return bits;
}

function alphabetOf(classes: number): number {
  const digits = classes & 1 ? 10 : 0;
  const upper = classes & 2 ? 26 : 0;
  const lower = classes & 8 ? 26 : classes & 4 ? (upper > 0 || digits === 0 ? 26 : 6) : 0;
  return Math.max(2, digits + upper + lower);
}

/** A mask right after a value: `##`, `**`, `••`, `…`, `...`, `[REDACTED]` (`xoxp-…-####`, `ops_eyJ…[Redacted]`). */
const MASK_AFTER = /^(?:[#*•]{2}|…|\.{3}|\[(?:redacted|masked|hidden|truncated|removed)\]|<redacted>)/i;

/** True when a mask follows position `at` of `text`: the value before it is a masked or truncated display, not a credential. */
export function maskFollows(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  if (!(c === 35 || c === 42 || c === 46 || c === 91 || c === 60 || c === 0x2022 || c === 0x2026)) return false;
  return MASK_AFTER.test(text.slice(at, at + 12));
}
