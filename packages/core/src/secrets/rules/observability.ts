import { BASE62_LOWER_FIRST, base62, base64Json, crc32, datadogChecksumHolds } from '../checksums.js';
import type { SecretRule } from '../types.js';
import { rule } from './define.js';
import { SHAPE, keyed } from './keyed.js';
import { L, R, RD, re } from './patterns.js';
import { ALNUM, HEX, UPPER_NUM, sample, sampleUuid } from './sample.js';

const datadog = (prefix: string, salt: string) => {
  const head = prefix + sample(ALNUM, 28, salt);
  return head + base62(crc32(head), BASE62_LOWER_FIRST);
};
const b64 = (s: string) => Buffer.from(s).toString('base64');
const grafanaCloud = (salt: string) => `glc_${b64(JSON.stringify({ o: '1234567', n: 'ci-deploy', k: sample(ALNUM, 24, salt), m: { r: 'prod-eu-west-2' } })).replace(/=+$/, '')}`;
const grafanaLegacy = (salt: string) => b64(JSON.stringify({ k: sample(ALNUM, 32, salt), n: 'ci', id: 1 }));

/** Datadog, Dynatrace, Grafana, New Relic, Sentry and Sumo Logic credentials beyond saas.ts. */
export const OBSERVABILITY_RULES: readonly SecretRule[] = [
  rule({
    id: 'datadog-token',
    family: 'datadog',
    description: 'Datadog application key, personal or service access token (ddapp_, ddpat_, ddsat_ + CRC32 checksum)',
    keywords: ['ddapp_', 'ddpat_', 'ddsat_'],
    tokenPrefix: true,
    pattern: re(L, 'dd(?:app|pat|sat)_[A-Za-z0-9]{34}', R),
    minEntropy: 3.5,
    proof: datadogChecksumHolds,
    examples: { truePositives: [`DD_APP_KEY=${datadog('ddapp_', 'dd1')}`, `Authorization: Bearer ${datadog('ddpat_', 'dd2')}`], falsePositives: ['ddapp_' + 'x'.repeat(34)] },
  }),
  keyed({
    id: 'datadog-api-key',
    family: 'datadog',
    description: 'Datadog API key (32 hex) or application key of the older kind (40 hex) after a datadog / DD_API / DD_APP key',
    names: ['datadog', 'dd'],
    values: [SHAPE.hex(40), SHAPE.hex(32)],
    example: { env: 'DD_API_KEY', value: (s) => sample(HEX, 32, s) },
    truePositives: [`DATADOG_APPLICATION_KEY: ${sample(HEX, 40, 'dda')}`, `curl -H "DD-API-KEY: ${sample(HEX, 32, 'ddh')}" https://api.datadoghq.com/api/v1/validate`],
  }),
  rule({
    id: 'dynatrace-token',
    family: 'dynatrace',
    description: 'Dynatrace API, PaaS or platform token (dt0c01.<24>.<64>, dt0s01…)',
    keywords: ['dt0c0', 'dt0s0', 'dt0s1'],
    pattern: re(L, 'dt0[cs]\\d{2}\\.[A-Z0-9]{24}\\.[A-Z0-9]{64}', R),
    minEntropy: 3.5,
    examples: { truePositives: [`DT_API_TOKEN=dt0c01.${sample(UPPER_NUM, 24, 'dt1')}.${sample(UPPER_NUM, 64, 'dt2')}`, `Authorization: Api-Token dt0s16.${sample(UPPER_NUM, 24, 'dt3')}.${sample(UPPER_NUM, 64, 'dt4')}`], falsePositives: ['dt0c01.PUBLIC.SECRET'] },
  }),
  rule({
    id: 'grafana-cloud-token',
    family: 'grafana',
    description: 'Grafana Cloud access-policy token (glc_ + base64 JSON with o, k, m) or Grafana API key of the older kind (eyJrIjoi…, base64 JSON with k, n, id)',
    keywords: ['glc_eyj', 'eyjrijoi'],
    tokenPrefix: true,
    pattern: re(L, '(?:glc_eyJ[A-Za-z0-9+/]{40,800}|eyJrIjoi[A-Za-z0-9+/]{40,300})={0,2}', '(?![A-Za-z0-9+/=])'),
    minEntropy: 3.5,
    validate: (s) => {
      const json = base64Json(s.startsWith('glc_') ? s.slice(4) : s);
      if (json === undefined) return false;
      return s.startsWith('glc_') ? typeof json['k'] === 'string' && typeof json['o'] === 'string' : typeof json['k'] === 'string' && 'n' in json && 'id' in json;
    },
    examples: {
      truePositives: [`GRAFANA_CLOUD_ACCESS_POLICY_TOKEN=${grafanaCloud('gc1')}`, `GRAFANA_API_KEY=${grafanaLegacy('gc2')}`],
      falsePositives: [b64(JSON.stringify({ k: 'embed-report-parameters', v: sample(ALNUM, 30, 'pbi') })), `glc_${b64('{"hello":"world, a json that is not a token at all"}')}`],
    },
  }),
  rule({
    id: 'newrelic-admin-key',
    family: 'newrelic',
    description: 'New Relic admin or REST API key (NRAA-, NRRA-) or Insights query key (NRIQ-)',
    keywords: ['nraa-', 'nrra-', 'nriq-'],
    tokenPrefix: true,
    pattern: re(L, '(?:NR[AR]A-[0-9a-f]{27,42}|NRIQ-[\\w-]{32})', RD),
    minEntropy: 3,
    examples: { truePositives: [`NEW_RELIC_ADMIN_API_KEY=NRAA-${sample(HEX, 27, 'nra')}`, `X-Query-Key: NRIQ-${sample(ALNUM, 32, 'nrq')}`], falsePositives: ['NRAA-short'] },
  }),
  keyed({
    id: 'newrelic-license-key-keyed',
    family: 'newrelic',
    description: 'New Relic license key of the older kind (40 hex) after a newrelic / new_relic key',
    names: ['newrelic', 'new_relic', 'nr'],
    values: [SHAPE.hex(40)],
    example: { env: 'NEW_RELIC_LICENSE_KEY', value: (s) => sample(HEX, 40, s) },
  }),
  keyed({
    id: 'sentry-token-keyed',
    family: 'sentry',
    description: 'Sentry auth token of the older kind (64 hex) after a sentry key',
    names: ['sentry'],
    values: [SHAPE.hex(64)],
    example: { env: 'SENTRY_AUTH_TOKEN', value: (s) => sample(HEX, 64, s) },
  }),
  keyed({
    id: 'sumologic-access-key',
    family: 'sumologic',
    description: 'Sumo Logic access key (64 characters) or access id (su + 12) after a sumo key',
    names: ['sumologic', 'sumo'],
    values: [SHAPE.alnum(64), 'su[A-Za-z0-9]{12}'],
    minEntropy: 3.3,
    example: { env: 'SUMOLOGIC_ACCESS_KEY', value: (s) => sample(ALNUM, 64, s) },
  }),
  rule({
    id: 'posthog-personal-api-key',
    family: 'posthog',
    description: 'PostHog personal API key (phx_; the project key, phc_, is public by design and not reported)',
    // (posthog.com/docs/api/personal-api-keys: sent as a Bearer token to the private endpoints)
    keywords: ['phx_'],
    tokenPrefix: true,
    pattern: re(L, 'phx_[A-Za-z0-9]{30,64}', R),
    minEntropy: 3.5,
    examples: {
      truePositives: [
        `curl -H "Authorization: Bearer phx_${sample(ALNUM, 47, 'ph1')}" https://us.posthog.com/api/projects/`,
        `POSTHOG_PERSONAL_API_KEY=phx_${sample(ALNUM, 43, 'ph2')}`,
      ],
      falsePositives: [`NEXT_PUBLIC_POSTHOG_KEY=phc_${sample(ALNUM, 43, 'ph3')}`, 'POSTHOG_PERSONAL_API_KEY=phx_your_personal_api_key', 'phx_1234567890abcdef'],
    },
  }),
  rule({
    id: 'langfuse-secret-key',
    family: 'langfuse',
    description: 'Langfuse project secret key (sk-lf- + a UUID; the public key, pk-lf-, is its user name)',
    // (langfuse.com: the secret key `sk-lf-…` is shown once; Basic auth with the pk-lf- key as user)
    keywords: ['sk-lf-'],
    tokenPrefix: true,
    pattern: re(L, 'sk-lf-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}', RD),
    minEntropy: 3,
    examples: {
      truePositives: [`LANGFUSE_PUBLIC_KEY=pk-lf-${sampleUuid('lf1')}\nLANGFUSE_SECRET_KEY=sk-lf-${sampleUuid('lf2')}`, `langfuse = Langfuse(public_key="pk-lf-${sampleUuid('lf3')}", secret_key="sk-lf-${sampleUuid('lf4')}")`],
      falsePositives: ['LANGFUSE_SECRET_KEY=sk-lf-...', 'LANGFUSE_SECRET_KEY=sk-lf-your-secret-key-here', `LANGFUSE_SECRET_KEY=sk-lf-00000000-0000-0000-0000-000000000000`],
    },
  }),
  keyed({
    id: 'honeycomb-api-key',
    family: 'honeycomb',
    description: 'Honeycomb API key (22 or 32 characters) after a honeycomb key',
    names: ['honeycomb'],
    values: [SHAPE.alnum(32), SHAPE.alnum(22)],
    minEntropy: 3.3,
    example: { env: 'HONEYCOMB_API_KEY', value: (s) => sample(ALNUM, 22, s) },
  }),
];
