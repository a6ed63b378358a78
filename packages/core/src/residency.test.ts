import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { secretInCutJson } from './residency.js';

const namesSecretFileInJson = (json: string): boolean => secretInCutJson(json) === 'secret-file-name';

/** An OpenAI-style call whose arguments are JSON text inside the JSON text. */
const call = (args: Record<string, unknown>): string => JSON.stringify({ tool_calls: [{ function: { name: 'read', arguments: JSON.stringify(args) } }] });

describe('secretInCutJson: secret file names', () => {
  it('finds a secret file named in a string literal, a key or JSON inside a literal', () => {
    expect(namesSecretFileInJson(JSON.stringify({ path: '/app/.env' }))).toBe(true);
    expect(namesSecretFileInJson(JSON.stringify({ '/home/u/.ssh/id_rsa': 1 }))).toBe(true);
    expect(namesSecretFileInJson(call({ path: '/app/.env', note: 'x' }))).toBe(true);
    expect(namesSecretFileInJson(JSON.stringify({ wrapped: call({ path: '/app/.env' }) }))).toBe(true);
  });

  it('reads a text cut inside its last literal: JSON inside it up to the cut, a cut escape dropped', () => {
    const full = call({ path: '/app/.env', units: 'metric' });
    const at = (word: string, extra = 0) => full.indexOf(word) + extra;
    expect(namesSecretFileInJson(full.slice(0, at('metric', 3)))).toBe(true);
    expect(namesSecretFileInJson(full.slice(0, at('units')) + '\\')).toBe(true);
    expect(namesSecretFileInJson(full.slice(0, at('units')) + '\\u00')).toBe(true);
  });

  it('does not judge a name the cut itself ends, nor text that names no secret file', () => {
    // `"/app/.env` may be the start of `.env.example`
    expect(namesSecretFileInJson('{"path":"/app/.env')).toBe(false);
    expect(namesSecretFileInJson(call({ path: '/app/.env' }).slice(0, call({ path: '/app/.env' }).indexOf('.env') + 4))).toBe(false);
    expect(namesSecretFileInJson(call({ path: 'notes/readme.md', units: 'metric' }))).toBe(false);
    expect(namesSecretFileInJson('"')).toBe(false);
    expect(namesSecretFileInJson('"abc\\')).toBe(false);
  });

  it('never throws, and finds a closed .env literal wherever it is put in any text', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (before, after) => {
        expect(() => namesSecretFileInJson(before + after)).not.toThrow();
        // (after a quote-free prefix, so the planted literal is not read as the inside of another)
        expect(namesSecretFileInJson(`${before.replace(/["\\]/g, '')} "/srv/app/.env" ${after}`)).toBe(true);
      }),
    );
  });
});

describe('secretInCutJson: credential slots', () => {
  const nested = (depth: number, leaf: unknown) => JSON.stringify(Array.from({ length: depth }).reduce<unknown>((v) => ({ cfg: v }), leaf));
  it('finds a credential key holding a value: a string not a placeholder, a number, a boolean, a non-empty object or list', () => {
    for (const value of ['hunter2-prod', 424242, true, false, { value: 'x' }, ['x']]) {
      expect(secretInCutJson(nested(8, { db: { password: value } })), JSON.stringify(value)).toBe('secret-key-name');
    }
    expect(secretInCutJson(nested(3, { headers: { Authorization: 'Token abc' } }))).toBe('secret-key-name');
    expect(secretInCutJson(call({ api_key: 'sk-live-abc' }))).toBe('secret-key-name');
    // a value the cut ends is judged
    expect(secretInCutJson('{"cfg":{"password":"hunt')).toBe('secret-key-name');
  });
  it('not for an empty, null or placeholder value, a key the cut ends, or a credential word as a value', () => {
    for (const value of ['', null, '<your-password>', '${DB_PASSWORD}', '****', {}, []]) {
      expect(secretInCutJson(nested(8, { db: { password: value } })), JSON.stringify(value)).toBeUndefined();
    }
    expect(secretInCutJson('{"cfg":{"password')).toBeUndefined();
    expect(secretInCutJson('{"cfg":{"password":')).toBeUndefined();
    expect(secretInCutJson(nested(4, { field: 'password', note: 'api_key' }))).toBeUndefined();
  });
});
