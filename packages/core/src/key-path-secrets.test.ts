import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPath } from './flatten.js';
import { parseKeyPath, redactKeyPath, splitCredentialKeys, valuesScannedDetector } from './key-path-secrets.js';
import { classifyCall } from './classify.js';
import { defaultSecretDetector } from './secrets/index.js';

const GITHUB = 'ghp_Qz8Lm2Xv7Rk4Tn9Wb3Yc6Hd1Jf5Gs0Pa2Ke4';
const AWS = 'AKIACANARYQ2345672XB';
const URL_PASSWORD = 'postgres://u:Canary-Pass-123@h/db';

describe('credentials split across nested keys', () => {
  it.each([
    ['two keys', [GITHUB.slice(0, 20), GITHUB.slice(20)], [0, 1]],
    ['an index between them', [AWS.slice(0, 10), 0, AWS.slice(10)], [0, 2]],
    // (the URL's scheme is not part of its credential: `postgres:/` stays shown)
    ['three keys, after a field name', ['targets', URL_PASSWORD.slice(0, 10), URL_PASSWORD.slice(10, 20), URL_PASSWORD.slice(20)], [2, 3]],
    ['glued to the keys around it', ['sync', `x_${GITHUB.slice(0, 12)}`, `${GITHUB.slice(12)}_v2`], [1, 2]],
  ] as const)('are found across %s, hiding every key they overlap', (_, path, hidden) => {
    expect(splitCredentialKeys(path)?.map((h) => h.at)).toEqual(hidden);
  });

  it('leave alone a credential inside one key (its own redaction shows the rest of the key) and keys that hold none', () => {
    expect(splitCredentialKeys(['deploy', `key_${GITHUB}`])).toBeUndefined();
    expect(splitCredentialKeys(['attendee', 'email'])).toBeUndefined();
    expect(splitCredentialKeys([GITHUB])).toBeUndefined();
  });

  it('are shown redacted by redactKeyPath, in a key path as formatPath writes it', () => {
    const path = ['targets', URL_PASSWORD.slice(0, 16), 2, URL_PASSWORD.slice(16)];
    expect(redactKeyPath(formatPath(path))).toBe('targets["[REDACTED:url-password]"][2]["[REDACTED:url-password]"]');
    expect(redactKeyPath(`nested.key_${AWS}`)).toBe('nested.key_[REDACTED:aws-access-key-id]');
    expect(redactKeyPath('attendee.email')).toBe('attendee.email');
    // (not a key path: redacted as a name)
    expect(redactKeyPath(`[[${GITHUB}`)).toBe('[[[REDACTED:github-pat]');
  });

  it('make the leaf secret by every detector a call is classified with, its keys hidden, the values judged or not', () => {
    const args = { title: 'rotate', [GITHUB.slice(0, 20)]: { [GITHUB.slice(20)]: 1 } };
    for (const detector of [defaultSecretDetector, valuesScannedDetector(defaultSecretDetector)]) {
      const c = classifyCall({ tool: 'vault.put', args }, {}, { detector });
      const leaf = c.leaves.find((l) => l.key !== 'title')!;
      expect(leaf).toMatchObject({ key: '["[REDACTED:github-pat]"]["[REDACTED:github-pat]"]', leaf: '[REDACTED:github-pat]', residency: 'secret', hiddenKeys: [0, 1] });
      // (all but `flat`, the leaves as flattened: the raw input, which is never printed)
      expect(JSON.stringify({ ...c, flat: undefined })).not.toContain(GITHUB.slice(20));
    }
  });
});

describe('parseKeyPath', () => {
  it('reads back every path formatPath writes', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.nat(), fc.constantFrom('a', 'b_c', '$x', 'x-y', '1a', '', '"', '\\', ']', '["'))), (path) => {
        expect(parseKeyPath(formatPath(path))).toEqual(path);
      }),
    );
  });

  it.each(['', 'a..b', '.a', 'a[', 'a["b]', 'a[x]', 'a[-1]', 'a b'])('is undefined for %j, which formatPath never writes', (key) => {
    expect(parseKeyPath(key)).toBeUndefined();
  });
});
