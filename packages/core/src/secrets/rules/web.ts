import type { SecretRule } from '../types.js';
import { isPlaceholder } from '../placeholders.js';
import { isDocumentationPassword, isPasswordArgument, isWrittenPassword } from '../password-values.js';
import { isCredentialLike, isDocumentationJwt, scrambled } from '../value-filters.js';
import { rule } from './define.js';
import { ci, re } from './patterns.js';
import { ALNUM, B64URL, HEX, LOWER_NUM, sample } from './sample.js';

/** Reserved documentation hosts (RFC 2606 / 6761): `https://abc:xyz@example.com` is a doc example. */
const EXAMPLE_HOST = /^(?:[\w-]+\.)*(?:example\.(?:com|org|net)|[\w-]+\.(?:example|test|invalid))(?![\w.-])/i;

function urlPassword(secret: string, match: RegExpExecArray): boolean {
  const user = match.groups?.['user'] ?? '';
  let pw = secret;
  if (secret.includes('%')) {
    try {
      pw = decodeURIComponent(secret);
    } catch {
      // keep the raw form
    }
  }
  if (pw === user || !isWrittenPassword(pw)) return false;
  // The host is looked at within 256 characters: a long dotted run after the @ costs no more.
  const at = match.index + match[0].length;
  if (EXAMPLE_HOST.test(match.input.slice(at, at + 256))) return false;
  return !(pw.length <= 5 && /^\d{1,5}$/.test(pw)); // a port, as in http://host:8080@...
}

function basicCredentials(secret: string): boolean {
  const raw = Buffer.from(secret, 'base64').toString('latin1');
  const colon = raw.indexOf(':');
  if (colon <= 0 || !/^[\x20-\x7e]+$/.test(raw)) return false;
  const pw = raw.slice(colon + 1);
  return pw.length >= 3 && !isDocumentationPassword(pw) && !isPlaceholder(pw);
}

const basic = (userpass: string) => Buffer.from(userpass).toString('base64');
const pw = (salt: string) => sample(ALNUM, 18, salt) + '!';

/** Words of a cookie name that signs someone in: `sessionid`, `PHPSESSID`, `connect.sid`, `laravel_session`, `auth_token`, `remember_token`, `jwt`, `login`. */
const SESSION_COOKIE_WORD = `(?:${['sess', 'sid', 'auth', 'token', 'jwt', 'remember', 'login'].map(ci).join('|')})`;

/** A cookie value as its server reads it: URL-encoded (`s%3A…`) where it can be decoded. */
/**
 * `curl` (or `curl.exe`) as a command word — also at a line's start written as a JSON escape
 * (`A=1\ncurl …`) — then at most 300 characters of its command line, up to where a `-b` is read.
 */
const CURL_BEFORE = /(?:(?<![\w.-])|(?<=\\{1,3}(?:[nrtbf]|u[0-9A-Fa-f]{4})))curl(?:\.exe)?[ \t][^\r\n;|&]{0,300}$/;

/**
 * A `-b` is curl's cookie flag only in a curl command (`git checkout -b session_x` is a branch).
 * Checked once the cookie was read, not by a lookbehind in the pattern: a run of `-b ` would read
 * back to `curl` from every one of them (0.3 ms/KB).
 */
function curlFlag(match: RegExpExecArray): boolean {
  if (!/^-b[ \t]/.test(match[0])) return true;
  return CURL_BEFORE.test(match.input.slice(Math.max(0, match.index - 320), match.index));
}

function decodeCookie(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Credentials inside URLs, HTTP Authorization headers and cookies, and curl command lines. */
export const WEB_RULES: readonly SecretRule[] = [
  rule({
    id: 'url-password',
    family: 'url-credentials',
    description: 'Password in a URL: database connection strings (postgres, mysql, mongodb, redis, amqp, ...) and basic-auth URLs',
    keywords: ['://'],
    // (every URL has a scheme: outside the detector, only a user:password@ after it is a candidate,
    // its slashes escaped or not; no bounded repeat, which RE2 expands into copies)
    prefilter: String.raw`:(?:\\*/){2}[^\s/@]*:[^\s/@]*@`,
    pattern: re(String.raw`:\/\/(?<user>[^\s:/?#@'"\x60<>\\]{0,128}):(?<secret>[^\s/@'"\x60<>\\]{1,256})@(?=[\w\[.-])`),
    secretGroup: 'secret',
    validate: urlPassword,
    examples: {
      truePositives: [
        `DATABASE_URL=postgres://app:${pw('u1')}@db.internal:5432/app`,
        `mongodb+srv://admin:${pw('u2')}@cluster0.abcde.mongodb.net/?retryWrites=true`,
        `redis://:${pw('u3')}@cache:6379/0`,
        `https://deploy:${pw('u4')}@git.corp.internal/repo.git`,
        `amqps://svc:${encodeURIComponent(pw('u5') + '@/#')}@mq:5671`,
      ],
      falsePositives: [
        'postgres://user:password@localhost:5432/db',
        'postgres://postgres:postgres@localhost/db',
        'mysql://root:${MYSQL_ROOT_PASSWORD}@db:3306/app',
        'https://user:<password>@host/path',
        'http://localhost:8080/path',
        'git@github.com:org/repo.git',
        'https://example.com/@scope/pkg',
        "new URL('https://abc:xyz@example.com')",
        'https://deploy:Zq8Wm2Lp5Tx9@ci.example.org/hook',
      ],
    },
  }),
  rule({
    id: 'authorization-bearer',
    family: 'http-authorization',
    description: 'Bearer token (Authorization: Bearer ..., or a bare "Bearer <token>" value)',
    keywords: ['bearer'],
    // (a token does not end with a full stop: `bearer authentication.` ends a sentence)
    pattern: re('(?<![A-Za-z])[Bb]earer[ \\t]{1,4}(?<secret>[A-Za-z0-9._~+/-]{11,4095}[A-Za-z0-9_~+/-]={0,2})(?![A-Za-z0-9_~+/=-])'),
    secretGroup: 'secret',
    generic: true,
    // (hex counts: after `Bearer` a value is a token, and many services issue hex ones)
    validate: (s) => isCredentialLike(s, 12, 3, true) && !isDocumentationJwt(s),
    examples: {
      truePositives: [
        `curl -H "Authorization: Bearer ${sample(B64URL, 40, 'b1')}" https://api.internal/v1`,
        `{"headers":{"authorization":"bearer ${sample(ALNUM, 32, 'b2')}"}}`,
        // hex, as many services issue their tokens
        `Authorization: Bearer ${sample(HEX, 40, 'b4')}`,
      ],
      falsePositives: [
        'Authorization: Bearer ${TOKEN}',
        'Authorization: Bearer <token>',
        'Bearer YOUR_ACCESS_TOKEN',
        'use the bearer token scheme',
        '/** Configure the client for Amazon Bedrock using bearer authentication. */',
        // the jwt.io documentation token
        'Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
      ],
    },
  }),
  rule({
    id: 'authorization-basic',
    family: 'http-authorization',
    description: 'HTTP Basic credentials (Authorization: Basic base64(user:password))',
    keywords: ['basic'],
    pattern: re('(?<![A-Za-z])[Bb]asic[ \\t]{1,4}(?<secret>[A-Za-z0-9+/]{6,1024}={0,2})(?![A-Za-z0-9+/=])'),
    secretGroup: 'secret',
    generic: true,
    validate: basicCredentials,
    examples: {
      truePositives: [`Authorization: Basic ${basic(`ci-bot:${pw('b3')}`)}`],
      falsePositives: ['WWW-Authenticate: Basic realm="api"', `Authorization: Basic ${basic('user:password')}`, 'basic auth is supported'],
    },
  }),
  rule({
    id: 'authorization-header',
    family: 'http-authorization',
    description: 'Other Authorization header credentials (token, Bot, ApiKey schemes or a raw value)',
    keywords: ['authorization'],
    pattern: re(
      ci('authorization'),
      `(?:\\\\?["'])?\\s{0,4}[:=]\\s{0,4}(?:\\\\?["'])?`,
      `(?:(?:${ci('token')}|${ci('bot')}|${ci('apikey')}|${ci('key')}|SSWS|${ci('sso-key')})[ \\t]{1,4})?`,
      '(?<secret>[A-Za-z0-9._~+/:=-]{16,4096})',
    ),
    secretGroup: 'secret',
    generic: true,
    validate: (s) => isCredentialLike(s, 16, 3, true) && !isDocumentationJwt(s),
    examples: {
      truePositives: [`Authorization: token ${sample(ALNUM, 40, 'ah')}`, `"Authorization": "${sample(B64URL, 48, 'ah2')}"`, `Authorization: token ${sample(HEX, 40, 'ah3')}`],
      falsePositives: ['Authorization: Bearer ${{ secrets.TOKEN }}', 'authorization: required', 'Authorization header'],
    },
  }),
  rule({
    id: 'cli-user-password',
    family: 'http-authorization',
    description: 'user:password on a command line (curl -u / --user / --proxy-user, also with no user: -u :TOKEN; wget --password, mysql --password=)',
    keywords: ['-u ', '--user', '--proxy-user', '--password', '--pass'],
    pattern: re(
      '(?<![\\w-])(?:-u[ \\t]{1,4}|--(?:proxy-)?user[= \\t]{1,4})["\']?(?<user>[^\\s:\'"<>]{0,128}):(?<secret>[^\\s\'"<>]{3,256})',
      '|(?<![\\w-])--pass(?:word)?[= \\t]{1,4}["\']?(?<secret2>[^\\s\'"<>]{3,256})',
    ),
    secretGroup: 'secret',
    generic: true,
    validate: (s, m) => urlPassword(s, m) && isPasswordArgument(s),
    examples: {
      truePositives: [
        `curl -u deploy:${pw('c1')} https://ci.internal/api`,
        `mysql --password=${pw('c2')} -h db`,
        `curl --proxy-user squid:${pw('c3')} -x proxy.internal:3128 https://x`,
        // no user: a token as the password, as Azure DevOps takes a personal access token
        `curl -u :${sample(ALNUM, 52, 'c4').toLowerCase()} https://dev.azure.com/acme/_apis/projects`,
        // Twilio's documented call: the account SID, then the auth token (32 hex)
        `curl -u AC${sample(HEX, 32, 'c5')}:${sample(HEX, 32, 'c6')} https://api.twilio.com/2010-04-01/Accounts.json`,
      ],
      falsePositives: ['curl -u user:password https://x', 'curl -u "$USER:$PASS" https://x', 'curl -u admin: https://x', 'curl -u :$AZURE_DEVOPS_PAT https://dev.azure.com/acme/_apis/projects', 'docker run -u :1000 alpine id', 'curl -u <user:password> https://api.example.net', 'curl --user <username>:<api-token> https://x'],
    },
  }),
  rule({
    id: 'url-query-key',
    family: 'url-credentials',
    description: 'API key as a URL query parameter named key (?key=…, &key=…: Google, YouTube, Bing Maps and many others), random letters of both cases and digits',
    // (at `key=`, a start the scan has for the key-named rules already; the `?` or `&` read back)
    keywords: ['key='],
    // (for pre-filters outside the detector: `key=` alone passes every value that assigns a key)
    prefilter: '[?&;]key=',
    pattern: re(String.raw`(?<=[?&]|&amp;)key=(?<secret>[A-Za-z0-9_.~-]{20,128})(?![A-Za-z0-9_.~%/+-])`),
    secretGroup: 'secret',
    generic: true,
    // (a cache key, an object path or a setting's name is words, a path or a digest: a key mixes
    // small letters, capitals and digits as random characters do)
    validate: (s) => /[a-z]/.test(s) && /[A-Z]/.test(s) && /\d/.test(s) && scrambled(s) && isCredentialLike(s, 20, 3.5),
    examples: {
      truePositives: [
        `curl "https://www.bing.com/api/maps/v1/Locations?q=Paris&key=${sample(ALNUM, 64, 'uq1')}"`,
        `{"url": "https://api.example-weather.net/v2/forecast?key=${sample(B64URL, 32, 'uq2')}9aZ&city=Oslo"}`,
      ],
      falsePositives: [
        'https://cdn.example.net/get?key=uploads%2F2024%2Favatar.png',
        'https://app.internal/cache?key=userProfileSettingsV2Final',
        'https://app.internal/cache?key=5d41402abc4b2a76b9719d911017c592',
        'https://i18n.internal/t?key=checkout.button.submit_order_label',
        'https://api.example.net/search?key=YOUR_API_KEY_HERE_1234567',
      ],
    },
  }),
  rule({
    id: 'http-session-cookie',
    family: 'http-authorization',
    description: 'Session or auth cookie in a Cookie or Set-Cookie header or curl --cookie (sessionid=, PHPSESSID=, JSESSIONID=, connect.sid=, *_session=, auth_token=, remember_token=, …), a random value',
    keywords: ['cookie', '-cookie', '-b '],
    // (for pre-filters outside the detector: `-b ` and `cookie` alone pass every branch and every cookie library)
    prefilter: String.raw`cookie\\{0,3}["']?[ \t]*:|-cookie[ \t=]|curl[^\r\n]*[ \t]-b[ \t]`,
    pattern: re(
      // (a header, `Cookie:` or `"Cookie": "`, or curl's flag: prose and code that name cookies end here)
      String.raw`(?:${ci('cookie')}(?:\\{0,3}["'])?[ \t]{0,4}:|(?<=(?<![\w.-])-)-cookie[ \t=]|(?<![\w.-])-b[ \t])[ \t]{0,4}(?:\\{0,3}["'])?`,
      // (the cookies before it: name=value pairs up to `;`)
      String.raw`(?:[^\s=;"'\\]{1,64}=[^\s;"'\\]{0,512};[ \t]{0,4}){0,12}?`,
      // (not a CSRF token, which guards a form and signs no one in: the session cookie after it is read)
      String.raw`(?<name>(?![\w.-]{0,80}?[cCxX][sS][rR][fF])[\w.-]{0,40}?${SESSION_COOKIE_WORD}[\w.-]{0,40})=(?<secret>[^\s;"'\\,]{16,4096})`,
    ),
    secretGroup: 'secret',
    generic: true,
    // (a session id may be hex: JSESSIONID)
    validate: (s, match) => isCredentialLike(decodeCookie(s), 16, 3, true) && !isPlaceholder(s) && curlFlag(match),
    examples: {
      truePositives: [
        `curl -H "Cookie: csrftoken=${sample(ALNUM, 32, 'ck0')}; sessionid=${sample(LOWER_NUM, 32, 'ck1')}" https://app.internal/admin/`,
        `curl --cookie 'PHPSESSID=${sample(LOWER_NUM, 26, 'ck2')}' https://shop.internal/cart`,
        `curl -s -b "laravel_session=${sample(ALNUM, 40, 'ck8')}" https://shop.internal/account`,
        `curl.exe -k -b sessionid=${sample(LOWER_NUM, 32, 'ck11')} https://app.internal/`,
        `{"headers": {"Cookie": "JSESSIONID=${sample(HEX, 32, 'ck3').toUpperCase()}; Path=/"}}`,
        `Set-Cookie: connect.sid=s%3A${sample(B64URL, 32, 'ck4')}.${sample(B64URL, 43, 'ck5')}; Path=/; HttpOnly`,
        `Cookie: theme=dark; __Secure-next-auth.session-token=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..${sample(B64URL, 22, 'ck6')}.${sample(B64URL, 120, 'ck7')}`,
      ],
      falsePositives: [
        'Cookie: csrftoken=Zq8mN3pX7vR2kL9wT4yB6cF1dH5jG0sA; theme=dark',
        'curl --cookie "sessionid=<session-id>" https://app.internal/',
        'Set-Cookie: session=deleted; expires=Thu, 01 Jan 1970 00:00:00 GMT',
        'Cookie: _ga=GA1.2.1234567890.1700000000; _gid=GA1.2.987654321.1700000000',
        'document.cookie = "sessionid=" + sid',
        'cookie: sessionId=${SESSION_ID}',
        `git checkout -b session_${sample(LOWER_NUM, 20, 'ck9')}`,
        // (a -b after a curl command ended: another command's flag)
        `curl -s https://app.internal/health; git checkout -b sessionid=${sample(LOWER_NUM, 32, 'ck10')}`,
      ],
    },
  }),
];
