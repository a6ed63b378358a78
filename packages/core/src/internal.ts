/**
 * Building blocks argspan's own packages share (instrumentation, hop, adapters, CLI, analyzer).
 * Not a public API: names here may change or go in any release. Users import `@argspan/core`.
 */
export { decideEnforcement } from './enforcement.js';
export type { EnforcementInput } from './enforcement.js';
export { ProvenanceIndex, contextText } from './provenance.js';
export { DEFAULT_GATE_POLICY, assumedValuesPhrase, resolvePolicy } from './gate.js';
export { flatten, formatPath } from './flatten.js';
export { binaryBytes, binaryText, bufferJsonBytes, typedArrayKind } from './binary.js';
export { parseKeyPath, shownName, splitCredentialKeys, splitCredentialKeysEndingLast, valuesScannedDetector } from './key-path-secrets.js';
export { redactedPrefix } from './secrets/redact.js';
export { secretInCutJson } from './residency.js';
export { stripToPublicSchema } from './json-schema.js';
export { isSecretKeyName, isPlaceholderValue } from './secret-key-names.js';
export { loadOrCreateHashKey, HashKeyError } from './hash-key-file.js';
export { makeDirectories, makeDirectoriesSync } from './make-directories.js';
export { readRegularFileSync } from './regular-file.js';
export { isProcessAlive } from './process-alive.js';
export { tempFileOwner, tempNameFor } from './temp-names.js';
export { checkPolicyFieldNames, parseRecordedCall, parsePolicyFields, RecordedCallError } from './recorded-call.js';
export type { RecordedCall } from './recorded-call.js';
export { escapedKeywordSpellings, PRIVATE_KEY_BEGIN, PRIVATE_KEY_END } from './secrets/index.js';
export { DEFAULT_IGNORABLE_RANGES, SPELLING_CALLS, decodeBase64Text, decodeHexText, decodeHiddenCharacters, spelledText } from './secrets/decoders.js';
export { snapshotArgs, snapshotFailureReason, ArgumentSnapshotError } from './snapshot.js';
export { classifySnapshot } from './classify.js';
export type { KeyedValueHasher } from './keyed-hash.js';
export { hashHex } from './keyed-hash.js';
export { redactedJson, withKeysShown } from './redacted-json.js';
export { isAsyncIterable } from './async-iterable.js';
