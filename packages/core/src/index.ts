/**
 * @argspan/core — the classification core: flatten a tool call's arguments, label each leaf's
 * residency and provenance, gate the call and decide what is done with it. Pure logic, plus two
 * I/O edges a caller may want (the git dirty set, committed content).
 *
 * argspan's own packages also import `@argspan/core/internal`; that entry point is not a public
 * API and may change in any release.
 */
export { classifyCall } from './classify.js';
export type { ClassifyContext } from './classify.js';
export { ProvenanceIndex } from './provenance.js';
export { snapshotArgs, ArgumentSnapshotError } from './snapshot.js';
export { parsePolicyFields, RecordedCallError } from './recorded-call.js';
export { resultResidency, carriesTaint, MIN_TAINT_LENGTH, MIN_TAINT_ENTROPY, MIN_TAINT_DIGITS } from './taint.js';
export type { InheritedResidency } from './taint.js';
export { readDirtySet, loadCommittedContent } from './git-dirty-set.js';
export type { ReadDirtySetOptions } from './git-dirty-set.js';
export { publicKeysFromJsonSchema, defaultsFromJsonSchema } from './json-schema.js';
export { createSecretDetector, defaultSecretDetector, findInName, redactName, redactSecrets, redactionMarker, BUILTIN_RULES } from './secrets/index.js';
export { redactKeyPath } from './key-path-secrets.js';
export type { SecretRule, SecretDetectorConfig, SecretAllowlistEntry, RuleExamples } from './secrets/index.js';
export { createValueHasher } from './keyed-hash.js';
export type { ValueHasher } from './keyed-hash.js';
export type * from './types.js';
