import type { SecretDetector, SecretFinding } from '../types.js';
import { BUILTIN_RULES } from './builtin-rules.js';
import type { SecretDetectorConfig, SecretRule } from './types.js';

/** Build a detector from the built-in rules plus the user's. Pure and stateless across calls. */
export function createSecretDetector(config: SecretDetectorConfig = {}): SecretDetector {
  const rules = [...BUILTIN_RULES, ...(config.rules ?? [])];
  const seen = new Set<string>();
  for (const rule of rules) {
    if (seen.has(rule.id)) throw new Error(`duplicate secret rule id "${rule.id}"`);
    if (!rule.pattern.global) throw new Error(`secret rule "${rule.id}": pattern must have the g flag`);
    seen.add(rule.id);
  }
  const allowlist = config.allowlist ?? [];

  const scan = (text: string, firstOnly: boolean): SecretFinding[] => {
    const findings: SecretFinding[] = [];
    for (const rule of rules) {
      if (!mayMatch(rule, text)) continue;
      const re = new RegExp(rule.pattern.source, rule.pattern.flags);
      for (const m of text.matchAll(re)) {
        if (allowlist.some((a) => a.test(m[0]))) continue;
        findings.push({ ruleId: rule.id, start: m.index, end: m.index + m[0].length });
        if (firstOnly) return findings;
      }
    }
    return findings;
  };

  return {
    find: (text) => scan(text, true)[0],
    findAll: (text) => scan(text, false).sort((a, b) => a.start - b.start),
  };
}

function mayMatch(rule: SecretRule, text: string): boolean {
  return rule.keywords.length === 0 || rule.keywords.some((k) => text.includes(k));
}

/** The default detector (built-in rules only). */
export const defaultSecretDetector: SecretDetector = createSecretDetector();
