/** Label and enum values shared by the instrumentation, the CLI and the analyzer. */

/** Residency labels, strongest first. Exactly one per leaf; a call carries the strongest. */
export const RESIDENCY_ORDER = ['secret', 'dirty-tree', 'bulky-public', 'tiny-public', 'unknown'] as const;
export type Residency = (typeof RESIDENCY_ORDER)[number];
export const Residency = {
  SECRET: 'secret',
  DIRTY_TREE: 'dirty-tree',
  BULKY_PUBLIC: 'bulky-public',
  TINY_PUBLIC: 'tiny-public',
  UNKNOWN: 'unknown',
} as const satisfies Record<string, Residency>;

/**
 * Strength for "strongest label wins" on a call. `unknown` ranks between the risky labels and
 * the public ones so that one unknown leaf is never outvoted by public leaves: unknown never means yes.
 */
export const RESIDENCY_STRENGTH: Readonly<Record<Residency, number>> = {
  secret: 5,
  'dirty-tree': 4,
  unknown: 3,
  'bulky-public': 2,
  'tiny-public': 1,
};

/** Provenance labels, in the order they are checked (after schema defaults). */
export const PROVENANCE_VALUES = ['user_explicit', 'context_retrieved', 'schema_default', 'model_inferred'] as const;
export type Provenance = (typeof PROVENANCE_VALUES)[number];
export const Provenance = {
  USER_EXPLICIT: 'user_explicit',
  CONTEXT_RETRIEVED: 'context_retrieved',
  SCHEMA_DEFAULT: 'schema_default',
  MODEL_INFERRED: 'model_inferred',
} as const satisfies Record<string, Provenance>;

/** Where a call may run. */
export const VERDICT_VALUES = ['local', 'remote-ok', 'refuse'] as const;
export type Verdict = (typeof VERDICT_VALUES)[number];
export const Verdict = {
  LOCAL: 'local',
  REMOTE_OK: 'remote-ok',
  REFUSE: 'refuse',
} as const satisfies Record<string, Verdict>;

/** What the inferred-field gate does with the call. */
export const GATE_ACTION_VALUES = ['allow', 'block', 'ask'] as const;
export type GateAction = (typeof GATE_ACTION_VALUES)[number];
export const GateAction = {
  ALLOW: 'allow',
  BLOCK: 'block',
  ASK: 'ask',
} as const satisfies Record<string, GateAction>;

/** `gen_ai.operation.name` of a tool-call span. */
export const OPERATION_EXECUTE_TOOL = 'execute_tool';

/** Hop protocol decisions (seed 001 `decide`). */
export const HOP_DECISION_VALUES = ['local', 'remote', 'queue', 'wait'] as const;
export type HopDecision = (typeof HOP_DECISION_VALUES)[number];

/** Default leaf names on which a model-inferred value is blocked or asked about (seed 002). */
export const DEFAULT_DENY_INFERRED: readonly string[] = [
  'timezone',
  'account_id',
  'price',
  'currency',
  'email',
  'to',
  'recipient',
];
