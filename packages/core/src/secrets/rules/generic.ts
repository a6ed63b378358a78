import type { SecretRule } from '../types.js';
import { isCredentialLike } from '../value-filters.js';
import { rule } from './define.js';
import { ASSIGN_TAIL, re } from './patterns.js';
import { ALNUM, B64, sample } from './sample.js';

/**
 * A secret word, case-insensitive, that does not continue a lowercase word on its left
 * (`bypass`, `compass`) and is not continued by a lowercase letter on its right (`passage`,
 * `tokenizer`, `secretary`). camelCase and snake_case keys still match: `userPassword`,
 * `DB_PASS`, `access_token`, `apiKey`.
 */
function word(w: string): string {
  const [first, ...rest] = [...w];
  const restCi = rest.map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : c === '_' ? '[_.-]?' : c)).join('');
  return `(?:(?<![a-z])${first}|${first!.toUpperCase()})${restCi}`;
}

export const SECRET_WORDS = [
  'password', 'passwd', 'passphrase', 'pass', 'pwd', 'secret', 'token', 'api_key', 'apikey',
  'access_key', 'auth_key', 'private_key', 'credentials', 'credential', 'client_secret',
];

/** Key names that carry a secret word but hold no secret: hashes, ids, names, paths, policies. */
const NOT_A_SECRET_KEY = /hash|digest|sha\d*|checksum|integrity|fingerprint|_?id$|name|file|path|url|uri|endpoint|type|len|count|size|expir|ttl|format|field|policy|prompt|label|hint|placeholder|env|var|header|param|reset|min|max/i;

/** The whole key a match starts in (`DB_PASSWORD`, `--api-key`): its secret word and what precedes it. */
function wholeKey(match: RegExpExecArray): string {
  const input = match.input;
  let s = match.index;
  while (s > 0 && match.index - s < 64 && /[\w.-]/.test(input[s - 1]!)) s--;
  return /^[\w.-]*/.exec(input.slice(s, match.index) + match[0])![0];
}

/**
 * A value after a space and no operator (`ENV API_KEY v`, `--token v`, `setx DB_PASSWORD "v"`)
 * is an assignment only after a CONSTANT_NAME or a command-line flag.
 */
function spacedAssignment(match: RegExpExecArray): boolean {
  const key = wholeKey(match);
  return key.startsWith('-') || /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(key);
}

function genericValue(secret: string, match: RegExpExecArray): boolean {
  const key = match.groups?.['key'] ?? '';
  if (NOT_A_SECRET_KEY.test(key)) return false;
  if (match.groups?.['ws'] !== undefined && !spacedAssignment(match)) return false;
  const next = match.input.charCodeAt(match.index + match[0].length);
  if (next === 40 /* ( */) return false; // a call: token = getToken(...)
  return isCredentialLike(secret, 8, 3);
}

const VALUE = String.raw`(?<secret>[^\s"'\x60;,\\=(){}<>\[\]|&][^\s"'\x60;,\\(){}<>\[\]]{7,199})`;

/** Generic `password=` / `api_key:` assignments whose value is random enough to be a credential. */
export const GENERIC_ASSIGNMENT_RULE: SecretRule = rule({
  id: 'generic-secret-assignment',
  family: 'generic',
  description: 'password= / secret: / api_key: / token= assignments (env, YAML, JSON, code, CLI flags) with an entropy threshold',
  keywords: ['pass', 'pwd', 'secret', 'token', 'api_key', 'api-key', 'api.key', 'apikey', 'access_key', 'access-key', 'accesskey', 'auth_key', 'authkey', 'private_key', 'privatekey', 'credential'],
  pattern: re(
    '(?:',
    SECRET_WORDS.map(word).join('|'),
    ')(?![a-z])',
    String.raw`(?<key>[\w.-]{0,24}?)`,
    `(?:${ASSIGN_TAIL}|(?<ws>[ \\t]{1,4})(?:\\\\{0,3}["'])?)`,
    VALUE,
  ),
  secretGroup: 'secret',
  generic: true,
  validate: genericValue,
  examples: {
    truePositives: [
      `DB_PASSWORD=${sample(ALNUM, 16, 'g1')}#9`,
      `password: "${sample(ALNUM, 20, 'g2')}"`,
      `{"api_key": "${sample(ALNUM, 32, 'g3')}"}`,
      `userPassword = '${sample(B64, 24, 'g4')}';`,
      `<password>${sample(ALNUM, 14, 'g5')}7</password>`,
      `"{\\"client_secret\\":\\"${sample(ALNUM, 30, 'g6')}\\"}"`,
      `SMTP_PASS=${sample(ALNUM, 12, 'g7')}42`,
      `export API_KEY=${sample(ALNUM, 40, 'g8')}`,
      // Java properties write the words of a key apart with dots
      `app.payments.api.key=${sample(ALNUM, 32, 'g9')}`,
      // letters only, in both cases and few vowels: random, not a camelCase name
      `client_secret = "${sample('BCDFGHJKLMNPQRSTVWXZbcdfghjklmnpqrstvwxz', 27, 'g10')}"`,
    ],
    falsePositives: [
      'password: ${DB_PASSWORD}',
      'api_key: {{ secrets.API_KEY }}',
      'password = <your-password>',
      'token = getAccessToken();',
      'const accessToken = this.tokenStore.current;',
      'password: process.env.DB_PASSWORD',
      'Your password must be at least 8 characters long.',
      'password: xxxxxxxxxxxx',
      'password_hash: 5f4dcc3b5aa765d61d8327deb882cf99',
      'api_key: 123e4567-e89b-12d3-a456-426614174000',
      'tokenizer = new Tokenizer(options)',
      'passage: "Lorem ipsum dolor sit amet"',
      'secret_name: my-app-credentials',
      'password:e.password||"",token:t.token',
      'token_type: Bearer',
      'PASSWORD_MIN_LENGTH=12',
      'api_key: YOUR_API_KEY_HERE',
      'password = "********"',
    ],
  },
});

/** Generic assignments whose value is random enough to be a credential. */
export const GENERIC_RULES: readonly SecretRule[] = [GENERIC_ASSIGNMENT_RULE];
