/**
 * @argspan/core — the classification core. Pure logic (flatten, residency, provenance, gate,
 * secret detection) plus small I/O edges kept in their own files (the git dirty set and committed
 * content, the local hash key).
 */
export { classifyCall } from './classify.js';
export type { ClassifyContext } from './classify.js';
export { flatten, formatPath, leafName, DEFAULT_FLATTEN_LIMITS } from './flatten.js';
export { labelResidency } from './residency.js';
export type { ResidencyEnv, ResidencyLabel } from './residency.js';
export { ProvenanceIndex, tagProvenance, tokenize, contextText, MIN_MATCH_LENGTH } from './provenance.js';
export type { ProvenanceTag } from './provenance.js';
export {
  DEFAULT_GATE_POLICY,
  resolvePolicy,
  decideVerdict,
  decideInferred,
  clarifyingQuestion,
  isDenylisted,
  denylistMatcher,
  strongestResidency,
} from './gate.js';
export { decideEnforcement } from './enforcement.js';
export type { EnforcementInput } from './enforcement.js';
export { stripToPublicSchema, publicKeysFromJsonSchema, defaultsFromJsonSchema } from './json-schema.js';
export { isSecretKeyName, isPlaceholderValue } from './secret-key-names.js';
export { isSecretFileName, namesSecretFile } from './secret-file-names.js';
export { matchDirty, DIRTY_LINE_MIN_LENGTH } from './dirty-match.js';
export {
  readDirtySet,
  parsePorcelainZ,
  writeDirtyPrefixes,
  readDirtyPrefixes,
  loadCommittedContent,
  gitBlobId,
  gitRoot,
  DIRTY_PREFIXES_FILE,
} from './git-dirty-set.js';
export type { ReadDirtySetOptions } from './git-dirty-set.js';
export { createSecretDetector, defaultSecretDetector, redactSecrets, redactionMarker, BUILTIN_RULES, SCAN_FAILED_RULE_ID } from './secrets/index.js';
export type { SecretRule, SecretDetectorConfig, SecretAllowlistEntry, RuleExamples } from './secrets/index.js';
export { createValueHasher } from './keyed-hash.js';
export { loadOrCreateHashKey, HashKeyError, HASH_KEY_FILE } from './hash-key-file.js';
export { makeDirectories, makeDirectoriesSync } from './make-directories.js';
export type { ValueHasher } from './keyed-hash.js';
export type * from './types.js';
export { parseRecordedCall, parsePolicyFields, RecordedCallError } from './recorded-call.js';
export type { RecordedCall } from './recorded-call.js';
export { snapshotArgs, ArgumentSnapshotError, DEFAULT_SNAPSHOT_LIMITS } from './snapshot.js';
export type { SnapshotLimits } from './snapshot.js';
