import { Residency, ResidencyRule } from '@argspan/conventions';
import type { CallClassification, GatePolicy } from './types.js';

/**
 * Residency that follows a value: a value copied out of the result of a secret or dirty-tree
 * source (reading `.env`, a key file, a secrets-manager tool, an uncommitted file) inherits that
 * label in the call it is copied into. Only values that could carry a secret do: see
 * {@link carriesTaint}.
 */
export type InheritedResidency = typeof Residency.SECRET | typeof Residency.DIRTY_TREE;

/** Shortest value (trimmed, in characters) that carries its source's residency. */
export const MIN_TAINT_LENGTH = 8;

/** Least Shannon entropy, in bits per character, of a value that carries its source's residency. */
export const MIN_TAINT_ENTROPY = 2.5;

/** Digits a bare number needs to carry a source's residency (an account or card number, not a port or a count). */
export const MIN_TAINT_DIGITS = 12;

/** The residency rule of a leaf that inherited its label from where its value came from. */
export function inheritedRule(residency: InheritedResidency): string {
  return residency === Residency.SECRET ? ResidencyRule.INHERITED_SECRET : ResidencyRule.INHERITED_DIRTY_TREE;
}

/** Whether a leaf's residency rule says it inherited its label from a source. */
export function isInheritedRule(rule: string): boolean {
  return rule === ResidencyRule.INHERITED_SECRET || rule === ResidencyRule.INHERITED_DIRTY_TREE;
}

const SECRET_SOURCE_RULES: ReadonlySet<string> = new Set([ResidencyRule.SECRET_FILE_NAME]);
const DIRTY_SOURCE_RULES: ReadonlySet<string> = new Set([ResidencyRule.DIRTY_PATH, ResidencyRule.DIRTY_DIR]);

/**
 * The residency a call's result passes on to values copied from it, judged by the call that
 * produced it: `secret` for a tool in `secretSourceTools` or a call that names a secret file (a
 * read of `.env`, `id_rsa`); `dirty-tree` for a call that names an uncommitted file or directory;
 * undefined otherwise (the result is then judged by its own text). A call whose arguments merely
 * hold a credential (an API call with a token) does not make its result secret.
 */
export function resultResidency(
  tool: string,
  classification: Pick<CallClassification, 'leaves'>,
  policy: Partial<Pick<GatePolicy, 'secretSourceTools'>> = {},
): InheritedResidency | undefined {
  if (policy.secretSourceTools?.includes(tool)) return Residency.SECRET;
  let dirty = false;
  for (const l of classification.leaves) {
    if (SECRET_SOURCE_RULES.has(l.rule)) return Residency.SECRET;
    if (DIRTY_SOURCE_RULES.has(l.rule)) dirty = true;
  }
  return dirty ? Residency.DIRTY_TREE : undefined;
}

/** The label a source's result passes on, or undefined when it passes none. */
export function asInherited(residency: string | undefined): InheritedResidency | undefined {
  return residency === Residency.SECRET || residency === Residency.DIRTY_TREE ? residency : undefined;
}

// Shapes of values that are common in any source, secret or not: they never carry a label.
const COMMON_SHAPES: readonly RegExp[] = [
  /^[+-]?(?:\d+(?:[.,]\d+)*|\.\d+)(?:e[+-]?\d+)?$/i, // a number, decimal or in exponent notation (a long integer is handled below)
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/, // ISO date / date-time
  /^\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]m)?$/i, // a time of day
  /^v?\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/, // a version
  /^\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?$/, // an IPv4 address, with a port
  /^localhost(?::\d{1,5})?$/i,
  /^(?:[A-Z][A-Za-z]+|Etc)(?:\/[A-Z][A-Za-z0-9_+-]+){1,2}$/, // an IANA time zone (Asia/Tokyo, Etc/GMT+5)
  /^[a-z]+\/[a-z0-9.+-]+$/, // a media type (application/json)
  /^#?[0-9a-f]{6}$/i, // a colour
];

/** Letters only, maybe split by separators: a word, or words. */
const WORDS = /^[\p{L}]+(?:[-_ ./][\p{L}]+)*$/u;

/**
 * Whether a value may carry its source's residency. Short and common values never do — a flag
 * (`true`), a count (`1`), a zone (`UTC`, `Asia/Tokyo`), a branch (`main`), `localhost`, a date,
 * a version, an IP address, one word (`production`) or two (`Tokyo office`) — because they appear
 * in secret and public sources alike, and labelling them secret would cascade through every later
 * call. A value carries its source's label when, trimmed, it is at least {@link MIN_TAINT_LENGTH}
 * characters, is not one of those shapes (a bare number needs {@link MIN_TAINT_DIGITS} digits;
 * letters-only text needs three words and 16 characters, like a passphrase), and has at least
 * {@link MIN_TAINT_ENTROPY} bits of entropy per character.
 */
export function carriesTaint(text: string): boolean {
  const t = text.trim();
  if (t.length < MIN_TAINT_LENGTH) return false;
  if (/^[+-]?\d+$/.test(t)) return t.replace(/^[+-]/, '').length >= MIN_TAINT_DIGITS;
  for (const shape of COMMON_SHAPES) if (shape.test(t)) return false;
  if (WORDS.test(t) && (t.length < 16 || t.split(/[-_ ./]/).length < 3)) return false;
  return entropyPerChar(t) >= MIN_TAINT_ENTROPY;
}

/** Shannon entropy of the characters of `t`, in bits per character. */
function entropyPerChar(t: string): number {
  const counts = new Map<string, number>();
  for (const ch of t) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  const n = [...t].length;
  let h = 0;
  for (const c of counts.values()) {
    const p = c / n;
    h -= p * Math.log2(p);
  }
  return h;
}
