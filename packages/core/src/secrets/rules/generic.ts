import type { SecretRule } from '../types.js';
import { ARGUMENTS, NAMES, OPERATORS, isCredentialLike, isDocumentationJwt, operatorExpression, scrambled, shannonEntropy, withoutCalls } from '../value-filters.js';
import { hasMask, hasPlaceholderWords, placeholderShape } from '../placeholders.js';
import { isDocumentationPassword } from '../password-values.js';
import { rule } from './define.js';
import { PAT_KEY_WORDS, namePattern } from '../key-names.js';
import { HCL_DEFAULT, TAIL_OR_SPACE, keyAround, re, spacedAssignment } from './patterns.js';
import { ALNUM, B64, B64URL, HEX, sample } from './sample.js';

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
  'access_key', 'auth_key', 'private_key', 'credentials', 'credential', 'client_secret', 'auth',
];

/** Key names that carry a secret word but hold no secret: hashes, ids, names, paths, policies, scopes, a token's audience or algorithm, a secret's version. */
const NOT_A_SECRET_KEY = /hash|digest|sha\d*|checksum|integrity|fingerprint|_?id$|name|file|path|url|uri|endpoint|type|len|count|size|expir|ttl|format|field|policy|prompt|label|hint|placeholder|env|var|header|param|reset|min|max|prefix|suffix|scope|permission|audience|issuer|algorithm|version/i;

/**
 * Words of a key that make its token a handle, not a credential: a page or continuation token
 * (`nextPageToken`, `--starting-token`, `continuation_token`, `cursor_token`), a CSRF token or
 * nonce, a sync token. Matched against the whole key's words (`next_page_token`, `csrf-token`).
 */
const HANDLE_WORDS = new Set(['page', 'paging', 'pagination', 'continuation', 'starting', 'cursor', 'csrf', 'xsrf', 'nonce', 'next', 'resume', 'sync', 'marker']);
const KEY_WORDS = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g;
/** Any of HANDLE_WORDS in a key, in any case (a cheap test before the key is split into words). */
const HANDLE_HINT = /page|paging|continuation|starting|cursor|csrf|xsrf|nonce|next|resume|sync|marker/i;

/** The key names a handle (HANDLE_WORDS). */
function namesHandle(key: string): boolean {
  for (const m of key.matchAll(KEY_WORDS)) if (HANDLE_WORDS.has(m[0].toLowerCase())) return true;
  return false;
}

/**
 * A reference to a secret a tool resolves at run time, not the secret: `vault:secret/data/db#password`,
 * `ssm:/prod/db/password`, `secretsmanager:prod/db`, `keyvault:db-password`, `sops:…`, or an AWS
 * resource's name, `arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbC1dE`.
 */
const SECRET_REFERENCE = /^(?:vault|ssm|secretsmanager|awssm|gcpsm|keyvault|azurekeyvault|kms|sops|doppler|infisical|arn:aws[\w-]{0,12}):[\w./#:@+=,-]+$/i;

/**
 * Keys made to be published, whatever the key they are assigned to says (`accessToken = 'pk.eyJ…'`):
 * Stripe's and Clerk's publishable keys, Mapbox's public tokens, PostHog's project keys, Supabase's
 * and Lob's publishable keys. Their secret counterparts (`sk_live_`, `sk.eyJ`, `phx_`, `sb_secret_`)
 * have rules of their own.
 */
const PUBLIC_BY_DESIGN = /^(?:pk_(?:live|test)_|pk\.eyJ|phc_|sb_publishable_|(?:live|test)_pub_)/;

/** An AWS ARN's resource type before the match (`arn:aws:secretsmanager:…:secret:prod/db-password-AbC123`). */
const ARN_BEFORE = /\barn:aws[\w-]*:[\w-]+:[\w-]*:\d*:$/;

/**
 * `auth` alone is a key (`auth = "v"`, `"auth": "v"`, `--auth v`, `basic_auth: v`), not the
 * start of one (`auth_method`, `auth.provider`): the key ends with it, as its own word or
 * camelCase's last (`basicAuth`, `proxyAuth`, a setter's `setAuth(`; not `OAuth`).
 */
function authKey(whole: string): boolean {
  return /(?:^|[_.-])auth$/i.test(whole) || /[a-z0-9]Auth$/.test(whole);
}

/**
 * Base64 of printable text that is no `user:password` pair: under an `auth` key, the value a
 * Docker config's `auth` holds when it is no credential (docker-config-auth judges those).
 */
function encodesNoPair(value: string): boolean {
  if (value.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
  const text = Buffer.from(value, 'base64').toString('latin1');
  return /^[\x20-\x7e]+$/.test(text) && !text.includes(':');
}

/**
 * A value in a call after the key (`setApiKey("v")`, `.apiKey("v")`) is assigned only by a
 * setter (`set`/`with`/`put` + the key) or a builder: a method named by the key, chained after a
 * call (`Client.builder().apiKey("v")`) or called on a builder (`builder.apiKey("v")`).
 */
function assigningCall(whole: string): boolean {
  const dot = whole.lastIndexOf('.');
  const method = whole.slice(dot + 1);
  if (/^(?:set|with|put)(?:[A-Z_]|$)/.test(method)) return true;
  return dot === 0 || (dot > 0 && /builder$/i.test(whole.slice(0, dot)));
}

/** The tail of an XML element's start tag before its content (`password>`, `"password">`, `password><![CDATA[`). */
const ELEMENT_TAIL = /^\\{0,3}["'\x60]?>\s*(?:<!\[CDATA\[)?$/;
/** An element's content going on to its end tag: the rest of its line, then `</` (maybe on the next line). */
const TO_END_TAG = /[^<\r\n]{0,200}\s{0,40}<\//y;

/**
 * A value read as an element's content is one when the element ends after it: a start tag's `>`
 * is also a fill-in's (`GH_TOKEN=<your-token>⏎LOG_LEVEL=info`, `mongodb://<user>:<password>@host`),
 * whose next text is no value of it.
 */
function elementContent(tail: string, match: RegExpExecArray): boolean {
  if (!tail.includes('>') || !ELEMENT_TAIL.test(tail)) return true;
  TO_END_TAG.lastIndex = match.index + match[0].length;
  return TO_END_TAG.test(match.input);
}

/**
 * A type between a key and its `=` holds `&` only where a reference begins (`: &str`,
 * `Option<&str>`), never after a word: `token refresh&page=2` is a query string's text.
 */
const WORD_AMPERSAND = /[\w.]&/;

/** The end of a sed substitution's pattern, `.*` and its delimiter (`sed 's/^API_KEY=.*` + `/API_KEY=x/'`): a regular expression, not a value. */
const SED_PATTERN_END = /^\.[*+]\$?[/|#]/;

/** A word that ends a regular expression literal (`toThrow(/refresh OIDC token: Unauthorized/)`): the word, then the literal's `/` and its flags. */
const REGEX_LITERAL_END_WORD = /^[A-Za-z][a-z]+\/[dgimsuvy]{0,8}$/;
/** The opening `/` of a regular expression literal on the same line before a key (after `(`, `,`, `=`, `:` or a line's start). */
const REGEX_LITERAL_OPEN = /(?:^[ \t]{0,64}|[(,=:!&|?]\s{0,4})\/[^/\s*][^/\r\n]{0,200}$/;

/** A file a CLI reads the value from (`vault kv put … password=@password.txt`, httpie's `token=@token.txt`): `@`, a path, an extension. */
const FILE_REFERENCE = /^@(?:~?\/|\.{1,2}\/)?[\w-]+(?:\/[\w.-]+)*\.[A-Za-z]{1,5}$/;

/** A command line's long option (`--approval-mode`, `--output-format=json` up to its `=`): words of small letters and digits after `--`. */
const LONG_OPTION = /^--[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

function genericValue(secret: string, match: RegExpExecArray, minEntropy = 3): boolean {
  const key = match.groups?.['key'] ?? '';
  if (NOT_A_SECRET_KEY.test(key)) return false;
  const input = match.input;
  // (after a space alone, a value that begins with `-` is the next flag: `$env:DB_PASSWORD -AsPlainText`)
  if (match.groups?.['ws'] !== undefined && (secret.charCodeAt(0) === 45 || !spacedAssignment(input, match.index, match[0]))) return false;
  // (a long option after any separator is a command line's next argument, `["-p", "where is the secret", "--output-format"]`:
  // a Node process's `process.command_args`, which OpenTelemetry's resource detector records)
  if (LONG_OPTION.test(secret)) return false;
  const next = input.charCodeAt(match.index + match[0].length);
  if (next === 40 /* ( */) return false; // a call: token = getToken(...)
  // (a query parameter of a badge or a coverage graph, `badge.svg?token=…`, `project_badges/measure?…&token=…`: an embed token made to be published)
  if (input.charCodeAt(match.index - 1) === 63 /* ? */ || input.charCodeAt(match.index - 1) === 38 /* & */) {
    if (SVG_QUERY_BEFORE.test(input.slice(Math.max(0, match.index - 200), match.index))) return false;
  }
  // (a token's prefix before a fill-in or a template, `TS_AUTHKEY=tskey-auth-<your-key>`, `tvly-{{ key }}`: no body yet;
  // `</` closes the element the value is in: `<apiSecret>…_</apiSecret>`)
  if (((next === 60 /* < */ && input.charCodeAt(match.index + match[0].length + 1) !== 47) /* / */ || next === 123 /* { */) && /[-_]\$?$/.test(secret)) return false;
  // (a shell parameter's error when unset, `${DB_PASSWORD:?must be set}`, is a message)
  if (secret.charCodeAt(0) === 63 /* ? */ && input.charCodeAt(match.index + match[0].length - secret.length - 1) === 58 && /\$\{[\w]*$/.test(input.slice(Math.max(0, match.index - 66), match.index))) return false;
  // (`::` is a path's separator in Rust, C++, PHP and Ruby, `codex_login::auth::manager` as a Rust
  // program's traces name their modules: what follows the key is the path's next name, no value)
  if (secret.charCodeAt(0) === 58 /* : */ && input.charCodeAt(match.index + match[0].length - secret.length - 1) === 58) return false;
  const tail = match[0].slice((match.groups?.['word'] ?? '').length + key.length, match[0].lastIndexOf(secret));
  if (!elementContent(tail, match) || WORD_AMPERSAND.test(tail) || SED_PATTERN_END.test(secret) || FILE_REFERENCE.test(secret)) return false;
  if (REGEX_LITERAL_END_WORD.test(secret) && REGEX_LITERAL_OPEN.test(input.slice(Math.max(input.lastIndexOf('\n', match.index) + 1, match.index - 300), match.index))) return false;
  // (the value first: it turns away nearly every candidate in code and prose)
  // (a hex value counts: the key names a secret, and hashes under keys that say so are ruled out above)
  if (!isCredentialLike(secret, 8, minEntropy, true) || isDocumentationJwt(secret) || SECRET_REFERENCE.test(secret) || PUBLIC_BY_DESIGN.test(secret) || isDocumentationPassword(secret)) return false;
  const whole = keyAround(input, match.index, match[0]).key;
  if (HANDLE_HINT.test(whole) && namesHandle(whole)) return false;
  const word = match.groups?.['word'] ?? '';
  if (/^auth$/i.test(word) && (key !== '' || !authKey(whole) || encodesNoPair(secret))) return false;
  // a value in a call after the key (`setApiKey("v")`): the first character after the key
  if (input.charCodeAt(match.index + word.length + key.length) === 40 && !assigningCall(whole)) return false;
  return !(input.charCodeAt(match.index - 1) === 58 && ARN_BEFORE.test(input.slice(Math.max(0, match.index - 120), match.index)));
}

/** A URL's path to an SVG image or a badge (SonarCloud's `project_badges/measure`), then its query up to a parameter (read back from a key's start). */
const SVG_QUERY_BEFORE = /(?:\.svg|\/project_badges\/[\w-]{1,32})\?(?:[\w.%-]{1,64}=[\w.%-]{0,128}&){0,8}$/;

const VALUE = String.raw`(?<secret>[^\s"'\x60;,\\=(){}<>\[\]|&][^\s"'\x60;,\\(){}<>\[\]]{7,199})`;

/** A secret word (group `word`), the rest of its key (`key`), an assignment or a space, a value. */
function genericPattern(words: string): RegExp {
  return re(`(?<word>${words})(?![a-z])`, String.raw`(?<key>[\w.-]{0,24}?)`, TAIL_OR_SPACE, VALUE);
}

/** Generic `password=` / `api_key:` assignments whose value is random enough to be a credential. */
export const GENERIC_ASSIGNMENT_RULE: SecretRule = rule({
  id: 'generic-secret-assignment',
  family: 'generic',
  description: 'password= / secret: / api_key: / token= assignments (env, YAML, JSON, code, CLI flags) with an entropy threshold',
  keywords: [
    'pass', 'pwd', 'secret', 'token', 'api_key', 'api-key', 'api.key', 'apikey', 'access_key', 'access-key', 'accesskey', 'auth_key', 'authkey',
    'private_key', 'private-key', 'private.key', 'privatekey', 'credential',
    // `auth` only as a whole key, before what an assignment begins with
    'auth"', "auth'", 'auth=', 'auth:', 'auth ', 'auth\\', 'auth>', 'auth\n', 'auth<', 'auth(', 'auth[', 'auth,',
  ],
  pattern: genericPattern(SECRET_WORDS.map(word).join('|')),
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
      // hex of digest length, as `openssl rand -hex 32` makes it
      `SESSION_SECRET=${sample(HEX, 64, 'g11')}`,
      `{"client_secret": "${sample(HEX, 40, 'g12')}"}`,
      // an XML element's content in a CDATA section
      `<password><![CDATA[${sample(ALNUM, 18, 'g13')}]]></password>`,
      // a random value that happens to end in `_` before the closing tag
      `<apiSecret>${sample(B64URL, 31, 'g13b')}_</apiSecret>`,
      // a literal default after an environment read
      `const pw = process.env.DB_PASSWORD || "${sample(ALNUM, 14, 'g14')}4x";`,
      `const key = process.env.API_KEY ?? '${sample(ALNUM, 24, 'g15')}';`,
      `$pass = getenv('SMTP_PASSWORD') ?: '${sample(ALNUM, 16, 'g16')}';`,
      `api_key = os.getenv("API_KEY") or "${sample(ALNUM, 24, 'g17')}"`,
      // a `key value` config line (msmtprc, fetchmailrc): `password v` alone on its line
      `account default\nhost smtp.example.net\nauth on\nuser alerts@example.net\npassword ${sample(ALNUM, 18, 'g18')}\n`,
      // YAML's string tag before the value
      `smtp:\n  password: !!str ${sample(ALNUM, 18, 'g19')}\n`,
      // Emacs Lisp setting a variable
      `(setq smtpmail-smtp-password "${sample(ALNUM, 16, 'g20')}")`,
      // a call that makes a string of the literal, after a type too; a bundler's define
      `let api_token: String = String::from("${sample(ALNUM, 24, 'g21')}");`,
      `class Settings(BaseSettings):\n    openai_api_key: SecretStr = SecretStr("${sample(ALNUM, 32, 'g22')}")`,
      `  define: {\n    'process.env.STRIPE_SECRET': JSON.stringify('${sample(ALNUM, 28, 'g23')}'),\n  },`,
      // C's array of chars
      `static const char WIFI_PASSWORD[] = "${sample(ALNUM, 14, 'g24')}";`,
      `constexpr char apiToken[33] = "${sample(ALNUM, 32, 'g25')}";`,
      // Capistrano's and Sinatra's setting of a symbol
      `set :deploy_token, '${sample(ALNUM, 24, 'g26')}'`,
      // a servlet's init or context parameter; .NET's application settings
      `<context-param>\n  <param-name>apiKey</param-name>\n  <param-value>${sample(ALNUM, 32, 'g27')}</param-value>\n</context-param>`,
      `<setting name="ServiceApiKey" serializeAs="String">\n  <value>${sample(ALNUM, 32, 'g28')}</value>\n</setting>`,
      // a one-word capital name after csh's setenv, fish's set -gx, C's #define
      `setenv PASSWORD ${sample(ALNUM, 16, 'g29')}`,
      `set -gx PASSWORD ${sample(ALNUM, 16, 'g30')}`,
      `#define PASSWORD "${sample(ALNUM, 16, 'g31')}"`,
      // `!=` between random characters: a password's, not code's comparison
      `DB_PASSWORD=${sample(ALNUM, 6, 'g32')}!=${sample(ALNUM, 7, 'g33')}4`,
      `{"password": "${sample(ALNUM, 5, 'g34')}9!=${sample(ALNUM, 6, 'g35')}"}`,
      // a Java .properties line with a space as its separator: a dotted key alone on its line with its value
      `db.url=jdbc:postgresql://db:5432/app\ndb.password ${sample(ALNUM, 16, 'g36')}\n`,
      `# datasource\nspring.datasource.password   ${sample(ALNUM, 20, 'g37')}\n`,
      // a camelCase key whose last word is Auth
      `basicAuth: "${sample(ALNUM, 24, 'g39')}"`,
      `proxyAuth = "deploy:${sample(ALNUM, 16, 'g40')}"`,
      // `._` and a digit in a password: no member name
      `DB_PASSWORD=${sample(ALNUM, 13, 'g41')}._7`,
      // `++` before random characters, which are no operand
      `SMTP_PASSWORD=${sample(ALNUM, 10, 'g42')}++~G.${sample(ALNUM, 6, 'g43')}%4`,
    ],
    falsePositives: [
      // a path of Rust modules (a Rust program's spans name theirs, `code.module.name`), C++ namespaces, PHP and Ruby classes
      'codex_login::auth::manager',
      'crate::auth::token_store::refresh',
      'use aws_config::auth::CredentialsProvider;',
      'klass = Google::Auth::ServiceAccountCredentials',
      // a command line's arguments as a list (a Node process's `process.command_args`): the option after the words is no value of theirs
      '["/usr/bin/node","gemini.js","-p","Where is the secret","--output-format","json"]',
      '["-p","Write the service account settings to deploy/credentials.json.","--approval-mode","yolo"]',
      // `!=` between code's operands: a comparison
      'passwordChanged: user.password!=form.password',
      'tokenValid=token!=null',
      // a dotted key and a word after it in prose, not a properties line
      `Set db.password ${sample(ALNUM, 16, 'g38')} in the console first.`,
      'db.password changeme',
      // a redaction marker's rule id before what followed the redacted token: no key
      'npm [REDACTED:npm-access-token]=Zq8vL2mX9kR4wT',
      'password: ${DB_PASSWORD}',
      'password: !!str ${DB_PASSWORD}',
      'token: !!str changeme',
      '(setq my-password (read-passwd "Password: "))',
      '(defcustom foo-token nil "The API token for foo.")',
      'docker run -e "ACCEPT_EULA=Y" -e "MSSQL_SA_PASSWORD=YourStrong@Passw0rd" -p 1433:1433 mcr.microsoft.com/mssql/server:2022-latest',
      '[![codecov](https://codecov.io/gh/acme/app/branch/main/graph/badge.svg?token=yZL6LtXkOA)](https://codecov.io/gh/acme/app)',
      "await expect(refresh()).rejects.toThrow(/Failed to refresh OIDC token: Unauthorized/);",
      'TS_AUTHKEY=tskey-auth-<your-key>',
      // a key made to be published, under a key named like a secret
      `mapboxgl.accessToken = 'pk.eyJ1Ijoi${sample(B64URL, 40, 'g50')}.${sample(B64URL, 22, 'g51')}';`,
      `const stripe = Stripe({ apiKey: 'pk_live_${sample(ALNUM, 24, 'g52')}' });`,
      // the secret's name in AWS, not its value
      'db_secret_arn: arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/orders-db-Xq3Lm9',
      'TS_AUTHKEY="tskey-auth-{{ .Values.tailscale.key }}"',
      'TS_AUTHKEY=tskey-auth-${TS_KEY_BODY}',
      'api_key: {{ secrets.API_KEY }}',
      'password = <your-password>',
      'token = getAccessToken();',
      'const accessToken = this.tokenStore.current;',
      'password: process.env.DB_PASSWORD',
      // a fallback to another variable, a call or a placeholder is no literal credential
      'const pw = process.env.DB_PASSWORD || config.database.password;',
      "const key = process.env.API_KEY ?? '';",
      "const secret = process.env.JWT_SECRET || 'change-me-in-production';",
      'token = os.getenv("GITHUB_TOKEN") or read_token_file(path)',
      'export PGPASSWORD="${DB_PASSWORD:?DB_PASSWORD must be set}"',
      // a spaced `password v` that is no line of its own is prose
      `Change your password ${sample(ALNUM, 18, 'g19')} today`,
      'password\ttoo short\n',
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
      'apiKey: process.env.API_KEY!',
      // camelCase names whose words carry digits
      'token = k8sServiceAccountTokenProvider',
      'const secret = s3BucketSecretName;',
      'password: oauth2ClientPasswordGrant',
      'password = "vault:secret/data/db#password"',
      'DB_PASSWORD=ssm:/prod/payments/db-password',
      // jwt.io's sample token, as every JWT tutorial shows it (the jwt rule drops it too)
      '"token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"',
      // a fill-in's `>` is no start tag: the text after it is no element's content
      'cat > .env <<EOF\nGH_TOKEN=<your-token>\nLOG_LEVEL=info\nEOF',
      'mongodb+srv://<username>:<password>@cluster0.ab1cd.mongodb.net/?retryWrites=true',
      'ENV GITHUB_TOKEN=<TOKEN> PYTHONUNBUFFERED=1',
      '  with:\n    password: <your-api-key>\n    dry-run: false',
      // a CONSTANT_NAME after `=` or `$` is a value or a variable, not a key taking the next word
      'docker run -d -e GROQ_API_KEY=YOUR_API_KEY_HERE ghcr.io/acme/api:1.4.2',
      'docker run -d -e SENDGRID_API_KEY=$SECRET_VALUE ghcr.io/acme/api:1.4.2',
      // a query string's words are no typed assignment (`token refresh&page` is no type)
      'curl "https://api.acme.io/v1/search?q=token%20refresh&page=2&session=407626fd-50b3-45de-8a69-ba2eb1846245"',
      // a sed substitution's pattern
      "sed -i 's/^OPENAI_API_KEY=.*/OPENAI_API_KEY=<your-api-key>/' .env",
      "sed -i 's/^NPM_TOKEN=.*/NPM_TOKEN=${NPM_TOKEN}/' .env",
      // a file the CLI reads the value from
      'vault kv put secret/prod/db username=app password=@password.txt',
      'http POST api.acme.io/login token=@./secrets/token.json',
      // the forms above with no literal: an environment read, a name, a length
      'let api_token: String = String::from(env!("API_TOKEN"));',
      'openai_api_key: SecretStr = SecretStr(os.environ["OPENAI_API_KEY"])',
      "'process.env.STRIPE_SECRET': JSON.stringify(process.env.STRIPE_SECRET),",
      'static char wifi_password[PASSWORD_LEN];',
      "set :deploy_token, ENV['DEPLOY_TOKEN']",
      '<param-name>apiKey</param-name>\n<param-value>${API_KEY}</param-value>',
      'setenv PASSWORD $DB_PASSWORD',
      'set -gx PASSWORD (cat ~/.config/db-password)',
      '#define PASSWORD_MAX_LENGTH 64',
      // a secret's version, not the secret
      `secret_version = "${sample(HEX, 32, 'gv')}"`,
      // Auth ending a camelCase key, with no literal; OAuth is no Auth word of its own
      'basicAuth: "${BASIC_AUTH}"',
      'proxyAuth = process.env.PROXY_AUTH;',
      'const needsAuth = requiresAuthentication(route);',
      // operators between names, ._ before a name
      'token = this._tokenStore.current',
      'password = retries++',
    ],
  },
});

/**
 * Keys that name a key by what it is for (`ENCRYPTION_KEY`, `signingKey`, `master-key`,
 * `session.key`, `HMAC_KEY`): no secret word of their own, and words too common in text
 * (`session`, `master`) to be keywords. Found the way key-named provider rules are (keyNames):
 * at the credential-word hits of `_key`, `key=`, `Key"`, … whose key has one of these words.
 */
const KEY_PURPOSES = ['encryption', 'signing', 'master', 'session', 'hmac'];

/** `encryption_key=` / `signingKey:` / `master-key` / `session.key` / `hmac_key` assignments. */
export const GENERIC_KEY_ASSIGNMENT_RULE: SecretRule = rule({
  id: 'generic-key-assignment',
  family: 'generic',
  description: 'encryption_key= / signing_key: / master_key / session_key / hmac_key assignments, with the generic value checks',
  keywords: [],
  keyNames: KEY_PURPOSES,
  prefilter: `(?:${KEY_PURPOSES.join('|')})[_.-]?key`,
  pattern: genericPattern(`(?:${KEY_PURPOSES.map(namePattern).join('|')})[_.-]?[kK][eE][yY]`),
  secretGroup: 'secret',
  generic: true,
  validate: genericValue,
  examples: {
    truePositives: [
      `ENCRYPTION_KEY=${sample(B64, 44, 'k1')}`,
      `{"signingKey": "${sample(ALNUM, 32, 'k2')}"}`,
      `rails:\n  master_key: ${sample(ALNUM, 32, 'k3')}`,
      `app.session.key=${sample(ALNUM, 24, 'k4')}9`,
      `export HMAC_KEY="${sample(ALNUM, 40, 'k5')}"`,
      `docker run -e DB_ENCRYPTION_KEY=${sample(ALNUM, 28, 'k6')} app`,
      `AES_ENCRYPTION_KEY=${sample(HEX, 64, 'k8')}`,
      `--master-key ${sample(ALNUM, 30, 'k7')}`,
    ],
    falsePositives: [
      'ENCRYPTION_KEY=${ENCRYPTION_KEY}',
      'session_key: "sessionKeyFromCookie"',
      'signing_key_id: 4f9c2a7e-1b3d-4e5f-8a9b-0c1d2e3f4a5b',
      'masterKeyPath = "/etc/keys/master.key"',
      'const sessionKey = this.store.currentKey;',
      'ENCRYPTION_KEY_FILE=/run/secrets/encryption_key',
      'hmac_key_prefix = "hk_"',
      'signing_key: <your-signing-key>',
    ],
  },
});

/**
 * `PAT` as its own word at a key's end: after a separator or the key's start in any case
 * (`GITLAB_PAT`, `pat`, `azure-devops-pat`), or a camelCase word (`githubPat`, `adoPAT`), and no
 * letter or digit after it (`path`, `PATH`, `Pattern`, `PATCH`, `pats`).
 */
const PAT_WORD = String.raw`(?:(?<![A-Za-z0-9])[pP][aA][tT]|(?<=[a-z0-9])P(?:at|AT))(?![A-Za-z0-9])`;

/** `GITLAB_PAT=` / `azureDevOpsPat:` / `"githubPat":` assignments, with the generic value checks. */
export const GENERIC_PAT_RULE: SecretRule = rule({
  id: 'generic-pat-assignment',
  family: 'generic',
  description: 'Personal access token assigned to a key whose last word is PAT (GITLAB_PAT=, azureDevOpsPat = "…", "githubPat": "…", --gitea-pat v; not path, pattern, patch), with the generic value checks',
  keywords: [...PAT_KEY_WORDS],
  pattern: re(`(?<word>${PAT_WORD})`, '(?<key>)', TAIL_OR_SPACE, VALUE),
  secretGroup: 'secret',
  generic: true,
  validate: genericValue,
  examples: {
    truePositives: [
      `GITLAB_PAT=${sample(ALNUM, 26, 'pat1')}`,
      `azureDevOpsPat = "${sample(ALNUM, 52, 'pat2')}";`,
      `const client = Client.builder().giteaPat("${sample(ALNUM, 32, 'pat8')}").build();`,
      `{"githubPat": "${sample(ALNUM, 40, 'pat3')}"}`,
      `ci:\n  deploy_pat: ${sample(ALNUM, 32, 'pat4')}\n`,
      `export GITEA_PAT="${sample(HEX, 40, 'pat5')}"`,
      `const adoPAT = '${sample(ALNUM, 36, 'pat6')}';`,
      `tea login add --name ci --pat ${sample(HEX, 40, 'pat7')}`,
      `        env:\n          - name: GITEA_PAT\n            value: "${sample(ALNUM, 40, 'pat9')}"\n`,
    ],
    falsePositives: [
      'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin',
      'pathPattern = "src/**/*.generated.ts"',
      'patch: 1.2.3-beta.4+exp.sha.5114f85',
      'const filePath = "/var/lib/app/uploads/report.csv";',
      '{"firstName": "Pat", "lastName": "Lee", "role": "maintainer"}',
      'GITLAB_PAT=${GITLAB_PAT}',
      'azureDevOpsPat: process.env.AZURE_DEVOPS_PAT',
      'githubPat = "<your-personal-access-token>"',
      'PAT_EXPIRY_DAYS=90',
      'SEARCH_PATTERN=^[A-Za-z0-9_]{3,32}$',
    ],
  },
});

/** Characters the generic value stops at (a bracket, a list's or a statement's separator, a pipe): a quoted value may hold them. */
const STOPS = String.raw`[;,(){}<>\[\]|&]`;
const STOP_CHAR = new RegExp(STOPS);
/** A list: lowercase words or CONSTANT names (`repo,read:org,workflow`, `READ|WRITE`) between `,`, `;`, `|` or `&`. */
const NAME_LIST = /^(?:[a-z][a-z0-9_.-]*(?::[a-z0-9_.-]+)*|[A-Z][A-Z0-9_]*)(?:[,;|&][ \t]?(?:[a-z][a-z0-9_.-]*(?::[a-z0-9_.-]+)*|[A-Z][A-Z0-9_]*))+$/;
/** Code: a name with type arguments, an index or a call's arguments, maybe a union (`List<String>`, `config[api_key]`, `Array<string>|null`). */
const CODE_SHAPE = /^[A-Za-z_$][\w$.]*(?:<[\w$.,<>]*>|\[[\w$.'":-]*\]|\([\w$.,]*\))+(?:\|[\w$.<>]+)*$/;
/**
 * What a regular expression is written with: a leading `^`, a trailing `$`, a group, a counted
 * repeat, `.*` or `.+`, an escaped class, a class's ranges (each counts). A random password holds
 * one now and then (a leading `^` or a trailing `$`: one in 45), a pattern more than one.
 */
const REGEX_MARKS = [/^\^/, /\$$/, /\(\?[:=!<]/, /\{\d+(?:,\d*)?\}/, /\.[*+]/, /\\[dswbDSWB]/];
const CLASS_RANGES = /\[[^[\]]*\]/g;

function regexShaped(value: string): boolean {
  let marks = 0;
  for (const mark of REGEX_MARKS) if (mark.test(value) && ++marks > 1) return true;
  if (!value.includes('[')) return false;
  for (const m of value.matchAll(CLASS_RANGES)) if ((marks += m[0].match(/\w-\w/g)?.length ?? 0) > 1) return true;
  return false;
}

/** A whole value in brackets around words or a list: a list, a call's arguments, a fill-in (`{password}`, `[token]`, `(user,salt)`), not `<bx,k}5>`. */
const BRACKETED = /^(?:\{[\w .:,;|/-]*\}|\[[\w .:,;|/-]*\]|\([\w .:,;|/-]*\)|<[\w .:,;|/-]*>)$/;

/**
 * Templates a tool fills in, whole constructs (a random password holds `${`, `{{` or `$(` by
 * chance, seldom a name and its closing bracket after them). Masks are the placeholder filter's (hasMask).
 */
const TEMPLATE = new RegExp([
  // `${NAME}`, `${NAME:-default}`, `${1:?error}`, `${#NAME}`, `${NAME//a/b}`, `${NAME^^}`, Spring's
  // `${db.password:default}`, GitHub's `${{ secrets.X }}`, Serverless's `${ssm:/db/pw}`, `${file(x.json):pw}`
  String.raw`\$\{\{?[ \t]*[#!]?\w[\w.-]{0,63}(?:\([^(){}]{0,100}\))?[ \t]*(?:\}|(?::?[-=?+]|:|\/\/?|##?|%%?|\^\^?|,,?|@)[^{}]{0,100}\})`,
  // Ruby's and Spring EL's `#{vault.password}`
  String.raw`#\{[ \t]*[A-Za-z_][\w.]{0,63}[ \t]*\}`,
  // PHP's interpolation of a variable in braces: `"{$prefix}{$suffix}"`, `"{$this->key}"`, `"{$cfg['key']}"`
  String.raw`\{\$[A-Za-z_]\w{0,63}(?:(?:->|::)\w{1,64}|\[[^\]\s]{0,64}\])*\}`,
  // a command's output or a Makefile variable: `$(cat /run/secrets/db)`, `$(pass show db)`, `$(DB_PASSWORD)`, `` `pass show db` ``
  String.raw`\$\([ \t]*[A-Za-z_][\w.-]{1,63}(?:[ \t][^()]{0,100})?\)|\x60[a-z][\w.-]{1,63}(?:[ \t][^\x60]{0,100})?\x60`,
  // Jinja, Helm, Go, Handlebars: `{{ password }}`, `{{ .Values.password }}`, `{{ $pw | b64enc }}`;
  // CloudFormation's `{{resolve:secretsmanager:db:SecretString:password}}`
  String.raw`\{\{-?[ \t]*[.$]?[A-Za-z_][\w.]{0,63}(?::[\w.:/@+=-]{1,200})?(?:[ \t]*\|[ \t]*[\w.]{1,32})*[ \t]*-?\}\}`,
  // ERB, JSP, ASP: `<%= password %>`
  String.raw`<%[^%]{0,100}%>`,
  // configparser's `%(password)s`, Windows' `%DB_PASSWORD%`
  String.raw`%\([\w.]{1,64}\)s|(?<![A-Za-z0-9])%[A-Z_]{2,}%(?![A-Za-z0-9])`,
].join('|'));

/** One word of a fill-in: lowercase (maybe camelCase, `apiKey`), capitalised or in capitals, digits after. */
const FILL_IN_WORD = '(?:[a-z][a-z0-9]*(?:[A-Z][a-z0-9]{2,})*|[A-Z](?:[a-z][a-z0-9]*|[A-Z][A-Z0-9]*|[0-9]*))';
/** A fill-in: `<` words `>` (`<your-api-key>`, `<PASSWORD>`, `<db password>`, `<apiKey>`). */
const FILL_IN = new RegExp(`<(${FILL_IN_WORD}(?:[ _.-]${FILL_IN_WORD})*)>`, 'g');

/**
 * A fill-in of four letters or more inside a value (a whole one is BRACKETED), or of three in one
 * case at its end after a token's prefix (`tvly-<key>`): random characters in brackets (`<bx,k}5>`,
 * `<Rk>`, `<Ayj>`) are no fill-in.
 */
function hasFillIn(value: string): boolean {
  if (!value.includes('<')) return false;
  for (const m of value.matchAll(FILL_IN)) {
    if (m[1]!.replace(/[^A-Za-z]/g, '').length >= 4) return true;
    // a short word in one case that ends the value after a token's prefix: `tvly-<key>`, `pk-lf-<KEY>`
    if (/^(?:[a-z]{3}|[A-Z]{3})$/.test(m[1]!) && m.index + m[0].length === value.length && /[-_]$/.test(value.slice(0, m.index))) return true;
  }
  return false;
}

/** A variable, or an expression on one, as the whole value (`$DB_PASSWORD`, `$env:DB_PASSWORD`, `$this->password;`), not a password that begins with `$`. */
const VARIABLE = /^\$(?:env:)?[A-Za-z_]\w*(?:(?:->|::|\.)[A-Za-z_]\w*|\[[\w$'"-]*\]|\([\w$,]*\))*[;,]?$/;

/** Ciphertext, not the credential: SOPS's `ENC[AES256_GCM,…]`, Jasypt's `ENC(…)`, Spring Cloud Config's `{cipher}…`. */
const CIPHERTEXT = /^(?:ENC[[(]|\{cipher\})/;

/** How a line of code ends: a statement, a list's element, a block or an argument list opened (`;`, `,`, `({`, `<{`, `):`). */
const CODE_LINE_END = /[:;,]?[([{<]{0,2}$/;

/** A line's value without the end a line of code has, and without closing brackets that close nothing on it (`owner_key):`, a call begun above). */
function withoutCodeLineEnd(value: string): string {
  let v = value.replace(CODE_LINE_END, '');
  for (let closers = countOf(v, ')]}') - countOf(v, '([{'); closers > 0 && /[)\]}]$/.test(v); closers--) v = v.slice(0, -1);
  return v;
}

function countOf(value: string, chars: string): number {
  let n = 0;
  for (let i = 0; i < value.length; i++) if (chars.includes(value[i]!)) n++;
  return n;
}

/** A whole unquoted value in brackets: a YAML flow collection, a list or a call's arguments in code. */
const COLLECTION = /^(?:\[.*\]|\{.*\}|\(.*\))$/;
/** A query string's next parameter (`token=v&token_type_hint=refresh`): no line's value (the generic assignment reads `v`). */
const QUERY_PARAMETER = /&[a-z][a-z0-9_]{2,}=/;

const MEMBER_CHAIN = new RegExp(`^${NAMES}$`);
const OPEN_CALL = new RegExp(String.raw`^${NAMES}\(${ARGUMENTS}$`);

/** Before a name: a cast (`(LPVOID)password`), Go's slice type (`[]byte(pw)`), a negation or a dereference, systemd's triggering condition (`|name`). */
const NAME_PREFIX = /^(?:\([A-Za-z_][\w.]*\**\)|\[\]|[!|*&-])/;

/**
 * Code: calls and indexes nested in each other (`USER_PASS_REGEXP.exec(decode(b64(m[1])))`,
 * `base64.b16encode(random_bytes[8:])`), a name after a cast or a mark, or, on a line that goes on
 * (`continued`), a call's first arguments (`create_token(request,`): taken away innermost first,
 * names and member accesses remain, as names write them (not scrambled as random characters are).
 */
function codeExpression(value: string, continued: boolean): boolean {
  const v = withoutCalls(value.replace(NAME_PREFIX, ''));
  return ((v !== value && MEMBER_CHAIN.test(v)) || (continued && OPEN_CALL.test(v))) && !scrambled(value);
}

/**
 * A value holding a character the catch-all's value stops at, quoted or to its line's end: a
 * password like any other, unless it is code, a list of names, a regular expression, a bracketed
 * fill-in, a template or ciphertext, each judged by its whole construct.
 */
/** JSON's own text, brackets and separators around literals or numbers (`},[false]]]`, `]],null,{`): a document's structure, not a password. */
const JSON_STRUCTURE = /^[\[\]{},:\s]*(?:(?:true|false|null|-?\d+)[\[\]{},:\s]*)*$/;

function quotedValue(secret: string, match: RegExpExecArray): boolean {
  let continued = false;
  if (match.groups?.['secret3'] !== undefined) {
    // (a key at a line's start may be code's: the end a line of code has, `password = hash(pw,salt);`,
    // `token: getToken(a,b),`, `token_details: z.object({`, is judged without it; a value the generic
    // value stops at only for its last `;`, `,` or `:` is the generic assignment's, which reads it up to there)
    if (!STOP_CHAR.test(secret.replace(/[:;,]$/, '')) && secret.charCodeAt(0) !== 61 /* = */) return false;
    continued = /[,(]$/.test(secret);
    secret = withoutCodeLineEnd(secret);
    if (COLLECTION.test(secret) || QUERY_PARAMETER.test(secret)) return false;
  }
  if (JSON_STRUCTURE.test(secret) || regexShaped(secret) || BRACKETED.test(secret) || TEMPLATE.test(secret) || hasMask(secret) || VARIABLE.test(secret) || hasFillIn(secret)) return false;
  // the shared placeholder judgement without its marks: words (`example`, `changeme`, `your_`), runs, sequences
  if (hasPlaceholderWords(secret, placeholderShape(secret))) return false;
  if ((NAME_LIST.test(secret) && !randomSeparatedPassword(secret)) || CODE_SHAPE.test(secret) || codeExpression(secret, continued) || CIPHERTEXT.test(secret)) return false;
  // (operators by their operands, as the shared code filter judges them, and also `==` and `--` inside a word, which its OPERATOR leaves to passwords unquoted)
  if (OPERATORS.test(secret) && operatorExpression(secret)) return false;
  return genericValue(secret, match, separatedPassword(secret) ? Math.log2(secret.length) - 0.9 : 3);
}

/**
 * A short password with letters and digits either side of a `,` or `;` (`yj,27;ij7`, `bc,00;by4`):
 * its structure marks it, and at 8 to 12 characters one repeated character takes its entropy
 * below the length-scaled bar (log2(length) - 0.3) one time in ten; a list of names is ruled out
 * before (NAME_LIST).
 */
function separatedPassword(secret: string): boolean {
  return secret.length < 16 && /[A-Za-z]/.test(secret) && /\d/.test(secret) && /[A-Za-z0-9][,;][A-Za-z0-9]/.test(secret);
}

/**
 * A short separated password whose parts read as names by case alone (`m3m,t7;bx9`, `IZ6P,UV0W1`:
 * NAME_LIST's lowercase or CONSTANT words), told from a list by letters and digits mixed as random
 * characters mix them and the full length-scaled entropy (`v1,v2;v3`, `sha256,md5` stay lists).
 */
function randomSeparatedPassword(secret: string): boolean {
  return separatedPassword(secret) && scrambled(secret) && shannonEntropy(secret) >= Math.log2(secret.length) - 0.3;
}

/**
 * An unquoted value that runs to its line's end (group `group`), holding a character the generic
 * value stops at, or beginning with `=`, which it refuses (`DB_PASSWORD==x…`, a value `=x…`): then a comment after a space, a line break (also written as a JSON escape), or
 * a quote that ends a JSON string (not one that opens a call's argument: `os.getenv("X")`), also
 * where the string that held it ends right after (`"\"…\nKEY=v{\""`: JSON in a JSON string).
 */
function lineValue(group: string): string {
  return `(?=[^"'\\s\\\\]{0,199}${STOPS}|=)(?<${group}>[^"'\\s\\\\]{8,200})(?=[ \\t]+[#;]|[ \\t]*(?:\\r?\\n|$|\\\\{1,3}[nr]|\\\\{0,3}"(?=[\\s,}\\]\\\\"]|$)))`;
}

/**
 * Generic assignments of a quoted value holding brackets, commas, semicolons, `|` or `&`, which
 * the generic value stops at (strong passwords hold them: `"Hp:Xz)&#k.Yc?#,J"`): the whole quoted
 * value is read, up to its closing quote; in a line-valued format (`.env`, Java properties, INI,
 * YAML, a Makefile), the unquoted value to the line's end. A catch-all like the generic assignment rule: it yields
 * to a rule that read the value's form (`PASSWORD = '…'` in SQL), and the generic assignment's
 * reading of the part before the first such character yields to it (the longer reading stands).
 */
export const GENERIC_QUOTED_RULE: SecretRule = rule({
  id: 'generic-quoted-secret',
  family: 'generic',
  description: 'password= / secret: / api_key: / token= assignments of a quoted value (or an unquoted one to its line\'s end: .env, properties, INI, YAML) holding brackets, commas, semicolons, | or &, which the generic value stops at',
  keywords: GENERIC_ASSIGNMENT_RULE.keywords,
  pattern: re(
    `(?<word>${SECRET_WORDS.map(word).join('|')})(?![a-z])`,
    String.raw`(?<key>[\w.-]{0,24}?)`,
    '(?:',
    // `key = "v"`, `"key": "v"`, `key => 'v'`, `key := "v"`, `define('KEY', 'v')`, `setProperty("KEY", "v")`,
    // an XML attribute pair (`<add key="DbPassword" value="v" />`), an HCL variable's default,
    // Emacs Lisp's `(setq key "v")`
    String.raw`(?:(?:\\{0,3}["'\x60])?\]?[ \t]{0,4}(?::{1,3}=|=>|=|:)(?:[ \t]{0,4}!!str(?=[ \t]))?|\\{0,3}["'][ \t]{0,4},|\\{0,3}["'][ \t]{1,4}[vV]alue[ \t]{0,2}=|["']${HCL_DEFAULT}|(?=[ \t])(?<=\((?:setq(?:-default|-local)?|defvar|defconst|defcustom)[ \t]{1,4}[\w.-]{1,128}))[ \t]{0,4}(?<q>\\{0,3}["'])`,
    // (a value the generic value cuts: at a bracket or a separator, at a backquote, or, beginning with `=`, refuses)
    `(?=[^"'\\s\\\\]{0,199}(?:${STOPS}|\x60)|=)(?<secret>[^"'\\s\\\\]{8,200})\\k<q>`,
    // or a line's unquoted value, read to the line's end or a comment after a space (` #`, INI's ` ;`),
    // as line-valued formats read it (after whitespace, also written as a JSON escape, `\n`):
    // a .env line (`DB_PASSWORD=Hp:Xz)&#k`): a CONSTANT key after whitespace, `=` right after it
    // (each lookbehind only where its assignment follows: a key's every length is tried)
    String.raw`|(?==)(?<=(?:^|\s|\\{1,3}(?:[nrtbf]|u[0-9A-Fa-f]{4}))(?:export[ \t]{1,4})?[A-Z][A-Z0-9_]{0,63})=`,
    lineValue('secret2'),
    // Java properties, INI, a YAML plain scalar, a Makefile (`db.password=v`, `password = v`,
    // `  password: v`, `  password: !!str v`, `- token: v`, `PASSWORD := v`): any key that starts its line, maybe indented
    // or a config line of `password v` (msmtprc and other clients' rc files): the word alone as the
    // key at its line's start, a space, then the value to the line's end; or a Java .properties
    // line with a space as its separator, a dotted key ending in the word (`db.password v`)
    String.raw`|(?:(?=[ \t]{0,4}[:?=])(?<=(?:^|[\r\n]|\\{1,3}[nr])[ \t]{0,32}(?:-[ \t]{1,4})?[\w.-]{1,128})[ \t]{0,4}(?::=|\?=|=|:)[ \t]{0,4}(?:!!str[ \t]{1,4})?` +
      String.raw`|(?=[ \t])(?<=(?:^|[\r\n]|\\{1,3}[nr])[ \t]{0,32}(?:[A-Za-z][\w-]{0,40}\.){0,6}(?:password|passwd|pass|secret|token))[ \t]{1,4})`,
    lineValue('secret3'),
    // an XML element's content, to its end tag: in a CDATA section, anything but its end
    // (`<password><![CDATA[k<9]x;Qm]]></password>`), else what is no tag (entities: `&lt;`)
    String.raw`|>(?<=<[\w.:-]{1,128}>)[ \t]{0,4}(?:<!\[CDATA\[(?<secret4>(?:[^\]\r\n]|\](?!\]>)){8,200})(?=\]\]>)`,
    `|(?=[^<\\s]{0,199}${STOPS.replace('<>', '')}|=)(?<secret5>[^<\\s]{8,200})(?=\\s{0,40}<\\/))`,
    ')',
  ),
  secretGroup: 'secret',
  generic: true,
  // (quotedValue judges placeholders itself: the shared filter's marks are brackets this rule's values hold)
  allowPlaceholders: true,
  validate: quotedValue,
  examples: {
    truePositives: [
      `DB_PASSWORD="Hp:Xz)&#k.Yc?#,J"`,
      `{"password": "vF%sm]b:GhWtH6_e"}`,
      `spring.datasource.password='o@A2^e6,RrffzTLE'`,
      // YAML's string tag before the value, plain and quoted
      `db:\n  password: !!str Qm4,Zx)Lp8#vR\n`,
      `db:\n  password: !!str "Tq8;Lz(2Wk!x"\n`,
      `(setq smtpmail-smtp-password "Wz7,Kq(4Lm!x")`,
      `define('DB_PASSWORD', 'q7{Lm;Zx>2wR!p');`,
      `"{\\"api_key\\":\\"K9(dP2]xQ;7mTz&w\\"}"`,
      `SMTP_PASSWORD="r<8Tq;mZ2!vX(k"`,
      // two runs of letters and digits either side of a bracket: a password, not a name with arguments
      `password: 'JKvqTd8(atIjc1'`,
      `APP_ENV=production\nDB_PASSWORD=Qx7(mR2;vL9]kz\nDB_HOST=db`,
      `export SMTP_PASSWORD=Zr4{tW8,pN3&x # rotated monthly`,
      // template and regex marks a random password holds by chance, not their whole constructs
      `DB_PASSWORD="t\${Kq8*Wv}mz]Lb3"`,
      `{"password": "$h{Rn.4TEJw]Gq(2"}`,
      `api_key: '^Vm5x|8~g@]7cQ'`,
      `"secret": "Pz4<bx,k}5>Wq!"`,
      `SMTP_PASSWORD="XBGZ,~.5qr{{C^8"`,
      `password: 'mQ7]w}}Lz2;R$'`,
      // operators between random characters; a backquote, a leading `=`, which the generic value cuts or refuses
      `DB_PASSWORD="-&tjZDM}--(cuw)P"`,
      `password: 'A,g[|_xi:zQ&&J:P'`,
      `{"api_key": "Q)s;_e.hTNC=]_)."}`,
      `password: 'Tz8\x60qW3!mK5\x60vR'`,
      `SMTP_PASSWORD="=Rk4!pZ/wQ8mT2xv"`,
      `APP_ENV=production\nDB_PASSWORD==Hk3!wZ/9pL5qT7m`,
      `account default\nhost smtp.example.net\nuser alerts@example.net\npassword R1j6tlVcyz@,1\nfrom alerts@example.net\n`,
      // a line-valued format's unquoted value, to the line's end or a comment:
      // Java properties, INI, YAML plain scalars, a Makefile, a line in a JSON string
      `# datasource\ndb.password=Qx7(mR2;vL9]kz`,
      `spring.datasource.username=app\nspring.datasource.password=Hn4)sW9,kD2[q\n`,
      `[database]\nhost = db\npassword = Wt5{nP8,cR2&z ; prod`,
      `datasource:\n  username: app\n  password: Lm3]vQ9(xK7;w # rotated`,
      `services:\n  - name: db\n    token: Fz8>rT2<qM5|n`,
      `REGISTRY := registry.internal\nREGISTRY_TOKEN := Hd8(qW3,zN6]p`,
      `{"content":"[mail]\\nsmtp_password = Jr6;tB9(wQ2]k\\n"}`,
      // a .env line in JSON text that is itself a JSON string: its closing \" and the outer "
      String.raw`"\"\\nSMTP_PASSWORD=Hd8(qW3,zN6]p\""`,
      `db.url=jdbc:mysql://db:3306/app\ndb.password Vk4,tR8(mQ2]z\n`,
      // an XML element's content to its end tag: in a CDATA section, or with entities
      `<settings>\n  <password><![CDATA[3EwRnY<xZvP]77_92F*2]]></password>\n</settings>`,
      `<datasource>\n  <password>HFV^Dc&lt;hN77&gt;[5hN!Bhq4</password>\n</datasource>`,
      `<password>x7Kp;2mQ9vL4w</password>`,
      // an XML key attribute, then its value attribute (web.config's appSettings)
      `<add key="DbPassword" value="Qx7(mR2,vL9]kz" />`,
      // `!=` between runs of letters with no vowel: no comparison
      `password: 'hbqr!=tkwz(4)'`,
      `variable "db_password" {\n  type      = string\n  sensitive = true\n  default   = "Wt5{nP8,cR2&z"\n}`,
      // a short password of letters and digits around `,` or `;`: one repeated character takes it below the length-scaled bar
      `db:\n  user: app\n  password: qk,38;qz5\n`,
      `creds:\n  - password: 4hw,Tq;h4\n`,
      // its parts lowercase or CONSTANT words by chance, mixed as random characters mix them
      `smtp:\n  password: m3m,t7;bx9\n`,
    ],
    falsePositives: [
      // a list of versions or names stays a list, short or not
      'secret_versions: v1,v2;v3',
      'token_algorithms: sha256,md5',
      '"token_scopes": "repo,read:org,workflow"',
      // a redaction marker's rule id before a JSON body's structure (a JSON string in JSON)
      '"body":"[{\\"env\\":\\"\\n[REDACTED:npm-access-token]=\\"},[false]]]"',
      '{"secret": "},[false]]]"}',
      '[REDACTED:generic-password]: "Zq8(vL2mX9kR4"',
      'TAVILY_API_KEY=tvly-<key>',
      'LANGFUSE_PUBLIC_KEY=pk-lf-<KEY>',
      '"password": "^(?=.*[A-Z])(?=.*\\d).{8,}$"',
      "password: '[a-zA-Z0-9!@#]{12,64}'",
      '"password": "{password}"',
      'api_key = "config[api_key]"',
      'token: "Array<string>|null"',
      'access_token_scopes = "READ|WRITE|ADMIN"',
      'password = "List<String>"',
      'password = "f(user, salt)"',
      '"password": "<%= password %>"',
      '"password": "Enter your password (8+ characters)"',
      '"password": "your_password(here)"',
      'DB_PASSWORD="${DB_PASSWORD:-changeme}"',
      "api_key: '<your-api-key>;'",
      'TOKEN_SCOPES=repo,read:org,workflow',
      'PASSWORD_REGEX=^[A-Za-z0-9]{12,}$',
      'API_KEY=${API_KEY:-dev,local}',
      // templates and fill-ins, by their whole construct
      "password: '${{secrets.DB_PASSWORD}}'",
      '"password": "{{.Values.db.password}}"',
      'DB_PASSWORD="$(print-db-password)"',
      'DB_PASSWORD=$(DB_PASSWORD_FROM_VAULT)',
      "password: 'db:<yourPassword>'",
      'DB_PASSWORD="<%=db_password%>"',
      '[db]\npassword = %(base_password)s',
      'spring.datasource.password=${DB_PASSWORD}',
      'spring.datasource.password=${DB_PASSWORD:dev;local}',
      "password: '[a-zA-Z0-9]+'",
      'DB_PASSWORD="#{vault.db_password}"',
      '"password": "${file(../secrets.json):db}"',
      "password: '{{resolve:secretsmanager:prod-db:SecretString:password}}'",
      'DB_PASSWORD=${DB_ROOT_PASSWORD,,}',
      'password: "`print-db-password`"',
      // code joined by operators
      '<input :password="form.password||defaults.password">',
      'this.apiKey = opts.apiKey||env.API_KEY;',
      '  token: state=>state.auth.token,',
      "password_check = '(pwd.value!=confirm.value)'",
      "password: 'user(id)!=null'",
      // ciphertext: Jasypt, Spring Cloud Config
      'spring.datasource.password=ENC(Xb4lP0qR7sNw2TzV9yKd1hGm)',
      'spring.datasource.password={cipher}AQB7k2Xr9fPqL0wZs3Nd',
      // code at a line's start: a statement, an object's or an argument list's element, a flow collection
      'password = hash(pw, salt);',
      'password=hash(pw,salt);',
      'token: getToken(a, b),',
      '  token: getToken(a,b),',
      'password = $this->password;',
      '    Password: cfg.Database.Password,',
      '  password: Rails.application.credentials[:db][:password],',
      '  password: [Validators.required,Validators.minLength(8)],',
      'self.password = crypt(pw,salt)',
      'password = env::var(DB_PASSWORD)?;',
      '\tpassword := []byte(os.Getenv(DB_PASSWORD))',
      '    token: jwt.sign({id:user.id},process.env.JWT_SECRET),',
      'DB_PASSWORD=ENC[AES256_GCM,data:Tr7o1s0a4xQ=,iv:1Rz8Lq=,tag:k3Nq0TIz2L8F6xj9XQm8Ag==,type:str]',
      // an XML element's templates, fill-ins, code and lists
      '<password><![CDATA[${DB_PASSWORD}]]></password>',
      '<password><![CDATA[<your-password>]]></password>',
      '<password>List<String></password>',
      '<token>repo,read:org,workflow</token>',
      '<secret>foo(bar, baz)</secret>',
      '<add key="DbPassword" value="${DB_PASSWORD}" />',
      '<add key="TokenScopes" value="repo,read:org,workflow" />',
      // PHP's interpolation in braces
      '$apiKey = "{$prefix}{$suffix}";',
      '$token = "{$this->tokenPrefix}{$user[\'id\']}";',
    ],
  },
});

/**
 * A setter that takes the value before its key (Apple's key-value stores: `UserDefaults.standard.set("v",
 * forKey: "apiToken")`, a Keychain wrapper's `set("v", forKey: "password")`, Objective-C's `[defaults
 * setObject:@"v" forKey:@"authToken"]`, KeychainAccess's `set("v", key: "apiToken")`): read back from the key's
 * secret word, as the key comes last.
 */
const VALUE_BEFORE_KEY = String.raw`(?<=(?:(?<![\w$])set(?:Value|Object|String)?\([ \t]{0,4}@?"(?<secret>[^"\\\r\n]{8,200})"[ \t]{0,4},[ \t]{0,4}|setObject:[ \t]{0,4}@"(?<secret2>[^"\\\r\n]{8,200})"[ \t]{1,4})(?:forKey|(?<![\w$])key):[ \t]{0,4}@?"[\w.-]{0,40})`;

/** The whole key of a value-first setter's match: the key characters before the secret word, then the match up to its closing quote. */
function setterKey(match: RegExpExecArray): string {
  const before = /[\w.-]*$/.exec(match.input.slice(Math.max(0, match.index - 40), match.index))![0];
  return before + match[0].slice(0, -1);
}

/** `UserDefaults.standard.set("v", forKey: "apiToken")` and other setters with the value before a secret-named key. */
export const GENERIC_VALUE_BEFORE_KEY_RULE: SecretRule = rule({
  id: 'generic-setter-secret',
  family: 'generic',
  description: 'Secret stored under a secret-named key by a setter that takes the value first (Swift UserDefaults and Keychain wrappers: set("v", forKey: "apiToken"), KeychainAccess set("v", key: "token"); Objective-C setObject:@"v" forKey:@"password"), with the generic value checks',
  // (the generic assignment's own keywords, so the first filter passes nothing more: `auth` only
  // before the key's closing quote, `forKey: "basicAuth"`, or as `authkey` / `auth_key`)
  keywords: GENERIC_ASSIGNMENT_RULE.keywords.filter((k) => !k.startsWith('auth') || k === 'auth"' || k === 'auth\\' || k.startsWith('authkey') || k.startsWith('auth_')),
  pattern: re(VALUE_BEFORE_KEY, `(?<word>${SECRET_WORDS.map(word).join('|')})(?![a-z])[\\w.-]{0,24}"`),
  secretGroup: 'secret',
  generic: true,
  validate: (secret, match) => {
    const key = setterKey(match);
    // (`auth` only as the key's last word, as the generic assignment takes it: `auth`, `basicAuth`, not `authMode`)
    if (NOT_A_SECRET_KEY.test(key) || (HANDLE_HINT.test(key) && namesHandle(key)) || (/^auth$/i.test(match.groups?.['word'] ?? '') && !authKey(key))) return false;
    return isCredentialLike(secret, 8, 3, true) && !isDocumentationJwt(secret) && !PUBLIC_BY_DESIGN.test(secret) && !isDocumentationPassword(secret);
  },
  examples: {
    truePositives: [
      `UserDefaults.standard.set("${sample(ALNUM, 32, 'vk1')}", forKey: "apiToken")`,
      `KeychainWrapper.standard.set("${sample(ALNUM, 14, 'vk2')}7!", forKey: "password")`,
      `[[NSUserDefaults standardUserDefaults] setObject:@"${sample(ALNUM, 24, 'vk3')}" forKey:@"authToken"];`,
      `defaults.setValue("${sample(B64, 40, 'vk4')}", forKey: "client_secret")`,
      `try keychain.set("${sample(ALNUM, 28, 'vk7')}", key: "refreshToken")`,
      `UserDefaults.standard.set("${sample(ALNUM, 28, 'vk8')}", forKey: "basicAuth")`,
    ],
    falsePositives: [
      'UserDefaults.standard.set(token, forKey: "apiToken")',
      'UserDefaults.standard.set("dark", forKey: "theme")',
      `UserDefaults.standard.set("${sample(ALNUM, 32, 'vk5')}", forKey: "lastViewedItem")`,
      'UserDefaults.standard.set("nextPageTokenValue1", forKey: "nextPageToken")',
      'UserDefaults.standard.set("tokenRefreshedAt", forKey: "tokenKeyName")',
      `UserDefaults.standard.set("${sample(HEX, 64, 'vk6')}", forKey: "passwordHash")`,
      'keychain.set("<your-api-token>", forKey: "apiToken")',
      `UserDefaults.standard.set("${sample(ALNUM, 28, 'vk9')}", forKey: "authMode")`,
    ],
  },
});

/** Generic assignments whose value is random enough to be a credential. */
export const GENERIC_RULES: readonly SecretRule[] = [GENERIC_ASSIGNMENT_RULE, GENERIC_KEY_ASSIGNMENT_RULE, GENERIC_PAT_RULE, GENERIC_QUOTED_RULE, GENERIC_VALUE_BEFORE_KEY_RULE];
