import { describe, expect, it } from 'vitest';
import { defaultSecretDetector } from '../detector.js';
import { ASSIGNMENT_FORMS, keyIn } from './assignment-forms.js';
import { ALNUM, sample } from './sample.js';

const overlaps = (text: string, value: string) => {
  const at = text.indexOf(value);
  return defaultSecretDetector.findAll(text).some((f) => f.start < at + value.length && at < f.end);
};

describe('the generic rule in every assignment form', () => {
  const words = [['db', 'password'], ['client', 'secret'], ['api', 'key'], ['access', 'token']];
  for (const form of ASSIGNMENT_FORMS) {
    it(form.lang, () => {
      for (const [i, w] of words.entries()) {
        const value = `${sample(ALNUM, 18, `${form.lang}${i}`)}7q`;
        const text = form.write(keyIn[form.style](w), value);
        expect(overlaps(text, value), text).toBe(true);
      }
    });
  }

  it('never takes the next line as the value of an empty one', () => {
    for (const text of ['GITHUB_API_KEY=\nDYNATRACE_API_KEY=\n', 'DB_PASSWORD=\nAPP_SECRET_NAME=billing-service-prod\n', 'password:\n  Zq8Wm2Lp5Tx9Kd4Vb7']) {
      expect(defaultSecretDetector.findAll(text), text).toEqual([]);
    }
  });

  it('takes a value after a space alone only after a CONSTANT name, a flag or in quotes', () => {
    for (const text of ['the password expires tomorrow12', 'token validation4xyz failed', 'secret recipe4ever and more']) {
      expect(defaultSecretDetector.findAll(text), text).toEqual([]);
    }
  });
});

describe('the key words without a secret word, in every assignment form', () => {
  // encryption/signing/master/session/hmac keys (generic-key-assignment), `private-key` in any
  // separator, `auth` alone as a key
  const words = [['encryption', 'key'], ['signing', 'key'], ['master', 'key'], ['session', 'key'], ['hmac', 'key'], ['app', 'private', 'key'], ['auth']];
  for (const form of ASSIGNMENT_FORMS) {
    it(form.lang, () => {
      for (const [i, w] of words.entries()) {
        const value = `${sample(ALNUM, 20, `${form.lang}k${i}`)}4x`;
        const text = form.write(keyIn[form.style](w), value);
        expect(overlaps(text, value), text).toBe(true);
      }
    });
  }
});

describe('key-named provider rules in every assignment form', () => {
  const HEX = '0123456789abcdef';
  const uuid = (s: string) => {
    const h = sample(HEX, 32, s);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
  };
  const cases: [string[], (s: string) => string, string][] = [
    [['heroku', 'api', 'key'], uuid, 'heroku-api-key-keyed'],
    [['dd', 'app', 'key'], (s) => sample(HEX, 40, s), 'datadog-api-key'],
    [['algolia', 'admin', 'key'], (s) => sample(HEX, 32, s), 'algolia-api-key'],
  ];
  for (const form of ASSIGNMENT_FORMS) {
    it(form.lang, () => {
      for (const [w, make, ruleId] of cases) {
        const value = make(`${form.lang}${ruleId}`);
        const text = form.write(keyIn[form.style](w), value);
        const at = text.indexOf(value);
        expect(defaultSecretDetector.findAll(text).some((f) => f.ruleId === ruleId && f.start <= at && at + value.length <= f.end), text).toBe(true);
      }
    });
  }

  it('take a value after a space alone only after a CONSTANT name or a flag', () => {
    const value = uuid('spaced');
    for (const text of [`ENV HEROKU_API_KEY ${value}`, `heroku --heroku-api-key ${value}`]) {
      expect(defaultSecretDetector.findAll(text).map((f) => f.ruleId), text).toEqual(['heroku-api-key-keyed']);
    }
    for (const text of [`the herokuApiKey ${value}`, `heroku api key ${value}`]) expect(defaultSecretDetector.findAll(text), text).toEqual([]);
  });
});

describe('the generic rules keep out', () => {
  it('page, continuation and CSRF tokens, ARNs, lists of names, renamed destructuring, getters', () => {
    const b64url = sample(ALNUM + '-_', 64, 'page');
    const b64 = sample(ALNUM + '+/', 80, 'start');
    for (const text of [
      `{"nextPageToken":"${b64url}"}`,
      `aws dynamodb scan --table-name t --starting-token ${b64}`,
      `{"continuation_token": "${b64url}"}`,
      `<meta name="csrf-token" content="${b64}">`,
      `{"cursor_token": "${b64url}"}`,
      `arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-password-${sample(ALNUM, 6, 'arn')}`,
      "__all__ = ['HTTPPasswordMgr', 'HTTPPasswordMgrWithDefaultRealm', 'HTTPBasicAuthHandler']",
      'const { regKey: scopeAuthKey, authKey: _authKey } = regFromURI(uri)',
      `const pw = getPassword("${sample(ALNUM, 20, 'get')}9");`,
      `auth_method = "${sample(ALNUM, 20, 'am')}7"`,
      'const UNEXPECTED_TOKEN = /^Unexpected token \'?(.)\'?(,)? /',
      `{"auth": "${Buffer.from('not a pair at all').toString('base64')}"}`,
    ]) {
      expect(defaultSecretDetector.findAll(text), text).toEqual([]);
    }
  });

  it('but not a password of a .env key that ends in _password (no .npmrc key)', () => {
    const text = `db_password=${sample(ALNUM, 14, 'npmrc')}%2354`;
    expect(defaultSecretDetector.findAll(text).map((f) => [f.ruleId, text.slice(f.start, f.end)])).toEqual([['generic-secret-assignment', text.slice(12)]]);
  });
});

describe('the quoted rule and the placeholder filter judge masks alike', () => {
  it('finds a random password holding ### or ... between six characters or more, in quotes with a character the generic value stops at', () => {
    for (const [i, mark] of ['###', '...'].entries()) {
      // (the `,` first: the generic assignment, which stops there, reads nothing of it)
      const value = `q7,${sample(ALNUM, 9, `mask${i}`)}${mark}${sample(ALNUM, 7, `mask-b${i}`)}`;
      for (const text of [`DB_PASSWORD="${value}"`, `password: '${value}'`, `SMTP_PASSWORD=${value}`]) expect(overlaps(text, value), text).toBe(true);
    }
  });

  it('still takes a mask or a display cut short for one, quoted or not', () => {
    const head = sample(ALNUM, 4, 'mask-head');
    for (const value of [`sk-...${head}`, `sk-...${head},ab`, '####,####', `${head}(x####`, `${head}***,${head}`, `ghp_${head}...`]) {
      for (const text of [`api_key = "${value}"`, `DB_PASSWORD=${value}`]) expect(defaultSecretDetector.findAll(text), text).toEqual([]);
    }
  });
});
