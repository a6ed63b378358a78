export { createSecretDetector, defaultSecretDetector, escapedKeywordSpellings, SCAN_FAILED_RULE_ID } from './detector.js';
export { findInName, redactName, redactSecrets, redactionMarker } from './redact.js';
export { BUILTIN_RULES } from './builtin-rules.js';
export type { SecretRule, SecretDetectorConfig, SecretAllowlistEntry, RuleExamples } from './types.js';
export { PRIVATE_KEY_BEGIN, PRIVATE_KEY_END } from './rules/keys.js';
