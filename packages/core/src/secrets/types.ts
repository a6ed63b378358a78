import type { SecretFinding } from '../types.js';

/** A rule's own labelled examples, checked by the rule test (gitleaks validates rules the same way). */
export interface RuleExamples {
  /** Texts in which this rule must report a finding. */
  truePositives: readonly string[];
  /** Texts in which this rule must report nothing. */
  falsePositives: readonly string[];
}

/** A credential rule. One rule, one id; the id (never the value) is what spans carry. */
export interface SecretRule {
  /** Stable kebab-case id, e.g. `aws-access-key-id`. */
  id: string;
  description: string;
  /**
   * Cheap literal pre-filter: the rule runs only if one of these occurs in the text. Matched
   * case-insensitively in one combined pass (Aho-Corasick) over the text. Empty means the rule
   * always runs (over the whole text), unless it has `decodedPrefix` or `keyNames`.
   */
  keywords: readonly string[];
  /**
   * For a credential with no keyword that begins with base64 of something recognisable (a
   * Discord bot token begins with its bot's numeric id in base64): the rule is tried, anchored,
   * at the start of every base64 run whose decoded text this matches, and nowhere else.
   */
  decodedPrefix?: RegExp;
  /**
   * For a credential with no prefix of its own, recognised by the key it is assigned to
   * (`HEROKU_API_KEY=<uuid>`): provider names (`heroku`, `dd`, `x-aio`; case, `_`, `-` and `.`
   * between words do not matter). The rule has no keywords: where a key holding a credential
   * word (`key`, `token`, `secret`, `pass`, `auth`, …) has one of these names at the start of a
   * word before that credential word, the rule is tried, anchored at the name. The pattern starts
   * with the name.
   */
  keyNames?: readonly string[];
  /**
   * For a rule without keywords, or whose keywords are too short to pre-filter text with: a
   * regular-expression source that every match contains, in the syntax JavaScript and RE2 share
   * (no lookaround, no backreference). Pre-filters outside the detector use it instead of the
   * keywords, such as the analyzer's DuckDB re-scan.
   */
  prefilter?: string;
  /**
   * Linear-time pattern; must be global (`g`). Never nest unbounded quantifiers, and start every
   * unbounded run with a left-boundary assertion so a match cannot start inside the run.
   */
  pattern: RegExp;
  /**
   * When true, `pattern` starts with one of the keywords and is tried only at keyword hits
   * (sticky), never over the whole text. The fast path; every built-in rule uses it.
   * @default false
   */
  anchored?: boolean;
  /**
   * For an anchored rule whose keywords begin a token: each match starts with a keyword at the
   * start of a run of 16 or more base64 or URL-safe characters (`[A-Za-z0-9+/_-]`), or after up
   * to five of `+ / _ -` that begin the run (`https://ghp_…`), or after the letter of an escape
   * glued to it (`\nghp_…`, `\u000aghp_…`). The scan then looks for the keywords only there, not
   * in its first filter, whose tables pass more ordinary text with every prefix they hold. A
   * keyword another rule uses without this flag is looked for everywhere. Keywords must be made
   * of those characters.
   * @default false
   */
  tokenPrefix?: boolean;
  /**
   * Keywords of a `tokenPrefix` rule that the first filter looks for everywhere, as it does the
   * keywords of other rules: spellings of the prefix long enough to be rare in text (`sk-proj-`,
   * `ABSKQmVkcm9ja0FQSUtleS`, the base64 of `BedrockAPIKey-` after `ABSK`), or short ones whose
   * first characters the Teddy tables pass seldom (`ATBB`), so that a token glued to a word
   * (`tokenATBB…`), which no run begins with, is tried; only its rule's `proof` lets such a match
   * count. Each must be one of `keywords`.
   */
  keywordsAnywhere?: readonly string[];
  /**
   * An anchored rule whose pattern starts with its keywords in exactly the case written: hits in
   * another case (the `sk` of `task` for Twilio's `SK…`) are skipped before the pattern runs.
   * The scan itself stays case-insensitive; this only saves the tries.
   * @default false
   */
  keywordsMatchCase?: boolean;
  /**
   * Named capture group holding the credential itself. Its span is the finding (and what
   * redaction replaces); entropy, placeholder and allowlist checks look at it. A pattern that
   * reads the value in alternatives names the others `<group>2` to `<group>5`: the first that
   * matched holds it.
   * @default the whole match
   */
  secretGroup?: string;
  /**
   * Minimum Shannon entropy (bits per character) of the secret.
   * @default 0 (no check)
   */
  minEntropy?: number;
  /**
   * Generic rules (keyword assignments, headers) yield to specific provider rules: a generic
   * finding overlapping a specific one is dropped. Those of the `generic` family (an assignment to
   * any credential word) also yield to the other generic rules, which read a particular form.
   * @default false
   */
  generic?: boolean;
  /**
   * Skip the shared placeholder / documentation-example filter (`${X}`, `xxxx`, `EXAMPLE`, ...).
   * @default false
   */
  allowPlaceholders?: boolean;
  /** Extra check on the secret value; return false to drop the match. Must be pure. */
  validate?: (secret: string, match: RegExpExecArray) => boolean;
  /**
   * A structural proof built into the format (a CRC32 checksum, an embedded base64 JSON
   * document): when it holds, the finding is kept without the entropy and placeholder checks (a
   * checksum-valid token that happens to spell `fake` is a token); when it fails, those checks
   * decide as for any other rule, so a format whose checksum is only assumed loses nothing.
   * Must be pure; a throwing proof counts as not holding.
   */
  proof?: (secret: string) => boolean;
  /** Rule family for reports (`github`, `aws`, `generic`, ...). @default the id */
  family?: string;
  /** Labelled examples, validated by the rule test. */
  examples?: RuleExamples;
}

/** One allowlist entry. Every field given must hold for the entry to suppress a finding. */
export interface SecretAllowlistEntry {
  /** Why this is allowed (for reviewers). */
  description?: string;
  /** Only findings of these rule ids. @default every rule */
  ruleIds?: readonly string[];
  /** Suppress when this matches the secret value (or the whole rule match). */
  regex?: RegExp;
  /**
   * Suppress exactly these values, given as lowercase hex SHA-256 of the secret value
   * (`printf %s "$VALUE" | sha256sum`), so the allowlist itself holds no secret.
   */
  valueSha256?: readonly string[];
}

export interface SecretDetectorConfig {
  /** Extra rules, added to the built-in ones. Ids must not collide. */
  rules?: readonly SecretRule[];
  /**
   * Values that are never secrets (documentation examples, test fixtures). A bare RegExp is
   * tested against the secret value and the whole rule match, for every rule.
   */
  allowlist?: readonly (RegExp | SecretAllowlistEntry)[];
  /**
   * Built-in rule ids to switch off.
   * @default []
   */
  disabledRules?: readonly string[];
  /**
   * Include the built-in rules.
   * @default true
   */
  builtinRules?: boolean;
  /**
   * How many nested encodings (base64, URL-encoding, JSON string escapes) are decoded.
   * 0 disables decoding.
   * @default 3
   */
  maxDecodeDepth?: number;
  /**
   * Upper bound on decoded characters produced per call (all layers together). Encoded
   * regions beyond it are not decoded.
   * @default 8 * 1024 * 1024
   */
  maxDecodedChars?: number;
}

export type { SecretFinding };
