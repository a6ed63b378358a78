import { Residency, ResidencyRule } from '@argspan/conventions';
import { matchDirty } from './dirty-match.js';
import { isPlaceholderValue, isSecretKeyName } from './secret-key-names.js';
import { namesSecretFile } from './secret-file-names.js';
import type { CommittedContent, DirtySet, Leaf, SecretDetector } from './types.js';

export interface ResidencyEnv {
  detector: SecretDetector;
  dirty?: DirtySet;
  bulkyThreshold: number;
  strictPublic: boolean;
  committed?: CommittedContent;
}

export interface ResidencyLabel {
  residency: Residency;
  /** Rule id that decided the label; never the value. */
  rule: string;
}

/**
 * Label one leaf, highest priority first: secret > dirty-tree > bulky-public > tiny-public, else
 * unknown. Pure; throws only if a supplied detector throws (the caller fails closed).
 */
export function labelResidency(leaf: Leaf, env: ResidencyEnv): ResidencyLabel {
  return labelLeaf(leaf, env, env.detector.find(leaf.key)?.ruleId);
}

/**
 * {@link labelResidency} with the key already scanned: `keySecretRule` is the detector rule that
 * matched the leaf's key path (a credential used as an object key), if any. `classifyCall` scans
 * every key of a call at once instead of one detector call per leaf.
 */
export function labelLeaf(leaf: Leaf, env: ResidencyEnv, keySecretRule: string | undefined): ResidencyLabel {
  const { text } = leaf;

  // secret: credential-shaped value, credential key slot, secret file name, or a credential in the key itself.
  const found = env.detector.find(text);
  if (found) return { residency: Residency.SECRET, rule: found.ruleId };
  if (leaf.kind === 'string' || leaf.kind === 'binary') {
    if (pathHasSecretKey(leaf) && !isPlaceholderValue(text)) return { residency: Residency.SECRET, rule: ResidencyRule.SECRET_KEY_NAME };
    if (namesSecretFile(text)) return { residency: Residency.SECRET, rule: ResidencyRule.SECRET_FILE_NAME };
  } else if (text !== '' && pathHasSecretKey(leaf)) {
    // A numeric PIN in a `password` slot is still a password.
    return { residency: Residency.SECRET, rule: ResidencyRule.SECRET_KEY_NAME };
  } else if (leaf.kind === 'other' && leaf.truncated && namesSecretFileInJson(text)) {
    // A subtree past the depth limit, as JSON: a secret file named in any string inside it.
    return { residency: Residency.SECRET, rule: ResidencyRule.SECRET_FILE_NAME };
  }
  if (keySecretRule !== undefined) return { residency: Residency.SECRET, rule: ResidencyRule.SECRET_IN_KEY };

  if (env.dirty) {
    const dirtyRule = matchDirty(text, env.dirty);
    if (dirtyRule) return { residency: Residency.DIRTY_TREE, rule: dirtyRule };
  }

  // What flattening could not see is unknown, whatever the visible part looks like.
  if (leaf.truncated) return { residency: Residency.UNKNOWN, rule: ResidencyRule.FLATTEN_LIMIT };

  if (text.length >= env.bulkyThreshold) {
    if (!env.strictPublic) return BULKY_LABEL;
    return env.committed?.hasBlob(text)
      ? { residency: Residency.BULKY_PUBLIC, rule: ResidencyRule.BULKY_COMMITTED }
      : { residency: Residency.UNKNOWN, rule: ResidencyRule.BULKY_UNPROVEN };
  }
  if (text.length === 0) return EMPTY_LABEL;
  return TINY_LABEL;
}

// The common labels, one object each (labelLeaf runs on every leaf; its callers only read them).
const BULKY_LABEL: ResidencyLabel = { residency: Residency.BULKY_PUBLIC, rule: ResidencyRule.BULKY };
const EMPTY_LABEL: ResidencyLabel = { residency: Residency.UNKNOWN, rule: ResidencyRule.EMPTY };
const TINY_LABEL: ResidencyLabel = { residency: Residency.TINY_PUBLIC, rule: ResidencyRule.TINY };

/**
 * Whether a string literal of a JSON text (keys included) names a secret file: also in a cut-off
 * text, too long to scan as one path, and in JSON inside a literal (a model's
 * `"arguments":"{\\"path\\":…}"`, to a few levels) — there in the literal the cut left open too.
 * A name the cut itself ends (`"/app/.env` of `.env.example`?) is not judged.
 */
export function namesSecretFileInJson(json: string, depth = 0): boolean {
  for (const literal of json.matchAll(/"(?:[^"\\]|\\.)*(?:"|\\?$)/g)) {
    const closed = isClosedLiteral(literal[0]);
    let s: unknown;
    try {
      // (an open literal closed where the text ends, a cut escape dropped)
      s = JSON.parse(closed ? literal[0] : `${literal[0].replace(/(?<!\\)((?:\\\\)*)\\(?:u[0-9A-Fa-f]{0,3})?$/, '$1')}"`);
    } catch {
      continue;
    }
    if (typeof s !== 'string') continue;
    if (closed && namesSecretFile(s)) return true;
    if (depth < 3 && s.includes('"') && namesSecretFileInJson(s, depth + 1)) return true;
  }
  return false;
}

/** Whether a literal as matched ends in its closing quote (not in an escaped one at the text's end). */
const isClosedLiteral = (literal: string): boolean => literal.length > 1 && literal.endsWith('"') && !/(?:^|[^\\])(?:\\\\)*\\"$/.test(literal);

/** The leaf's own key, or the object key that holds it (`auth.password.value`, `password[0]`), names a credential slot. */
function pathHasSecretKey(leaf: Leaf): boolean {
  if (isSecretKeyName(leaf.leaf)) return true;
  // One level up: `{"password": {"value": "…"}}` or `{"credentials": {"value": "…"}}`.
  let seenLeaf = false;
  for (let i = leaf.path.length - 1; i >= 0; i--) {
    const seg = leaf.path[i];
    if (typeof seg !== 'string') continue;
    if (!seenLeaf) {
      seenLeaf = true;
      continue;
    }
    return isSecretKeyName(seg);
  }
  return false;
}
