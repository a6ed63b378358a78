import type { Enforcement, GateAction, Provenance, Residency, Verdict } from '@argspan/conventions';

/** Path segment of a flattened leaf: an object key or an array index. */
export type PathSegment = string | number;

/** What kind of value a leaf held before it was turned into text for classification. */
export type LeafKind =
  | 'string'
  | 'number'
  | 'boolean'
  | 'null'
  | 'bigint'
  | 'date'
  | 'binary'
  | 'undefined'
  | 'function'
  | 'symbol'
  | 'other';

/** One flattened argument leaf. */
export interface Leaf {
  /** Full dotted path: `attendee.email`, `files[2].path`, `headers["x-api-key"]`. */
  key: string;
  /** Last object key on the path (`email`, `path`); for an array element, the key of its array. */
  leaf: string;
  /** Path segments from the root. */
  path: PathSegment[];
  /** The value as text, as classification sees it (numbers in JS notation, dates ISO, buffers UTF-8). */
  text: string;
  kind: LeafKind;
  /** UTF-8 byte length of the full value (before any truncation of `text`). */
  bytes: number;
  /** True when `text` was cut at `maxStringLength`; classification saw only the prefix. */
  truncated: boolean;
}

/** Limits for flattening. Exceeding one is reported in {@link FlattenResult.limits}, never silent. */
export interface FlattenLimits {
  /** Deepest nesting followed; deeper subtrees become one summary leaf. @default 32 */
  maxDepth: number;
  /** Most leaves produced; the rest are counted in `droppedLeaves`. @default 100000 */
  maxLeaves: number;
  /** Longest string text kept per leaf (bytes still counts the whole value). @default 10485760 */
  maxStringLength: number;
}

/** A limit that flattening ran into. */
export type FlattenLimitHit = 'depth' | 'leaves' | 'string' | 'cycle' | 'non-json';

export interface FlattenResult {
  leaves: Leaf[];
  /** Object keys seen anywhere on the tree (full paths), so key names are inspected too. */
  limits: FlattenLimitHit[];
  /** Leaves not produced because `maxLeaves` was reached. */
  droppedLeaves: number;
  /** Total UTF-8 bytes of all leaf values (including dropped leaves where known). */
  bytes: number;
}

/** A secret detector finding. Carries the rule id, never the value. */
export interface SecretFinding {
  /** Stable rule id, e.g. `aws-access-key-id`, `private-key`. */
  ruleId: string;
  /** Offsets into the scanned text of the credential-shaped span (of the encoded form when it was decoded). */
  start: number;
  end: number;
}

/** The set of paths with uncommitted changes in a repository. */
export interface DirtySet {
  /** Absolute path of the repository root (work tree). */
  root: string;
  /** Repo-relative, `/`-separated paths that are modified, staged, untracked or renamed (both names). */
  paths: ReadonlySet<string>;
  /** Repo-relative prefixes of dirty directories (untracked directories, nested repositories), ending in `/`. */
  prefixes: readonly string[];
  /**
   * Trimmed lines added by uncommitted changes (from `git diff HEAD` and untracked files), so a
   * value that embeds a hunk is caught even when it does not name the path. Lines shorter than
   * {@link DIRTY_LINE_MIN_LENGTH} are left out: they are too common to be evidence.
   */
  lines: ReadonlySet<string>;
}

/** Proof that a bulky value is already committed (strict mode). */
export interface CommittedContent {
  /**
   * True when the value's git blob hash exists in HEAD: its exact bytes are already committed
   * (this covers "the clean committed content of a path it names" too).
   */
  hasBlob(text: string): boolean;
}

/** One earlier tool result that later calls may have copied values from. */
export interface ContextEntry {
  /** Call id of the tool call whose result this is (linked from the argument span). */
  callId?: string;
  /** The result, as text or any JSON value (its strings and numbers are tokenised). */
  content: unknown;
  /**
   * The residency of the result, when the call that produced it says so (see `resultResidency`):
   * `secret` or `dirty-tree` passes that label to every value copied from it. Any other label (or
   * none) means the result is judged by its own text: only values the secret detector finds in it
   * pass the `secret` label on. @default undefined
   */
  residency?: Residency;
}

/** A tool call to classify. */
export interface ToolCall {
  tool: string;
  args: unknown;
  /** Call id, when the framework gives one. */
  callId?: string;
}

/** What the agent knows at the time of the call, for provenance. */
export interface CallContext {
  /** The user's text for this turn (and earlier turns, if the agent keeps them). */
  userText?: string | readonly string[];
  /**
   * Whether the user's words can be seen at all. `false` where they cannot (a trace recorded
   * without its prompt, a proxy between a client and its tools): a value found nowhere else is then
   * `no_evidence` — maybe the user's, maybe a guess — not `model_inferred`, and the inferred-field
   * gate does not hold it. @default true
   */
  userTextAvailable?: boolean;
  /** Earlier tool results. */
  context?: readonly (ContextEntry | string)[];
  /** JSON-schema defaults by full path (`calendar.when`) or by leaf name (`timezone`). */
  schemaDefaults?: Readonly<Record<string, unknown>>;
  /** Paths or leaf names whose schema default is safe to accept when the model did not assert it. */
  safeDefaults?: readonly string[];
  /**
   * Top-level and nested keys the tool's public schema declares; on `remote-ok` every other key
   * is stripped from what is sent. Undefined means "no schema known": nothing is stripped.
   */
  publicSchemaKeys?: readonly string[];
}

/**
 * The one policy every entry point decides by: where calls may run (the verdict), which inferred
 * fields are held, and what the wrapper does with each verdict (enforcement). All fields have safe
 * defaults; see the core README's "Verdict and enforcement" tables.
 */
export interface GatePolicy {
  /** Tools that may make a remote hop at all; every other tool's remote hop is refused. @default [] */
  remoteAllowlist: readonly string[];
  /**
   * Tools whose execution itself leaves this machine (a hosted API, an MCP server on another
   * host). Such a tool runs only with public arguments and only when it is on the remote allowlist;
   * every other tool runs on this machine. @default []
   */
  remoteTools: readonly string[];
  /**
   * Residencies whose calls are never dispatched, even to a tool on this machine, because the
   * tool's result goes back to the model: with a hosted model, reading `.env` through a local
   * filesystem tool would send its secrets to the model. Use `[]` when the model runs on this
   * machine too; add `'dirty-tree'` when a remote model must not see uncommitted work.
   * @default ['secret']
   */
  denyResidencies: readonly Residency[];
  /** Leaf names (or full `tool.key` / dotted paths) on which a model-inferred value is held. @default DEFAULT_DENY_INFERRED */
  denyInferred: readonly string[];
  /** `ask` holds a call with an inferred denylisted field for one clarifying question; `block` denies it. @default 'ask' */
  inferredAction: 'ask' | 'block';
  /**
   * What the inferred-field gate does with a `no_evidence` value on a denylisted leaf: where the
   * user's words cannot be seen (`userTextAvailable: false`, as in `argspan mcp-proxy`), a value
   * found in no earlier tool result and no schema default may be the user's or a guess. `log`
   * records it and lets the call run; `ask` holds it for one clarifying question; `block` denies it.
   * @default 'log'
   */
  noEvidenceAction: 'ask' | 'block' | 'log';
  /** Characters at which a value with no other evidence counts as bulky. @default 8192 */
  bulkyThreshold: number;
  /**
   * Strict public mode: a bulky value is public only with proof it is committed; without proof it
   * is `unknown`, so it never goes remote. @default false
   */
  strictPublic: boolean;
  /**
   * Tools whose results are secret (a vault or secrets-manager tool): a value copied from one of
   * their results is `secret` in later calls (rule `inherited-secret`). A read of a secret file
   * (`.env`, a key file) or of an uncommitted file is recognised without being listed. @default []
   */
  secretSourceTools: readonly string[];
  /**
   * Residency follows the value: a value copied from the result of a secret or dirty-tree source
   * inherits that label (rules `inherited-secret`, `inherited-dirty-tree`; see the core README's
   * guards against false cascades). `false` labels every value by its own look only. @default true
   */
  inheritResidency: boolean;
}

/** Everything classification needs besides the call itself. All optional; defaults are safe. */
export interface ClassifyOptions extends Partial<GatePolicy> {
  limits?: Partial<FlattenLimits>;
  /** Dirty paths of the working tree (see `readDirtySet`, which gives undefined outside a repository). */
  dirty?: DirtySet | undefined;
  /** Proof of committed content, for strict public mode. */
  committed?: CommittedContent | undefined;
  /** Secret detector to use; the built-in one by default. */
  detector?: SecretDetector;
  /**
   * Whether the entry point has a remote hop configured (the instrumentation sets this from its
   * `remote` option): a `remote-ok` call is then enforced as `hop`, otherwise it runs here.
   * @default false
   */
  remoteHop?: boolean;
}

/** A secret detector: pure, stateless across calls, no network, no model. */
export interface SecretDetector {
  /** The first credential-shaped finding in `text`, or undefined. */
  find(text: string): SecretFinding | undefined;
  /** Every finding in `text` (for redaction). */
  findAll(text: string): SecretFinding[];
}

/** The classification of one leaf. */
export interface LeafClassification {
  key: string;
  leaf: string;
  residency: Residency;
  provenance: Provenance;
  /** Id of the secret/dirty/public rule that decided the residency; never the value. */
  rule: string;
  /**
   * For `context_retrieved`: the call id of the tool result that supplied the value (for an
   * inherited label, the secret or dirty-tree source it inherited from).
   */
  sourceCallId?: string;
  /** True when the leaf name (or path) is on the inferred denylist. */
  denylisted: boolean;
  bytes: number;
  /**
   * Positions in the leaf's path (`flat[i].path`) of object keys that are values, shown in `key`
   * and `leaf` as redaction markers: a key inside a credential slot, or copied from a secret
   * source. Whoever shows the arguments' keys hides these too. Absent when there are none.
   */
  hiddenKeys?: number[];
}

/** The row of the enforcement table that decided a call (see {@link EnforcementDecision.rule}). */
export type EnforcementRule = 'fail-closed' | 'deny-residency' | 'remote-tool' | 'inferred-field' | 'remote-ok' | 'local-tool';

/** What the wrapper does with a call, and why. */
export interface EnforcementDecision {
  /** `run` here, `hop` through the remote hop, `hold` for a question, or `deny`. Only run and hop reach the tool. */
  action: Enforcement;
  /**
   * The row of the enforcement table that decided: `fail-closed`, `deny-residency`, `remote-tool`
   * (a tool that runs off this machine), `inferred-field` (the inferred-field gate), `remote-ok`
   * (hopped), `local-tool` (ran here).
   */
  rule: EnforcementRule;
  /** Names the rule, residency, tool and keys that decided it, never a value. */
  reason: string;
}

/** The gate's decision about inferred fields. */
export interface GateOutcome {
  action: GateAction;
  /** `tool.key` of every denylisted leaf whose value the model inferred (or nobody can be shown to have given). */
  hits: string[];
  /**
   * The hits whose value is `no_evidence` (gated by `noEvidenceAction`), when there are any; the
   * other hits are model-inferred or unsafe schema defaults (gated by `inferredAction`).
   */
  noEvidenceHits?: string[];
  /** The one clarifying question when action is `ask`; names the field, never the value. */
  question?: string;
}

/** The full classification of a call. */
export interface CallClassification {
  tool: string;
  residency: Residency;
  verdict: Verdict;
  /** Why: names the rule (and key), never the value. */
  reason: string;
  gate: GateOutcome;
  /** What the wrapper does with the call under the policy (the same for every entry point). */
  enforcement: EnforcementDecision;
  leaves: LeafClassification[];
  /** Flattened leaves, index-aligned with `leaves` (values for keyed hashing; never export them raw). */
  flat: Leaf[];
  /** Flatten limits that were hit. */
  limits: FlattenLimitHit[];
  droppedLeaves: number;
  bytes: number;
  /** Keys stripped from a remote hop because the public schema does not declare them. */
  strippedKeys: string[];
  /** True when classification failed and the verdict is the fail-closed default. */
  failedClosed: boolean;
}
