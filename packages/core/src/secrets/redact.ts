import type { SecretDetector, SecretFinding } from '../types.js';
import { BUILTIN_RULES } from './builtin-rules.js';
import { defaultSecretDetector } from './detector.js';

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

/** Characters a rule's left-boundary check refuses before a token: a token after one is glued. */
const GLUE = /[A-Za-z0-9_.-]/;
/** The built-in rules' keywords, lower-cased: where a credential glued into a name may start. */
let builtinKeywords: readonly string[] | undefined;
const keywords = (): readonly string[] =>
  (builtinKeywords ??= [...new Set(BUILTIN_RULES.flatMap((r) => r.keywords.map((k) => k.toLowerCase())))].filter((k) => k.length >= 2));

/**
 * A credential in a name — a tool's name, an argument key, a run or conversation id — or the first
 * of them: in text a rule refuses a token glued to a word before it (part of something longer),
 * but a name is one word, and `deploy_ghp_…` or `runAKIA…` still holds the token. Tried where
 * `detector` finds nothing, at each built-in rule's keyword inside the name: a finding that starts
 * there. (A custom rule without a built-in keyword is found only where its own boundary allows.)
 */
export function findInName(name: string, detector: SecretDetector = defaultSecretDetector): SecretFinding | undefined {
  const direct = detector.find(name);
  if (direct !== undefined) return direct;
  const lower = name.toLowerCase();
  let first: SecretFinding | undefined;
  for (const k of keywords()) {
    for (let at = lower.indexOf(k, 1); at > 0; at = lower.indexOf(k, at + 1)) {
      if (first !== undefined && at >= first.start) break;
      if (!GLUE.test(name[at - 1]!)) continue;
      const f = tokenAt(name, at, detector);
      if (f !== undefined) first = f;
    }
  }
  return first;
}

/** Separators a name's parts are glued with after a token (`ghp_…_v2`). */
const AFTER = /[_.\-/:]/g;

/** A finding starting at `at` in `name`: the rest of the name, or the rest cut at a separator (a token glued on its right too). */
function tokenAt(name: string, at: number, detector: SecretDetector): SecretFinding | undefined {
  const rest = name.slice(at);
  const f = detector.find(rest);
  if (f !== undefined && f.start === 0) return { ruleId: f.ruleId, start: at, end: at + f.end };
  for (const m of rest.matchAll(AFTER)) {
    if (m.index === 0) continue;
    const cut = detector.find(rest.slice(0, m.index));
    if (cut !== undefined && cut.start === 0) return { ruleId: cut.ruleId, start: at, end: at + cut.end };
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
