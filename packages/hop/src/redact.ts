import { isPlaceholderValue, isSecretKeyName, redactSecrets, redactionMarker } from '@argspan/core';
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
 * `key = value` / `key: value` (optionally quoted, as in JSON, YAML, .env or a sentence) and
 * `Bearer <token>`. Blunt on purpose, like the seed's redaction: what leaves the machine or lands
 * in the state directory loses every value given to a credential key, however short or plain.
 */
const ASSIGNMENT = /(["']?)([A-Za-z_][A-Za-z0-9_.-]*)\1(\s*[:=]\s*)(["']?)((?:bearer|basic|token|digest)\s+)?(\$\{[^}\s]*\}|[^\s"',;}\]]+)/gi;
const BEARER = /\b(bearer\s+)([A-Za-z0-9\-._~+/]+=*)/gi;
const REDACTED = '[REDACTED';

/** The rule id of values redacted because their key names a credential (the detector saw no shape). */
export const CREDENTIAL_ASSIGNMENT_RULE = 'credential-assignment';

/**
 * Redact text before it is written to the state directory or sent: whole private-key blocks,
 * every finding of the detector, then (bluntly) every value assigned to a credential key and every
 * bearer token. Markers name the rule. Stronger than the detector alone: on this path a redacted
 * non-secret costs little and a missed secret is gone.
 */
export function redactText(text: string, detector: SecretDetector): { text: string; ruleIds: string[] } {
  const blocks = text.includes('PRIVATE KEY') ? text.replace(PRIVATE_KEY_BLOCK, redactionMarker('private-key')) : text;
  const r = redactSecrets(blocks, detector);
  const ruleIds = new Set(blocks === text ? r.ruleIds : ['private-key', ...r.ruleIds]);
  const marker = redactionMarker(CREDENTIAL_ASSIGNMENT_RULE);
  const blunt = r.text
    .replace(ASSIGNMENT, (m, q: string, key: string, sep: string, vq: string, scheme: string | undefined, value: string) => {
      if (!isSecretKeyName(key) || value.startsWith(REDACTED) || isPlaceholderValue(value)) return m;
      ruleIds.add(CREDENTIAL_ASSIGNMENT_RULE);
      return `${q}${key}${q}${sep}${vq}${scheme ?? ''}${marker}`;
    })
    .replace(BEARER, (m, lead: string, token: string) => {
      if (token.startsWith(REDACTED) || m.includes(REDACTED)) return m;
      ruleIds.add(CREDENTIAL_ASSIGNMENT_RULE);
      return `${lead}${marker}`;
    });
  return { text: blunt, ruleIds: [...ruleIds] };
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
