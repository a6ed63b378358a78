import { printableShare } from '../checksums.js';
import type { SecretRule } from '../types.js';
import { isDocumentationJwt } from '../value-filters.js';
import { rule } from './define.js';
import { keyed } from './keyed.js';
import { L, RD, re } from './patterns.js';
import { B64, B64URL, HEX, sample } from './sample.js';

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'.toUpperCase();
const pemBody = (salt: string, lines = 6) =>
  Array.from({ length: lines }, (_, i) => sample(B64, 64, `${salt}${i}`)).join('\n');
const b64url = (s: string) => Buffer.from(s).toString('base64url');

/** The base64 characters of a PEM body (key material, not just a mention of the BEGIN line). */
function keyMaterial(match: string): string {
  const body = match.slice(match.indexOf('-----', 10) + 5).replace(/-----END[\s\S]*$/, '');
  return body.replace(/\\[nrt]|[^A-Za-z0-9+/]/g, '');
}

/**
 * Key material: 32 or more base64 characters that decode to bytes, as DER and OpenSSH keys do,
 * not to text (a body that is the base64 of the alphabet, of a sentence, of `...`).
 */
function isKeyMaterial(match: string): boolean {
  const b64 = keyMaterial(match);
  if (b64.length < 32) return false;
  return printableShare(Buffer.from(b64.slice(0, b64.length - (b64.length % 4)), 'base64').toString('latin1')) < 0.9;
}

/**
 * A private key's BEGIN and END lines, the key material between them. Also how the MCP proxy tells
 * where a key logged over several lines starts and ends.
 */
export const PRIVATE_KEY_BEGIN = '-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----';
export const PRIVATE_KEY_END = '-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----';

/** The order of secp256k1's group: an Ethereum or Bitcoin private key is a number in [1, n-1]. */
const SECP256K1_N = BigInt('0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141');

/** Private keys of every PEM/OpenSSH/PGP kind, PuTTY keys, age identities, JWTs. */
export const KEY_RULES: readonly SecretRule[] = [
  rule({
    id: 'private-key',
    family: 'private-key',
    description: 'PEM / OpenSSH / PGP private key, with or without its END line (truncated key material)',
    keywords: ['-----begin'],
    pattern: re(
      PRIVATE_KEY_BEGIN,
      // Body: base64, whitespace, escaped newlines (\\n inside JSON), PEM headers; never "-----".
      '(?:[A-Za-z0-9+/=\\s:,.()\\\\]|-(?!----)){0,65536}',
      `(?:${PRIVATE_KEY_END})?`,
    ),
    allowPlaceholders: true,
    validate: isKeyMaterial,
    examples: {
      truePositives: [
        `-----BEGIN RSA PRIVATE KEY-----\n${pemBody('rsa')}\n-----END RSA PRIVATE KEY-----\n`,
        `-----BEGIN OPENSSH PRIVATE KEY-----\n${pemBody('ssh', 2)}`,
        `{"private_key":"-----BEGIN PRIVATE KEY-----\\n${pemBody('gcp', 3).replace(/\n/g, '\\n')}\\n-----END PRIVATE KEY-----\\n"}`,
        `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${pemBody('pgp', 3)}`,
        `-----BEGIN EC PRIVATE KEY-----\n${pemBody('ec', 1)}`,
        `-----BEGIN ENCRYPTED PRIVATE KEY-----\n${pemBody('enc', 2)}\n-----END ENCRYPTED PRIVATE KEY-----`,
      ],
      falsePositives: [
        "if (pem.startsWith('-----BEGIN RSA PRIVATE KEY-----')) {",
        '-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----',
        `-----BEGIN PUBLIC KEY-----\n${pemBody('pub')}\n-----END PUBLIC KEY-----`,
        `-----BEGIN CERTIFICATE-----\n${pemBody('crt')}\n-----END CERTIFICATE-----`,
        `-----BEGIN PRIVATE KEY-----\n${Buffer.from('abcdefghijklmnopqrstuvwxyz'.repeat(3)).toString('base64')}\n-----END PRIVATE KEY-----`,
      ],
    },
  }),
  rule({
    id: 'putty-private-key',
    family: 'private-key',
    description: 'PuTTY private key file (PuTTY-User-Key-File-2/3)',
    keywords: ['putty-user-key-file-'],
    pattern: re('PuTTY-User-Key-File-[23]:[\\s\\S]{0,4096}?Private-Lines:\\s{0,4}\\d{1,3}\\s{1,4}[A-Za-z0-9+/=\\s]{16,16384}'),
    allowPlaceholders: true,
    examples: {
      truePositives: [
        `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: me\nPublic-Lines: 2\n${pemBody('pp', 2)}\nPrivate-Lines: 1\n${sample(B64, 44, 'pq')}\n`,
      ],
      falsePositives: ['PuTTY-User-Key-File-3: is the header of a .ppk file'],
    },
  }),
  rule({
    id: 'age-secret-key',
    family: 'age',
    description: 'age identity (AGE-SECRET-KEY-1...)',
    keywords: ['age-secret-key-1'],
    tokenPrefix: true,
    pattern: re(L, 'AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}', RD),
    minEntropy: 3.5,
    examples: {
      truePositives: [`# created: 2024-01-01\nAGE-SECRET-KEY-1${sample(BECH32, 58, 'age')}`],
      falsePositives: ['AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ'],
    },
  }),
  rule({
    id: 'jwt',
    family: 'jwt',
    description: 'JSON Web Token (signed or unsigned); the jwt.io documentation example is allowed',
    keywords: ['eyj'],
    // (a `-` before it is base64url's, but for a shell parameter's default: `${SESSION_JWT:-eyJ…}`)
    pattern: re('(?:(?<![\\w-])|(?<=\\$\\{\\w{1,64}:-))eyJ[\\w-]{8,16384}\\.eyJ[\\w-]{8,65536}\\.(?:[\\w-]{8,16384})?', RD),
    validate: (s) => {
      const [head, payload] = s.split('.');
      const h = Buffer.from(head!, 'base64url').toString('latin1');
      if (!/"(?:alg|typ|kid|enc)"/.test(h)) return false;
      return payload !== undefined && !isDocumentationJwt(s);
    },
    examples: {
      truePositives: [
        `Authorization: Bearer ${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(`{"sub":"u${sample(B64URL, 8, 'j1')}","exp":1900000000}`)}.${sample(B64URL, 43, 'j2')}`,
        `token=${b64url('{"alg":"none"}')}.${b64url('{"sub":"svc-account","role":"admin"}')}.`,
        `exec ./server --token "\${SESSION_JWT:-${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(`{"sub":"u${sample(B64URL, 8, 'j3')}"}`)}.${sample(B64URL, 43, 'j4')}}"`,
      ],
      falsePositives: [
        'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
        `${b64url('{"not":"a header"}')}.${b64url('{"x":1}')}.abcdefghijk`,
      ],
    },
  }),
  keyed({
    id: 'crypto-wallet-private-key',
    family: 'private-key',
    description: 'Ethereum / Bitcoin (secp256k1) private key in hex (64 hex, 0x optional, a number below the group order) after a private-key or wallet key',
    names: ['private', 'priv', 'wallet', 'deployer', 'eth', 'signer'],
    values: ['(?:0x)?[0-9a-fA-F]{64}'],
    minEntropy: 3,
    check: (v) => {
      const n = BigInt(`0x${v.replace(/^0x/, '')}`);
      return n > 0n && n < SECP256K1_N;
    },
    example: { env: 'DEPLOYER_PRIVATE_KEY', value: (s) => `0x${sample(HEX, 64, s)}` },
    truePositives: [`const wallet = new Wallet(privateKey); // PRIVATE_KEY="${sample(HEX, 64, 'pk1')}"`],
    falsePositives: [`PRIVATE_KEY=0x${'f'.repeat(64)}`],
  }),
];
