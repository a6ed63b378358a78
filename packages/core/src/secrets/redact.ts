import type { SecretDetector } from '../types.js';
import { defaultSecretDetector } from './detector.js';

/** Replacement text for a redacted span: names the rule, never the value. */
export function redactionMarker(ruleId: string): string {
  return `[REDACTED:${ruleId}]`;
}

/** Replace every credential-shaped span in `text` with a marker naming its rule. */
export function redactSecrets(
  text: string,
  detector: SecretDetector = defaultSecretDetector,
): { text: string; ruleIds: string[] } {
  const findings = detector.findAll(text);
  if (findings.length === 0) return { text, ruleIds: [] };
  let out = '';
  let at = 0;
  const ruleIds: string[] = [];
  for (const f of findings) {
    if (f.start < at) continue; // overlapping findings: the first one already covers this span
    out += text.slice(at, f.start) + redactionMarker(f.ruleId);
    at = f.end;
    ruleIds.push(f.ruleId);
  }
  return { text: out + text.slice(at), ruleIds: [...new Set(ruleIds)] };
}
