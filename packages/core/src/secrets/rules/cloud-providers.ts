import { base64Text } from '../checksums.js';
import type { SecretRule } from '../types.js';
import { rule } from './define.js';
import { SHAPE, keyed } from './keyed.js';
import { L, R, RD, re } from './patterns.js';
import { ALNUM, B64, B64URL, HEX, UPPER_NUM, sample } from './sample.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
/** A long-term Bedrock API key: ABSK + base64 of `BedrockAPIKey-<id>-at-<account>:<secret>`. */
/** `ABSK` and the base64 of `BedrockAPIKey-` as far as it does not depend on what follows. */
const BEDROCK_LONG_TERM = 'ABSKQmVkcm9ja0FQSUtleS';
/** A long-term key's payload: `BedrockAPIKey-<id>-at-<account>:<secret>` in base64 after ABSK. */
const bedrockPayload = (s: string): boolean => /^BedrockAPIKey-[A-Za-z0-9]+-at-\d{12}:/.test(base64Text(s.slice(4)) ?? '');
const bedrockKey = (salt: string) => `ABSK${b64(`BedrockAPIKey-${sample(ALNUM, 4, salt)}-at-${sample('0123456789', 12, `${salt}a`)}:${sample(B64, 60, `${salt}s`)}`)}`;
const bedrockShortTerm = (salt: string) =>
  `bedrock-api-key-${b64(`bedrock.amazonaws.com/?Action=CallWithBearerToken&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=ASIA${sample(UPPER_NUM, 16, salt)}%2F20250101%2Fus-east-1%2Fbedrock%2Faws4_request&X-Amz-Date=20250101T000000Z&X-Amz-Expires=43200&X-Amz-Signature=${sample(HEX, 64, `${salt}g`)}&Version=1`)}`;
const serviceAccount = (salt: string) =>
  JSON.stringify({ type: 'service_account', project_id: 'billing-prod', private_key_id: sample(HEX, 40, salt), client_email: 'ci@billing-prod.iam.gserviceaccount.com' }, null, 2);

/** Alibaba Cloud, Yandex Cloud, AWS Bedrock API keys, Google Cloud service accounts, IBM Cloud. */
export const CLOUD_PROVIDER_RULES: readonly SecretRule[] = [
  rule({
    id: 'aws-bedrock-api-key',
    family: 'aws',
    description: 'Amazon Bedrock API key, long-term (ABSK…, base64 of BedrockAPIKey-…) or short-term (bedrock-api-key-…, a presigned URL)',
    // (ABSK and the base64 of `BedrockAPIKey-` that every long-term key begins with: looked for
    // everywhere, for a key glued to a word, `tokenABSK…`, kept when its payload decodes)
    keywords: [BEDROCK_LONG_TERM, 'bedrock-api-key-'],
    tokenPrefix: true,
    keywordsAnywhere: [BEDROCK_LONG_TERM],
    keywordsMatchCase: true,
    pattern: re(L, '(?:ABSK[A-Za-z0-9+/]{100,200}={0,2}|bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/]{100,8192}={0,2})', '(?![A-Za-z0-9+/=])'),
    minEntropy: 3.5,
    validate: (s) => !s.startsWith('ABSK') || bedrockPayload(s),
    proof: (s) => s.startsWith('ABSK') && bedrockPayload(s),
    examples: {
      truePositives: [
        `AWS_BEARER_TOKEN_BEDROCK=${bedrockKey('br1')}`,
        `export AWS_BEARER_TOKEN_BEDROCK=${bedrockShortTerm('br2')}`,
        `{"headers":{"Authorization":"Bearertoken${bedrockKey('br4')}"}}`,
      ],
      falsePositives: [
        `ABSK${b64(`not a bedrock key at all, only text of ${sample(ALNUM, 60, 'br3')}`)}`,
        'ABSKQmVkcm9ja0FQSUtleS...',
        // glued to a word, its payload not a key's: `BedrockAPIKey-` then no `-at-<account>:`
        `tokenABSK${b64(`BedrockAPIKey-only text of ${sample(ALNUM, 80, 'br5')}`)}`,
      ],
    },
  }),
  rule({
    id: 'alibaba-access-key-id',
    family: 'alibaba',
    description: 'Alibaba Cloud AccessKey id (LTAI + 12 to 20 characters)',
    keywords: ['LTAI'],
    tokenPrefix: true,
    keywordsMatchCase: true,
    pattern: re(L, 'LTAI[A-Za-z0-9]{12,20}', R),
    minEntropy: 3,
    examples: { truePositives: [`ALIBABA_CLOUD_ACCESS_KEY_ID=LTAI${sample(ALNUM, 20, 'al')}`], falsePositives: ['LTAIxxxxxxxxxxxxxxxxxxxx', 'LTAI_short'] },
  }),
  keyed({
    id: 'alibaba-access-key-secret',
    family: 'alibaba',
    description: 'Alibaba Cloud AccessKey secret (30 characters) after an alibaba / aliyun / alicloud / access_key_secret key',
    names: ['alibaba', 'aliyun', 'alicloud', 'access_key'],
    values: [SHAPE.alnum(30)],
    minEntropy: 3.5,
    example: { env: 'ALIBABA_CLOUD_ACCESS_KEY_SECRET', value: (s) => sample(ALNUM, 30, s) },
  }),
  rule({
    id: 'yandex-cloud-token',
    family: 'yandex',
    description: 'Yandex Cloud API key (AQVN…)',
    keywords: ['AQVN'],
    tokenPrefix: true,
    keywordsMatchCase: true,
    pattern: re(L, 'AQVN[\\w-]{35,38}', RD),
    minEntropy: 3.5,
    examples: {
      truePositives: [`YC_API_KEY=AQVN${sample(B64URL, 36, 'yx1')}`],
      falsePositives: ['AQVNxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
    },
  }),
  keyed({
    id: 'yandex-cloud-token-keyed',
    family: 'yandex',
    description: 'Yandex Cloud IAM token (t1.…), Yandex OAuth token (y0_…) or static access key secret (YC + 38 characters) after a yandex / yc / iam key',
    names: ['yandex', 'yc', 'iam'],
    values: ['t1\\.[\\w-]{50,400}={0,2}\\.[\\w-]{86}={0,2}', 'y[0-3]_[\\w-]{50,60}', 'YC[\\w-]{38}'],
    minEntropy: 3.5,
    example: { env: 'YC_SECRET_KEY', value: (s) => `YC${sample(B64URL, 38, s)}` },
    truePositives: [`YC_IAM_TOKEN=t1.${sample(B64URL, 120, 'yx2')}.${sample(B64URL, 86, 'yx3')}`, `YANDEX_OAUTH_TOKEN=y0_${sample(B64URL, 55, 'yx4')}`],
  }),
  rule({
    id: 'gcp-service-account-key',
    family: 'google',
    description: 'Google Cloud service-account key file (a JSON with "type": "service_account"): its private_key_id',
    keywords: ['"private_key_id"'],
    pattern: re('"private_key_id"\\s{0,4}:\\s{0,4}"(?<secret>[0-9a-f]{40})"'),
    secretGroup: 'secret',
    minEntropy: 3,
    validate: (_s, m) => /"type"\s{0,4}:\s{0,4}"service_account"/.test(m.input),
    examples: {
      truePositives: [serviceAccount('sa1')],
      falsePositives: [`{"type": "authorized_user", "private_key_id": "${sample(HEX, 40, 'sa2')}"}`],
    },
  }),
  keyed({
    id: 'ibm-cloud-api-key',
    family: 'ibm',
    description: 'IBM Cloud IAM API key (44 characters) after an ibm / ibmcloud key',
    names: ['ibm', 'ibmcloud', 'ic'],
    values: [SHAPE.urlSafe(44)],
    minEntropy: 3.5,
    example: { env: 'IBM_CLOUD_API_KEY', value: (s) => sample(B64URL, 44, s) },
  }),
  keyed({
    id: 'ibm-cos-hmac-secret',
    family: 'ibm',
    description: 'IBM Cloud Object Storage HMAC secret access key (48 hex) after a cos key',
    names: ['cos_hmac', 'ibm_cos'],
    values: [SHAPE.hex(48)],
    example: { env: 'IBM_COS_SECRET_ACCESS_KEY', value: (s) => sample(HEX, 48, s) },
  }),
  keyed({
    id: 'softlayer-api-key',
    family: 'ibm',
    description: 'SoftLayer API key (64 hex) after a softlayer / sl_api key',
    names: ['softlayer', 'sl'],
    values: [SHAPE.hex(64)],
    example: { env: 'SOFTLAYER_API_KEY', value: (s) => sample(HEX, 64, s) },
  }),
  keyed({
    id: 'cloudant-credential',
    family: 'ibm',
    description: 'IBM Cloudant password or API key (64 hex, or 24 lowercase letters) after a cloudant key',
    names: ['cloudant'],
    values: [SHAPE.hex(64), '[a-z]{24}'],
    minEntropy: 3,
    example: { env: 'CLOUDANT_PASSWORD', value: (s) => sample(HEX, 64, s) },
  }),
  rule({
    id: 'clickhouse-cloud-api-secret',
    family: 'clickhouse',
    description: 'ClickHouse Cloud API key secret (4b1d + 38 letters and digits)',
    keywords: ['4b1d'],
    tokenPrefix: true,
    keywordsMatchCase: true,
    pattern: re(L, '4b1d[A-Za-z0-9]{38}', R),
    minEntropy: 4,
    // (a hex digest may begin 4b1d: a secret mixes both cases)
    validate: (s) => /[a-z]/.test(s.slice(4)) && /[A-Z]/.test(s),
    examples: {
      truePositives: [`CLICKHOUSE_SECRET=4b1d${sample(ALNUM, 38, 'ch1')}`, `{"key_secret": "4b1d${sample(ALNUM, 38, 'ch2')}"}`],
      falsePositives: [`sha: 4b1d${sample(HEX, 38, 'ch3')}`, `4b1d${sample(ALNUM, 50, 'ch4')}`],
    },
  }),
];
