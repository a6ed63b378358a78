import { BASE62_UPPER_FIRST, base62, crc32, githubChecksumHolds } from '../checksums.js';
import { isPasswordArgument } from '../password-values.js';
import type { SecretRule } from '../types.js';
import { rule } from './define.js';
import { L, R, RD, re } from './patterns.js';
import { ALNUM, HEX, sample } from './sample.js';

const gh = (p: string, n = 36) => p + sample(ALNUM, n, p);
/** A GitHub token as GitHub makes them: 30 characters, then their CRC32 in base62. */
const checksummed = (p: string, body: string) => p + body + base62(crc32(body), BASE62_UPPER_FIRST);

/** GitHub, GitLab, npm, PyPI and Docker Hub credentials. */
export const CODE_HOSTING_RULES: readonly SecretRule[] = [
  rule({
    id: 'github-pat',
    family: 'github',
    description: 'GitHub classic personal access token (ghp_)',
    keywords: ['ghp_'],
    tokenPrefix: true,
    pattern: re(L, 'ghp_[A-Za-z0-9]{36,251}', R),
    minEntropy: 3,
    proof: githubChecksumHolds,
    examples: {
      truePositives: [
        gh('ghp_'),
        `GITHUB_TOKEN=${gh('ghp_')}\n`,
        `git clone https://${gh('ghp_')}@github.com/o/r`,
        `{"env":"A=1\\n${gh('ghp_')}"}`, // after a JSON escape (a newline written as two characters)
        checksummed('ghp_', sample(ALNUM, 30, 'ck')),
        // a checksum-valid token is a token whatever its letters spell
        checksummed('ghp_', 'fakeFAKEfakeFAKEfakeFAKE123456'),
        `${gh('ghp_')}_v2`, // glued on its right by `_`
        `deploy_${checksummed('ghp_', sample(ALNUM, 30, 'ck2'))}_v2`, // on both sides, its checksum holding
      ],
      falsePositives: [
        'ghp_' + 'x'.repeat(36),
        'ghp_helper_functions_v2',
        `${gh('ghp_')}_EXAMPLE`,
        `deploy_${gh('ghp_')}_v2`, // on both sides, no checksum
        'ghp_' + sample(ALNUM, 30, 'short'),
        'xghp_' + sample(ALNUM, 36, 'b'),
        `{"env":"A=1\\nghp_${'x'.repeat(36)}"}`,
        'console.log("Tokens look like:\\nghp_<36 letters and digits>");',
      ],
    },
  }),
  rule({
    id: 'github-fine-grained-pat',
    family: 'github',
    description: 'GitHub fine-grained personal access token (github_pat_)',
    keywords: ['github_pat_'],
    tokenPrefix: true,
    pattern: re(L, 'github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}', R),
    minEntropy: 3,
    examples: {
      truePositives: [`token: github_pat_${sample(ALNUM, 22, 'f1')}_${sample(ALNUM, 59, 'f2')}`],
      falsePositives: ['github_pat_<your-token>', `github_pat_${sample(ALNUM, 22, 'f1')}`],
    },
  }),
  rule({
    id: 'github-oauth-token',
    family: 'github',
    description: 'GitHub OAuth access token (gho_)',
    keywords: ['gho_'],
    tokenPrefix: true,
    pattern: re(L, 'gho_[A-Za-z0-9]{36,251}', R),
    minEntropy: 3,
    proof: githubChecksumHolds,
    examples: { truePositives: [`{"access_token":"${gh('gho_')}"}`], falsePositives: ['gho_' + '0'.repeat(36)] },
  }),
  rule({
    id: 'github-app-token',
    family: 'github',
    description: 'GitHub App user-to-server or server-to-server token (ghu_, ghs_)',
    keywords: ['ghu_', 'ghs_'],
    tokenPrefix: true,
    pattern: re(L, 'gh[us]_[A-Za-z0-9]{36,251}', R),
    minEntropy: 3,
    proof: githubChecksumHolds,
    examples: { truePositives: [gh('ghu_'), `x-access-token:${gh('ghs_')}`], falsePositives: ['ghs_' + 'ab'.repeat(18)] },
  }),
  rule({
    id: 'github-refresh-token',
    family: 'github',
    description: 'GitHub refresh token (ghr_)',
    keywords: ['ghr_'],
    tokenPrefix: true,
    pattern: re(L, 'ghr_[A-Za-z0-9]{36,251}', R),
    minEntropy: 3,
    proof: githubChecksumHolds,
    examples: { truePositives: [gh('ghr_', 76)], falsePositives: ['ghr_short'] },
  }),
  rule({
    id: 'gitlab-pat',
    family: 'gitlab',
    description: 'GitLab personal, project or group access token (glpat-)',
    keywords: ['glpat-'],
    tokenPrefix: true,
    pattern: re(L, 'glpat-[\\w-]{20,64}(?:\\.[\\w-]{2}\\.[\\w-]{9})?', RD),
    minEntropy: 3,
    examples: {
      truePositives: [`PRIVATE-TOKEN: glpat-${sample(ALNUM, 20, 'gl')}`, `glpat-${sample(ALNUM, 27, 'gl2')}.01.${sample(ALNUM, 9, 'gl3')}`],
      falsePositives: ['glpat-xxxxxxxxxxxxxxxxxxxx', 'glpat-' + sample(ALNUM, 12, 'x')],
    },
  }),
  rule({
    id: 'gitlab-token',
    family: 'gitlab',
    description: 'GitLab deploy, runner, pipeline-trigger, OAuth, CI-build, feed or agent token',
    keywords: ['gldt-', 'glrt-', 'glptt-', 'gloas-', 'glcbt-', 'glsoat-', 'glimt-', 'glagent-', 'glffct-', 'glft-', 'gr1348941'],
    tokenPrefix: true,
    pattern: re(L, '(?:(?:gldt|glrt|glptt|gloas|glcbt|glsoat|glimt|glagent|glffct|glft)-|GR1348941)[\\w-]{20,80}', RD),
    minEntropy: 3,
    examples: {
      truePositives: [`gldt-${sample(ALNUM, 20, 'dt')}`, `CI_RUNNER_TOKEN=glrt-${sample(ALNUM, 20, 'rt')}`, `GR1348941${sample(ALNUM, 20, 'rr')}`],
      falsePositives: ['glrt-' + 'a'.repeat(20)],
    },
  }),
  rule({
    id: 'npm-access-token',
    family: 'npm',
    description: 'npm access token (npm_)',
    keywords: ['npm_'],
    tokenPrefix: true,
    pattern: re(L, 'npm_[A-Za-z0-9]{36}', R),
    minEntropy: 3,
    proof: githubChecksumHolds, // documented as GitHub's scheme; a failed check is not a verdict
    examples: {
      truePositives: [`//registry.npmjs.org/:_authToken=${gh('npm_')}`],
      falsePositives: ['npm_config_cache=/tmp/x', 'npm_package_version'],
    },
  }),
  rule({
    id: 'npmrc-auth-token',
    family: 'npm',
    description: '.npmrc _authToken / _auth / _password value',
    keywords: ['_authtoken', '_auth=', '_password='],
    // (not the end of another key: `db_password=` is no .npmrc key, and its value is the generic rule's)
    // (or after a space, as `npm config set //registry/:_authToken V` takes it: the shell word
    // whole, a password's symbols too, judged as a password)
    pattern: re(
      '(?<![A-Za-z0-9])(?:_authToken|_auth|_password)(?:\\s{0,4}=\\s{0,4}["\']?(?<secret>[A-Za-z0-9+/=._~-]{16,512})',
      '|(?<=config[ \\t]{1,4}set[ \\t]{1,4}\\S{0,200})[ \\t]{1,4}["\']?(?<secret2>[^\\s"\'\\x60<>;|&]{4,512}))',
    ),
    secretGroup: 'secret',
    minEntropy: 3,
    validate: (s, m) => m.groups?.['secret2'] === undefined || isPasswordArgument(s),
    examples: {
      truePositives: [
        `//npm.pkg.github.com/:_authToken=${sample(ALNUM, 40, 'npmrc')}`,
        `npm config set //npm.pkg.github.com/:_authToken ${sample(ALNUM, 40, 'npmrc2')}`,
        `npm config set //npm.internal.example/:_authToken ${sample(ALNUM, 9, 'npmrc3')},!7`,
      ],
      falsePositives: ['//registry.npmjs.org/:_authToken=${NPM_TOKEN}', '_authToken=xxxxxxxxxxxxxxxxxxxxxxxx', 'npm config set //registry.npmjs.org/:_authToken ${NPM_TOKEN}', 'npm config set //registry.npmjs.org/:_authToken <token>'],
    },
  }),
  rule({
    id: 'pypi-token',
    family: 'pypi',
    description: 'PyPI or TestPyPI upload token (pypi-AgEIcHlwaS5vcmc…, pypi-AgENdGVzdC5weXBpLm9yZw…: a macaroon for pypi.org)',
    keywords: ['pypi-ageichlwas5vcmc', 'pypi-agendgvzdc5wexbplm9yzw'],
    tokenPrefix: true,
    pattern: re(L, 'pypi-(?:AgEIcHlwaS5vcmc|AgENdGVzdC5weXBpLm9yZw)[\\w-]{50,1000}', RD),
    minEntropy: 3,
    examples: {
      truePositives: [`password = pypi-AgEIcHlwaS5vcmc${sample(ALNUM, 70, 'pypi')}`],
      falsePositives: ['pypi-AgEIcHlwaS5vcmc' + 'x'.repeat(60), 'pypi-AgEIcHlwaS5vcmcshort'],
    },
  }),
  rule({
    id: 'dockerhub-pat',
    family: 'docker',
    description: 'Docker Hub personal or organisation access token (dckr_pat_, dckr_oat_)',
    keywords: ['dckr_pat_', 'dckr_oat_'],
    tokenPrefix: true,
    pattern: re(L, 'dckr_(?:pat|oat)_[\\w-]{27,64}', RD),
    minEntropy: 3,
    examples: {
      truePositives: [`docker login -u me -p dckr_pat_${sample(ALNUM, 27, 'dckr')}`],
      falsePositives: ['dckr_pat_' + '*'.repeat(27), 'dckr_pat_<token>'],
    },
  }),
  rule({
    id: 'docker-config-auth',
    family: 'docker',
    description: 'Docker config.json "auth" (base64 of user:password)',
    keywords: ['"auth"'],
    pattern: re('"auth"\\s{0,4}:\\s{0,4}"(?<secret>[A-Za-z0-9+/]{8,1024}={0,2})"'),
    secretGroup: 'secret',
    validate: (s) => {
      const text = Buffer.from(s, 'base64').toString('latin1');
      const colon = text.indexOf(':');
      return colon > 0 && colon < text.length - 1 && /^[\x20-\x7e]+$/.test(text);
    },
    examples: {
      truePositives: [`{"auths":{"ghcr.io":{"auth":"${Buffer.from(`me:${sample(ALNUM, 20, 'dca')}`).toString('base64')}"}}}`],
      falsePositives: ['{"auth":"bm90IGEgcGFpcg=="}'],
    },
  }),
  rule({
    id: 'gitlab-session-cookie',
    family: 'gitlab',
    description: 'GitLab session cookie (_gitlab_session=<32 hex>): a signed-in browser session',
    keywords: ['gitlab_session='],
    pattern: re('(?<=_)gitlab_session=(?<secret>[0-9a-f]{32})', R),
    secretGroup: 'secret',
    minEntropy: 3,
    examples: {
      truePositives: [`curl -H "Cookie: _gitlab_session=${sample(HEX, 32, 'gs1')}" https://gitlab.example.org/api/v4/user`],
      falsePositives: ['Cookie: _gitlab_session=<session>', `_gitlab_session=${'0'.repeat(32)}`],
    },
  }),
  rule({
    id: 'composer-auth-token',
    family: 'composer',
    description: "GitHub token in Composer's auth.json or its config command (\"github-oauth\": {\"github.com\": \"…\"}; composer config github-oauth.github.com …)",
    // (at `ub-oauth`: `gith` begins much text, which the scan's first filter would pass)
    keywords: ['ub-oauth'],
    // (in auth.json, maybe inside a JSON string: its quotes escaped; on the command line, after the host)
    pattern: re(
      String.raw`(?:(?<=\\{0,3}"gith)ub-oauth\\{0,3}"[ \t\r\n]{0,16}:[ \t\r\n]{0,16}\{[ \t\r\n]{0,16}\\{0,3}"[\w.-]{1,128}\\{0,3}"[ \t\r\n]{0,16}:[ \t\r\n]{0,16}\\{0,3}"`,
      String.raw`(?<secret>[A-Za-z0-9_.-]{20,128})\\{0,3}"`,
      String.raw`|(?<=(?<![\w.-])gith)ub-oauth\.[\w.-]{1,128}[ \t]{1,4}["']?(?<secret2>[A-Za-z0-9_.-]{20,128})(?![\w.-]))`,
    ),
    secretGroup: 'secret',
    minEntropy: 3,
    examples: {
      truePositives: [
        `{\n  "github-oauth": {\n    "github.com": "${sample(HEX, 40, 'co1')}"\n  }\n}`,
        `composer config --global github-oauth.github.com ${sample(HEX, 40, 'co3')}`,
      ],
      falsePositives: ['{"github-oauth": {"github.com": "<your-token>"}}', 'composer config --global github-oauth.github.com "$GITHUB_TOKEN"', '{"github-oauth": {}}'],
    },
  }),
];
