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
