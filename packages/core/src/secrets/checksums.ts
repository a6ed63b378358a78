/**
 * Structural proofs some providers build into their tokens, checked offline: CRC32 checksums
 * (GitHub, npm, Datadog, Cloudflare, Atlassian, Grafana) and self-describing payloads (base64
 * JSON or text). A rule's `proof` uses them: a token whose proof holds is a credential whatever
 * its letters happen to spell.
 */

// Int32 entries and arithmetic: with the table's unsigned values above 2^31 V8 keeps the running
// CRC as a heap number, several times slower per character.
const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
    t[n] = c | 0;
  }
  return t;
})();

/**
 * CRC-32 (IEEE 802.3, as zlib computes it) of the character codes of an ASCII string, or of its
 * characters [start, end).
 */
export function crc32(ascii: string, start = 0, end = ascii.length): number {
  let c = -1;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ ascii.charCodeAt(i)) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/** Base62 digits, uppercase before lowercase (GitHub, npm). */
export const BASE62_UPPER_FIRST = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Base62 digits, lowercase before uppercase (Datadog). */
export const BASE62_LOWER_FIRST = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** `n` in base 62 with `digits`, left-padded with the zero digit to `width`. */
export function base62(n: number, digits: string, width = 6): string {
  let s = '';
  do {
    s = digits[n % 62]! + s;
    n = Math.floor(n / 62);
  } while (n > 0);
  return s.padStart(width, digits[0]);
}

/**
 * `text` from `at` to its end is base62(n, digits) for a 32-bit `n` (six digits: 62^6 > 2^32),
 * compared digit by digit without building the string.
 */
function base62Holds(n: number, digits: string, text: string, at: number): boolean {
  if (text.length - at !== 6) return false;
  for (let i = text.length - 1; i >= at; i--) {
    if (text.charCodeAt(i) !== digits.charCodeAt(n % 62)) return false;
    n = Math.floor(n / 62);
  }
  return true;
}

/** Eight hex digits of a 32-bit number, big-endian. */
export function hex8(n: number, upper = false): string {
  const h = n.toString(16).padStart(8, '0');
  return upper ? h.toUpperCase() : h;
}

/** Eight hex digits of a 32-bit number's bytes in little-endian order (Grafana). */
export function hex8LittleEndian(n: number): string {
  let out = '';
  for (let i = 0; i < 4; i++) out += ((n >>> (8 * i)) & 0xff).toString(16).padStart(2, '0');
  return out;
}

/**
 * GitHub's checksum (`ghp_` … 40 characters): the last six are the CRC32 of the 30 random
 * characters after the prefix, in base62 (uppercase first). npm's `npm_` tokens are documented
 * the same way.
 */
export function githubChecksumHolds(token: string): boolean {
  if (token.length !== 40) return false;
  return base62Holds(crc32(token, 4, 34), BASE62_UPPER_FIRST, token, 34);
}

/** Datadog's `ddapp_`/`ddpat_`/`ddsat_` (40 characters): the last six are the CRC32 of everything before them, base62 lowercase first. */
export function datadogChecksumHolds(token: string): boolean {
  if (token.length !== 40) return false;
  return base62Holds(crc32(token, 0, 34), BASE62_LOWER_FIRST, token, 34);
}

/** Cloudflare's `cfk_`/`cfut_`/`cfat_`: 40 characters, then the CRC32 of those 40 as lowercase hex. */
export function cloudflareChecksumHolds(token: string): boolean {
  const body = token.slice(token.indexOf('_') + 1);
  return body.length === 48 && hex8(crc32(body.slice(0, 40))) === body.slice(40);
}

/** Atlassian's tokens (`ATATT3`, `ATCTT3`, `ATBB`, `ATTA`): the last eight are the CRC32 of everything before them, uppercase hex. */
export function atlassianChecksumHolds(token: string): boolean {
  return token.length > 8 && hex8(crc32(token, 0, token.length - 8), true) === token.slice(-8);
}

/** Grafana's `glsa_<32>_<8 hex>`: the hex is the CRC32 of `glsa_<32>`, its bytes little-endian. */
export function grafanaChecksumHolds(token: string): boolean {
  const cut = token.lastIndexOf('_');
  return cut > 0 && hex8LittleEndian(crc32(token.slice(0, cut))) === token.slice(cut + 1).toLowerCase();
}

/** The text base64 or base64url decodes to (Latin-1), or undefined when it holds other characters. */
export function base64Text(b64: string): string | undefined {
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(b64)) return undefined;
  return Buffer.from(b64, 'base64').toString('latin1');
}

/** The JSON object base64 (or base64url) text decodes to, or undefined. */
export function base64Json(b64: string): Record<string, unknown> | undefined {
  const text = base64Text(b64);
  if (text === undefined || !text.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Share of printable ASCII (and tab, line breaks) in a string: key material decodes to bytes, text to text. */
export function printableShare(text: string): number {
  if (text.length === 0) return 0;
  let printable = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 32 && c < 127) || c === 9 || c === 10 || c === 13) printable++;
  }
  return printable / text.length;
}
