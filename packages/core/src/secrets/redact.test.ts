import { describe, expect, it } from 'vitest';
import type { SecretDetector } from '../types.js';
import { BUILTIN_RULES } from './builtin-rules.js';
import { defaultSecretDetector } from './detector.js';
import { redactSecrets, redactionMarker } from './redact.js';
import { ALNUM, sample } from './rules/sample.js';

const CANARY = `ghp_${sample(ALNUM, 36, 'canary')}`;

describe('redactSecrets', () => {
  it('never leaves a detected value behind: every rule example, redacted, loses its secret span', () => {
    for (const rule of BUILTIN_RULES) {
      for (const text of rule.examples?.truePositives ?? []) {
        const spans = defaultSecretDetector.findAll(text).map((f) => text.slice(f.start, f.end));
        const red = redactSecrets(text).text;
        expect(red, rule.id).toContain('[REDACTED:');
        for (const s of spans) if (s.length >= 8) expect(red, rule.id).not.toContain(s);
      }
    }
  });

  it('removes the canary in every carrier form, encoded ones included', () => {
    const b64 = Buffer.from(`TOKEN=${CANARY}`).toString('base64');
    const forms = [
      CANARY,
      `export GITHUB_TOKEN=${CANARY}`,
      `{"auth":{"token":"${CANARY}"}}`,
      JSON.stringify(JSON.stringify({ token: CANARY })),
      `data:\n  token: ${b64}\n`,
      `https://x.test/?t=${encodeURIComponent(`token=${CANARY}`)}`,
      `curl -H "Authorization: Bearer ${CANARY}" https://api.test`,
      `+GITHUB_TOKEN=${CANARY}`,
    ];
    for (const text of forms) {
      const { text: red, ruleIds } = redactSecrets(text);
      expect(red, text).not.toContain(CANARY);
      expect(red, text).not.toContain(CANARY.slice(4, 20));
      expect(red).not.toContain(b64);
      expect(ruleIds.length).toBeGreaterThan(0);
    }
  });

  it('merges overlapping findings so no tail of the longer one survives', () => {
    const overlapping: SecretDetector = {
      find: () => undefined,
      findAll: () => [
        { ruleId: 'a', start: 2, end: 6 },
        { ruleId: 'b', start: 4, end: 10 },
        { ruleId: 'c', start: 12, end: 14 },
      ],
    };
    expect(redactSecrets('0123456789ABCDEF', overlapping)).toEqual({
      text: `01${redactionMarker('a')}AB${redactionMarker('c')}EF`,
      ruleIds: ['a', 'b', 'c'],
    });
  });

  it('leaves clean text alone', () => {
    expect(redactSecrets('nothing to see')).toEqual({ text: 'nothing to see', ruleIds: [] });
  });
});
