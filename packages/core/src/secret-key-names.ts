import { keyWords } from './key-words.js';

/** Last words that make a key name a credential slot: `password`, `db_passwd`, `client_secret`. */
const SECRET_LAST_WORDS = new Set([
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'secret',
  'authorization',
  'apikey',
  'credential',
  'credentials',
  'privatekey',
  'secretkey',
  'cookie',
]);

/** Two-word endings: `api_key`, `x-api-key`, `access_token`, `private-key`. */
const SECRET_LAST_PAIRS = new Set([
  'api key',
  'secret key',
  'private key',
  'access key',
  'signing key',
  'encryption key',
  'master key',
  'license key',
  'access token',
  'auth token',
  'refresh token',
  'id token',
  'bearer token',
  'session token',
  'api token',
  'oauth token',
  'security token',
  'client secret',
  'session id',
]);

/** Words before `token` that make it a count or a cursor, not a credential (`max_tokens`, `next_page_token`). */
const NON_CREDENTIAL_TOKEN_QUALIFIERS = new Set([
  'page',
  'next',
  'prev',
  'previous',
  'continuation',
  'cursor',
  'sync',
  'max',
  'min',
  'input',
  'output',
  'completion',
  'prompt',
  'total',
  'num',
  'stop',
  'csrf',
  'cancellation',
  'cancel',
  'progress',
]);

/**
 * Whether a key name is a credential slot. Matches on words, not substrings, so `max_tokens`,
 * `tokenizer`, `password_hint_shown` and `src/token.ts` are not credential keys.
 */
export function isSecretKeyName(key: string): boolean {
  const words = keyWords(key);
  const n = words.length;
  if (n === 0) return false;
  const last = words[n - 1]!;
  if (SECRET_LAST_WORDS.has(last)) return true;
  if (n >= 2 && SECRET_LAST_PAIRS.has(`${words[n - 2]} ${last}`)) return true;
  if (last === 'token') return n === 1 || !NON_CREDENTIAL_TOKEN_QUALIFIERS.has(words[n - 2]!);
  return false;
}

const PLACEHOLDER = [
  /^\s*$/,
  /^[*•xX#.\-_]{3,}$/, // ****, xxxx, ----
  /^<[^<>]{1,64}>$/, // <your-api-key>
  /^\$\{[^}]{1,64}\}$/, // ${API_KEY}
  /^\$[A-Z_][A-Z0-9_]{0,63}$/, // $API_KEY
  /^\{\{[^}]{1,80}\}\}$/, // {{ secrets.X }}
  /^%[A-Z_][A-Z0-9_]{0,63}%$/, // %API_KEY%
  /^(?:redacted|\[redacted(?::[a-z0-9-]+)?\]|null|none|undefined|n\/a|placeholder|changeit_placeholder|your[-_ ]?(?:api[-_ ]?)?(?:key|token|password|secret)(?:[-_ ]?here)?)$/i,
];

/** Whether a value in a credential slot is a placeholder rather than a credential. */
export function isPlaceholderValue(text: string): boolean {
  if (text.length > 128) return false;
  return PLACEHOLDER.some((re) => re.test(text));
}
