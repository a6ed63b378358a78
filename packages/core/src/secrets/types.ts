import type { SecretFinding } from '../types.js';

/** A credential rule. One rule, one id; the id (never the value) is what spans carry. */
export interface SecretRule {
  /** Stable kebab-case id, e.g. `aws-access-key-id`. */
  id: string;
  description: string;
  /**
   * Cheap literal pre-filter: the rule runs only if one of these occurs in the text
   * (case-sensitive). Empty means the rule always runs.
   */
  keywords: readonly string[];
  /** Linear-time pattern; must be global (`g`). */
  pattern: RegExp;
}

export interface SecretDetectorConfig {
  /** Extra rules, added to the built-in ones. Ids must not collide. */
  rules?: readonly SecretRule[];
  /** Regexes of values that are never secrets (documentation examples, test fixtures). */
  allowlist?: readonly RegExp[];
}

export type { SecretFinding };
