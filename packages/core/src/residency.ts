import { Residency, ResidencyRule } from '@argspan/conventions';
import { matchDirty } from './dirty-match.js';
import { isPlaceholderValue, isSecretKeyName } from './secret-key-names.js';
import { holdsCommands, namesSecretFile } from './secret-file-names.js';
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
    if (namesSecretFile(text, holdsCommands(leaf.leaf))) return { residency: Residency.SECRET, rule: ResidencyRule.SECRET_FILE_NAME };
  } else if (text !== '' && pathHasSecretKey(leaf)) {
    // A numeric PIN in a `password` slot is still a password.
    return { residency: Residency.SECRET, rule: ResidencyRule.SECRET_KEY_NAME };
  } else if (leaf.kind === 'other' && leaf.truncated) {
    // A subtree past the depth limit, as JSON: a secret file named in any string inside it, or a credential slot holding a value.
    const rule = secretInCutJson(text);
    if (rule) return { residency: Residency.SECRET, rule };
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
 * What in a JSON text cut off at the depth limit makes it secret: a string literal (keys included)
 * naming a secret file, or a key naming a credential slot (`"password"`, `"api_key"`) holding a
 * value — a string not a placeholder, a number, a boolean, a non-empty object or list (judged as
 * one, as what it holds is not flattened) — also in a cut-off text and in JSON inside a literal (a
 * model's `"arguments":"{\\"path\\":…}"`, to a few levels), there in the literal the cut left
 * open too. A name the cut itself ends (`"/app/.env` of `.env.example`?) is not judged; a value the
 * cut ends is. Undefined: neither.
 */
export function secretInCutJson(json: string, depth = 0): typeof ResidencyRule.SECRET_FILE_NAME | typeof ResidencyRule.SECRET_KEY_NAME | undefined {
  const literals = [...json.matchAll(/"(?:[^"\\]|\\.)*(?:"|\\?$)/g)];
  for (let i = 0; i < literals.length; i++) {
    const literal = literals[i]!;
    const closed = isClosedLiteral(literal[0]);
    const s = literalText(literal[0], closed);
    if (s === undefined) continue;
    if (closed && namesSecretFile(s)) return ResidencyRule.SECRET_FILE_NAME;
    if (closed && isSecretKeyName(s)) {
      VALUE_AFTER_KEY.lastIndex = literal.index + literal[0].length;
      const value = VALUE_AFTER_KEY.exec(json)?.[1];
      if (value !== undefined && value !== 'n' && value !== '"') return ResidencyRule.SECRET_KEY_NAME;
      const next = literals[i + 1];
      if (value === '"' && next && next.index === VALUE_AFTER_KEY.lastIndex - 1) {
        const v = literalText(next[0], isClosedLiteral(next[0]));
        if (v !== undefined && v !== '' && !isPlaceholderValue(v)) return ResidencyRule.SECRET_KEY_NAME;
      }
    }
    if (depth < 3 && s.includes('"')) {
      const inner = secretInCutJson(s, depth + 1);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** After a key: its colon and the first character of its value (`{` or `[` only when something follows but its close). */
const VALUE_AFTER_KEY = /\s*:\s*([^\s{[]|\{(?=\s*[^\s}])|\[(?=\s*[^\s\]]))/y;

/** A literal's text (one the cut left open, closed where the text ends, a cut escape dropped); undefined when it is not a JSON string. */
function literalText(literal: string, closed: boolean): string | undefined {
  try {
    const s: unknown = JSON.parse(closed ? literal : `${literal.replace(/(?<!\\)((?:\\\\)*)\\(?:u[0-9A-Fa-f]{0,3})?$/, '$1')}"`);
    return typeof s === 'string' ? s : undefined;
  } catch {
    return undefined;
  }
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
