import { describe, expect, it } from 'vitest';
import type { SecretDetector } from '../types.js';
import { BUILTIN_RULES } from './builtin-rules.js';
import { defaultSecretDetector } from './detector.js';
import { findInName, redactName, redactSecrets, redactionMarker } from './redact.js';
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

  it('finds nothing in what it wrote: a marker names a rule, not a key, whatever follows it', () => {
    // what follows a redacted token (`<token>=<uuid>`), in the shapes keyed rules read after their key
    const after = ['0123456789abcdef0123456789abcdef', 'a3f1c2d4-5b6e-4f70-8a9b-0c1d2e3f4a5b', sample(ALNUM, 32, 'after-marker'), '83745620193847561029', '"Zq8(vL2mX9kR4"'];
    const found: string[] = [];
    for (const rule of BUILTIN_RULES) {
      for (const value of after) {
        for (const sep of ['=', ': ', ' = ', '="']) {
          const text = `${redactionMarker(rule.id)}${sep}${value}`;
          if (defaultSecretDetector.find(text)) found.push(text);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('leaves clean text alone', () => {
    expect(redactSecrets('nothing to see')).toEqual({ text: 'nothing to see', ruleIds: [] });
  });
});

describe('redactName: a credential glued into a name', () => {
  const AWS = 'AKIACANARYQ2345672XB';
  const SLACK = `xoxb-${'81726354'.repeat(2).slice(0, 12)}-${'4938271605'.repeat(2).slice(0, 13)}-${sample(ALNUM, 24, 'name-slack')}`;
  const GOOGLE = `AIza${sample(ALNUM, 35, 'name-google')}`;
  it.each([
    [`deploy_${CANARY}`, 'deploy_[REDACTED:github-pat]'],
    [`tool${CANARY}`, 'tool[REDACTED:github-pat]'],
    [`run${AWS}`, 'run[REDACTED:aws-access-key-id]'],
    [`nested.key_${AWS}`, 'nested.key_[REDACTED:aws-access-key-id]'],
    [`call_${CANARY}_v2`, 'call_[REDACTED:github-pat]_v2'],
    [`run-${AWS}.json`, 'run-[REDACTED:aws-access-key-id].json'],
    [`a_${CANARY}_b_${AWS}`, 'a_[REDACTED:github-pat]_b_[REDACTED:aws-access-key-id]'],
    [`Tool deploy_${CANARY} was called`, 'Tool deploy_[REDACTED:github-pat] was called'],
    [CANARY, '[REDACTED:github-pat]'],
    // glued on the right at the name's start, and on both sides
    [`${CANARY}_v2`, '[REDACTED:github-pat]_v2'],
    [`${AWS}_prod`, '[REDACTED:aws-access-key-id]_prod'],
    // (a word glued with no separator after a token of capitals: where the word starts)
    [`${AWS}prod`, '[REDACTED:aws-access-key-id]prod'],
    [`key_${AWS}Prod`, 'key_[REDACTED:aws-access-key-id]Prod'],
    [`${SLACK}_old`, '[REDACTED:slack-token]_old'],
    [`deploy_${CANARY}_v2`, 'deploy_[REDACTED:github-pat]_v2'],
    [`${AWS}_${CANARY}_x`, '[REDACTED:aws-access-key-id]_[REDACTED:github-pat]_x'],
    // (a body that may hold `_`, which text leaves unfound glued: a name's parts are cut at their separators)
    [`${GOOGLE}_v2`, '[REDACTED:google-api-key]_v2'],
    [`${GOOGLE}_v2.json`, '[REDACTED:google-api-key]_v2.json'],
  ])('%s', (name, shown) => {
    // The detector alone refuses a token glued to a word before it (part of something longer in text).
    if (/[\w]$/.test(name.slice(0, shown.indexOf('[')))) expect(redactSecrets(name).text).not.toBe(shown);
    expect(redactName(name)).toBe(shown);
    expect(findInName(name)?.ruleId).toBe(shown.match(/REDACTED:([^\]]+)/)![1]);
  });

  it('leaves names that hold no credential as they are', () => {
    for (const name of [
      'api_key', 'password_hash', 'user_session_token_id', 'skip_tokens', 'calendar.create', 'x-api-key', 'github_token_ref', 'AKIA_prefix_docs', `sha_${'a'.repeat(40)}`,
      // a token prefix at the name's start, then words
      'ghp_helper', 'ghp_helper_v2', 'akia_config', 'AKIA_prefix_docs_v2', 'xoxb_token_name', 'sk_live_mode_enabled', 'npm_config_cache_dir', 'glpat_rotation_policy_v2', 'ASIAPACIFICSOUTHEAST_2', 'region_ASIAPACIFICNORTHEAST',
      // a token marked as a documentation example by the word after it
      `sk_test_${sample(ALNUM, 24, 'name-example')}_EXAMPLE`, `${`ghp_${sample(ALNUM, 36, 'name-fake')}`}_fake`, `deploy_${`ghp_${sample(ALNUM, 36, 'name-fake')}`}_placeholder`,
    ]) {
      expect(findInName(name), name).toBeUndefined();
      expect(redactName(name)).toBe(name);
    }
  });

  it('uses the given detector: a detector without the rule finds nothing glued', () => {
    const none: SecretDetector = { find: () => undefined, findAll: () => [] };
    expect(findInName(`deploy_${CANARY}`, none)).toBeUndefined();
  });
});
