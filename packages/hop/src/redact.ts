import { redactSecrets, redactionMarker } from '@argspan/core';
import type { SecretDetector } from '@argspan/core';
import { HopStateError } from './errors.js';

/**
 * A whole PEM / OpenSSH private key: header, base64 body and footer. The core detector flags the
 * header line; the body must go too before anything is written. Without a footer the block runs
 * to the next `"` (the end of a JSON string) or the end of the text.
 */
const PRIVATE_KEY_BLOCK =
  /-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----[^"]*?(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|(?="|$))/g;

/**
 * Redact text before it is written to the state directory or sent: the seed's block pattern
 * (whole private keys) first, then every finding of the detector. Markers name the rule.
 */
export function redactText(text: string, detector: SecretDetector): { text: string; ruleIds: string[] } {
  const blocks = text.includes('PRIVATE KEY') ? text.replace(PRIVATE_KEY_BLOCK, redactionMarker('private-key')) : text;
  const r = redactSecrets(blocks, detector);
  return blocks === text ? r : { text: r.text, ruleIds: [...new Set(['private-key', ...r.ruleIds])] };
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
