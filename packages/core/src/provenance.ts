import { Provenance, Residency } from '@argspan/conventions';
import { isWordChar } from './secrets/decoders.js';
import { asInherited, carriesTaint } from './taint.js';
import type { InheritedResidency } from './taint.js';
import type { CallContext, ContextEntry, Leaf, SecretDetector } from './types.js';

/**
 * Text values shorter than this never match a source: a one-letter value (`a`, `x`) proves nothing.
 * Numbers are compared by value instead, so `3` still matches "3 parcels".
 */
export const MIN_MATCH_LENGTH = 2;

const EMAIL = /[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}/g;
/** A value that is one e-mail address. */
const EMAIL_VALUE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NUMERIC = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/;
// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;
const ASCII_SEPARATORS = /[^a-z0-9.]+/;
const SEPARATORS = /[^\p{L}\p{N}.]+/u;

/**
 * Normalise text into comparable tokens: case-folded, split on anything that is not a letter or
 * digit, thousands separators dropped, numbers in canonical form (`3.0` → `3`, `007` → `7`).
 * Matching on tokens means `US` does not match inside `status`.
 */
export function tokenize(text: string): string[] {
  return tokenizeAsciiFast(text) ?? tokenizeSlow(text);
}

/**
 * {@link tokenize} for the common case — ASCII text — in one pass over the char codes (no
 * lower-cased copy, no regex split); undefined for anything else. A comma between a digit and
 * three more (a thousands separator) is dropped, as the general path drops it. A property test
 * keeps it equal to the general path.
 */
function tokenizeAsciiFast(text: string): string[] | undefined {
  const out: string[] = [];
  let start = -1;
  let upper = false;
  let dot = false;
  let comma = false;
  const n = text.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 32;
    if (c > 0x7f) return undefined; // non-ASCII: the general path (NFKC, Unicode letters)
    const isToken = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 46 || (c >= 65 && c <= 90);
    if (isToken) {
      if (start < 0) {
        start = i;
        upper = false;
        dot = false;
        comma = false;
      }
      if (c >= 65 && c <= 90) upper = true;
      else if (c === 46) dot = true;
      continue;
    }
    if (c === 44 && isThousandsSeparator(text, i)) {
      comma = true; // inside a number (a digit came before it): the token goes on, without the comma
      continue;
    }
    if (start < 0) continue;
    let raw = text.slice(start, i);
    if (comma) raw = raw.replaceAll(',', '');
    if (upper) raw = raw.toLowerCase();
    start = -1;
    if (!dot) out.push(maybeNumber(raw));
    else if (NUMERIC.test(raw)) out.push(canonicalNumber(raw));
    else for (const part of raw.split('.')) if (part !== '') out.push(maybeNumber(part));
  }
  return out;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/** Whether the comma at `i` sits between a digit and exactly three more before a word boundary (`/(\d),(?=\d{3}\b)/`). */
function isThousandsSeparator(text: string, i: number): boolean {
  // charCodeAt past either end is NaN: neither a digit nor a word character.
  if (!isDigit(text.charCodeAt(i - 1))) return false;
  for (let j = i + 1; j <= i + 3; j++) if (!isDigit(text.charCodeAt(j))) return false;
  return !isWordChar(text.charCodeAt(i + 4));
}

/** @internal Both paths of {@link tokenize}, for the test that keeps them equal. */
export const tokenizeForTest = { slow: (text: string): string[] => tokenizeSlow(text) };

/** Latin combining marks: `São` is `Sao` once decomposed and stripped of them (a model often writes the accent-free form). */
const LATIN_MARKS = /[\u0300-\u036f]/g;

function tokenizeSlow(text: string): string[] {
  const ascii = ASCII.test(text);
  let folded = (ascii ? text : text.normalize('NFKD').replace(LATIN_MARKS, '').normalize('NFKC')).toLowerCase();
  if (folded.includes(',')) folded = folded.replace(/(\d),(?=\d{3}\b)/g, '$1');
  const out: string[] = [];
  for (const raw of folded.split(ascii ? ASCII_SEPARATORS : SEPARATORS)) {
    if (raw === '') continue;
    if (!raw.includes('.')) {
      out.push(maybeNumber(raw));
      continue;
    }
    if (NUMERIC.test(raw)) {
      out.push(canonicalNumber(raw));
      continue;
    }
    // Dots separate words (`kenji.sato`) unless they sit inside a number.
    for (const part of raw.split('.')) if (part !== '') out.push(maybeNumber(part));
  }
  return out;
}

/** A token in canonical number form when it is a number; cheap for the common all-letters token. */
function maybeNumber(token: string): string {
  const c = token.charCodeAt(0);
  const numericStart = (c >= 48 && c <= 57) || c === 43 || c === 45; // 0-9, +, -
  if (!numericStart) return token;
  // Digits only, no leading zero, short enough to be exact: already in canonical form.
  if (c !== 48 && token.length <= 15 && isDigits(token)) return token;
  return NUMERIC.test(token) ? canonicalNumber(token) : token;
}

function isDigits(token: string): boolean {
  for (let i = 0; i < token.length; i++) {
    const d = token.charCodeAt(i);
    if (d < 48 || d > 57) return false;
  }
  return true;
}

function canonicalNumber(raw: string): string {
  const n = Number(raw);
  return Number.isFinite(n) ? String(n) : raw;
}

/** One searchable source: its token sequence, positions of each token, and the emails it contains. */
interface IndexedSource {
  callId?: string;
  tokens: string[];
  /**
   * Where each token occurs (its one position, or every position when it occurs more than once),
   * for a long source; a short one is searched token by token instead (see {@link MAX_SCANNED_TOKENS}).
   */
  positions: Map<string, number | number[]> | undefined;
  emails: ReadonlySet<string>;
  /** Length of the source text: a longer value cannot be inside it. */
  length: number;
  /** The label every value copied from this source inherits, given by the entry (the call that produced it). */
  residency?: InheritedResidency;
  /**
   * The credentials the secret detector found in the source's own text, as token sequences: a
   * value inside one (or holding one) inherits `secret`. Found the first time a value that could
   * inherit matches the source; empty when none.
   */
  secrets?: string[][];
  /** The text still to scan for credentials: kept only until the first value that could inherit matches it. */
  unscanned?: string;
}

function indexSource(text: string, callId?: string): IndexedSource {
  const tokens = tokenize(text);
  const positions = tokens.length > MAX_SCANNED_TOKENS ? positionsOf(tokens) : undefined;
  const emails = text.includes('@') ? new Set(text.toLowerCase().match(EMAIL) ?? []) : NO_EMAILS;
  const length = text.length;
  return callId === undefined ? { tokens, positions, emails, length } : { callId, tokens, positions, emails, length };
}

const NO_EMAILS: ReadonlySet<string> = new Set();

/**
 * Sources of up to this many tokens are searched by scanning their tokens (`indexOf`, native)
 * rather than through a map of positions: for the few values a call has, building the map cost
 * as much as the scans, and made a tenth of the garbage of classifying other libraries' traces.
 */
const MAX_SCANNED_TOKENS = 128;

/** One map operation per token; an array only for a token seen again (most of a prompt's words occur once). */
function positionsOf(tokens: readonly string[]): Map<string, number | number[]> {
  const positions = new Map<string, number | number[]>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const seen = positions.get(t);
    if (seen === undefined) positions.set(t, i);
    else if (typeof seen === 'number') positions.set(t, [seen, i]);
    else seen.push(i);
  }
  return positions;
}

function containsSequence(src: IndexedSource, seq: readonly string[]): boolean {
  const first = seq[0]!;
  if (src.positions === undefined) {
    for (let s = src.tokens.indexOf(first); s >= 0; s = src.tokens.indexOf(first, s + 1)) if (occursAt(src.tokens, s, seq)) return true;
    return false;
  }
  const starts = src.positions.get(first);
  if (starts === undefined) return false;
  if (typeof starts === 'number') return occursAt(src.tokens, starts, seq);
  for (const s of starts) if (occursAt(src.tokens, s, seq)) return true;
  return false;
}

/** Whether `seq` occurs in `tokens` at `start` (its first token is known to). */
function occursAt(tokens: readonly string[], start: number, seq: readonly string[]): boolean {
  if (start + seq.length > tokens.length) return false;
  for (let j = 1; j < seq.length; j++) if (tokens[start + j] !== seq[j]) return false;
  return true;
}

/**
 * Text of a tool result for matching: strings as-is, anything else as its JSON scalars and object
 * keys (a result keyed by e-mail address holds those addresses) joined, depth first at any depth,
 * up to 100,000 of them.
 */
export function contextText(content: unknown): string {
  if (typeof content === 'string') return content;
  const parts: string[] = [];
  const seen = new Set<object>();
  const todo: unknown[] = [content];
  try {
    while (todo.length > 0 && parts.length <= 100_000) {
      const v = todo.pop();
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') {
        parts.push(String(v));
      } else if (v && typeof v === 'object' && !seen.has(v)) {
        seen.add(v);
        if (Array.isArray(v)) {
          for (let i = v.length - 1; i >= 0; i--) todo.push(v[i]);
        } else {
          const entries = Object.entries(v);
          // (pushed in reverse, so each key comes out just before its value)
          for (let i = entries.length - 1; i >= 0; i--) todo.push(entries[i]![1], entries[i]![0]);
        }
      }
    }
  } catch {
    // A hostile result (throwing getter) contributes what was read before it threw.
  }
  return parts.join('\n');
}

/**
 * The sources a call's values may have come from: the user's text and earlier tool results.
 * Build once per turn and add results as they arrive; matching a value is then proportional to
 * the value, not to the size of the conversation.
 */
export class ProvenanceIndex {
  private readonly user: IndexedSource[] = [];
  /** The user's texts as written: a number the model reformatted is looked for in them (see {@link reformattedInUserText}). */
  private readonly userTexts: string[] = [];
  private context: IndexedSource[] = [];
  /** Length of the longest source; a longer value is answered without tokenising it. */
  private longest = 0;

  static from(ctx: CallContext): ProvenanceIndex {
    const index = new ProvenanceIndex();
    const texts = ctx.userText === undefined ? [] : typeof ctx.userText === 'string' ? [ctx.userText] : ctx.userText;
    for (const t of texts) index.addUserText(t);
    for (const entry of ctx.context ?? []) index.addContext(entry);
    return index;
  }

  addUserText(text: string): void {
    this.add(this.user, indexSource(text));
    this.userTexts.push(text);
    this.commaAmounts = undefined;
  }

  /**
   * Add an earlier result. An entry whose `residency` is `secret` or `dirty-tree` passes that label
   * to every value copied from it; any other entry is scanned for credentials the first time a
   * value that could inherit matches it (see `carriesTaint`), and a value inside one is `secret`.
   */
  addContext(entry: ContextEntry | string): void {
    const text = typeof entry === 'string' ? entry : contextText(entry.content);
    const src = typeof entry === 'string' ? indexSource(text) : indexSource(text, entry.callId);
    const given = typeof entry === 'string' ? undefined : asInherited(entry.residency);
    if (given !== undefined) src.residency = given;
    else if (text !== '') src.unscanned = text;
    this.add(this.context, src);
  }

  /**
   * Keep only the context sources `keep` marks, by their order of addition (a session keeps only
   * its recent results, and its sensitive ones longer). The user text stays indexed as it is:
   * nothing is re-tokenised.
   */
  retainContext(keep: readonly boolean[]): void {
    if (keep.every(Boolean)) return;
    this.context = this.context.filter((_, i) => keep[i] !== false);
    this.longest = 0;
    for (const src of this.user) this.longest = Math.max(this.longest, src.length);
    for (const src of this.context) this.longest = Math.max(this.longest, src.length);
  }

  /** Amounts the user wrote with a decimal comma, by value: read once, on the first value that needs them. */
  private commaAmounts: Set<number> | undefined;

  /**
   * Whether the user wrote `value` in another format: the same phone number with other separators
   * (`+1 (415) 555-0100` for `+14155550100`), or the same amount with a decimal comma (`1.299,00`
   * for `1299`). Only the user's words are read this way: they are what a model rewrites.
   */
  private reformattedInUserText(value: string): boolean {
    if (this.userTexts.length === 0 || !FORMATTED_NUMBER.test(value)) return false;
    const digits = value.replace(/\D/g, '');
    if (digits.length >= 7 && digits.length <= 15 && !value.includes(',')) {
      // The same digits in a run of digits and phone separators, not inside a longer run.
      const phone = new RegExp(`(?<![\\d])\\+?${[...digits].join('[\\s().-]*')}(?![\\d])`);
      if (this.userTexts.some((t) => phone.test(t))) return true;
    }
    if (this.commaAmounts === undefined) {
      this.commaAmounts = new Set();
      for (const t of this.userTexts) {
        if (t.includes(',')) for (const m of t.matchAll(DECIMAL_COMMA)) this.commaAmounts.add(Number(m[0].replaceAll('.', '').replace(',', '.')));
      }
    }
    if (this.commaAmounts.size === 0) return false;
    const amount = Number(value.replace(/,(?=\d{3}(?!\d))/g, '').trim());
    return Number.isFinite(amount) && this.commaAmounts.has(amount);
  }

  private add(list: IndexedSource[], src: IndexedSource): void {
    list.push(src);
    // Context text is joined from JSON scalars, so allow for separators the value may keep.
    this.longest = Math.max(this.longest, src.length);
  }

  /**
   * Where a value appears: `user`, or a context source with its call id, or undefined. With a
   * `detector` (taint tracking on) and a value that could carry a label, a context match also says
   * which label the value inherits: the most recent secret or dirty-tree source holding it wins
   * (and is the one named), else the most recent source.
   */
  find(text: string, detector?: SecretDetector): { source: 'user' } | { source: 'context'; callId?: string; inherited?: InheritedResidency } | undefined {
    const trimmed = text.trim();
    if (trimmed.length > this.longest) return undefined;
    if (trimmed.length < MIN_MATCH_LENGTH && !NUMERIC.test(trimmed.toLowerCase())) return undefined;
    // Lower-cased only for an e-mail address (the only lookup by the text itself); the shape test ignores case.
    const isEmail = trimmed.includes('@') && EMAIL_VALUE.test(trimmed);
    const lower = isEmail ? trimmed.toLowerCase() : '';
    const seq = isEmail ? [] : tokenize(text);
    if (!isEmail && seq.length === 0) return undefined;
    const hit = (src: IndexedSource): boolean => (isEmail ? src.emails.has(lower) : containsSequence(src, seq));
    if (this.user.some(hit) || (!isEmail && this.reformattedInUserText(trimmed))) return { source: 'user' };
    // The most recent result wins, so the link points at the call that last supplied the value;
    // with taint tracking, the most recent labelled source that holds it wins over a clean one.
    let inherits: boolean | undefined; // asked only once the value is found in a result
    let latest: IndexedSource | undefined;
    for (let i = this.context.length - 1; i >= 0; i--) {
      const src = this.context[i]!;
      // once a clean source holds the value, only a source that may pass a label on can change the answer
      if (latest !== undefined && src.residency === undefined && src.secrets?.length === 0) continue;
      if (!hit(src)) continue;
      inherits ??= detector !== undefined && carriesTaint(text);
      if (!inherits) return contextHit(src, undefined);
      const inherited = inheritedFrom(src, seq, detector!);
      if (inherited !== undefined) return contextHit(src, inherited);
      latest ??= src;
    }
    return latest === undefined ? undefined : contextHit(latest, undefined);
  }
}

/** A value that may be a phone number or an amount the model rewrote: digits with at most `+ ( ) - . ,` and spaces. */
const FORMATTED_NUMBER = /^\+?[\d\s().,-]{2,}$/;
/** An amount written with `.` for thousands and `,` for decimals (`1.299,00`, `12,5`). */
const DECIMAL_COMMA = /(?<![\d.,])\d{1,3}(?:\.\d{3})+(?:,\d+)?(?![\d.,])|(?<![\d.,])\d+,\d{1,2}(?![\d.,])/g;

function contextHit(src: IndexedSource, inherited: InheritedResidency | undefined): { source: 'context'; callId?: string; inherited?: InheritedResidency } {
  const hit: { source: 'context'; callId?: string; inherited?: InheritedResidency } = { source: 'context' };
  if (src.callId !== undefined) hit.callId = src.callId;
  if (inherited !== undefined) hit.inherited = inherited;
  return hit;
}

/**
 * The label a value found in `src` inherits: the source's own (given by the call that produced
 * it), else `secret` when the value is inside a credential the detector finds in the source's
 * text, or holds one. The text is scanned once, the first time it is asked, then let go.
 */
function inheritedFrom(src: IndexedSource, seq: readonly string[], detector: SecretDetector): InheritedResidency | undefined {
  if (src.residency !== undefined) return src.residency;
  if (src.secrets === undefined) {
    const text = src.unscanned ?? '';
    src.secrets = text === '' ? [] : detector.findAll(text).map((f) => tokenize(text.slice(f.start, f.end)));
    delete src.unscanned;
  }
  for (const secret of src.secrets) if (isSubsequence(secret, seq) || isSubsequence(seq, secret)) return Residency.SECRET;
  return undefined;
}

/** Whether `needle` occurs as a contiguous run of `hay`. */
function isSubsequence(hay: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0 || needle.length > hay.length) return false;
  outer: for (let s = 0; s + needle.length <= hay.length; s++) {
    for (let j = 0; j < needle.length; j++) if (hay[s + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** Keys under which a schema default for a leaf may be declared: full path, path without indices, leaf name. */
export function defaultKeys(leaf: Leaf): string[] {
  const noIndices = leaf.key.replace(/\[\d+\]/g, '');
  return [...new Set([leaf.key, noIndices, leaf.leaf])];
}

function sameValue(text: string, expected: unknown): boolean {
  if (Array.isArray(expected)) return expected.some((e) => sameValue(text, e));
  if (expected === null || expected === undefined) return text === '';
  if (typeof expected === 'object') return false;
  const exp = String(expected);
  if (NUMERIC.test(text) && NUMERIC.test(exp)) return Number(text) === Number(exp);
  return text === exp;
}

export interface ProvenanceTag {
  provenance: Provenance;
  sourceCallId?: string;
  /** For context_retrieved with taint tracking on: the label the value inherits from its source. */
  inherited?: InheritedResidency;
  /** For schema_default: the schema key that matched (path, path without indices, or leaf name). */
  defaultKey?: string;
}

/**
 * Tag who asserted a leaf's value, in order: user_explicit, context_retrieved, schema_default,
 * else `unasserted` — model_inferred, or no_evidence where the user's words are not available.
 * Schema defaults are looked up by full path, then path without indices, then leaf.
 */
export function tagProvenance(
  leaf: Leaf,
  index: ProvenanceIndex,
  schemaDefaults: Readonly<Record<string, unknown>> | undefined,
  unasserted: typeof Provenance.MODEL_INFERRED | typeof Provenance.NO_EVIDENCE = Provenance.MODEL_INFERRED,
  taintDetector?: SecretDetector,
): ProvenanceTag {
  const found = index.find(leaf.text, taintDetector);
  if (found?.source === 'user') return USER_TAG;
  if (found?.source === 'context') {
    const tag: ProvenanceTag = { provenance: Provenance.CONTEXT_RETRIEVED };
    if (found.callId !== undefined) tag.sourceCallId = found.callId;
    if (found.inherited !== undefined) tag.inherited = found.inherited;
    return tag;
  }
  if (schemaDefaults) {
    for (const k of defaultKeys(leaf)) {
      if (Object.prototype.hasOwnProperty.call(schemaDefaults, k) && sameValue(leaf.text, schemaDefaults[k])) {
        return { provenance: Provenance.SCHEMA_DEFAULT, defaultKey: k };
      }
    }
  }
  return unasserted === Provenance.NO_EVIDENCE ? NO_EVIDENCE_TAG : MODEL_INFERRED_TAG;
}

// The common tags, one object each (tagProvenance runs on every leaf; its callers only read them).
const USER_TAG: ProvenanceTag = { provenance: Provenance.USER_EXPLICIT };
const MODEL_INFERRED_TAG: ProvenanceTag = { provenance: Provenance.MODEL_INFERRED };
const NO_EVIDENCE_TAG: ProvenanceTag = { provenance: Provenance.NO_EVIDENCE };
