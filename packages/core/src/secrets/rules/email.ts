import type { SecretRule } from '../types.js';
import { rule } from './define.js';
import { SHAPE, keyed } from './keyed.js';
import { L, R, re } from './patterns.js';
import { ALNUM, HEX, sample, sampleUuid } from './sample.js';

const uuid = sampleUuid;

/** E-mail delivery and marketing: Mailchimp, Mailgun, Brevo (Sendinblue), Postmark, SparkPost, Mailjet, Mandrill (SendGrid is in messaging.ts). */
export const EMAIL_RULES: readonly SecretRule[] = [
  rule({
    id: 'mailchimp-api-key',
    family: 'mailchimp',
    description: 'Mailchimp API key (32 hex + -us<data center>)',
    keywords: ['-us1', '-us2', '-us3', '-us4', '-us5', '-us6', '-us7', '-us8', '-us9'],
    anchored: false,
    pattern: re(L, '[0-9a-f]{32}-us\\d{1,2}', R),
    minEntropy: 2.8, // below the lowest of a million random tokens of this shape
    examples: { truePositives: [`MAILCHIMP_API_KEY=${sample(HEX, 32, 'mc')}-us21`], falsePositives: [`${'0'.repeat(32)}-us21`, 'en-us1'] },
  }),
  rule({
    id: 'mailgun-api-key',
    family: 'mailgun',
    description: 'Mailgun API key of the older kind (key- + 32 hex)',
    keywords: ['key-'],
    tokenPrefix: true,
    pattern: re(L, 'key-[0-9a-f]{32}', R),
    minEntropy: 2.7, // below the lowest of a million random tokens of this shape
    examples: { truePositives: [`MAILGUN_API_KEY=key-${sample(HEX, 32, 'mg')}`], falsePositives: ['key-value store', `pubkey-${sample(HEX, 32, 'mg2')}`] },
  }),
  keyed({
    id: 'mailgun-api-key-keyed',
    family: 'mailgun',
    description: 'Mailgun API or sending key (32 hex-8 hex-8 hex) after a mailgun key',
    names: ['mailgun'],
    values: ['[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}', SHAPE.hex(32)],
    example: { env: 'MAILGUN_API_KEY', value: (s) => `${sample(HEX, 32, s)}-${sample(HEX, 8, `${s}a`)}-${sample(HEX, 8, `${s}b`)}` },
  }),
  rule({
    id: 'brevo-api-key',
    family: 'brevo',
    description: 'Brevo (Sendinblue) API or SMTP key (xkeysib-, xsmtpsib- + 64 hex - 16 characters)',
    keywords: ['xkeysib-', 'xsmtpsib-'],
    tokenPrefix: true,
    pattern: re(L, '(?:xkeysib|xsmtpsib)-[0-9a-f]{64}-[A-Za-z0-9]{16}', R),
    minEntropy: 3,
    examples: { truePositives: [`BREVO_API_KEY=xkeysib-${sample(HEX, 64, 'bv1')}-${sample(ALNUM, 16, 'bv2')}`, `SMTP_PASSWORD=xsmtpsib-${sample(HEX, 64, 'bv3')}-${sample(ALNUM, 16, 'bv4')}`], falsePositives: ['xkeysib-your-api-key'] },
  }),
  keyed({
    id: 'postmark-server-token',
    family: 'postmark',
    description: 'Postmark server or account token (a UUID) after a postmark key',
    names: ['postmark'],
    values: [SHAPE.uuid],
    example: { env: 'POSTMARK_SERVER_TOKEN', value: uuid },
    truePositives: [`curl -H "X-Postmark-Server-Token: ${uuid('pm')}" https://api.postmarkapp.com/email`],
  }),
  keyed({
    id: 'sparkpost-api-key',
    family: 'sparkpost',
    description: 'SparkPost API key (40 hex) after a sparkpost key',
    names: ['sparkpost'],
    values: [SHAPE.hex(40)],
    example: { env: 'SPARKPOST_API_KEY', value: (s) => sample(HEX, 40, s) },
  }),
  keyed({
    id: 'mailjet-credential',
    family: 'mailjet',
    description: 'Mailjet API key or secret (32 hex) after a mailjet / mj_apikey key',
    names: ['mailjet', 'mj'],
    values: [SHAPE.hex(32)],
    example: { env: 'MAILJET_SECRET_KEY', value: (s) => sample(HEX, 32, s) },
  }),
  keyed({
    id: 'mandrill-api-key',
    family: 'mandrill',
    description: 'Mandrill (Mailchimp Transactional) API key (22 characters) after a mandrill key',
    names: ['mandrill'],
    values: [SHAPE.urlSafe(22)],
    minEntropy: 3.3,
    example: { env: 'MANDRILL_API_KEY', value: (s) => sample(ALNUM, 22, s) },
  }),
  rule({
    id: 'resend-api-key',
    family: 'resend',
    description: 'Resend e-mail API key (re_ + 8 letters and digits + _ + 24 letters and digits)',
    // (resend.com/docs/create-an-api-key: a key id and its secret after re_, each its own run)
    keywords: ['re_'],
    keywordsMatchCase: true,
    tokenPrefix: true,
    pattern: re(L, 're_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}', R),
    minEntropy: 3.5,
    // (random letters of both cases: an identifier that happens to fit, `re_compile_…`, is words in one case)
    validate: (s) => /[A-Z]/.test(s.slice(3)) && /[a-z]/.test(s.slice(3)),
    examples: {
      truePositives: [`RESEND_API_KEY=re_${sample(ALNUM, 8, 'rs1')}_${sample(ALNUM, 24, 'rs2')}`, `const resend = new Resend('re_${sample(ALNUM, 8, 'rs3')}_${sample(ALNUM, 24, 'rs4')}');`],
      falsePositives: ['RESEND_API_KEY=re_123456789', 're_compile_pattern_for_matching_emails', 'def re_validate_userinput_againstschemarules(x):'],
    },
  }),
];
