/**
 * Deterministic credential-shaped strings for the rules' own examples. Built at load time from a
 * salt, so the source holds no token-shaped literal (nothing for push protection to flag) and no
 * example is ever a live credential.
 */

export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const UPPER_NUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const LOWER = 'abcdefghijklmnopqrstuvwxyz';
export const LOWER_NUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const HEX = '0123456789abcdef';
export const B64 = ALNUM + '+/';
export const B64URL = ALNUM + '-_';

/** `length` characters from `alphabet`, determined by `salt`. */
export function sample(alphabet: string, length: number, salt: string): string {
  let h = 2166136261;
  for (let i = 0; i < salt.length; i++) h = Math.imul(h ^ salt.charCodeAt(i), 16777619);
  let out = '';
  for (let i = 0; i < length; i++) {
    h = Math.imul(h ^ (h >>> 15), 2246822507) + i;
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    h ^= h >>> 16;
    out += alphabet[(h >>> 0) % alphabet.length];
  }
  return out;
}

/** A UUID (version 4 layout) determined by `salt`. */
export function sampleUuid(salt: string): string {
  const h = sample(HEX, 32, salt);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
}

/** A password as people pick them, determined by `salt`: random letters and digits, then a symbol. */
export function samplePassword(salt: string): string {
  return sample(ALNUM, 14, salt) + '!';
}
