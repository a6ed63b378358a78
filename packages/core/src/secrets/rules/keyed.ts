import type { SecretRule } from '../types.js';
import { rule } from './define.js';
import { namePattern, normalizeName } from '../key-names.js';
import { TAIL_OR_SPACE, re, spacedAssignment } from './patterns.js';

/** Value shapes (regex sources) of credentials that have no prefix of their own. */
export const SHAPE = {
  hex: (min: number, max = min) => `[0-9a-fA-F]{${min},${max}}`,
  uuid: '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}',
  alnum: (min: number, max = min) => `[A-Za-z0-9]{${min},${max}}`,
  lowerNum: (min: number, max = min) => `[a-z0-9]{${min},${max}}`,
  upperNum: (min: number, max = min) => `[A-Z0-9]{${min},${max}}`,
  urlSafe: (min: number, max = min) => `[A-Za-z0-9_-]{${min},${max}}`,
  base64: (min: number, max = min) => `[A-Za-z0-9+/]{${min},${max}}={0,2}`,
  digits: (min: number, max = min) => `[0-9]{${min},${max}}`,
} as const;

/** A key that names a credential: key, token, secret, password, auth, credential, signature, login, PAT. */
const CREDENTIAL_WORD = /key|token|secret|pass|pwd|auth|cred|sig|private|bearer|login|(?:^|[_.-])pat(?:$|[_.-])/i;
/** PAT as a camelCase word (`azureDevOpsPat`, `adoPAT`), which CREDENTIAL_WORD's case-blind `pat` cannot tell from `path`. */
const CAMEL_PAT = /[a-z0-9]P(?:at|AT)(?:$|[^a-z])/;
/** CREDENTIAL_WORD's words, loosely (`pat` anywhere), for pre-filters. */
const CREDENTIAL_WORDS = ['key', 'token', 'secret', 'pass', 'pwd', 'auth', 'cred', 'sig', 'private', 'bearer', 'login', 'pat'];

/**
 * The pre-filter of a key-named rule (see SecretRule.prefilter): a provider name, then a
 * credential word within the 32 key characters after it, as every finding has (namesCredential).
 * A name that holds a credential word stands alone. (A word that begins inside the name cannot
 * be the one a finding needs: a name is tried only where it ends at a word end, before a
 * credential word's hit.) Without the word, two-letter names (`co`, `dd`, `cf`) would pass
 * nearly every text.
 */
function keyedPrefilter(names: readonly string[]): string {
  const standsAlone = (name: string): boolean => CREDENTIAL_WORDS.some((w) => normalizeName(name).includes(w));
  const alone = names.filter(standsAlone);
  const needWord = names.filter((n) => !standsAlone(n));
  const parts = alone.map(namePattern);
  // ([\w.-]* rather than the 32 the rule allows: RE2 expands a bounded repeat into that many copies)
  if (needWord.length > 0) parts.push(`(?:${needWord.map(namePattern).join('|')})[\\w.-]*(?:${CREDENTIAL_WORDS.join('|')})`);
  return parts.join('|');
}

/**
 * The last word of a key that names something else than the credential: an id, a name, an
 * address, a hash, a public value, a setting (`ALGOLIA_APP_ID`, `SENTRY_AUTH_TOKEN_FILE`).
 */
const NOT_CREDENTIAL_END = /(?:^|[^a-z])(?:id|ids|name|url|uri|host|endpoint|region|email|user|username|account|org|project|hash|digest|sha\d*|checksum|fingerprint|public|publishable|expiry|expires|ttl|length|count|size|file|path|type|version|header|prefix|label|hint|placeholder)$/i;

const isLetterOrDigit = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/**
 * The last of the key's words (split on anything but letters and digits, and before a capital
 * that follows a small letter or digit), read back from the key's end: it runs for every
 * key-named finding.
 */
export function lastWord(key: string): string {
  let end = key.length;
  while (end > 0 && !isLetterOrDigit(key.charCodeAt(end - 1))) end--;
  let start = end;
  while (start > 0 && isLetterOrDigit(key.charCodeAt(start - 1))) {
    const c = key.charCodeAt(start - 1);
    start--;
    // a capital after a small letter or a digit begins this word
    if (c >= 65 && c <= 90 && start > 0) {
      const before = key.charCodeAt(start - 1);
      if ((before >= 97 && before <= 122) || (before >= 48 && before <= 57)) break;
    }
  }
  return key.slice(start, end);
}

/** A provider's credential named by a key: the key names a credential and ends in no other thing. */
export function namesCredential(provider: string, rest: string): boolean {
  const key = provider + rest;
  return (CREDENTIAL_WORD.test(key) || CAMEL_PAT.test(key)) && !NOT_CREDENTIAL_END.test(lastWord(key));
}

export interface KeyedCredential {
  id: string;
  family: string;
  description: string;
  /**
   * Provider names that begin a word of the key (see SecretRule.keyNames); the rest of the key
   * (up to 32 characters) must name a credential.
   */
  names: readonly string[];
  /** Regex sources of the value shapes this provider's credential has (see SHAPE). */
  values: readonly string[];
  /** Minimum Shannon entropy of the value. @default 2.5 */
  minEntropy?: number;
  /** A check on the value itself (a range, a structure). */
  check?: (value: string) => boolean;
  /** Key and value for the generated examples: `env=value`, JSON, code. */
  example: { env: string; value: (salt: string) => string };
  /** More examples, beyond the generated ones. */
  truePositives?: readonly string[];
  falsePositives?: readonly string[];
}

const camel = (env: string) => env.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * A credential that has no prefix of its own (32 hex, a UUID, 40 letters and digits) and is
 * recognised by the key it is assigned to: a provider word (`heroku`, `DD_API`) and a credential
 * word (`_API_KEY`, `Token`), in any assignment form. Hex, UUID and digit values count here, as
 * they do not for the generic rule.
 */
export function keyed(k: KeyedCredential): SecretRule {
  const { env, value } = k.example;
  const v1 = value(`${k.id}1`);
  const v2 = value(`${k.id}2`);
  const idKey = env.replace(/(?:KEY|TOKEN|SECRET|PASSWORD|PAT)$/, 'ID');
  return rule({
    id: k.id,
    family: k.family,
    description: k.description,
    keywords: [],
    keyNames: k.names,
    prefilter: keyedPrefilter(k.names),
    // (a space alone before the value, after a CONSTANT_NAME or a flag: `ENV HEROKU_API_KEY v`, `--heroku-api-key v`)
    pattern: re(`(?<provider>${k.names.map(namePattern).join('|')})`, String.raw`(?<rest>[\w.-]{0,32}?)`, TAIL_OR_SPACE, `(?<secret>${k.values.join('|')})`, String.raw`(?![\w+/=-])`),
    secretGroup: 'secret',
    minEntropy: k.minEntropy ?? 2.5,
    validate: (value, m) =>
      namesCredential(m.groups!['provider']!, m.groups!['rest']!) &&
      (m.groups!['ws'] === undefined || spacedAssignment(m.input, m.index, m[0])) &&
      (k.check?.(value) ?? true),
    examples: {
      truePositives: [`${env}=${v1}`, `{"${camel(env)}": "${v2}"}`, `ENV ${env} ${v1}`, ...(k.truePositives ?? [])],
      falsePositives: [`${env}=\${${env}}`, `${idKey}=${v1}`, `${camel(env)} ${v1}`, ...(k.falsePositives ?? [])],
    },
  });
}
