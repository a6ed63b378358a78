import type { SecretDetector } from '../types.js';
import { defaultSecretDetector } from './detector.js';

/** Replacement text for a redacted span: names the rule, never the value. */
export function redactionMarker(ruleId: string): string {
  return `[REDACTED:${ruleId}]`;
}

/**
 * Replace every credential-shaped span in `text` with a marker naming its rule. Overlapping
 * findings are merged into one replaced span (named for the first), so no tail of a longer
 * finding survives.
 */
export function redactSecrets(
  text: string,
  detector: SecretDetector = defaultSecretDetector,
): { text: string; ruleIds: string[] } {
  const findings = [...detector.findAll(text)].sort((a, b) => a.start - b.start || b.end - a.end);
  if (findings.length === 0) return { text, ruleIds: [] };
  let out = '';
  let at = 0;
  const ruleIds: string[] = [];
  for (let i = 0; i < findings.length; ) {
    const first = findings[i]!;
    let end = first.end;
    ruleIds.push(first.ruleId);
    for (i++; i < findings.length && findings[i]!.start < end; i++) {
      end = Math.max(end, findings[i]!.end);
      ruleIds.push(findings[i]!.ruleId);
    }
    out += text.slice(at, first.start) + redactionMarker(first.ruleId);
    at = end;
  }
  return { text: out + text.slice(at), ruleIds: [...new Set(ruleIds)] };
}
