import { base64Json, base64Text } from '../checksums.js';
import type { SecretRule } from '../types.js';
import { rule } from './define.js';
import { SHAPE, keyed } from './keyed.js';
import { L, R, RD, TAIL_OR_SPACE, ci, re, spacedAssignment } from './patterns.js';
import { ALNUM, B64URL, HEX, LOWER_NUM, UPPER_NUM, sample, sampleUuid } from './sample.js';

const uuid = sampleUuid;

/**
 * Sidekiq's `user:password` of 8 hex each is no placeholder: the halves differ, and neither is one
 * character over and over or eight in code order (`00000000`, `12345678`, `abcdef01`).
 */
function sidekiqHalvesRandom(secret: string): boolean {
  const [a, b] = secret.replace(/%3a/i, ':').split(':') as [string, string];
  const ordered = (h: string): boolean => [...h].every((c, i) => i === 0 || c.charCodeAt(0) - h.charCodeAt(i - 1) === 1 || c === h[i - 1]);
  return a !== b && !ordered(a) && !ordered(b);
}
const b64url = (s: string) => Buffer.from(s).toString('base64url');
/** A JFrog reference token: base64 of `reftkn:01:<expiry>:<random>`, cut to 64 characters. */
const jfrogToken = (salt: string) => Buffer.from(`reftkn:01:${sample('0123456789', 10, salt)}:${sample(ALNUM, 40, `${salt}r`)}`).toString('base64').replace(/[+/=]/g, '').slice(0, 64);

/** Code quality, code search, CI/CD, package registries and artifact stores. */
export const DEVOPS_RULES: readonly SecretRule[] = [
  rule({
    id: 'sonarqube-token',
    family: 'sonarqube',
    description: 'SonarQube user, project-analysis or global-analysis token (squ_, sqp_, sqa_)',
    keywords: ['squ_', 'sqp_', 'sqa_'],
    tokenPrefix: true,
    pattern: re(L, 'sq[upa]_[0-9a-f]{40}', R),
    minEntropy: 3,
    examples: { truePositives: [`SONAR_TOKEN=squ_${sample(HEX, 40, 'sq1')}`, `sonar.token=sqp_${sample(HEX, 40, 'sq2')}`], falsePositives: ['squ_' + '0'.repeat(40), 'sqa_short'] },
  }),
  keyed({
    id: 'sonarqube-token-keyed',
    family: 'sonarqube',
    description: 'SonarQube or SonarCloud token of the older kind (40 hex) after a sonar key',
    names: ['sonar'],
    values: [SHAPE.hex(40)],
    example: { env: 'SONAR_TOKEN', value: (s) => sample(HEX, 40, s) },
    truePositives: [`mvn sonar:sonar -Dsonar.login=${sample(HEX, 40, 'sl')}`],
  }),
  rule({
    id: 'sourcegraph-token',
    family: 'sourcegraph',
    description: 'Sourcegraph access token (sgp_, sgph_) or derived token (sgd_, sgs_, slk_)',
    keywords: ['sgp_', 'sgph_', 'sgd_', 'sgs_', 'slk_'],
    tokenPrefix: true,
    pattern: re(L, '(?:sgph?_(?:[0-9a-fA-F]{16}_|local_)?[0-9a-fA-F]{40}|(?:sgd|sgs|slk)_[0-9a-f]{64})', R),
    minEntropy: 3,
    examples: {
      truePositives: [`SRC_ACCESS_TOKEN=sgp_${sample(HEX, 16, 'sg1')}_${sample(HEX, 40, 'sg2')}`, `sgp_local_${sample(HEX, 40, 'sg3')}`, `sgd_${sample(HEX, 64, 'sg4')}`],
      falsePositives: ['sgp_' + 'f'.repeat(40), 'slk_short'],
    },
  }),
  rule({
    id: 'rubygems-api-key',
    family: 'rubygems',
    description: 'RubyGems API key (rubygems_ + 48 hex)',
    keywords: ['rubygems_'],
    tokenPrefix: true,
    pattern: re(L, 'rubygems_[0-9a-f]{48}', R),
    minEntropy: 3,
    examples: { truePositives: [`GEM_HOST_API_KEY=rubygems_${sample(HEX, 48, 'rg')}`], falsePositives: ['rubygems_version', 'rubygems_' + 'a'.repeat(48)] },
  }),
  rule({
    id: 'nuget-api-key',
    family: 'nuget',
    description: 'NuGet API key (oy2 + 43 lowercase letters and digits)',
    keywords: ['oy2'],
    tokenPrefix: true,
    pattern: re(L, 'oy2[a-z0-9]{43}', R),
    minEntropy: 3.5,
    examples: { truePositives: [`dotnet nuget push pkg.nupkg --api-key oy2${sample(LOWER_NUM, 43, 'nu')}`], falsePositives: ['oy2short', 'oy2' + 'a'.repeat(43)] },
  }),
  rule({
    id: 'jfrog-token',
    family: 'jfrog',
    description: 'JFrog reference token (cmVmd…, base64 of reftkn:) or Artifactory API key (AKCp)',
    keywords: ['cmvmd', 'AKCp'],
    tokenPrefix: true,
    pattern: re(L, '(?:cmVmd[A-Za-z0-9]{59}|AKCp[A-Za-z0-9]{69})', R),
    minEntropy: 3.5,
    validate: (s) => !s.startsWith('cmVmd') || (base64Text(s) ?? '').startsWith('reftkn:'),
    examples: {
      truePositives: [`JFROG_ACCESS_TOKEN=${jfrogToken('jf1')}`, `X-JFrog-Art-Api: AKCp${sample(ALNUM, 69, 'jf2')}`],
      falsePositives: [`cmVmd${'A'.repeat(59)}`, 'AKCp_short'],
    },
  }),
  rule({
    id: 'snyk-token',
    family: 'snyk',
    description: 'Snyk personal or service-account token (snyk_uat., snyk_sat.; its payload is base64 JSON)',
    keywords: ['snyk_uat.', 'snyk_sat.'],
    pattern: re(L, 'snyk_[us]at\\.[0-9a-f]{8}\\.[\\w-]{20,1024}\\.[\\w-]{20,512}', RD),
    minEntropy: 3.5,
    proof: (s) => base64Json(s.split('.')[2]!) !== undefined,
    examples: {
      truePositives: [`SNYK_TOKEN=snyk_uat.${sample(HEX, 8, 'sn1')}.${b64url(`{"e":1900000000,"h":"snyk.io","j":"${sample(ALNUM, 20, 'sn2')}"}`)}.${sample(B64URL, 43, 'sn3')}`],
      falsePositives: ['snyk_uat.12345678.payload.signature', 'snyk_sat.'],
    },
  }),
  keyed({
    id: 'snyk-token-keyed',
    family: 'snyk',
    description: 'Snyk API token of the older kind (a UUID) after a snyk key',
    names: ['snyk'],
    values: [SHAPE.uuid],
    example: { env: 'SNYK_TOKEN', value: uuid },
  }),
  rule({
    id: 'octopus-deploy-api-key',
    family: 'octopus',
    description: 'Octopus Deploy API key (API- + 26 to 32 uppercase letters and digits)',
    keywords: ['API-'],
    tokenPrefix: true,
    keywordsMatchCase: true,
    pattern: re(L, 'API-[A-Z0-9]{26,32}', R),
    minEntropy: 3.2, // below the lowest of a million random tokens of this shape
    examples: { truePositives: [`X-Octopus-ApiKey: API-${sample(UPPER_NUM, 27, 'oc')}`], falsePositives: ['API-KEY-REQUIRED-FOR-THIS-ENDPOINT', 'API-GATEWAY'] },
  }),
  rule({
    id: 'harness-token',
    family: 'harness',
    description: 'Harness personal access or service-account token (pat. / sat. + account id + token id + secret)',
    keywords: ['pat.', 'sat.'],
    pattern: re(L, '[ps]at\\.[\\w-]{22}\\.[0-9a-f]{24}\\.[A-Za-z0-9]{20}', R),
    minEntropy: 3.5,
    examples: { truePositives: [`HARNESS_API_KEY=pat.${sample(B64URL, 22, 'ha1')}.${sample(HEX, 24, 'ha2')}.${sample(ALNUM, 20, 'ha3')}`], falsePositives: ['pat.xxx.yyy.zzz'] },
  }),
  rule({
    id: 'buildkite-token',
    family: 'buildkite',
    description: 'Buildkite API access token (bkua_ + 40 hex)',
    keywords: ['bkua_'],
    tokenPrefix: true,
    pattern: re(L, 'bkua_[0-9a-f]{40}', R),
    minEntropy: 3,
    examples: { truePositives: [`BUILDKITE_API_TOKEN=bkua_${sample(HEX, 40, 'bk')}`], falsePositives: ['bkua_' + '0'.repeat(40)] },
  }),
  rule({
    id: 'clojars-deploy-token',
    family: 'clojars',
    description: 'Clojars deploy token (CLOJARS_ + 60 letters and digits)',
    keywords: ['clojars_'],
    tokenPrefix: true,
    pattern: re(L, '[Cc][Ll][Oo][Jj][Aa][Rr][Ss]_[a-z0-9]{60}', R),
    minEntropy: 3.5,
    examples: { truePositives: [`CLOJARS_PASSWORD=CLOJARS_${sample(LOWER_NUM, 60, 'cj')}`], falsePositives: ['CLOJARS_USERNAME=me'] },
  }),
  rule({
    id: 'sidekiq-credentials',
    family: 'sidekiq',
    description: 'Sidekiq Pro / Enterprise gem-server credentials (BUNDLE_…__CONTRIBSYS__COM, or in the source URL)',
    keywords: ['contribsys'],
    anchored: false,
    pattern: re(`(?:${ci('bundle')}[_.-]?(?:${ci('enterprise')}|${ci('gems')})[_.-]{0,2}${ci('contribsys')}[_.-]{0,2}${ci('com')}${TAIL_OR_SPACE}|https?://)(?<secret>[0-9a-f]{8}(?::|%3[Aa])[0-9a-f]{8})(?:@(?:enterprise|gems)\\.contribsys\\.com)?(?![\\w])`),
    secretGroup: 'secret',
    // Two halves of 32 bits: the shared placeholder judgement wants more randomness than that
    // besides a run (`…:eeeeee74` about once in a hundred thousand), so the halves are judged here.
    allowPlaceholders: true,
    // (after a space alone, the key in capitals or a flag: `ENV BUNDLE_…__CONTRIBSYS__COM v`, `--bundle-enterprise--contribsys--com v`;
    // the double underscore Bundler writes for a dot is no CONSTANT_NAME to spacedAssignment)
    validate: (s, m) =>
      (!m[0].startsWith('http') || m[0].endsWith('contribsys.com')) &&
      (m.groups?.['ws'] === undefined || /^BUNDLE_[A-Z_]+__COM[ \t]/.test(m[0]) || spacedAssignment(m.input, m.index, m[0])) &&
      sidekiqHalvesRandom(s),
    examples: {
      truePositives: [`BUNDLE_ENTERPRISE__CONTRIBSYS__COM=${sample(HEX, 8, 'sk1')}:${sample(HEX, 8, 'sk2')}`, `source "https://${sample(HEX, 8, 'sk3')}:${sample(HEX, 8, 'sk4')}@gems.contribsys.com/"`, `bundle_gems__contribsys__com: "${sample(HEX, 8, 'sk5')}:${sample(HEX, 8, 'sk6')}"`, `?bundle_enterprise__contribsys__com=${sample(HEX, 8, 'sk7')}%3A${sample(HEX, 8, 'sk8')}`, `bundle.enterprise..contribsys..com=${sample(HEX, 8, 'sk9')}:eeeeee74`, `FROM ruby:3.3\nENV BUNDLE_ENTERPRISE__CONTRIBSYS__COM ${sample(HEX, 8, 'sk10')}:${sample(HEX, 8, 'sk11')}\n`, `deploy --bundle-enterprise--contribsys--com ${sample(HEX, 8, 'sk12')}:${sample(HEX, 8, 'sk13')} --region eu-west-1`],
      falsePositives: ['source "https://gems.contribsys.com/"', 'BUNDLE_GEMS__CONTRIBSYS__COM=${SIDEKIQ_CREDENTIALS}', 'BUNDLE_ENTERPRISE__CONTRIBSYS__COM=00000000:00000000', 'BUNDLE_GEMS__CONTRIBSYS__COM=12345678:9abcdef0', `bundle_gems__contribsys__com ${sample(HEX, 8, 'sk14')}:${sample(HEX, 8, 'sk15')} is the pair`],
    },
  }),
  keyed({
    id: 'azure-devops-pat-keyed',
    family: 'azure',
    description: 'Azure DevOps personal access token of the older kind (52 characters of lowercase base32) after an azure_devops / vsts / azdo key (AZURE_DEVOPS_EXT_PAT, the CLI\'s)',
    names: ['azure_devops', 'azuredevops', 'vsts', 'azdo'],
    values: ['[a-z2-7]{52}'],
    example: { env: 'AZURE_DEVOPS_TOKEN', value: (s) => sample('abcdefghijklmnopqrstuvwxyz234567', 52, s) },
    truePositives: [
      `export AZURE_DEVOPS_EXT_PAT=${sample('abcdefghijklmnopqrstuvwxyz234567', 52, 'adk1')}`,
      `VSTS_PAT: ${sample('abcdefghijklmnopqrstuvwxyz234567', 52, 'adk2')}`,
      // the Terraform provider's variable
      `AZDO_PERSONAL_ACCESS_TOKEN=${sample('abcdefghijklmnopqrstuvwxyz234567', 52, 'adk4')}`,
      // a camelCase key ending in `Pat`
      `const azureDevOpsPat = "${sample('abcdefghijklmnopqrstuvwxyz234567', 52, 'adk5')}";`,
    ],
    falsePositives: ['AZURE_DEVOPS_EXT_PAT=$(System.AccessToken)', `AZURE_DEVOPS_ORG_ID=${sample('abcdefghijklmnopqrstuvwxyz234567', 52, 'adk3')}`],
  }),
  keyed({
    id: 'travis-ci-token',
    family: 'travis',
    description: 'Travis CI API token (22 characters) after a travis key',
    names: ['travis'],
    values: [SHAPE.urlSafe(22)],
    minEntropy: 2.9, // below the lowest of a million random tokens of this shape
    example: { env: 'TRAVIS_API_TOKEN', value: (s) => sample(B64URL, 22, s) },
  }),
  keyed({
    id: 'codecov-token',
    family: 'codecov',
    description: 'Codecov upload token (a UUID) or API token (hex) after a codecov key',
    names: ['codecov'],
    values: [SHAPE.uuid, SHAPE.hex(32, 40)],
    example: { env: 'CODECOV_TOKEN', value: uuid },
  }),
  keyed({
    id: 'circleci-token',
    family: 'circleci',
    description: 'CircleCI personal or project API token (40 hex, or CCIPAT_…) after a circle key',
    names: ['circleci', 'circle'],
    values: [SHAPE.hex(40), 'CCI(?:PAT|PRJ)_[A-Za-z0-9]{20,30}_[0-9a-f]{40}'],
    example: { env: 'CIRCLECI_TOKEN', value: (s) => sample(HEX, 40, s) },
  }),
  keyed({
    id: 'drone-ci-token',
    family: 'drone',
    description: 'Drone CI access token (32 characters) after a drone key',
    names: ['drone'],
    values: [SHAPE.alnum(32)],
    minEntropy: 3.5,
    example: { env: 'DRONE_TOKEN', value: (s) => sample(ALNUM, 32, s) },
  }),
  keyed({
    id: 'gitter-token',
    family: 'gitter',
    description: 'Gitter access token (40 hex) after a gitter key',
    names: ['gitter'],
    values: [SHAPE.hex(40)],
    example: { env: 'GITTER_TOKEN', value: (s) => sample(HEX, 40, s) },
  }),
  keyed({
    id: 'github-token-keyed',
    family: 'github',
    description: 'GitHub OAuth token of the older kind (40 hex) after a github key',
    names: ['github', 'gh'],
    values: [SHAPE.hex(40)],
    example: { env: 'GITHUB_TOKEN', value: (s) => sample(HEX, 40, s) },
  }),
];
