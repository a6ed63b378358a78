import { createHash } from 'node:crypto';
import type { SecretDetector, SecretFinding } from '../types.js';
import { BUILTIN_RULES } from './builtin-rules.js';
import { GENERIC_ASSIGNMENT_RULE } from './rules/generic.js';
import { genericTryCanYield } from './generic-tries.js';
import { SPELLING_KEYWORDS, decodeBase64Text, decodeHexText, decodeHiddenCharacters, decodeJsonEscapes, decodePercent, decodeSpelledCharacters, isHexDigit, isTokenStop, isWordChar, hiddenWindows, spelledWindows, type MappedText } from './decoders.js';
import { GLUE_REACH, escapeWindows, type GlueSites } from './escape-windows.js';
import { CREDENTIAL_KEY_WORDS, KeyNameIndex, isKeyChar, keyIsAssigned } from './key-names.js';
import { KeywordScanner, isGlueKeyword } from './keyword-scanner.js';
import { L, R, RD, R_GLUED, RD_GLUED } from './rules/patterns.js';
import type { SecretAllowlistEntry, SecretDetectorConfig, SecretRule } from './types.js';
import { isPlaceholderShaped, maskFollows, placeholderGlued, placeholderShape } from './placeholders.js';
import { entropyFromSum, scrambleMarks, shannonEntropy } from './value-filters.js';

/** Base64 runs shorter than this are not decoded (the shortest useful encoded secret). */
const MIN_BASE64_RUN = 16;
/** Longest single base64 run that is decoded. */
const MAX_BASE64_RUN = 1 << 20;
const DEFAULT_MAX_DEPTH = 3;
/** Rule id of the fail-closed finding reported when a scan throws. */
export const SCAN_FAILED_RULE_ID = 'secret-scan-failed';
const DEFAULT_MAX_DECODED = 8 * 1024 * 1024;

interface CompiledRule {
  rule: SecretRule;
  /** Sticky copy, tried at keyword hits (anchored rules). */
  sticky: RegExp | undefined;
  /** Global copy, run over the whole text (unanchored rules). */
  global: RegExp;
  /**
   * Sticky copy with match indices, for the rare match whose secret text occurs twice in it:
   * indices make a successful match several times slower, so they are asked for only then.
   */
  withIndices: RegExp | undefined;
  /**
   * For an anchored rule with a proof whose pattern begins with the left boundary L: its sticky
   * copy without it, and with its right boundary taking a `_` after (see rightGlued), tried where
   * a word character comes before the keyword (`xghp_…`, `deploy_ghp_…_v2`) or, for a rule whose
   * body may hold a `_`, where the pattern fails (`ATATT3…_v2`); such a match counts only when the
   * proof holds.
   */
  glued: RegExp | undefined;
  /**
   * For an anchored token-prefix rule whose pattern lies between the boundaries L and R (or RD) and
   * whose body holds no `_`: its sticky copy with a right boundary that takes a `_` after, tried
   * where the pattern fails: a token glued on its right by `_` (`AKIA…_prod`, `ghp_…_v2`), judged
   * as any match (a body without `_` cannot run on into the word after, so the token's own length
   * and alphabet still hold).
   */
  rightGlued: RegExp | undefined;
  /**
   * Whether rightGlued belongs to a rule whose body may hold a `_` and that has no proof
   * (`AIza…_prod`, `glpat-…_old`): its match ends at a `_` its body could have taken, so it counts
   * only when its body reads as random (see randomBody), not as the start of a long identifier
   * (`tfp_build_…`).
   */
  rightGluedUnderscore: boolean;
  /**
   * For a rule with a proof whose body may hold a `_` (`sk-proj-…`, `sk-ant-…`, `ops_eyJ…`): a
   * glued match whose proof fails is tried again ending at each `_` inside it, the longest first
   * (`deploy_sk-proj-…_v2`: the greedy body took `_v2` too).
   */
  gluedCuts: boolean;
  secretGroups: readonly string[];
  generic: boolean;
  /** A generic rule of the `generic` family (an assignment to any credential word): yields to the other generic rules too. */
  catchAll: boolean;
  /** Tried at keyword hits (sticky) rather than over the whole text. */
  anchored: boolean;
  /** Stateless copy of the rule's decodedPrefix. */
  decodedPrefix: RegExp | undefined;
  /**
   * For the built-in generic assignment rule: whether a try at a position can yield a candidate
   * outside the covered spans (false: the regex need not run; see generic-tries.ts).
   */
  canYield: ((text: string, pos: number, covered: SpanIndex) => boolean) | undefined;
}

interface CompiledAllow {
  ruleIds: ReadonlySet<string> | undefined;
  regex: RegExp | undefined;
  hashes: ReadonlySet<string> | undefined;
}

/** A finding inside one scan: rule index and span in that scan's text. */
interface Raw {
  rule: number;
  start: number;
  end: number;
}

/** Candidates a rule rejected during one matching pass, by rule. */
type Rejected = Map<CompiledRule, Set<string>>;

const NO_FINDINGS: readonly Raw[] = [];
/** No windows (shared: never written to). */
const NO_WINDOWS: number[] = [];

/** What the decoding layers of one text decode (see decodingLayers). */
interface DecodingLayers {
  base64: number[];
  /** Runs that may be hex of text, as [start, end) pairs. */
  hex: number[];
  urlTokens: [number, number][];
  windows: number[];
  /** Windows around hidden characters and stand-ins for ASCII, as [start, end) pairs (see hiddenWindows). */
  hidden: number[];
  /** Windows around characters spelled out (references, lists of codes, joined literals), as [start, end) pairs (see spelledWindows). */
  spelled: number[];
}

/** Per-call limits shared by every decoding layer of one call (never kept across calls). */
interface Budget {
  decoded: number;
}

function compileRule(rule: SecretRule): CompiledRule {
  if (!rule.pattern.global) throw new Error(`secret rule "${rule.id}": pattern must have the g flag`);
  const base = rule.pattern.flags.replace(/[gyd]/g, '');
  const anchored = rule.anchored === true && rule.keywords.length > 0;
  const g = rule.secretGroup;
  const bodyFree = bodyTakesRightGlue(rule.pattern.source);
  const rightGlueTaken = anchored && rule.tokenPrefix === true && bodyFree;
  // (a pattern ending in R or RD: one ending in its own boundary takes a `_` after it already)
  const rightGlueUnderscore = anchored && rule.tokenPrefix === true && !bodyFree && rule.proof === undefined && rightGlue(rule.pattern.source) !== rule.pattern.source;
  return {
    rule,
    sticky: anchored || rule.decodedPrefix || rule.keyNames ? new RegExp(rule.pattern.source, `${base}gy`) : undefined,
    global: new RegExp(rule.pattern.source, `${base}g`),
    withIndices: g === undefined ? undefined : new RegExp(rule.pattern.source, `${base}gyd`),
    glued: anchored && rule.proof !== undefined && rule.pattern.source.startsWith(L) ? new RegExp(rightGlue(rule.pattern.source.slice(L.length)), `${base}gy`) : undefined,
    rightGlued: rightGlueTaken || rightGlueUnderscore ? new RegExp(rightGlue(rule.pattern.source), `${base}gy`) : undefined,
    rightGluedUnderscore: rightGlueUnderscore,
    gluedCuts: anchored && rule.proof !== undefined && !bodyFree,
    // (the named group and those of its name with 2 to 5 after it that the pattern holds: one per way a value is written)
    secretGroups: g === undefined ? [] : [g, ...[2, 3, 4, 5].map((n) => `${g}${n}`).filter((name) => rule.pattern.source.includes(`(?<${name}>`))],
    generic: rule.generic === true,
    catchAll: rule.generic === true && rule.family === 'generic',
    anchored,
    decodedPrefix: rule.decodedPrefix && new RegExp(rule.decodedPrefix.source, rule.decodedPrefix.flags.replace(/[gy]/g, '')),
    canYield: rule === GENERIC_ASSIGNMENT_RULE ? genericTryCanYield : undefined,
  };
}

/** A pattern source whose final right boundary (R or RD) lets a `_` follow; other sources as they are. */
function rightGlue(source: string): string {
  if (source.endsWith(R)) return source.slice(0, -R.length) + R_GLUED;
  if (source.endsWith(RD)) return source.slice(0, -RD.length) + RD_GLUED;
  return source;
}

/**
 * Whether a token-prefix pattern may take a `_` after it without a proof: it lies between L and R
 * (or RD), and nothing in it but its literal prefixes and separators matches a `_` (no `\w`, `\W`,
 * `\S`, `\D`, `.`, negated class, or class holding `_` or a range across it), so the match cannot
 * end at a `_` of its own body.
 */
export function bodyTakesRightGlue(source: string): boolean {
  if (!source.startsWith(L) || !(source.endsWith(R) || source.endsWith(RD))) return false;
  const inner = source.slice(L.length, source.endsWith(R) ? -R.length : -RD.length);
  if (/\\[wWSD]/.test(inner)) return false;
  const plain = inner.replace(/\\./g, 'e'); // (an escaped character is itself, never a `_`)
  for (const [cls] of plain.matchAll(/\[[^\]]*\]/g)) {
    if (cls.startsWith('[^') || cls.includes('_')) return false;
    for (const [, lo, hi] of cls.matchAll(/(.)-(.)/g)) if (lo!.charCodeAt(0) <= 95 && hi!.charCodeAt(0) >= 95) return false;
  }
  return !plain.replace(/\[[^\]]*\]/g, '').includes('.');
}

/**
 * Where the rule's secret group matched. Its text occurring once in the match pins it down;
 * otherwise the match is re-run at the same place with indices.
 */
function secretSpan(c: CompiledRule, m: RegExpExecArray): [number, number] | undefined {
  const groups = m.groups;
  let name: string | undefined;
  for (const g of c.secretGroups) {
    if (groups?.[g] !== undefined) {
      name = g;
      break;
    }
  }
  if (name === undefined) return undefined;
  const secret = groups![name]!;
  const whole = m[0];
  const at = whole.indexOf(secret);
  // Unique when the first occurrence is the last place it fits (a value at the end of the
  // match, the usual case) or when no second occurrence follows. (Not in the match at all: the
  // group is in a lookbehind, `echo PASS | sudo -S`, before the match's start.)
  if (at >= 0 && (at === whole.length - secret.length || whole.indexOf(secret, at + 1) < 0)) {
    return [m.index + at, m.index + at + secret.length];
  }
  const re = c.withIndices!;
  re.lastIndex = m.index;
  return re.exec(m.input)?.indices?.groups?.[name];
}

function compileAllow(entry: RegExp | SecretAllowlistEntry): CompiledAllow {
  if (entry instanceof RegExp) {
    return { ruleIds: undefined, regex: new RegExp(entry.source, entry.flags.replace(/[gy]/g, '')), hashes: undefined };
  }
  return {
    ruleIds: entry.ruleIds ? new Set(entry.ruleIds) : undefined,
    regex: entry.regex ? new RegExp(entry.regex.source, entry.regex.flags.replace(/[gy]/g, '')) : undefined,
    hashes: entry.valueSha256 ? new Set(entry.valueSha256.map((h) => h.toLowerCase())) : undefined,
  };
}

/**
 * Spans (the specific findings of one text), for "does [start, end) overlap any of them":
 * sorted by start with a running maximum of their ends, then one binary search per question.
 */
class SpanIndex {
  private readonly starts: number[];
  private readonly maxEnds: number[];

  constructor(spans: readonly Raw[]) {
    const sorted = spans.length > 1 ? [...spans].sort((a, b) => a.start - b.start) : spans;
    this.starts = sorted.map((f) => f.start);
    this.maxEnds = [];
    let max = -1;
    for (const f of sorted) this.maxEnds.push((max = Math.max(max, f.end)));
  }

  /** The first start of a span at or after `at`, or -1. */
  firstStartFrom(at: number): number {
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid]! < at) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.starts.length ? this.starts[lo]! : -1;
  }

  overlaps(start: number, end: number): boolean {
    let lo = 0;
    let hi = this.starts.length; // spans with start < end
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid]! < end) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && this.maxEnds[lo - 1]! > start;
  }
}

/** A rule's validate hook; a throwing check keeps the finding (a failing check must not hide a credential). */
function validated(r: SecretRule, secret: string, m: RegExpExecArray): boolean {
  if (!r.validate) return true;
  try {
    return r.validate(secret, m);
  } catch {
    return true;
  }
}

/**
 * A token glued to a word on its left (`xghp_…`, `deploy_ghp_…`), which the rule's left boundary
 * refuses, or by a `_` on its right (`ATATT3…_v2`): its match at `pos` when the format's proof
 * holds (a checksum a random glued token passes about once in 2^32 tries), else null.
 */
function provenGlued(c: CompiledRule, text: string, pos: number): RegExpExecArray | null {
  const glued = c.glued!;
  glued.lastIndex = pos;
  const m = glued.exec(text);
  if (m === null) return null;
  if (provenMatch(c, m)) return m;
  if (!c.gluedCuts) return null;
  // (a body that may hold `_` took the word glued after the token too, `_v2`, `_backup_2`: cut at
  // the `_` of a short word before the end; a few, so a long run of `_` costs a few tries)
  const end = m.index + m[0].length;
  let tries = 0;
  for (let cut = end - 1; cut > pos && end - cut <= MAX_GLUED_WORD && tries < MAX_GLUED_CUTS; cut--) {
    if (text.charCodeAt(cut) !== 95) continue;
    tries++;
    glued.lastIndex = pos;
    const shorter = glued.exec(text.slice(0, cut));
    if (shorter !== null && provenMatch(c, shorter)) return shorter;
  }
  return null;
}

/** Longest word glued after a proven token that a glued match is cut back over (see provenGlued). */
const MAX_GLUED_WORD = 64;
/** Most cuts tried in that word. */
const MAX_GLUED_CUTS = 4;

/** Marks of randomness (see scrambled) a token's body needs to count glued on its right where it may hold a `_`. */
const GLUED_BODY_MARKS = 2;

/**
 * Whether the body of a token at [pos, end) (after the rule's longest keyword there) mixes letters
 * and digits as random characters do (two of scrambled's marks), not as an identifier's words
 * (`tfp_build_helpers_for_forms_v2`, `AIzaSomeClientIdentifierNameHere`): for a match glued on its
 * right where its body may hold `_`. A random body of 20 URL-safe characters has fewer about 1,500
 * times in a million, of 35 about 4 (the token is then found only bare or glued otherwise).
 */
function randomBody(r: SecretRule, text: string, pos: number, end: number): boolean {
  let from = pos;
  for (const k of r.keywords) if (pos + k.length > from && text.slice(pos, pos + k.length).toLowerCase() === k.toLowerCase()) from = pos + k.length;
  return scrambleMarks(text.slice(from, end)) >= GLUED_BODY_MARKS;
}

/** Whether the whole match (its secret group, if any) holds the rule's proof. */
function provenMatch(c: CompiledRule, m: RegExpExecArray): boolean {
  if (c.rule.proof === undefined) return false;
  const span = c.secretGroups.length > 0 ? secretSpan(c, m) : [m.index, m.index + m[0].length];
  return span !== undefined && proven(c.rule.proof, m.input.slice(span[0], span[1]));
}

/** A rule's structural proof; a throwing proof does not hold. */
function proven(proof: (secret: string) => boolean, secret: string): boolean {
  try {
    return proof(secret);
  } catch {
    return false;
  }
}

/**
 * How a keyword holding a quote (`"auth"`) is spelled inside a JSON string and inside one inside
 * another (`auth\"`, `auth\\\"`): from after any leading quote, so that the spellings do not
 * start with the `\"` of every escaped string. Empty for a keyword without a quote. The detector
 * adds them to its keywords (hits open decoding windows); a pre-filter on keywords needs them too.
 */
export function escapedKeywordSpellings(keyword: string): string[] {
  if (!keyword.includes('"')) return [];
  const out: string[] = [];
  let spelled = keyword.replace(/^"+/, '');
  for (let layer = 0; layer < 2; layer++) out.push((spelled = JSON.stringify(spelled).slice(1, -1)));
  return out;
}

/** Build a detector from the built-in rules plus the user's. Pure and stateless across calls. */
export function createSecretDetector(config: SecretDetectorConfig = {}): SecretDetector {
  const disabled = new Set(config.disabledRules ?? []);
  const builtins = config.builtinRules === false ? [] : BUILTIN_RULES.filter((r) => !disabled.has(r.id));
  const rules = [...builtins, ...(config.rules ?? [])];
  const seen = new Set<string>();
  for (const rule of rules) {
    if (seen.has(rule.id)) throw new Error(`duplicate secret rule id "${rule.id}"`);
    seen.add(rule.id);
    for (const k of rule.keywordsAnywhere ?? []) if (!rule.keywords.includes(k)) throw new Error(`secret rule "${rule.id}": keywordsAnywhere "${k}" is not one of its keywords`);
  }
  const compiled = rules.map(compileRule);
  const allow = (config.allowlist ?? []).map(compileAllow);
  const maxDepth = Math.max(0, config.maxDecodeDepth ?? DEFAULT_MAX_DEPTH);
  const maxDecoded = Math.max(0, config.maxDecodedChars ?? DEFAULT_MAX_DECODED);

  // Keyword index: keyword id -> anchored rules (tried at the hit) / unanchored rules (triggered).
  const keywordIds = new Map<string, number>();
  // Generic anchored rules run after the specific ones, so that a candidate a specific finding
  // already covers (API_KEY=ghp_…) is never judged.
  const anchoredBy: number[][] = [];
  const anchoredGenericBy: number[][] = [];
  /** Per keyword id, per rule in anchoredBy / anchoredGenericBy: the exact keyword a case-matching rule needs at the hit. */
  const exactBy: (string | undefined)[][] = [];
  const exactGenericBy: (string | undefined)[][] = [];
  const triggeredBy: number[][] = [];
  const always: number[] = [];
  /** Rules tried at the start of base64 runs whose decoded text matches their decodedPrefix. */
  const runPrefixed: number[] = [];
  const keywordId = (k: string): number => {
    let id = keywordIds.get(k);
    if (id === undefined) {
      id = keywordIds.size;
      keywordIds.set(k, id);
      anchoredBy.push([]);
      anchoredGenericBy.push([]);
      exactBy.push([]);
      exactGenericBy.push([]);
      triggeredBy.push([]);
    }
    return id;
  };
  /** Rules named by their key (see key-names.ts). */
  const keyNamed = new KeyNameIndex();
  compiled.forEach((c, ri) => {
    for (const name of c.rule.keyNames ?? []) keyNamed.add(name, ri);
    if (c.decodedPrefix) runPrefixed.push(ri);
    else if (c.rule.keywords.length === 0 && c.rule.keyNames === undefined) always.push(ri);
    for (const raw of c.rule.keywords) {
      const id = keywordId(raw.toLowerCase());
      (c.anchored ? (c.generic ? anchoredGenericBy : anchoredBy) : triggeredBy)[id]!.push(ri);
      if (c.anchored) (c.generic ? exactGenericBy : exactBy)[id]!.push(c.rule.keywordsMatchCase === true ? raw : undefined);
    }
  });
  // The credential words that send their key to the key-named rules (keywords of no rule besides).
  const keyWordIds = new Set(keyNamed.size > 0 ? CREDENTIAL_KEY_WORDS.map(keywordId) : []);
  const isKeyWord = new Uint8Array(keywordIds.size + 8);
  for (const id of keyWordIds) isKeyWord[id] = 1;
  // A keyword's escaped spellings are keywords of no rule, whose hits open decoding windows.
  for (const k of [...keywordIds.keys()]) for (const spelled of escapedKeywordSpellings(k)) keywordId(spelled);
  // Keywords of no rule whose hits may open a window of characters spelled out (see spelledWindows).
  const spelling: (string | undefined)[] = [];
  for (const k of SPELLING_KEYWORDS) spelling[keywordId(k)] = k;
  // Keywords are checked now; the scanner's tables are built on the first scan, so importing the
  // package (which creates the default detector) stays cheap.
  const keywords = [...keywordIds.keys()];
  KeywordScanner.checkKeywords(keywords);
  // Run keywords: token prefixes looked for only where a long run of token characters begins,
  // when every rule that has the keyword says its matches start such a run.
  const runKeyword = new Array<boolean>(keywords.length).fill(false);
  const notRun = new Set<number>();
  compiled.forEach((c) => {
    for (const raw of c.rule.keywords) {
      const id = keywordIds.get(raw.toLowerCase())!;
      // (one character begins too many runs to be looked for at their starts alone)
      if (c.anchored && c.rule.tokenPrefix === true && /^[A-Za-z0-9+/_-]{2,}$/.test(raw) && c.rule.keywordsAnywhere?.includes(raw) !== true) runKeyword[id] = true;
      else notRun.add(id);
    }
  });
  for (const id of [...notRun, ...keyWordIds]) runKeyword[id] = false;
  // Glue keywords: run keywords of four characters or more with a `_` (`ghp_`, `npm_`, `cfut_`)
  // whose every rule has a proof, also looked for glued to a word (in a run of mixed case, digits
  // and a `_`), where only a proof lets a match count (see provenGlued). Proven prefixes without
  // a `_` are too when they have six letters and digits or more (`ATATT3`, `ATCTT3`), whose
  // tokens' base64url body holds a `_` (but one in fourteen) and makes the run one the scan walks;
  // shorter ones (`ATTA`) are not: their tokens hold no `_`, and the scan would have to walk
  // every base64 run. A rule's keywordsAnywhere (`ATBB`, `ABSKQmVkcm9ja0FQSUtleS`, `sk-proj-`)
  // are no run keywords: the first filter finds them everywhere, glued too.
  const glueKeyword = runKeyword.map((run, id) => run && isGlueKeyword(keywords[id]!));
  compiled.forEach((c) => {
    if (c.glued === undefined) for (const raw of c.rule.keywords) glueKeyword[keywordIds.get(raw.toLowerCase())!] = false;
  });
  // Where a match can begin other than at a keyword hit, for escapes glued to its start: before
  // the keywords of rules not anchored at them, and anywhere for rules without keywords.
  const glueSites: GlueSites = {
    // (key-named rules begin at the provider name, before their credential word's hit)
    before: Int32Array.from(triggeredBy, (rs, id) => (rs.length > 0 || keyWordIds.has(id) ? GLUE_REACH : 0)),
    inKey: Uint8Array.from(triggeredBy, (rs, id) => (rs.length === 0 && keyWordIds.has(id) ? 1 : 0)),
    anywhere: always.length > 0,
    minRun: MIN_BASE64_RUN,
  };
  let scanner: KeywordScanner | undefined;
  const nRules = compiled.length;

  const allowed = (ruleId: string, secret: string, whole: string): boolean => {
    for (const a of allow) {
      if (a.ruleIds && !a.ruleIds.has(ruleId)) continue;
      if (a.regex && !(a.regex.test(secret) || a.regex.test(whole))) continue;
      if (a.hashes && !a.hashes.has(createHash('sha256').update(secret).digest('hex'))) continue;
      if (!a.regex && !a.hashes && !a.ruleIds) continue; // an empty entry allows nothing
      return true;
    }
    return false;
  };

  /** Check one regex match; the finding's span, or undefined when a filter drops it. */
  const accept = (c: CompiledRule, m: RegExpExecArray, rejected: Rejected, covered?: SpanIndex): Raw | undefined => {
    const r = c.rule;
    // Repeated candidates (the same value hit again and again) are judged once per call; a rule
    // with a validate hook judges the whole match, so a repeat is known before its span is.
    // Per-rule sets keyed by the text itself: no key string is built per candidate.
    const seen = rejected.get(c);
    let memo = r.validate ? m[0] : undefined;
    if (memo !== undefined && seen?.has(memo)) return undefined;
    let start = m.index;
    let end = m.index + m[0].length;
    if (c.secretGroups.length > 0) {
      const span = secretSpan(c, m);
      if (!span) return undefined;
      [start, end] = span;
    }
    // Inside a specific finding: finish() would drop it, so it is not judged at all.
    if (covered?.overlaps(start, end)) return undefined;
    const secret = m.input.slice(start, end);
    if (memo === undefined) {
      memo = secret;
      if (seen?.has(memo)) return undefined;
    }
    if (!keep(r, secret, m, start, end)) {
      if (seen) seen.add(memo);
      else rejected.set(c, new Set([memo]));
      return undefined;
    }
    return { rule: -1, start, end }; // the caller sets the rule index
  };

  /** The filters on one candidate, `secret` = `m.input[start, end)`. */
  const keep = (r: SecretRule, secret: string, m: RegExpExecArray, start: number, end: number): boolean => {
    if (r.proof !== undefined && proven(r.proof, secret)) return validated(r, secret, m) && !(allow.length > 0 && allowed(r.id, secret, m[0]));
    const placeholders = r.allowPlaceholders !== true;
    let shape = -1;
    if (r.minEntropy !== undefined || placeholders) {
      // Entropy and placeholder shape from the bytes the scan left in memory, when it can tell.
      const sum = scanner!.profileOf(m.input, start, end);
      if (sum >= 0) shape = scanner!.profileShape;
      if (r.minEntropy !== undefined && (sum >= 0 ? entropyFromSum(end - start, sum) : shannonEntropy(secret)) < r.minEntropy) return false;
    }
    if (!validated(r, secret, m)) return false;
    // (a provider rule's match has the provider's format, in which `...` is chance)
    if (placeholders && (isPlaceholderShaped(secret, shape >= 0 ? shape : placeholderShape(secret), r.generic !== true) || maskFollows(m.input, end))) return false;
    return !(allow.length > 0 && allowed(r.id, secret, m[0]));
  };

  // Per-rule scratch for matchRules, valid where stamp[rule] is the current pass: reused so a
  // short value allocates nothing (a user validate hook that re-enters the detector gets fresh
  // arrays). Fixed size: nothing grows across calls.
  const scratch = {
    stamp: new Int32Array(nRules),
    coveredUntil: new Int32Array(nRules),
    lastTried: new Int32Array(nRules),
    rejected: new Map() as Rejected,
    pass: 0,
    busy: false,
  };

  /** One matching pass's state; `shared`: the scratch's arrays. */
  type PassState = Pick<typeof scratch, 'stamp' | 'coveredUntil' | 'lastTried' | 'rejected'> & { pass: number; shared: boolean };

  /**
   * Anchored rules (from `by`) at each keyword hit, each rule once per position and not inside
   * its own last match. Not a closure per call: it runs for every text with a hit.
   */
  const tryAnchored = (
    text: string,
    hits: readonly number[],
    out: Raw[],
    st: PassState,
    by: readonly (readonly number[])[],
    exact: readonly (readonly (string | undefined)[])[],
    covered: SpanIndex | undefined,
  ): void => {
    const { stamp, coveredUntil, lastTried, pass } = st;
    for (let h = 0; h < hits.length; h += 2) {
      const anchored = by[hits[h]!]!;
      if (anchored.length === 0) continue;
      const pos = hits[h + 1]!;
      for (let a = 0; a < anchored.length; a++) {
        const ri = anchored[a]!;
        const keyword = exact[hits[h]!]![a];
        if (keyword !== undefined && !text.startsWith(keyword, pos)) continue;
        if (stamp[ri] !== pass) {
          stamp[ri] = pass;
          coveredUntil[ri] = -1;
          lastTried[ri] = -1;
        } else if (pos < coveredUntil[ri]! || lastTried[ri] === pos) continue;
        lastTried[ri] = pos;
        const matchEnd = matchAt(ri, text, pos, out, st.rejected, covered);
        if (matchEnd >= 0) coveredUntil[ri] = matchEnd;
      }
    }
  };

  /**
   * Key-named rules at the keys of credential-word hits: the rules whose provider name begins a
   * word of the key, each tried once per position, anchored at the name.
   */
  const tryKeyNamed = (text: string, hits: readonly number[], out: Raw[], st: PassState): void => {
    const { stamp, lastTried, coveredUntil, pass } = st;
    let keyAt = -1;
    for (let h = 0; h < hits.length; h += 2) {
      if (isKeyWord[hits[h]!] !== 1) continue;
      const pos = hits[h + 1]!;
      // A provider name comes before the credential word in its key; then the key is assigned.
      // (pass and password hit at one place)
      if (pos === keyAt || !isKeyChar(text.charCodeAt(pos - 1))) continue;
      keyAt = pos;
      // (the cheap check first: most credential words in code stand in no assignment)
      if (!keyIsAssigned(text, pos)) continue;
      const found = keyNamed.lookup(text, pos);
      if (found === 0) continue;
      // (copied, to a plain array (a typed array's slice costs more): a user validate hook that
      // scans again reuses the index's buffer)
      const named: number[] = [];
      for (let r = 0; r < 2 * found; r++) named.push(keyNamed.named[r]!);
      for (let r = 0; r < named.length; r += 2) {
        const ri = named[r]!;
        const start = named[r + 1]!;
        if (stamp[ri] !== pass) {
          stamp[ri] = pass;
          coveredUntil[ri] = -1;
          lastTried[ri] = -1;
        } else if (lastTried[ri] === start || start < coveredUntil[ri]!) continue;
        lastTried[ri] = start;
        const end = matchAt(ri, text, start, out, st.rejected);
        if (end >= 0) coveredUntil[ri] = end;
      }
    }
  };

  /** A matching pass over one text: the scratch, or fresh arrays while the scratch is in use (a re-entering validate hook). */
  const beginPass = (): PassState => {
    if (scratch.busy) {
      return { stamp: new Int32Array(nRules), coveredUntil: new Int32Array(nRules), lastTried: new Int32Array(nRules), rejected: new Map() as Rejected, pass: 1, shared: false };
    }
    scratch.busy = true;
    return { stamp: scratch.stamp, coveredUntil: scratch.coveredUntil, lastTried: scratch.lastTried, rejected: scratch.rejected, pass: (scratch.pass = (scratch.pass + 1) | 0 || 1), shared: true };
  };

  /** Ends a pass: frees the scratch and forgets its rejected candidates. */
  const endPass = (st: PassState): void => {
    if (!st.shared) return;
    scratch.busy = false;
    // No candidate text outlives the call (clearing allocates a new table, so only when needed).
    if (st.rejected.size > 0) st.rejected.clear();
  };

  /** The specific rules the keyword hits call for: anchored ones at their hits, `triggered` ones over the text. */
  const matchSpecific = (text: string, hits: readonly number[], out: Raw[], st: PassState, triggered: Set<number> | undefined): void => {
    tryAnchored(text, hits, out, st, anchoredBy, exactBy, undefined);
    if (keyWordIds.size > 0) tryKeyNamed(text, hits, out, st);
    if (triggered) for (const ri of triggered) if (!compiled[ri]!.generic) matchEverywhere(ri, text, st.rejected, out);
  };

  /**
   * The generic rules the keyword hits call for, after the specific ones (`out` holds their
   * findings, and no generic one yet). A candidate inside a specific finding, of this layer or of
   * `decoded` (the decoding layers' findings), is not judged: finish() would drop it.
   */
  const matchGeneric = (text: string, hits: readonly number[], out: Raw[], st: PassState, triggered: Set<number> | undefined, decoded: readonly Raw[]): void => {
    const specific = decoded.length === 0 ? out : [...out, ...decoded.filter((f) => !compiled[f.rule]!.generic)];
    const covered = specific.length > 0 ? new SpanIndex(specific) : undefined;
    tryAnchored(text, hits, out, st, anchoredGenericBy, exactGenericBy, covered);
    if (triggered) for (const ri of triggered) if (compiled[ri]!.generic) matchEverywhere(ri, text, st.rejected, out, covered);
  };

  /** The unanchored rules the keyword hits call for (and those without keywords), or undefined. */
  const triggeredRules = (hits: readonly number[]): Set<number> | undefined => {
    let triggered: Set<number> | undefined = always.length > 0 ? new Set<number>(always) : undefined;
    for (let h = 0; h < hits.length; h += 2) {
      const unanchored = triggeredBy[hits[h]!]!;
      if (unanchored.length > 0) for (const ri of unanchored) (triggered ??= new Set<number>()).add(ri);
    }
    return triggered;
  };

  /** One anchored try of a rule at `pos`; the end of its match when a finding was kept, else -1. */
  const matchAt = (ri: number, text: string, pos: number, out: Raw[], rejected: Rejected, covered?: SpanIndex): number => {
    const c = compiled[ri]!;
    // (a try whose every candidate would be dropped unjudged is not run)
    if (covered !== undefined && c.canYield !== undefined && !c.canYield(text, pos, covered)) return -1;
    const re = c.sticky!;
    re.lastIndex = pos;
    let m = re.exec(text);
    if (m === null && c.rightGlued !== undefined) {
      const right = c.rightGlued;
      right.lastIndex = pos;
      m = right.exec(text);
      // (documentation marks an example by the word glued after it: `sk_test_…_EXAMPLE`, `AKIA…_fake`)
      if (m !== null && placeholderGlued(text, m.index + m[0].length) && !provenMatch(c, m)) return -1;
      if (m !== null && c.rightGluedUnderscore && !randomBody(c.rule, text, pos, m.index + m[0].length)) return -1;
    }
    // (a rule that takes a `_` on the right without a proof needs its proof only for a left glue)
    if (m === null && c.glued !== undefined && (c.rightGlued === undefined || (pos > 0 && isWordChar(text.charCodeAt(pos - 1))))) m = provenGlued(c, text, pos);
    if (m === null) return -1;
    const f = accept(c, m, rejected, covered);
    if (!f) return -1;
    f.rule = ri;
    out.push(f);
    return m.index + m[0].length;
  };

  /** An unanchored rule over the whole text. */
  const matchEverywhere = (ri: number, text: string, rejected: Rejected, out: Raw[], covered?: SpanIndex): void => {
    const c = compiled[ri]!;
    const re = c.global;
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (m[0].length === 0) re.lastIndex++;
      const f = accept(c, m, rejected, covered);
      if (f) {
        f.rule = ri;
        out.push(f);
      }
    }
  };

  const scanText = (value: string, depth: number, budget: Budget): Raw[] => {
    scanner ??= new KeywordScanner(keywords, MIN_BASE64_RUN, true, runKeyword, glueKeyword);
    let text = value;
    let scan = scanner.scan(text);
    // (a value given to the detector, not a decoded layer: its redaction markers' rule ids are
    // blanked, and the blanked text is scanned instead)
    if (depth === 0 && scan.marker) {
      text = withoutMarkerNames(value);
      if (text !== value) scan = scanner.scan(text);
    }
    const { hits, runs, percent, backslash, hidden } = scan;
    const out: Raw[] = [];
    const ruled = hits.length > 0 || always.length > 0;
    const triggered = ruled ? triggeredRules(hits) : undefined;
    let st = ruled ? beginPass() : undefined;
    try {
      if (st) matchSpecific(text, hits, out, st, triggered);
      const layers = depth < maxDepth ? decodingLayers(text, runs, percent, backslash, hidden, hits, out) : undefined;
      if (layers === undefined) {
        if (st) matchGeneric(text, hits, out, st, triggered, NO_FINDINGS);
        return out;
      }
      // The layers before the generic rules, so that a generic candidate inside a specific finding
      // of a layer (a base64 value whose text is a token) is not judged either. (The pass ends
      // first: the layers' own passes then reuse the scratch.)
      if (st) endPass(st);
      st = undefined;
      const decoded = decodeLayers(text, layers, depth, budget);
      if (ruled) {
        st = beginPass();
        matchGeneric(text, hits, out, st, triggered, decoded);
      }
      for (const f of decoded) out.push(f);
      return out;
    } finally {
      if (st) endPass(st);
    }
  };

  /**
   * What the decoding layers of a text would decode, or undefined when nothing: base64 runs worth
   * decoding (as [start, end) pairs, before any `=` padding), runs that may be hex of text, tokens holding a %XX escape,
   * windows of JSON string escapes, and windows around hidden characters (`hiding`: the scan saw one).
   * `found`: the findings of the text's specific rules.
   */
  const decodingLayers = (text: string, runs: readonly number[], percent: boolean, backslash: boolean, hiding: boolean, hits: readonly number[], found: readonly Raw[]): DecodingLayers | undefined => {
    // Base64: runs already inside a provider finding (the token itself) are not decoded again;
    // runs in a generic finding are, since they may hold something more specific.
    // (Sorted only when there are runs: most texts with a finding have none.)
    const direct = found.length === 0 || runs.length === 0 ? [] : found.filter((f) => !compiled[f.rule]!.generic).sort((a, b) => a.start - b.start);
    const base64: number[] = [];
    const hex: number[] = [];
    let di = 0;
    let coveredTo = -1; // max end of direct findings starting at or before the run
    for (let r = 0; r < runs.length; r += 2) {
      const s = runs[r]!;
      const e = runs[r + 1]!;
      if (e - s > MAX_BASE64_RUN) continue;
      // Base64 of ASCII starts with A-Z or a-f (the top six bits of a byte below 0x80); a run that
      // starts with a digit is hex of text (the scanner reports only those: couldBeHexOfText).
      const c0 = text.charCodeAt(s);
      const isHex = c0 >= 48 && c0 <= 55;
      if (!isHex && !((c0 >= 65 && c0 <= 90) || (c0 >= 97 && c0 <= 102))) continue;
      while (di < direct.length && direct[di]!.start <= s) coveredTo = Math.max(coveredTo, direct[di++]!.end);
      if (coveredTo >= e) continue; // already inside a finding (a token)
      (isHex ? hex : base64).push(s, e);
    }
    // URL-encoding: each token holding %XX.
    const urlTokens = percent ? percentTokens(text) : [];
    // JSON inside a string: every escape around each one that could hide something: near a
    // keyword hit, a \u escape of a printable ASCII character, an escaped URL scheme (:\/\/), or
    // an escape glued to the start of a match (\nghp_…), which its last letter would hide from
    // the rule's left-boundary check.
    const windows = backslash ? escapeWindows(text, hits, glueSites) : [];
    // Hidden characters and stand-ins: looked for only in a text that holds one (the scan says which).
    const hidden = hiding ? hiddenWindows(text) : NO_WINDOWS;
    // Characters spelled out: looked for only at the hits of their keywords.
    const spelled = hits.length > 0 ? spelledWindows(text, hits, spelling) : NO_WINDOWS;
    return base64.length + hex.length + urlTokens.length + windows.length + hidden.length + spelled.length === 0 ? undefined : { base64, hex, urlTokens, windows, hidden, spelled };
  };

  /** Decode and scan the layers of a text; their findings, mapped back to it. */
  const decodeLayers = (text: string, layers: DecodingLayers, depth: number, budget: Budget): Raw[] => {
    const decoded: Raw[] = [];
    // Base64: a run that decodes to text is scanned; findings cover the whole encoded run.
    const { base64, hex, urlTokens, windows } = layers;
    for (let r = 0; r < base64.length; r += 2) {
      const s = base64[r]!;
      let e = base64[r + 1]!;
      if (e - s > budget.decoded) continue;
      const runEnd = e;
      while (e < text.length && e - runEnd < 2 && text.charCodeAt(e) === 61) e++; // `=` padding
      const runText = decodeBase64Text(text.slice(s, e));
      if (runText === undefined) continue;
      budget.decoded -= runText.length;
      for (const ri of runPrefixed) if (compiled[ri]!.decodedPrefix!.test(runText)) matchAt(ri, text, s, decoded, new Map());
      for (const f of scanText(runText, depth + 1, budget)) decoded.push({ rule: f.rule, start: s, end: e });
    }
    // Hex: likewise, findings cover the whole encoded run (its `0x` too).
    let hexEnd = -1; // the end of the last run decoded: a wrapped dump's later lines are in it
    for (let r = 0; r < hex.length; r += 2) {
      const s = hex[r]!;
      const e = hex[r + 1]!;
      if (s < hexEnd || (e - s) >> 1 > budget.decoded) continue;
      const run = decodeHexText(text, s, budget.decoded);
      if (run === undefined) continue;
      hexEnd = s + run.length;
      budget.decoded -= run.text.length;
      for (const f of scanText(run.text, depth + 1, budget)) decoded.push({ rule: f.rule, start: s, end: s + run.length });
    }
    // URL-encoding: findings map back character by character.
    for (const [s, e] of urlTokens) {
      if (e - s > budget.decoded) continue;
      const mapped = decodePercent(text, s, e);
      if (mapped) decodeInto(mapped, depth, budget, decoded);
    }
    // JSON string escapes, then hidden characters (as the reader sees the text): each window's
    // findings map back character by character.
    decodeWindows(text, windows, decodeJsonEscapes, depth, budget, decoded);
    decodeWindows(text, layers.hidden, decodeHiddenCharacters, depth, budget, decoded);
    decodeWindows(text, layers.spelled, decodeSpelledCharacters, depth, budget, decoded);
    return decoded;
  };

  /** Decode each window [start, end) of `windows` (pairs) with `decode` and scan it, while the budget lasts. */
  const decodeWindows = (text: string, windows: readonly number[], decode: (source: string, from: number, to: number) => MappedText | undefined, depth: number, budget: Budget, out: Raw[]): void => {
    for (let w = 0; w < windows.length; w += 2) {
      const s = windows[w]!;
      const e = windows[w + 1]!;
      if (e - s > budget.decoded) continue;
      const mapped = decode(text, s, e);
      if (mapped) decodeInto(mapped, depth, budget, out);
    }
  };

  const decodeInto = (mapped: MappedText, depth: number, budget: Budget, out: Raw[]): void => {
    budget.decoded -= mapped.text.length;
    for (const f of scanText(mapped.text, depth + 1, budget)) {
      const [start, end] = mapped.sourceSpan(f.start, f.end);
      out.push({ rule: f.rule, start, end });
    }
  };

  const findAll = (text: string): SecretFinding[] => {
    if (typeof text !== 'string' || text.length === 0) return [];
    try {
      return finish(scanText(text, 0, { decoded: maxDecoded }), compiled);
    } catch {
      // A user pattern that overflows the regexp stack, or any other failure: fail closed, the
      // whole value counts as a secret (and redaction replaces all of it).
      return [{ ruleId: SCAN_FAILED_RULE_ID, start: 0, end: text.length }];
    } finally {
      scanner?.release(); // the scanned text is not kept reachable past the call
    }
  };

  return {
    find: (text) => findAll(text)[0],
    findAll,
  };
}

/** A redaction marker's rule id (`[REDACTED:heroku-api-key]`). */
const MARKER_NAME = /(?<=\[REDACTED:)[^\]\s]{1,128}(?=\])/g;

/**
 * `text` with the rule id of every redaction marker blanked, offsets kept: an id names a rule, not
 * a key, so `[REDACTED:heroku-api-key]=<uuid>` (what followed a redacted token) is no assignment
 * to a credential key — else re-scanning redacted text finds what redaction itself wrote.
 */
function withoutMarkerNames(text: string): string {
  return text.includes('[REDACTED:') ? text.replace(MARKER_NAME, (id) => ' '.repeat(id.length)) : text;
}

/** Tokens (no whitespace or quotes) that contain a %XX escape, as [start, end) pairs. */
function percentTokens(text: string): [number, number][] {
  const out: [number, number][] = [];
  let until = -1;
  for (let p = text.indexOf('%'); p >= 0 && p + 2 < text.length; p = text.indexOf('%', p + 1)) {
    if (p < until || !isHexDigit(text.charCodeAt(p + 1)) || !isHexDigit(text.charCodeAt(p + 2))) continue;
    let s = p;
    while (s > 0 && !isTokenStop(text.charCodeAt(s - 1))) s--;
    let e = p + 3;
    while (e < text.length && !isTokenStop(text.charCodeAt(e))) e++;
    out.push([s, e]);
    until = e;
    p = e - 1;
  }
  return out;
}

/**
 * Sort, drop generic findings that overlap a specific one, merge overlapping findings of the
 * same rule.
 */
/** The first index of `sorted` (by start) whose start is at least `start`. */
function firstStartingFrom(sorted: readonly Raw[], start: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]!.start < start) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function finish(raw: Raw[], compiled: readonly CompiledRule[]): SecretFinding[] {
  if (raw.length === 0) return [];
  if (raw.length === 1) return [{ ruleId: compiled[raw[0]!.rule]!.rule.id, start: raw[0]!.start, end: raw[0]!.end }];
  raw.sort((a, b) => a.start - b.start || b.end - a.end);
  const generic = raw.some((f) => compiled[f.rule]!.generic);
  const specific = generic ? new SpanIndex(raw.filter((f) => !compiled[f.rule]!.generic)) : undefined;
  // A catch-all assignment also yields to a generic rule that read the form the value stands in
  // (`--password=`, `pass:`, a header): that rule's span and id say more.
  const catchAlls = raw.filter((f) => compiled[f.rule]!.catchAll);
  const forms = catchAlls.length > 0 ? new SpanIndex(raw.filter((f) => compiled[f.rule]!.generic && !compiled[f.rule]!.catchAll)) : undefined;
  // Two catch-all readings of one value (`"Hp:Xz)&#k"`: the part before a bracket, and the whole
  // quoted value): the one that read more of it stands. Only readings that start within the
  // longest one's length of it can overlap (catchAlls are sorted by start): a text of thousands
  // of assignments compares each with its neighbours, not with all.
  let longest = 0;
  for (const g of catchAlls) longest = Math.max(longest, g.end - g.start);
  const shorterReading = (f: Raw): boolean => {
    if (catchAlls.length < 2) return false;
    for (let i = firstStartingFrom(catchAlls, f.start - longest); i < catchAlls.length && catchAlls[i]!.start < f.end; i++) {
      const g = catchAlls[i]!;
      if (g.rule !== f.rule && f.start < g.end && g.end - g.start > f.end - f.start) return true;
    }
    return false;
  };
  const out: SecretFinding[] = [];
  const lastOfRule = new Map<number, SecretFinding>();
  for (const f of raw) {
    if (specific && compiled[f.rule]!.generic && specific.overlaps(f.start, f.end)) continue;
    if (forms && compiled[f.rule]!.catchAll && (forms.overlaps(f.start, f.end) || shorterReading(f))) continue;
    const prev = lastOfRule.get(f.rule);
    if (prev && f.start < prev.end) {
      prev.end = Math.max(prev.end, f.end);
      continue;
    }
    const finding = { ruleId: compiled[f.rule]!.rule.id, start: f.start, end: f.end };
    lastOfRule.set(f.rule, finding);
    out.push(finding);
  }
  return out;
}

/** The default detector (built-in rules only). */
export const defaultSecretDetector: SecretDetector = createSecretDetector();
