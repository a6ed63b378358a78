import { redactSecrets } from '@argspan/core';
import type { Leaf, LeafClassification, SecretDetector } from '@argspan/core';

/** Hard ceiling on an excerpt's length in characters. */
export const MAX_EXCERPT_CHARS = 80;
/** Values longer than this get no excerpt: redaction must see the whole value, and that has a cost. */
export const MAX_EXCERPTABLE_CHARS = 65_536;

/**
 * The excerpt of one leaf for `argspan.arg.excerpt`, or undefined when it must not have one.
 * Never on a `secret` or `dirty-tree` leaf, never on a value classification saw only a prefix of,
 * and always redacted over the whole value before it is cut (so a credential that starts inside
 * the window cannot leak even a few characters).
 */
export function leafExcerpt(
  label: LeafClassification,
  leaf: Leaf,
  maxChars: number = MAX_EXCERPT_CHARS,
  detector?: SecretDetector,
): string | undefined {
  if (label.residency === 'secret' || label.residency === 'dirty-tree') return undefined;
  if (leaf.truncated || leaf.text.length > MAX_EXCERPTABLE_CHARS) return undefined;
  const limit = Math.max(0, Math.min(Math.floor(maxChars), MAX_EXCERPT_CHARS));
  if (limit === 0) return undefined;
  const { text } = redactSecrets(leaf.text, detector);
  return cut(text, limit);
}

/** Cut to at most `limit` UTF-16 units without splitting a surrogate pair. */
function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const code = text.charCodeAt(limit - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
  return text.slice(0, end);
}
