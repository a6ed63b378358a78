import { defaultSecretDetector } from '@argspan/core';
import type { SecretDetector } from '@argspan/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HopError } from './errors.js';
import { redactPayload, redactText } from './redact.js';

const body = 'MIIEowIBAAKCAQEAwJENcRev+eXZKvhhWLiV3Lz2MvO+naQRHo59Uo0Ya4Mh4YOOBpM1\nq8DCu9t8MhC9vG2Aaa0uEEKy4r4FV6tWXrYQ7nC9O3y0UOz4Q==';
const pem = `-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----`;

describe('redactText', () => {
  it('removes a whole private key block, not only its header', () => {
    const r = redactText(`key: ${pem} tail`, defaultSecretDetector);
    expect(r.text).toBe('key: [REDACTED:private-key] tail');
    expect(r.ruleIds).toEqual(['private-key']);
  });

  it('works inside JSON and keeps the JSON valid, with or without a footer', () => {
    for (const key of [pem, `-----BEGIN OPENSSH PRIVATE KEY-----\n${body}`]) {
      const r = redactText(JSON.stringify({ k: key, next: 'x' }), defaultSecretDetector);
      expect(JSON.parse(r.text)).toEqual({ k: '[REDACTED:private-key]', next: 'x' });
      expect(r.text).not.toContain(body.slice(0, 20));
    }
  });

  it('still applies the detector to everything else', () => {
    const r = redactText(`a ${'AKIA' + 'Q4W7CNRY2XGSPLTB'} b ${pem}`, defaultSecretDetector);
    expect(r.text).toBe('a [REDACTED:aws-access-key-id] b [REDACTED:private-key]');
    expect(r.ruleIds.sort()).toEqual(['aws-access-key-id', 'private-key']);
  });

  it('redacts a quoted credential value whole: spaces and escaped quotes included, the JSON still valid', () => {
    const pass = 'Canary7 Horse9 Battery3';
    const r = redactText(JSON.stringify({ user: 'svc', password: pass, other: 'ab"cd' }), defaultSecretDetector);
    expect(JSON.parse(r.text)).toEqual({ user: 'svc', password: '[REDACTED:credential-assignment]', other: 'ab"cd' });
    expect(JSON.parse(redactText('{"password":"ab\\"cd-efgh","x":1}', defaultSecretDetector).text)).toEqual({ password: '[REDACTED:credential-assignment]', x: 1 });
    expect(redactText(`db_password: '${pass}'\nuser: svc`, defaultSecretDetector).text).toBe("db_password: '[REDACTED:credential-assignment]'\nuser: svc");
    expect(redactText('"Authorization": "Bearer abc def"', defaultSecretDetector).text).toBe('"Authorization": "Bearer [REDACTED:credential-assignment]"');
    // (a bare value ends at a space, as in a sentence; an empty or placeholder value stays)
    expect(redactText('password=hunter2 please', defaultSecretDetector).text).toBe('password=[REDACTED:credential-assignment] please');
    expect(redactText('password: "" and api_key="${API_KEY}"', defaultSecretDetector).text).toBe('password: "" and api_key="${API_KEY}"');
  });

  it('leaves clean text alone', () => {
    expect(redactText('nothing to see', defaultSecretDetector)).toEqual({ text: 'nothing to see', ruleIds: [] });
  });
});

describe('redactPayload', () => {
  const gh = 'ghp_' + 'C4naryQ7xW2mK9pLr3TzV8bN5hJd1FgS6yUe';
  const aws = 'AKIA' + 'Q4W7CNRY2XGSPLTB';
  const redact = (p: unknown) => redactPayload(p, defaultSecretDetector, 7);
  const caught = (p: unknown) => {
    try {
      redact(p);
    } catch (err) {
      return err as HopError;
    }
    throw new Error('expected redactPayload to throw');
  };

  it('redacts a token that starts a line inside a value (the JSON text holds it after an escaped \\n)', () => {
    const text = redact({ env: `A=1\n${gh}`, list: [`x\n${aws}\ty`] });
    expect(text).not.toContain(gh.slice(4));
    expect(text).not.toContain(aws.slice(4));
    expect(JSON.parse(text)).toEqual({ env: 'A=1\n[REDACTED:github-pat]', list: ['x\n[REDACTED:aws-access-key-id]\ty'] });
  });

  it('leaves nothing the last-line check refuses when a token was followed by `=` (its marker names a rule, not a key)', () => {
    // fast-check's counterexample (seed 905528691): the body, as JSON inside a JSON queue record
    const npm = 'npm_' + 'ZiBerIamMZ3cuqw7VXj9QTqX3waJiosExWBI';
    const text = redact([[npm], [[], { env: `\n${npm}=` }, [false]]]);
    expect(JSON.parse(text)).toEqual([['[REDACTED:npm-access-token]'], [[], { env: '\n[REDACTED:npm-access-token]=' }, [false]]]);
    expect(defaultSecretDetector.find(JSON.stringify({ body: text }))).toBeUndefined();
  });

  it('redacts object keys, and keeps two keys that redact alike apart', () => {
    const other = 'ghp_' + 'Kx7Wq2Lm9Tr4Vb8Np3Hd6Js1Fg5Ca0Ye2Uz7';
    const text = redact({ [gh]: 1, nested: { [`Bearer ${other}`]: 2 }, [other]: 3 });
    expect(text).not.toContain(gh.slice(4));
    expect(text).not.toContain(other.slice(4));
    expect(JSON.parse(text)).toEqual({
      '[REDACTED:github-pat]': 1,
      nested: { 'Bearer [REDACTED:github-pat]': 2 },
      '[REDACTED:github-pat]#2': 3,
    });
  });


  it('hides the keys of a credential split across nested keys (each alone no token), an index between them too', () => {
    const token = 'ghp_' + 'Q7vLm2Xk9PzR4tWc8NbY1HdJ6sFa3GeU5oKi';
    const nested = redact({ note: 'ok', [token.slice(0, 20)]: { [token.slice(20)]: 1, plain: 2 } });
    expect(nested).not.toContain(token.slice(4, 20));
    expect(nested).not.toContain(token.slice(20));
    expect(JSON.parse(nested)).toEqual({ note: 'ok', '[REDACTED:github-pat]': { '[REDACTED:github-pat]': 1, plain: 2 } });
    const listed = redact({ [token.slice(0, 20)]: [{ [token.slice(20)]: 1 }] });
    expect(listed).not.toContain(token.slice(4, 20));
    expect(listed).not.toContain(token.slice(20));
    // 500 levels of keys, a token split across two of them near the bottom: found, each key joined with at most 64 above it
    let deep: Record<string, unknown> = { [token.slice(0, 20)]: { [token.slice(20)]: 1 } };
    for (let i = 0; i < 500; i++) deep = { [`k${i}`]: deep };
    const deepText = redact(deep);
    expect(deepText).not.toContain(token.slice(4, 20));
    expect(deepText).toContain('"k0":{"[REDACTED:github-pat]":{"[REDACTED:github-pat]":1}}');
    // keys that only look alike stay as they are
    expect(JSON.parse(redact({ ghp_notes: { summary: 1 } }))).toEqual({ ghp_notes: { summary: 1 } });
  });
  it('replaces whatever a credential key holds, keeping placeholders and null', () => {
    const payload = { password: 'hunter2', api_key: 12345, token: true, client_secret: { a: 'b' }, access_token: ['x'], pwd: '${DB_PASSWORD}', auth_token: null, max_tokens: 5 };
    expect(JSON.parse(redact(payload))).toEqual({
      password: '[REDACTED:credential-assignment]',
      api_key: '[REDACTED:credential-assignment]',
      token: '[REDACTED:credential-assignment]',
      client_secret: '[REDACTED:credential-assignment]',
      access_token: '[REDACTED:credential-assignment]',
      pwd: '${DB_PASSWORD}',
      auth_token: null,
      max_tokens: 5,
    });
  });

  it('keeps a string payload on the text path', () => {
    expect(redact(`use ${gh}`)).toBe('use [REDACTED:github-pat]');
  });

  it('serialises a clean value exactly as JSON.stringify does', () => {
    class WithToJSON {
      toJSON(key: string) {
        return { key, at: new Date(0) };
      }
    }
    const sym = Symbol('s');
    const value = {
      n: 1.5, neg: -0, inf: Infinity, nan: NaN, t: true, s: 'é\u2028"\\', boxed: [new Number(3), new String('x'), new Boolean(false)],
      skip: undefined, fn: () => 1, [sym]: 1, arr: [undefined, () => 1, sym], map: new Map([[1, 2]]), nested: [[{ a: [] }]],
      custom: new WithToJSON(), buf: Buffer.from('hi'), __proto__: { inherited: 1 },
    };
    Object.defineProperty(value, '__proto__', { value: 'own', enumerable: true });
    expect(redact(value)).toBe(JSON.stringify(value));
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const plain = JSON.stringify(v);
        // a string payload is text, not JSON; and only values in which nothing is redacted
        fc.pre(typeof v !== 'string' && redactText(plain, defaultSecretDetector).text === plain && !/password|secret|token|key|auth|cookie|pwd|credential|session/i.test(plain));
        expect(redact(v)).toBe(plain);
      }),
      { numRuns: 200 },
    );
  });

  it('replaces binary data holding a secret whole (JSON would write its bytes as numbers, no string to redact)', () => {
    const bytes = Buffer.from(`token=${gh}\n`);
    // (the last: a Buffer as JSON writes it, passed in already written)
    for (const bin of [Buffer.from(bytes), new Uint8Array(bytes), new DataView(Uint8Array.from(bytes).buffer), Uint8Array.from(bytes).buffer, JSON.parse(JSON.stringify(bytes)) as unknown]) {
      const out = redact({ name: 'notes.txt', content: bin });
      expect(JSON.parse(out)).toEqual({ name: 'notes.txt', content: '[REDACTED:credential-assignment]' });
      expect(out).not.toContain([...Buffer.from(gh)].join(','));
    }
    expect(redact({ content: Buffer.from('hello') })).toBe(JSON.stringify({ content: Buffer.from('hello') }));
  });

  it.each([
    ['a BigInt', { n: 1n }, /BigInt/],
    ['a cycle', (() => { const o: Record<string, unknown> = {}; o.self = { o }; return o; })(), /cycle/],
    ['a getter that throws', Object.defineProperty({}, 'x', { enumerable: true, get: () => { throw new Error(`boom ${gh}`); } }), /getter, toJSON or proxy trap/],
    ['a revoked proxy', (() => { const p = Proxy.revocable({}, {}); p.revoke(); return { p: p.proxy }; })(), /getter, toJSON or proxy trap/],
    ['a toJSON that throws', { toJSON: () => { throw new Error(gh); } }, /getter, toJSON or proxy trap/],
    ['deep nesting', (() => { let o: unknown = 1; for (let i = 0; i < 600; i++) o = [o]; return o; })(), /deeper than 512/],
    ['a sparse giant array', (() => { const a: unknown[] = []; a.length = 2 ** 31; return a; })(), /longer than/],
    ['undefined', undefined, /undefined, a function or a symbol/],
  ])('refuses %s with HopError HOP_PAYLOAD naming the step, never a value', (_name, payload, reason) => {
    const err = caught(payload);
    expect(err).toBeInstanceOf(HopError);
    expect(err.code).toBe('HOP_PAYLOAD');
    expect(err.message).toMatch(/^step 7: payload is not serialisable to JSON/);
    expect(err.message).toMatch(reason);
    expect(err.message + String(err.stack) + String(err.cause)).not.toContain(gh.slice(4));
  });

  it('a detector that throws: HopError HOP_REDACTION, nothing to send', () => {
    const broken = { find: () => { throw new Error('x'); }, findAll: () => { throw new Error('x'); } } as unknown as SecretDetector;
    const err = (() => {
      try {
        redactPayload({ a: 'b' }, broken, 1);
      } catch (e) {
        return e as HopError;
      }
    })();
    expect(err).toMatchObject({ code: 'HOP_REDACTION' });
  });
});
