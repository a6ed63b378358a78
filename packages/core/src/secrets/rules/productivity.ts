import { base64Json, base64Text } from '../checksums.js';
import type { SecretRule } from '../types.js';
import { rule } from './define.js';
import { SHAPE, keyed } from './keyed.js';
import { L, R, RD, re } from './patterns.js';
import { ALNUM, B64URL, HEX, UPPER_NUM, sample, sampleUuid } from './sample.js';

const uuid = sampleUuid;
const UUID_LOWER = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const digits = (n: number, salt: string) => sample('0123456789', n, salt);
const b64 = (s: string) => Buffer.from(s).toString('base64');
/** An Intercom access token: base64 of `tok:<uuid with _>:1:0`. */
const intercom = (salt: string) => b64(`tok:${uuid(salt).replace(/-/g, '_')}:1:0`);
/** A 1Password service-account token: ops_ + base64 of a JSON document. */
const onePassword = (salt: string) =>
  `ops_${b64(JSON.stringify({ signInAddress: 'team.1password.com', userAuth: { method: 'SRPg-4096', alg: 'PBES2g-HS256', iterations: 650000, salt: sample(B64URL, 22, salt) }, email: `${sample(ALNUM, 12, `${salt}e`)}@1passwordserviceaccounts.com`, srpX: sample(HEX, 64, `${salt}x`), muk: { alg: 'A256GCM', k: sample(B64URL, 43, `${salt}k`), kty: 'oct' }, secretKey: `A3-${sample(UPPER_NUM, 6, `${salt}s`)}-${sample(UPPER_NUM, 26, `${salt}t`)}` })).replace(/=+$/, '')}`;

/** Work-management, content, support, CRM and developer-platform APIs. */
export const PRODUCTIVITY_RULES: readonly SecretRule[] = [
  keyed({
    id: 'airtable-token',
    family: 'airtable',
    description: 'Airtable API key of the older kind (key + 14 characters) after an airtable key (a personal access token is airtable-pat, under any key)',
    names: ['airtable'],
    values: ['key[A-Za-z0-9]{14}'],
    minEntropy: 3.3,
    example: { env: 'AIRTABLE_API_KEY', value: (s) => `key${sample(ALNUM, 14, s)}` },
  }),
  rule({
    id: 'airtable-pat',
    family: 'airtable',
    description: 'Airtable personal access token anywhere (pat + 14 characters . 64 hex)',
    keywords: ['pat'],
    // (pre-filters outside the detector match case-insensitively: `pat` alone begins every path)
    prefilter: 'pat[A-Za-z0-9]{14}\\.[0-9a-fA-F]{32}',
    tokenPrefix: true,
    keywordsMatchCase: true,
    pattern: re(L, 'pat[A-Za-z0-9]{14}\\.[0-9a-f]{64}', R),
    minEntropy: 3.3,
    examples: {
      truePositives: [`curl -H "Authorization: Bearer pat${sample(ALNUM, 14, 'atp')}.${sample(HEX, 64, 'atp2')}" https://api.airtable.com/v0/meta/bases`],
      falsePositives: ['path.join(dir, name)', `patternMatcher1.${'0'.repeat(64)}`, `pat${'0'.repeat(14)}.${'0'.repeat(64)}`],
    },
  }),
  keyed({
    id: 'asana-token',
    family: 'asana',
    description: 'Asana personal access token (0/<32 hex>, 1/<user id>:<32 hex>, 2/<user id>/<token id>:<32 hex>) after an asana key',
    names: ['asana'],
    values: ['[12]/\\d{4,20}(?:/\\d{4,20})?:[0-9a-f]{32}', '0/[0-9a-f]{32}'],
    example: { env: 'ASANA_ACCESS_TOKEN', value: (s) => `1/${digits(16, s)}:${sample(HEX, 32, `${s}h`)}` },
    truePositives: [`ASANA_PAT=2/${digits(16, 'as3')}/${digits(16, 'as4')}:${sample(HEX, 32, 'as5')}`, `asana_token: "0/${sample(HEX, 32, 'as6')}"`],
  }),
  rule({
    id: 'typeform-token',
    family: 'typeform',
    description: 'Typeform personal access token (tfp_)',
    keywords: ['tfp_'],
    tokenPrefix: true,
    pattern: re(L, 'tfp_[\\w-]{40,70}', RD),
    minEntropy: 3.5,
    examples: { truePositives: [`TYPEFORM_TOKEN=tfp_${sample(B64URL, 44, 'tf1')}_${sample(ALNUM, 14, 'tf2')}`], falsePositives: ['tfp_short'] },
  }),
  keyed({
    id: 'zendesk-api-token',
    family: 'zendesk',
    description: 'Zendesk API token (40 characters) after a zendesk key',
    names: ['zendesk'],
    values: [SHAPE.alnum(40)],
    minEntropy: 3.5,
    example: { env: 'ZENDESK_API_TOKEN', value: (s) => sample(ALNUM, 40, s) },
  }),
  rule({
    id: 'zendesk-token-auth',
    family: 'zendesk',
    description: 'Zendesk API token in basic authentication (<email>/token:<40 characters>)',
    keywords: ['/token:'],
    pattern: re('/token:(?<secret>[A-Za-z0-9]{40})', R),
    secretGroup: 'secret',
    minEntropy: 3.5,
    validate: (_s, m) => m.index > 0 && /[\w.-]/.test(m.input[m.index - 1]!),
    examples: { truePositives: [`curl -u agent@corp.example/token:${sample(ALNUM, 40, 'zt')} https://corp.zendesk.com/api/v2/users.json`], falsePositives: ['see /token:docs for more'] },
  }),
  rule({
    id: 'intercom-access-token',
    family: 'intercom',
    description: 'Intercom access token (dG9rO…, base64 of tok:<uuid>:1:0)',
    keywords: ['dg9ro'],
    tokenPrefix: true,
    pattern: re(L, 'dG9rO[A-Za-z0-9+/]{50,60}={0,2}', '(?![A-Za-z0-9+/=])'),
    minEntropy: 3.5,
    validate: (s) => /^tok:[\w-]+:\d+:\d+$/.test(base64Text(s) ?? ''),
    examples: { truePositives: [`INTERCOM_ACCESS_TOKEN=${intercom('ic1')}`, b64(`tok:d${uuid('ic2').slice(1).replace(/-/g, '_')}:1:0`) /* a uuid starting with a letter: dG9rOm… */], falsePositives: [b64('tok: a token is a token is a token, says the docs')] },
  }),
  rule({
    id: 'hubspot-private-app-token',
    family: 'hubspot',
    description: 'HubSpot private app access token (pat-na1-<uuid>, pat-eu1-…)',
    keywords: ['pat-na', 'pat-eu', 'pat-ap'],
    tokenPrefix: true,
    pattern: re(L, `pat-(?:na|eu|ap)\\d-${UUID_LOWER}`, R),
    minEntropy: 3,
    examples: { truePositives: [`HUBSPOT_ACCESS_TOKEN=pat-na1-${uuid('hs1')}`], falsePositives: ['pat-na1-00000000-0000-0000-0000-000000000000'] },
  }),
  keyed({
    id: 'hubspot-api-key',
    family: 'hubspot',
    description: 'HubSpot API key of the older kind (a UUID) after a hubspot / hapikey key',
    names: ['hubspot', 'hapi'],
    values: [SHAPE.uuid],
    example: { env: 'HUBSPOT_API_KEY', value: uuid },
    truePositives: [`https://api.hubapi.com/contacts/v1/lists?hapikey=${uuid('hs2')}`],
  }),
  rule({
    id: 'contentful-token',
    family: 'contentful',
    description: 'Contentful content-management personal access token (CFPAT- + 43 characters)',
    keywords: ['cfpat-'],
    tokenPrefix: true,
    pattern: re(L, 'CFPAT-[\\w-]{43}', RD),
    minEntropy: 3.5,
    examples: { truePositives: [`CONTENTFUL_MANAGEMENT_TOKEN=CFPAT-${sample(B64URL, 43, 'cf')}`], falsePositives: ['CFPAT-<token>'] },
  }),
  keyed({
    id: 'contentful-delivery-token',
    family: 'contentful',
    description: 'Contentful delivery or preview token (43 characters) after a contentful key',
    names: ['contentful'],
    values: [SHAPE.urlSafe(43)],
    minEntropy: 3.5,
    example: { env: 'CONTENTFUL_ACCESS_TOKEN', value: (s) => sample(B64URL, 43, s) },
  }),
  keyed({
    id: 'squarespace-api-key',
    family: 'squarespace',
    description: 'Squarespace API key (a UUID) after a squarespace key',
    names: ['squarespace'],
    values: [SHAPE.uuid],
    example: { env: 'SQUARESPACE_API_KEY', value: uuid },
  }),
  rule({
    id: 'dropbox-token',
    family: 'dropbox',
    description: 'Dropbox short-lived access token of the newer kind (sl.u. + 130 or more characters)',
    keywords: ['sl.u.'],
    pattern: re(L, 'sl\\.u\\.[\\w-]{130,1500}', RD),
    minEntropy: 3.5,
    examples: { truePositives: [`sl.u.${sample(B64URL, 400, 'db2')}`], falsePositives: ['sl.u.short', 'css.sl.u.' + 'a'.repeat(140)] },
  }),
  keyed({
    id: 'dropbox-token-keyed',
    family: 'dropbox',
    description: 'Dropbox short-lived access token (sl. + 130 or more characters), long-lived token (64 characters) or app secret (15 characters) after a dropbox key',
    names: ['dropbox'],
    values: ['sl\\.[\\w=-]{130,1500}', SHAPE.urlSafe(64), SHAPE.lowerNum(15)],
    minEntropy: 3.3,
    example: { env: 'DROPBOX_ACCESS_TOKEN', value: (s) => sample(B64URL, 64, s) },
  }),
  rule({
    id: 'onepassword-token',
    family: '1password',
    description: '1Password service-account token (ops_ + base64 JSON)',
    keywords: ['ops_eyj'],
    tokenPrefix: true,
    pattern: re(L, 'ops_eyJ[A-Za-z0-9+/_-]{100,4096}={0,2}', RD),
    minEntropy: 3.3,
    // The body is base64 of a JSON document; a long one that does not decode (cut, re-wrapped) is kept.
    validate: (s) => base64Json(s.slice(4)) !== undefined || s.length > 200,
    proof: (s) => base64Json(s.slice(4)) !== undefined,
    examples: { truePositives: [`OP_SERVICE_ACCOUNT_TOKEN=${onePassword('op1')}`], falsePositives: ['OP_SERVICE_ACCOUNT_TOKEN=ops_eyJ…[Redacted]', `ops_eyJzaWduSW5BZGRyZXNzIjoi${'A'.repeat(100)}`] },
  }),
  rule({
    id: 'onepassword-secret-key',
    family: '1password',
    description: '1Password account Secret Key (A3- + six groups of uppercase letters and digits)',
    keywords: ['A3-'],
    tokenPrefix: true,
    keywordsMatchCase: true,
    pattern: re(L, 'A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}', RD),
    minEntropy: 3,
    examples: {
      truePositives: [
        `OP_SECRET_KEY=A3-${sample(UPPER_NUM, 6, 'ops1')}-${sample(UPPER_NUM, 11, 'ops2')}-${sample(UPPER_NUM, 5, 'ops3')}-${sample(UPPER_NUM, 5, 'ops4')}-${sample(UPPER_NUM, 5, 'ops5')}`,
        `op account add --secret-key A3-${sample(UPPER_NUM, 6, 'ops6')}-${sample(UPPER_NUM, 6, 'ops7')}-${sample(UPPER_NUM, 5, 'ops8')}-${sample(UPPER_NUM, 5, 'ops9')}-${sample(UPPER_NUM, 5, 'opsa')}-${sample(UPPER_NUM, 5, 'opsb')}`,
      ],
      falsePositives: ['A3-XXXXXX-XXXXXXXXXXX-XXXXX-XXXXX-XXXXX', 'Print on A3-size paper', 'A3-XXXXXX-XXXXXX-XXXXX-XXXXX-XXXXX-XXXXX'],
    },
  }),
  keyed({
    id: 'onepassword-connect-token',
    family: '1password',
    description: '1Password Connect server token (a JWT) after an OP_CONNECT / onepassword key',
    names: ['op_connect', 'onepassword', '1password'],
    values: ['eyJ[\\w-]{10,2048}\\.eyJ[\\w-]{10,4096}\\.[\\w-]{20,1024}'],
    minEntropy: 3.5,
    // (a header without alg, so that the jwt rule does not take the examples as well)
    example: { env: 'OP_CONNECT_TOKEN', value: (s) => `eyJ${sample(B64URL, 30, `${s}h`)}.eyJ${sample(B64URL, 80, s)}.${sample(B64URL, 86, `${s}g`)}` },
  }),
  rule({
    id: 'launchdarkly-key',
    family: 'launchdarkly',
    description: 'LaunchDarkly API access token or server-side SDK key (api-<uuid>, sdk-<uuid>)',
    keywords: ['api-', 'sdk-'],
    tokenPrefix: true,
    pattern: re(L, `(?:api|sdk)-${UUID_LOWER}`, R),
    minEntropy: 2.8, // below the lowest of a million random tokens of this shape
    examples: { truePositives: [`LD_SDK_KEY=sdk-${uuid('ld1')}`, `LAUNCHDARKLY_ACCESS_TOKEN=api-${uuid('ld2')}`], falsePositives: ['api-gateway', 'mob-' + uuid('ld3')] },
  }),
  keyed({
    id: 'clickup-token',
    family: 'clickup',
    description: 'ClickUp personal API token (pk_<user id>_<32 uppercase letters and digits>) after a clickup key',
    names: ['clickup'],
    values: ['pk_\\d{4,12}_[A-Z0-9]{32}'],
    minEntropy: 3.3,
    example: { env: 'CLICKUP_API_TOKEN', value: (s) => `pk_${digits(8, s)}_${sample(UPPER_NUM, 32, `${s}u`)}` },
  }),
  rule({
    id: 'figma-token',
    family: 'figma',
    description: 'Figma personal access token (figd_)',
    keywords: ['figd_'],
    tokenPrefix: true,
    pattern: re(L, 'figd_[\\w-]{40,50}', RD),
    minEntropy: 3.5,
    examples: { truePositives: [`FIGMA_TOKEN=figd_${sample(B64URL, 40, 'fg')}`], falsePositives: ['figd_short'] },
  }),
];
