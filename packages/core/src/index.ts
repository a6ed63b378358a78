/**
 * @argspan/core — the classification core. Pure logic (flatten, residency, provenance, gate,
 * secret detection) plus two small I/O edges (the git dirty set and the local hash key).
 */
export { createSecretDetector, defaultSecretDetector, redactSecrets, redactionMarker, BUILTIN_RULES, SCAN_FAILED_RULE_ID } from './secrets/index.js';
export type { SecretRule, SecretDetectorConfig, SecretAllowlistEntry, RuleExamples } from './secrets/index.js';
export { createValueHasher, loadOrCreateHashKey, HASH_KEY_FILE } from './keyed-hash.js';
export type { ValueHasher } from './keyed-hash.js';
export type * from './types.js';
