import { describe, expect, it } from 'vitest';
import { KeyNameIndex, keyIsAssigned, namePattern } from './key-names.js';

function named(index: KeyNameIndex, text: string, word: string): string[] {
  const n = index.lookup(text, text.indexOf(word));
  return Array.from({ length: n }, (_, i) => `${index.named[2 * i]}@${index.named[2 * i + 1]}`);
}

describe('key names', () => {
  const index = new KeyNameIndex();
  index.add('heroku', 0);
  index.add('dd', 1);
  index.add('x-aio', 2);
  index.add('new_relic', 3);

  it('finds a provider name that begins a word of the key, in any case and separator style', () => {
    expect(named(index, 'HEROKU_API_KEY=x', 'API_KEY')).toEqual(['0@0']);
    expect(named(index, 'herokuToken = x', 'Token')).toEqual(['0@0']);
    expect(named(index, 'export MY_HEROKU_TOKEN=x', 'TOKEN')).toEqual(['0@10']);
    expect(named(index, '{"ddApiKey": "x"}', 'ApiKey')).toEqual(['1@2']);
    expect(named(index, 'X-AIO-KEY: x', '-KEY')).toEqual(['2@0']);
    expect(named(index, 'newRelicLicenseKey: x', 'LicenseKey')).toEqual(['3@0']);
    expect(named(index, 'mvn -Dx.heroku.login=x', 'login')).toEqual(['0@8']);
  });

  it('takes no name inside a word, or one that goes on into the next letters', () => {
    expect(named(index, 'superheroku_token=x', 'token')).toEqual([]);
    expect(named(index, 'herokuapp_token=x', 'token')).toEqual([]);
    expect(named(index, 'ADD_TOKEN=x', 'TOKEN')).toEqual([]);
  });

  it('tells an assigned key from a mention', () => {
    for (const t of ['token = x', 'token>x</token>', 'token: x', 'token" : x', "token']=x", 'token := x', 'token ?= x', 'token .= x', 'token <- x', 'token string = x', 'token\\": x']) {
      expect(keyIsAssigned(t, 0), t).toBe(true);
    }
    for (const t of ['tokens.map(x)', 'token(x)', 'token is here', 'token.length > 0 &&']) expect(keyIsAssigned(t, 0), t).toBe(false);
  });

  it('writes a name as a pattern keys match', () => {
    const re = new RegExp(`^${namePattern('dd_api')}$`);
    for (const k of ['dd_api', 'DD-API', 'ddApi', 'DD.API', 'ddapi']) expect(re.test(k), k).toBe(true);
  });
});
