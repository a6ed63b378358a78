import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCredentialLike, looksLikeCode, scrambled, shannonEntropy } from './value-filters.js';

/** The definitions, written plainly. */
function referenceEntropy(value: string): number {
  const counts = new Map<number, number>();
  for (let i = 0; i < value.length; i++) counts.set(value.charCodeAt(i), (counts.get(value.charCodeAt(i)) ?? 0) + 1);
  let h = 0;
  for (const k of counts.values()) h -= (k / value.length) * Math.log2(k / value.length);
  return Math.max(0, h);
}

// Text that reaches every branch: ASCII, characters whose low seven bits alias ASCII ones
// (\u00e1 and 'a'), surrogates.
const piece = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('a', 'á', 'ᅡ', '\ud83d\ude00', 'x', '\n'));
const text = fc.array(piece, { maxLength: 30 }).map((p) => p.join(''));

describe('shannonEntropy', () => {
  it('matches the definition for any text, and keeps no state between calls', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(shannonEntropy(a)).toBeCloseTo(referenceEntropy(a), 9);
        expect(shannonEntropy(b)).toBeCloseTo(referenceEntropy(b), 9);
        expect(shannonEntropy(a)).toBeCloseTo(referenceEntropy(a), 9);
      }),
      { numRuns: 3000 },
    );
  });

  it('does not let a character alias another by its low bits', () => {
    expect(shannonEntropy('aá')).toBe(1);
    expect(shannonEntropy('aaaa')).toBe(0);
  });
});

describe('looksLikeCode on dotted values', () => {
  it('takes member expressions and dotted names for code', () => {
    for (const v of ['this.tokenStore.current', 'process.env.DB_PASSWORD', 'config.auth.apiKeyV2Production', 'crypto.sha256.digestHex', 'e.password', 'e.password||""', 'retries--']) {
      expect(looksLikeCode(v), v).toBe(true);
    }
  });

  it('does not take a dotted token with random parts for code (a Discord bot token)', () => {
    const token = 'MTA5ODc2NTQzMjEwOTg3NjU0Mw.GaBcDe.k7Qx9ZpL2mN4vB8cR1tY6uW3sE5dF0gH_jK';
    expect(looksLikeCode(token)).toBe(false);
    expect(isCredentialLike(token, 16, 3)).toBe(true);
  });

  it('takes snake_case and CONSTANT names for code, not random letters joined by an underscore', () => {
    for (const v of ['ACCESS_TOKEN_KEY', 'getAccessToken_value', 'XMLHttpRequest_sync', 'kubernetesServiceAccount_token']) {
      expect(looksLikeCode(v), v).toBe(true);
    }
    expect(looksLikeCode('GOtbPFrKTNtjzcmTzlpntu_hd')).toBe(false);
    // 16 letters and more with a random token's vowels and cases, even with a vowel in five
    expect(looksLikeCode('Tr_XyVJWKawsrvZTEbIJU-QJnERMNpAKnROfeB')).toBe(false);
  });

  it('takes != for code between code operands only, not between the random parts of a password', () => {
    for (const v of ['password!=null', 'e.token!=t.token', '(confirmPassword)!=undefined', 'token!=0', 'a.b!==c']) expect(looksLikeCode(v), v).toBe(true);
    // (each read as code before: `!=` alone made any short value code)
    for (const v of ['EJA0!=7av4041', 'MclCpd!=WNdg', 'Kq7vXz!=mR2w9', 'SQLM!=zdzmGz6']) expect(looksLikeCode(v), v).toBe(false);
  });

  it('does not take a random token holding -- for an operator', () => {
    const token = 'rEgq3gELFlI5Rgf0HN9RXTiUhsUNb_jXKa1XH0s--INDhackgQHFsYYttMN_';
    expect(looksLikeCode(token)).toBe(false);
    expect(isCredentialLike(token, 12, 3)).toBe(true);
  });
});

describe('looksLikeCode on random passwords in the shapes of names (bench misses)', () => {
  it('takes no member holding no letter for a member name (a password with `._`)', () => {
    for (const v of ['LTEjwufmt2ily._7', 'Kq7vXzmR2.__4', '!Wq8zLmT.$_2']) expect(looksLikeCode(v), v).toBe(false);
    for (const v of ['this._privateToken', 'obj.__proto__', 'self._cfg.secret', '!this._token']) expect(looksLikeCode(v), v).toBe(true);
  });

  it('judges ++ and => by their operands, as the quoted rule does: random characters after them are no operand', () => {
    for (const v of ['lrZAJTcaX3zh++~G.NV%U0', 'ItDdgo0eta++-Xjbt.D1', 'WrnImt++^S7QjhuX42', '/gpga41++_OU9^XA76']) expect(looksLikeCode(v), v).toBe(false);
    for (const v of ['i++', 'retries--', 'e.password||""', 'state=>state.auth.token', 'user?.token', 'a.b!==c', 'opts.apiKey||env.API_KEY']) expect(looksLikeCode(v), v).toBe(true);
  });

  it('takes words without vowels and digits inside mixed-case words for random parts, not for a name', () => {
    for (const v of ['dtMKxx.D6stfll3', 'akN9rq.duMbvhpC3', 'ctZzjF@kyRQBSUef3', '!pdzPKF.KQIFQH5', 'brlBylcdDad-mfhyyjbcdht_FV3']) expect(looksLikeCode(v), v).toBe(false);
    for (const v of ['DuckDBTypeId.STRUCT', 'fs.statSync', 'this.httpRequestFn', 'mcpServers.length', 'd3.csvParse', 'Http.OutgoingHttpHeaders', 'user@example', '!isHttpsUrl']) expect(looksLikeCode(v), v).toBe(true);
  });

  it('takes ++ between two operands for a password\'s characters: it stands after its operand or before it in code', () => {
    for (const v of ['HURCzrDe++_odBESDa4', 'wewpzry++!gLbdq3', 'cilmKY++!inYYwscw5']) expect(looksLikeCode(v), v).toBe(false);
    for (const v of ['retries++', '++this.count', 'a.b++||c.d', 'cfg.retries++']) expect(looksLikeCode(v), v).toBe(true);
  });

  it('takes a camelCase hump beside an @ for a password, not an address or a version (emails and pkg@version have none)', () => {
    for (const v of ['IkofCSdH@grUbn61', 'doYhvf@vaisAdgP5', 'MsevsC7@zkVKAK0', 'uvhasf@DUJziMg6']) expect(looksLikeCode(v), v).toBe(false);
    for (const v of ['user@example', 'kubelet@v0', 'a.einstein@example.com', 'tjw@cs.Stanford.EDU', 'User@example.com', 'x-oauth-basic@github.com']) expect(looksLikeCode(v), v).toBe(true);
  });

  it('takes no camelCase with digits in three places or more for a name', () => {
    for (const v of ['fc9D5M0reAouyfodpdbqbEesF2', 'Q6avUevKu7mljotDgtcCmoaecuov7']) expect(looksLikeCode(v), v).toBe(false);
    for (const v of ['k8sServiceAccountTokenProvider', 'oauth2ClientSecret', 'convertUint8ArrayToBase64']) expect(looksLikeCode(v), v).toBe(true);
  });
});

describe('looksLikeCode with operators judged by the caller', () => {
  it('leaves operators out, not the other shapes', () => {
    expect(looksLikeCode('opts.apiKey||env.API_KEY')).toBe(true);
    expect(looksLikeCode('opts.apiKey||env.API_KEY', false)).toBe(false);
    // (operands that are none: random characters around `&&`, no code either way)
    expect(looksLikeCode('A,g[|_xi:zQ&&J:P')).toBe(false);
    expect(looksLikeCode('this.tokenStore.current', false)).toBe(true);
  });
});

describe('looksLikeCode on password-shaped values', () => {
  it('takes random characters of a password for no code shape', () => {
    // a dot between short random parts, `++` inside, a leading `!` or `/`, random letters alone
    for (const v of ['sut7aYYr615p56T.WVjdY', 'LYjrlN9gdUPfT.HTu9W896JdnA9', 'hxnPN7JcgP++sqfwKt5cxt', '!hfnpZ!2Sw45!amulCYs.FU', '/DzgwOPGbvA3BmLTZg0T7T93Ro0jwEGxNQPayAga', '/D8mywB.I-jnQpNyk4', 'oywyCOLvSJXaAwuKOekN']) {
      expect(looksLikeCode(v), v).toBe(false);
    }
  });

  it('still takes names, members, paths, negations and regular expressions for code', () => {
    for (const v of ['HTTPPasswordMgrWithDefaultRealm', 'XMLHttpRequest', '_authKey', '$password', 'this.tokenStore.current', '/usr/local/lib/node_modules', '/usr/include/c++/12', '!this.token', '!password', 'i++', '/^Unexpected', 'SOCKS5_NO_ACCEPTABLE_AUTH']) {
      expect(looksLikeCode(v), v).toBe(true);
    }
  });

  it('scrambled: case and digits mixed as random characters mix them, not as names do', () => {
    for (const v of ['LYjrlN9gdUPfT', 'giiP7EXcZw', 'vr210TDvGwdUI']) expect(scrambled(v), v).toBe(true);
    for (const v of ['ACCESS_TOKEN_KEY', 'HTTPPasswordMgr', 'getAValue', 'utf8String', 'sha256sum', 'base64UrlEncode']) expect(scrambled(v), v).toBe(false);
  });
});

