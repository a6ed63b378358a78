import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasPlaceholderWords, isPlaceholder, isPlaceholderShaped, placeholderShape } from './placeholders.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const token = (n: number) => fc.string({ unit: fc.constantFrom(...ALNUM), minLength: n, maxLength: n });
/** Random tokens with none of the marks (checked, so the properties below are about the inserted mark). */
const clean = (n: number) => token(n).filter((t) => !isPlaceholder(t));

describe('isPlaceholder', () => {
  it('takes template syntax, masks, documentation words and set-apart marks for placeholders', () => {
    for (const v of [
      '${API_KEY}', '{{ secrets.TOKEN }}', '$(cat token)', '<your-api-key>', '%API_KEY%', '****************', 'ghp_###########',
      'sk-...', 'ops_…', 'AKIAIOSFODNN7EXAMPLE', 'changeme', 'REPLACE_WITH_PASSWORD', 'replace-me', 'your_token_here', '$TOKEN',
      'fake-token', 'FAKE_API_KEY', 'my_fake_password', 'sk_live_xxxxxxxxxxxxxxxxxxxxxxxx', 'glpat-xxxxxxxxxxxxxxxxxxxx',
      'dummy', 'sample-secret', 'fakeToken123', 'FakeSecretToken1', 'AKIAFAKEFAKEFAKE1234', `AKIA${'A'.repeat(16)}`,
      '1234567890abcdef', 'aaaaaaaaaaaa', 'xoxb-000000000000-000000000000-xxxxxxxxxxxxxxxxxxxxxxxx',
    ]) {
      expect(isPlaceholder(v), v).toBe(true);
    }
  });

  it('by words alone (hasPlaceholderWords) leaves template marks and a leading $ to the caller, words and runs not', () => {
    for (const v of ['${API_KEY}', '<db-password>', '$TOKEN', '$h{Rn.4TEJw]Gq(2']) expect(hasPlaceholderWords(v, placeholderShape(v)), v).toBe(false);
    for (const v of ['changeme', 'your_token_here', 'fake-token', 'aaaaaaaaaaaa', 'my_fake_password']) expect(hasPlaceholderWords(v, placeholderShape(v)), v).toBe(true);
  });

  it('judges a random token with one mark character inside (a dot, %, #, $) as with a character that marks nothing (property)', () => {
    fc.assert(
      fc.property(token(20), token(20), fc.constantFrom('.', '%', '#', '$', '*', '{'), (a, b, mark) => {
        expect(isPlaceholder(`${a}${mark}${b}`)).toBe(isPlaceholder(`${a}~${b}`));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads runs of line or paragraph separators as line breaks, as the shape does', () => {
    const [a, b] = ['q8Fz2KLm0Wv9Rt5Yx3Bn', 'Pc1Hs6Jd4Ge7Tb2Mw9Zk'];
    for (const sep of ['\n', '\u2028', '\u2029']) expect(isPlaceholder(`${a}.${sep.repeat(6)}${b}`), JSON.stringify(sep)).toBe(false);
  });

  it('takes %VAR% for a placeholder, not a %XY% inside a random password', () => {
    expect(isPlaceholder('%API_KEY%')).toBe(true);
    expect(isPlaceholder('!DWAa6Av%KYI%!FQ^s^n1ya')).toBe(false);
  });

  it('keeps random tokens that hold a weak mark by chance', () => {
    for (const v of [
      'ghp_q8Fz2KfakeLm0Wv9Rt5Yx3Bn7Pc1Hs6Jd4Ge', // "fake" inside
      'AKIAQ3ZJFAKE7B5KDLMN', // an AWS key id with FAKE in the middle: 16 random characters left
      'xoxb-123456000000-7395810264817-Zp4Kd9Wq2Ls7Nx3TbQm8Rv1Y', // six zeros among the digits
      `dop_v1_${'3f9a0c7e5b1d8a2e6c4f0b9d7e5a3c1f'}000000${'a8c6e4f2d0b9a7c5e3f1d9b7a5c3e1f9'.slice(0, 26)}`,
      'sk_live_51HxSample0Zq8Wm2Lp5Tx9Kd4Vb7Nc3Rf6Yh1Gj',
      'mXxxxq9TzL2pV8rW3nK6bY1cH5dF0gJ4', // four x (one capital) among random characters
    ]) {
      expect(isPlaceholder(v), v).toBe(false);
    }
  });

  it('any random token with a weak word or run of x put inside it (between letters or digits) is still a token (property)', () => {
    const mark = fc.constantFrom('fake', 'FAKE', 'Fake', 'dummy', 'Sample', 'xxxx', 'XXXXX', '000000', '1234567');
    fc.assert(
      fc.property(clean(12), clean(24), mark, (a, b, m) => {
        expect(isPlaceholder(a + m + b)).toBe(false);
        expect(isPlaceholder(b + m + a)).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('a weak word set apart by punctuation or the value edge is a placeholder, whatever the rest (property)', () => {
    const mark = fc.constantFrom('fake', 'FAKE', 'dummy', 'sample', 'xxxx');
    const sep = fc.constantFrom('_', '-', '.', '/', ':');
    fc.assert(
      fc.property(clean(24), mark, sep, (rest, m, s) => {
        expect(isPlaceholder(`${m}${s}${rest}`)).toBe(true);
        expect(isPlaceholder(`${rest}${s}${m}`)).toBe(true);
        expect(isPlaceholder(`${rest}${s}${m}${s}${rest}`)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('a strong mark anywhere makes a placeholder (property)', () => {
    const mark = fc.constantFrom('${X}', '{{', '<id>', '****', '####', '....', '…', 'EXAMPLE', 'example', 'placeholder', '-your_', 'redacted', 'CHANGEME');
    fc.assert(
      fc.property(token(20), fc.nat(20), mark, (t, at, m) => {
        expect(isPlaceholder(t.slice(0, at) + m + t.slice(at))).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('takes *** for a mask only with fewer than six other characters on a side', () => {
    for (const v of ['sk-***3f9a', '***Zq8Wm2Lp5Tx9', 'Zq8Wm2Lp5Tx9***', 'AKIA****************']) expect(isPlaceholder(v), v).toBe(true);
    for (const v of ['lw_TbPH***gNmKcC7Ktd', 'Zq8Wm2***Lp5Tx9Kd4']) expect(isPlaceholder(v), v).toBe(false);
  });

  it('takes ### and ... for a mask or a cut only with fewer than six other characters on a side, as ***', () => {
    for (const v of ['ghp_Ab12...', '...Zq8Wm2Lp5Tx9', 'sk-...3f9a', '###Zq8Wm2Lp5Tx9', 'pass###', 'Zq8Wm2Lp5Tx9###']) expect(isPlaceholder(v), v).toBe(true);
    // (random passwords of the bench's symbols kind: `.` then `..`, `#` then `##`, between longer runs)
    for (const v of ['xIrXGIPTPn6...pkXvUdtZI.0y2', 'SO3ZEr9RCBOl@C8N###~OZyk2']) expect(isPlaceholder(v), v).toBe(false);
  });

  it('takes a strong word for a mark only as people write it: in one case, or in words of two letters or more', () => {
    for (const v of ['YOUR_API_KEY', 'Your-token', 'changeMe', 'ReplaceWith1234', 'PLACEHOLDER']) expect(isPlaceholder(v), v).toBe(true);
    // random letters of both cases that spell a strong word by chance
    for (const v of ['sk-proj-Q8fz2Kq0yOUR_ZhorN_hfxc-vEQT8nIVH1JhVWQ', 'Zq8Wm2Lp5ExAMPLE9Kd4Vb7Nc3Rf6Yh1', 'duffel_test_jsRYY8d9eQB1QQpk3mmwnpuQ0T0hyxEHAyOur-g59c', 'figd_1NPOgTmoT9GNYkNOp1Lyour_JazrjudKtwXBeS0f', 'nuLl/ElokgswWD+4pG1zZoCEmNQoEf202K8LsH4c', 'figd_t0JmHJg_faKe_jwsHqxnIE5mMUtHsteFyrPIlSjK', 'sl.nXR685m2YoUr-xY6BpxKrUn6jjRwBP6tiXi95_vh2D', 'XxXx9aRGp4J2nCtrnOviSEFi8E0hbto']) {
      expect(isPlaceholder(v), v).toBe(false);
    }
  });

  it('in a value that has a provider format, three dots are chance, not a cut-short display', () => {
    const azure = 'is03Q~W1rN5kMrdDYMos-5zbwmhIhMfS4kN...~L';
    expect(isPlaceholderShaped(azure, placeholderShape(azure))).toBe(true);
    expect(isPlaceholderShaped(azure, placeholderShape(azure), true)).toBe(false);
    expect(isPlaceholderShaped('${AZURE_CLIENT_SECRET}', placeholderShape('${AZURE_CLIENT_SECRET}'), true)).toBe(true);
  });

  it('sets the shape bits for every mark the pass can see', () => {
    expect(placeholderShape('abcdef')).toBe(0);
    expect(placeholderShape('aaaaaa')).toBe(1);
    expect(placeholderShape('0123456')).toBe(2);
    expect(placeholderShape('a${b}')).toBe(4);
    expect(placeholderShape('xXxx')).toBe(4);
    expect(placeholderShape('ab#')).toBe(4);
    expect(placeholderShape('ab…')).toBe(4);
  });
});
