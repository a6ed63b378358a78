import { redactSecrets } from '@argspan/core';
import type { SecretDetector } from '@argspan/core';
import { HopStateError } from './errors.js';

/** Redact text before it is written to the state directory or sent. */
export function redactText(text: string, detector: SecretDetector): { text: string; ruleIds: string[] } {
  return redactSecrets(text, detector);
}

/**
 * Last line of defence before a write: if anything credential-shaped is still in the encoded
 * record (a flag name, a run id), refuse to write it. Names the rule, never the value.
 */
export function assertNoSecrets(encoded: string, detector: SecretDetector, what: string): void {
  const finding = detector.find(encoded);
  if (finding) {
    throw new HopStateError(`refusing to write ${what}: it still holds a value matching secret rule ${finding.ruleId}`);
  }
}
