import type { SecretRule } from '../types.js';
import { rule } from './define.js';
import { SHAPE, keyed } from './keyed.js';
import { ASSIGN, L, R, RD, ci, re } from './patterns.js';
import { ALNUM, B64, B64URL, HEX, sample } from './sample.js';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const akid = (salt: string) => 'AKIA' + sample(BASE32, 16, salt);
const awsSecret = (salt: string) => sample(B64, 40, salt);
const AWS_SECRET_VALUE = '(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])';
const AWS_SEP = `[\\s,;:|"'=]{1,8}`;
/**
 * Words of the regions' names cloud SDKs spell as constants (`ASIAPACIFICSOUTHEAST`,
 * `ASIA_PACIFIC_SOUTHEAST_2`): geography, and the cities regions are named after.
 */
const REGION_WORDS = [
  'NORTH', 'SOUTH', 'EAST', 'WEST', 'CENTRAL', 'MIDDLE', 'PACIFIC', 'ASIA', 'EUROPE', 'AFRICA', 'AMERICA', 'AMERICAS', 'LATIN',
  'CANADA', 'CHINA', 'INDIA', 'JAPAN', 'KOREA', 'AUSTRALIA', 'BRAZIL', 'FRANCE', 'GERMANY', 'ISRAEL', 'MEXICO', 'SWEDEN', 'SPAIN',
  'ITALY', 'POLAND', 'QATAR', 'NORWAY', 'SWITZERLAND', 'TAIWAN', 'GOVCLOUD', 'CLOUD', 'TOKYO', 'OSAKA', 'SEOUL', 'SYDNEY',
  'MELBOURNE', 'MUMBAI', 'HYDERABAD', 'SINGAPORE', 'JAKARTA', 'HONGKONG', 'LONDON', 'PARIS', 'FRANKFURT', 'IRELAND', 'ZURICH',
  'MILAN', 'STOCKHOLM', 'BAHRAIN', 'CAPETOWN', 'VIRGINIA', 'OHIO', 'OREGON', 'CALIFORNIA', 'MONTREAL', 'CALGARY', 'SAOPAULO',
  'TAIPEI', 'DUBLIN', 'REGION', 'ZONE', 'GOV',
];
/**
 * An access key id's 16 characters spelling region words only (a constant, `ASIAPACIFICSOUTHEAST`),
 * a digit at most after them. A random id does so about never: it holds no digit 3.6 % of the
 * time, and its letters then fall into these words at well under one in a million.
 */
const REGION_CONSTANT = new RegExp(`^(?:${REGION_WORDS.join('|')})+[2-7]?$`);

/** AWS, Google Cloud, Azure, DigitalOcean, Databricks, HashiCorp Vault (hvs. and the older s., b., r.), Doppler, Terraform, Pulumi, Supabase. */
export const CLOUD_RULES: readonly SecretRule[] = [
  rule({
    id: 'aws-access-key-id',
    family: 'aws',
    description: 'AWS access key id (AKIA, ASIA, ABIA, ACCA, A3T)',
    keywords: ['akia', 'asia', 'abia', 'acca', 'a3t'],
    tokenPrefix: true,
    pattern: re(L, '(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z2-7]{16}', R),
    minEntropy: 2.3, // below the lowest of a million random tokens of this shape
    validate: (s) => !REGION_CONSTANT.test(s.slice(4)),
    examples: {
      truePositives: [
        akid('k1'),
        `aws_access_key_id = ${akid('k2')}`,
        `"AccessKeyId": "ASIA${sample(BASE32, 16, 'k3')}"`,
        `{"env":"A=1\\u000a${akid('k6')}"}`,
        `aws s3 ls --profile ${akid('k7')}_prod`, // glued on its right by `_`
        'ASIAPACIFICSOUTH7XQ2', // region words, then more: an id
        `AKIA${'NORTHEAST'}${sample(BASE32, 7, 'k9')}`,
      ],
      falsePositives: ['AKIAIOSFODNN7EXAMPLE', 'AKIA' + 'A'.repeat(16), 'XAKIA' + sample(BASE32, 16, 'k4'), 'AKIA' + sample(BASE32, 12, 'k5'), `${akid('k8')}_fake`, 'AKIA_PREFIX_DOCS_V2',
        // a region's constant, not an id
        'ASIAPACIFICSOUTHEAST_2', 'region = ASIAPACIFICSOUTHEAST 2', 'ASIAPACIFICNORTHEAST', 'Regions.ASIAPACIFICMELBOURNE'],
    },
  }),
  rule({
    id: 'aws-secret-access-key',
    family: 'aws',
    description: 'AWS secret access key, after its key name or after an access key id (the pair)',
    keywords: ['secret_access_key', 'secretaccesskey', 'secret-access-key', 'aws_secret', 'aws-secret', 'awssecret', 'akia', 'asia'],
    pattern: re(
      '(?:',
      `${ci('secret')}[_-]?${ci('access')}[_-]?${ci('key')}${ASSIGN}`,
      `|${ci('aws')}[_-]?${ci('secret')}${ASSIGN}`,
      // aws configure set [profile.]aws_secret_access_key <value>
      `|(?<=${ci('configure')}[ \\t]{1,4}${ci('set')}[ \\t]{1,4}(?:[\\w-]{1,40}\\.)?)aws_secret_access_key[ \\t]{1,4}`,
      `|(?:AKIA|ASIA)[A-Z2-7]{16}${AWS_SEP}(?:[A-Za-z_]{1,40}${AWS_SEP})?`,
      ')',
      AWS_SECRET_VALUE,
    ),
    secretGroup: 'secret',
    minEntropy: 3.7, // below the lowest of a million random tokens of this shape
    validate: (s) => /[A-Z]/.test(s) && /[a-z]/.test(s) && /[0-9]/.test(s),
    examples: {
      truePositives: [
        `aws_secret_access_key = ${awsSecret('s1')}`,
        `AWS_SECRET_ACCESS_KEY="${awsSecret('s2')}"`,
        `"SecretAccessKey": "${awsSecret('s3')}"`,
        `${akid('p1')},${awsSecret('s4')}`,
        `aws_access_key_id=${akid('p2')}\naws_secret_access_key=${awsSecret('s5')}`,
        `aws configure set aws_secret_access_key ${awsSecret('s6')} --profile ci`,
      ],
      falsePositives: ['aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', `secret_access_key: ${'a'.repeat(40)}`, `aws configure get aws_secret_access_key ${awsSecret('s7')}`],
    },
  }),
  rule({
    id: 'aws-session-token',
    family: 'aws',
    description: "AWS STS session token (temporary credentials' third part: base64 of a binary header, IQoJb3JpZ2luX2Vj, or FwoGZXIvYXdzE / FQoGZXIvYXdzE in older tokens; hundreds of characters, longer than a key-named value is read)",
    keywords: ['iqojb3jpz2lux2vj', 'fwogzxivyxdze', 'fqogzxivyxdze'],
    tokenPrefix: true,
    pattern: re(L, '(?:IQoJb3JpZ2luX2Vj|FwoGZXIvYXdzE|FQoGZXIvYXdzE)[A-Za-z0-9+/]{100,2048}={0,2}', '(?![A-Za-z0-9+/=])'),
    minEntropy: 4,
    examples: {
      truePositives: [
        `AWS_SESSION_TOKEN=IQoJb3JpZ2luX2VjE${sample(B64, 380, 'st1')}`,
        `"SessionToken": "FwoGZXIvYXdzE${sample(B64, 300, 'st2')}="`,
      ],
      falsePositives: ['AWS_SESSION_TOKEN=IQoJb3JpZ2luX2Vj...', `IQoJb3JpZ2luX2Vj${'A'.repeat(300)}`],
    },
  }),
  rule({
    id: 'google-api-key',
    family: 'google',
    description: 'Google API key (AIza)',
    keywords: ['aiza'],
    tokenPrefix: true,
    pattern: re(L, 'AIza[\\w-]{35}', RD),
    minEntropy: 3,
    examples: {
      truePositives: [`https://maps.googleapis.com/maps/api/js?key=AIza${sample(ALNUM, 35, 'g1')}`],
      falsePositives: ['AIza' + 'X'.repeat(35), 'AIzaSy-your-key'],
    },
  }),
  rule({
    id: 'google-oauth-client-secret',
    family: 'google',
    description: 'Google OAuth client secret (GOCSPX-)',
    keywords: ['gocspx-'],
    tokenPrefix: true,
    pattern: re(L, 'GOCSPX-[\\w-]{28}', RD),
    minEntropy: 3,
    examples: { truePositives: [`"client_secret":"GOCSPX-${sample(ALNUM, 28, 'g2')}"`], falsePositives: ['GOCSPX-<secret>'] },
  }),
  rule({
    id: 'google-oauth-access-token',
    family: 'google',
    description: 'Google OAuth access token (ya29.)',
    keywords: ['ya29.'],
    pattern: re(L, 'ya29\\.[\\w-]{30,2048}', RD),
    minEntropy: 3,
    examples: { truePositives: [`Authorization: Bearer ya29.${sample(ALNUM, 120, 'g3')}`], falsePositives: ['ya29.short'] },
  }),
  rule({
    id: 'google-oauth-refresh-token',
    family: 'google',
    description: 'Google OAuth refresh token (1//0)',
    keywords: ['1//0'],
    tokenPrefix: true,
    pattern: re('(?<![\\w/])1//0[\\w-]{60,400}', RD),
    minEntropy: 3,
    examples: { truePositives: [`refresh_token=1//0${sample(ALNUM, 100, 'g4')}`], falsePositives: ['see 1//0 and more'] },
  }),
  rule({
    id: 'azure-storage-account-key',
    family: 'azure',
    description: 'Azure storage account key in a connection string (AccountKey=)',
    keywords: ['accountkey='],
    pattern: re(`${ci('accountkey')}=(?<secret>[A-Za-z0-9+/]{86}==)`),
    secretGroup: 'secret',
    minEntropy: 4,
    examples: {
      truePositives: [
        `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${sample(B64, 86, 'az')}==;EndpointSuffix=core.windows.net`,
      ],
      falsePositives: ['AccountKey=<key>;', 'UseDevelopmentStorage=true'],
    },
  }),
  rule({
    id: 'azure-shared-access-key',
    family: 'azure',
    description: 'Azure Service Bus / Event Hubs / IoT SharedAccessKey in a connection string',
    keywords: ['sharedaccesskey='],
    pattern: re(`${ci('sharedaccesskey')}=(?<secret>[A-Za-z0-9+/]{42,43}=)`),
    secretGroup: 'secret',
    minEntropy: 4,
    examples: {
      truePositives: [`Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=${sample(B64, 43, 'sb')}=`],
      falsePositives: ['SharedAccessKeyName=RootManageSharedAccessKey'],
    },
  }),
  rule({
    id: 'azure-sas-token',
    family: 'azure',
    description: 'Azure shared access signature (sig= in a SAS URL)',
    keywords: ['sig='],
    pattern: re('(?<=[?&])sig=(?<secret>(?:[A-Za-z0-9+/]|%2[BbFf]){40,120}(?:=|%3[Dd]){0,2})'),
    secretGroup: 'secret',
    minEntropy: 4,
    examples: {
      truePositives: [`https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sr=b&sp=r&sig=${sample(ALNUM, 43, 'sas')}%3D`],
      falsePositives: ['?sig=abc', 'https://x.test/?sig=' + 'A'.repeat(43)],
    },
  }),
  keyed({
    id: 'azure-apim-subscription-key',
    family: 'azure',
    description: 'Azure API Management or Azure AI services subscription key (32 hex) after an Ocp-Apim-Subscription-Key header or a subscription / apim key',
    // (the header every APIM-fronted API and the Azure AI services take: `Ocp-Apim-Subscription-Key: <32 hex>`)
    names: ['ocp-apim-subscription', 'apim', 'subscription'],
    values: [SHAPE.hex(32)],
    example: { env: 'OCP_APIM_SUBSCRIPTION_KEY', value: (s) => sample(HEX, 32, s) },
  }),
  rule({
    id: 'azure-ad-client-secret',
    family: 'azure',
    description: 'Azure AD (Entra ID) application client secret (xxx8Q~...)',
    keywords: ['q~'],
    anchored: false,
    // (a full stop after it ends a sentence: `new key: …Q~….` — not one followed by more of the alphabet)
    pattern: re('(?<![\\w~.-])[\\w~.]{3}\\dQ~[\\w~.-]{31,34}(?![\\w~-])(?!\\.[\\w~.-])'),
    minEntropy: 3.5,
    examples: {
      truePositives: [
        `AZURE_CLIENT_SECRET=${sample(ALNUM, 3, 'ad')}8Q~${sample(ALNUM, 34, 'ad2')}`,
        // dots belong to the alphabet: three in a row are chance here, not a cut-short display
        `${sample(ALNUM, 3, 'ad3')}8Q~${sample(ALNUM, 20, 'ad4')}...${sample(ALNUM, 11, 'ad5')}`,
        `the new client secret is ${sample(ALNUM, 3, 'ad6')}8Q~${sample(ALNUM, 34, 'ad7')}.`,
      ],
      falsePositives: ['Q~ alone', 'abc8Q~short'],
    },
  }),
  rule({
    id: 'azure-devops-pat',
    family: 'azure',
    description: 'Azure DevOps personal access token of the newer kind (84 characters: 52 random, the JQQJ9 signature of Microsoft\'s common annotated keys, AZDO at 76-79)',
    // (Microsoft's layout: 52 random base62 characters, `JQQJ9` and `9`, `D` or `H`, a creation date of two
    // characters whose second is a month `A`-`L`, 16 reserved characters, the provider's `AZDO`, 4 of checksum;
    // the match is read around `zdo`, of the signature: a start the scan's first filter passes no more text for,
    // where `jqqj9` would let it pass 2 % more positions of package text)
    keywords: ['zdo'],
    anchored: false,
    pattern: re('(?<![A-Za-z0-9+/])[A-Za-z0-9]{52}JQQJ9[9DH][A-Za-z0-9][A-L][A-Za-z0-9]{16}AZDO[A-Za-z0-9]{4}(?![A-Za-z0-9+/])'),
    examples: {
      truePositives: [
        `AZURE_DEVOPS_EXT_PAT=${sample(ALNUM, 52, 'ado1')}JQQJ99BL${sample(ALNUM, 16, 'ado2')}AZDO${sample(ALNUM, 4, 'ado3')}`,
        `git clone https://pat:${sample(ALNUM, 52, 'ado4')}JQQJ9DAE${sample(ALNUM, 16, 'ado5')}AZDO${sample(ALNUM, 4, 'ado6')}@dev.azure.com/org/proj/_git/repo`,
      ],
      falsePositives: [
        // another provider's signature, a month past L, a first part cut short
        `${sample(ALNUM, 52, 'ado7')}JQQJ99BL${sample(ALNUM, 16, 'ado8')}AZEG${sample(ALNUM, 4, 'ado9')}`,
        `${sample(ALNUM, 52, 'ado7')}JQQJ99BM${sample(ALNUM, 16, 'ado8')}AZDO${sample(ALNUM, 4, 'ado9')}`,
        `${sample(ALNUM, 40, 'ado7')}JQQJ99BL${sample(ALNUM, 16, 'ado8')}AZDO${sample(ALNUM, 4, 'ado9')}`,
      ],
    },
  }),
  rule({
    id: 'digitalocean-token',
    family: 'digitalocean',
    description: 'DigitalOcean personal access, OAuth or refresh token (dop_v1_, doo_v1_, dor_v1_)',
    keywords: ['dop_v1_', 'doo_v1_', 'dor_v1_'],
    tokenPrefix: true,
    pattern: re(L, 'do[opr]_v1_[a-f0-9]{64}', R),
    minEntropy: 3,
    examples: { truePositives: [`DIGITALOCEAN_TOKEN=dop_v1_${sample(HEX, 64, 'do')}`], falsePositives: ['dop_v1_' + '0'.repeat(64)] },
  }),
  rule({
    id: 'databricks-token',
    family: 'databricks',
    description: 'Databricks personal access token (dapi)',
    keywords: ['dapi'],
    tokenPrefix: true,
    pattern: re(L, 'dapi[a-f0-9]{32}(?:-\\d)?', RD),
    minEntropy: 2.7, // below the lowest of a million random tokens of this shape
    examples: { truePositives: [`DATABRICKS_TOKEN=dapi${sample(HEX, 32, 'db')}`], falsePositives: ['dapi' + 'f'.repeat(32), 'mydapi' + sample(HEX, 32, 'db2')] },
  }),
  rule({
    id: 'vault-token',
    family: 'vault',
    description: 'HashiCorp Vault service, batch or recovery token (hvs., hvb., hvr.)',
    keywords: ['hvs.', 'hvb.', 'hvr.'],
    pattern: re(L, 'hv[sbr]\\.[\\w-]{24,400}', RD),
    minEntropy: 3.5,
    examples: { truePositives: [`VAULT_TOKEN=hvs.${sample(ALNUM, 90, 'vt')}`], falsePositives: ['hvs.example-token-value-here', 'hvs.short'] },
  }),
  keyed({
    id: 'vault-legacy-token',
    family: 'vault',
    description: 'HashiCorp Vault token of the format before 1.10 (service s. and recovery r. + 24 base62, batch b. + its encoded blob) after a vault key (VAULT_TOKEN, vault_token:, X-Vault-Token:): `s.` alone is too weak a mark to stand bare',
    names: ['vault'],
    values: ['[sr]\\.[A-Za-z0-9]{24}', 'b\\.[A-Za-z0-9_+/-]{40,400}={0,2}'],
    minEntropy: 3,
    example: { env: 'VAULT_TOKEN', value: (s) => `s.${sample(ALNUM, 24, s)}` },
    truePositives: [
      `curl -H "X-Vault-Token: s.${sample(ALNUM, 24, 'vl1')}" https://vault.internal:8200/v1/secret/data/app`,
      `export VAULT_TOKEN=b.${sample(B64URL, 120, 'vl2')}`,
      `vault:\n  addr: https://vault.internal:8200\n  token_file: /run/vault-token\n  vault_token: "r.${sample(ALNUM, 24, 'vl3')}"\n`,
    ],
    falsePositives: [
      'VAULT_TOKEN=s.xxxxxxxxxxxxxxxxxxxxxxxx',
      `VAULT_ADDR=s.${sample(ALNUM, 24, 'vl4')}`,
      `session.${sample(ALNUM, 24, 'vl6')}`,
      'VAULT_TOKEN=s.short',
    ],
  }),
  rule({
    id: 'doppler-token',
    family: 'doppler',
    description: 'Doppler personal, service, service-account, CLI, SCIM or audit token (dp.pt. ...)',
    keywords: ['dp.pt.', 'dp.st.', 'dp.sa.', 'dp.ct.', 'dp.scim.', 'dp.audit.'],
    pattern: re(L, 'dp\\.(?:pt|st|sa|ct|scim|audit)\\.[A-Za-z0-9_.-]{40,90}', RD),
    minEntropy: 3.5,
    examples: { truePositives: [`DOPPLER_TOKEN=dp.st.${sample(ALNUM, 43, 'dp')}`], falsePositives: ['dp.st.' + 'x'.repeat(43)] },
  }),
  rule({
    id: 'terraform-cloud-token',
    family: 'hashicorp',
    description: 'Terraform Cloud / Enterprise API token (.atlasv1.)',
    keywords: ['.atlasv1.'],
    anchored: false,
    pattern: re(L, '[A-Za-z0-9]{14}\\.atlasv1\\.[\\w=-]{60,70}', RD),
    minEntropy: 3.5,
    examples: { truePositives: [`token = "${sample(ALNUM, 14, 'tf')}.atlasv1.${sample(ALNUM, 67, 'tf2')}"`], falsePositives: ['x.atlasv1.y'] },
  }),
  rule({
    id: 'pulumi-token',
    family: 'pulumi',
    description: 'Pulumi access token (pul-)',
    keywords: ['pul-'],
    tokenPrefix: true,
    pattern: re(L, 'pul-[a-f0-9]{40}', R),
    minEntropy: 3,
    examples: { truePositives: [`PULUMI_ACCESS_TOKEN=pul-${sample(HEX, 40, 'pu')}`], falsePositives: ['pul-request'] },
  }),
  rule({
    id: 'supabase-token',
    family: 'supabase',
    description: 'Supabase personal access or service token (sbp_)',
    keywords: ['sbp_'],
    tokenPrefix: true,
    pattern: re(L, 'sbp_[a-f0-9]{40}', R),
    minEntropy: 3,
    examples: { truePositives: [`SUPABASE_ACCESS_TOKEN=sbp_${sample(HEX, 40, 'sb')}`], falsePositives: ['sbp_short'] },
  }),
  rule({
    id: 'supabase-secret-key',
    family: 'supabase',
    description: 'Supabase project secret API key (sb_secret_; the publishable key, sb_publishable_, is public by design and not reported)',
    // (supabase.com/docs/guides/api/api-keys: sb_secret_… bypasses Row Level Security, for servers only)
    keywords: ['sb_secret_'],
    tokenPrefix: true,
    pattern: re(L, 'sb_secret_[A-Za-z0-9_-]{30,80}', RD),
    minEntropy: 3.5,
    examples: {
      truePositives: [`SUPABASE_SECRET_KEY=sb_secret_${sample(B64URL.replace(/[-_]/g, ''), 22, 'sbs1')}_${sample(B64URL, 8, 'sbs2')}`, `createClient(url, "sb_secret_${sample(B64URL, 31, 'sbs3')}")`],
      falsePositives: [`NEXT_PUBLIC_SUPABASE_KEY=sb_publishable_${sample(B64URL, 31, 'sbs4')}`, 'SUPABASE_SECRET_KEY=sb_secret_...', 'SUPABASE_SECRET_KEY=sb_secret_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
    },
  }),
];

