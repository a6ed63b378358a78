import type { SecretDetector, SecretFinding } from '../types.js';
import { BUILTIN_RULES } from './builtin-rules.js';
import { defaultSecretDetector } from './detector.js';
import { placeholderGlued } from './placeholders.js';

/** Replacement text for a redacted span: names the rule, never the value. */
export function redactionMarker(ruleId: string): string {
  return `[REDACTED:${ruleId}]`;
}

/**
 * Replace every credential-shaped span in `text` with a marker naming its rule. Overlapping
 * findings are merged into one replaced span (named for the first), so no tail of a longer
 * finding survives.
 */
export function redactSecrets(
  text: string,
  detector: SecretDetector = defaultSecretDetector,
): { text: string; ruleIds: string[] } {
  const findings = [...detector.findAll(text)].sort((a, b) => a.start - b.start || b.end - a.end);
  if (findings.length === 0) return { text, ruleIds: [] };
  let out = '';
  let at = 0;
  const ruleIds: string[] = [];
  for (let i = 0; i < findings.length; ) {
    const first = findings[i]!;
    let end = first.end;
    ruleIds.push(first.ruleId);
    for (i++; i < findings.length && findings[i]!.start < end; i++) {
      end = Math.max(end, findings[i]!.end);
      ruleIds.push(findings[i]!.ruleId);
    }
    out += text.slice(at, first.start) + redactionMarker(first.ruleId);
    at = end;
  }
  return { text: out + text.slice(at), ruleIds: [...new Set(ruleIds)] };
}

/** Lower-cased char code of an ASCII letter; any other code as it is. */
const lc = (c: number): number => (c >= 65 && c <= 90 ? c | 32 : c);
/** Characters a rule's left-boundary check refuses before a token (`[A-Za-z0-9_.-]`): a token after one is glued. */
const isGlue = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 45;

/** A built-in token prefix: lower-cased, unless its rule matches it only in the case written (`NDA…` of a Discord token, not the `nda` of `calendar`). */
type Prefix = { text: string; exact: boolean };

/** The built-in token prefixes by their first two characters (lower-cased): where a credential glued into a name may start. */
let prefixesByPair: { pairs: Uint8Array; byPair: Map<number, Prefix[]> } | undefined;
function prefixTable(): { pairs: Uint8Array; byPair: Map<number, Prefix[]> } {
  if (prefixesByPair) return prefixesByPair;
  const pairs = new Uint8Array(128 * 128);
  const byPair = new Map<number, Prefix[]>();
  const seen = new Set<string>();
  // Only the prefixes that begin a token (`ghp_`, `AKIA`, `xoxb-`): a word such as `key` or `token`
  // names a credential in an assignment, which a name does not hold.
  for (const r of BUILTIN_RULES) {
    if (!r.tokenPrefix) continue;
    for (const w of r.keywords) {
      const exact = r.keywordsMatchCase === true;
      const text = exact ? w : w.toLowerCase();
      const c0 = lc(text.charCodeAt(0));
      const c1 = lc(text.charCodeAt(1));
      if (text.length < 2 || c0 > 127 || c1 > 127 || seen.has(`${exact}:${text}`)) continue;
      seen.add(`${exact}:${text}`);
      const pair = (c0 << 7) | c1;
      pairs[pair] = 1;
      const list = byPair.get(pair);
      if (list) list.push({ text, exact });
      else byPair.set(pair, [{ text, exact }]);
    }
  }
  return (prefixesByPair = { pairs, byPair });
}

/** Whether `name` holds `prefix` at `at` (case-insensitively unless it is exact). */
function prefixAt(name: string, at: number, prefix: Prefix): boolean {
  const p = prefix.text;
  if (at + p.length > name.length) return false;
  for (let i = 0; i < p.length; i++) {
    const c = name.charCodeAt(at + i);
    if ((prefix.exact ? c : lc(c)) !== p.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * A credential in a name — a tool's name, an argument key, a run or conversation id — or the first
 * of them: in text a rule refuses a token glued to a word before or after it (part of something
 * longer), but a name is one word, and `deploy_ghp_…`, `runAKIA…` or `ghp_…_v2` still holds the
 * token. Tried where `detector` finds nothing, at each built-in token prefix inside the name (one
 * pass over the name, by the prefixes' first two characters), the name's start too: a finding
 * that starts there, in the rest of the name or in the rest cut at a separator. (A custom rule
 * without a built-in keyword is found only where its own boundary allows.)
 */
export function findInName(name: string, detector: SecretDetector = defaultSecretDetector): SecretFinding | undefined {
  const direct = detector.find(name);
  if (direct !== undefined) return direct;
  const { pairs, byPair } = prefixTable();
  for (let at = 0; at < name.length - 1; at++) {
    if (at > 0 && !isGlue(name.charCodeAt(at - 1))) continue;
    const c0 = lc(name.charCodeAt(at));
    const c1 = lc(name.charCodeAt(at + 1));
    if (c0 > 127 || c1 > 127 || pairs[(c0 << 7) | c1] === 0) continue;
    if (!byPair.get((c0 << 7) | c1)!.some((p) => prefixAt(name, at, p))) continue;
    // (at the start, the whole name is what the detector was just given)
    const f = tokenAt(name, at, detector, at > 0);
    if (f !== undefined) return f;
  }
  return undefined;
}

/** Separators a name's parts are glued with after a token (`ghp_…_v2`). */
const AFTER = /[_.\-/:]/g;
/** A name's leading run of capitals and digits (an AWS key id's shape). */
const CAPITALS = /^[A-Z0-9]+/;
const isLower = (c: number): boolean => c >= 97 && c <= 122;

/**
 * A finding starting at `at` in `name`: in the rest of the name (when `whole`), else in the rest
 * cut at a separator (a token glued on its right too), the longest cut first: a token whose own
 * characters include the separator (`xoxb-…-…_old`) is found whole, not as its first part.
 */
function tokenAt(name: string, at: number, detector: SecretDetector, whole: boolean): SecretFinding | undefined {
  const rest = name.slice(at);
  if (whole) {
    const f = detector.find(rest);
    if (f !== undefined && f.start === 0) return { ruleId: f.ruleId, start: at, end: at + f.end };
  }
  const cuts: number[] = [];
  for (const m of rest.matchAll(AFTER)) if (m.index > 0) cuts.push(m.index);
  // (and, for a token of capitals and digits, where a word starts after it: `AKIA…XBMVprod`, `AKIA…XBMVProd`)
  const capitals = CAPITALS.exec(rest)?.[0].length ?? 0;
  if (capitals > 1 && capitals < rest.length && isLower(rest.charCodeAt(capitals))) cuts.push(capitals - 1, capitals);
  cuts.sort((a, b) => a - b);
  for (let i = cuts.length - 1; i >= 0; i--) {
    const cut = detector.find(rest.slice(0, cuts[i]));
    // (not a documentation example marked by the word after it: `sk_test_…_EXAMPLE`)
    if (cut !== undefined && cut.start === 0 && !placeholderGlued(rest, cut.end)) return { ruleId: cut.ruleId, start: at, end: at + cut.end };
  }
  return undefined;
}

/**
 * {@link redactSecrets} for a name: every credential in it, glued ones too ({@link findInName}),
 * replaced by its marker. What reports print for tools, keys and run ids from the traces.
 */
export function redactName(name: string, detector: SecretDetector = defaultSecretDetector): string {
  let text = redactSecrets(name, detector).text;
  // Each pass replaces one glued token with a marker, which holds no keyword's token.
  for (let i = 0; i < 64; i++) {
    const f = findInName(text, detector);
    if (f === undefined) return text;
    text = text.slice(0, f.start) + redactionMarker(f.ruleId) + text.slice(f.end);
  }
  return redactionMarker('name');
}

/** How far past a cut a credential may reach (longer than any a rule matches, a PEM block included). */
const TOKEN_REACH = 8192;

/**
 * `text` cut to its first `max` characters, every credential redacted before the cut (by
 * {@link redactSecrets}, or `redact`): a token the cut would split is replaced whole, never left
 * as a prefix the detector no longer knows (39 of a token's 40 characters).
 */
export function redactedPrefix(text: string, max: number, redact: (s: string) => string = (s) => redactSecrets(s).text): string {
  if (text.length <= max) return redact(text);
  return redact(text.slice(0, max + TOKEN_REACH)).slice(0, max);
}
