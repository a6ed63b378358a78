import type { SecretRule } from '../types.js';
import { AI_RULES } from './ai.js';
import { ATLASSIAN_RULES } from './atlassian.js';
import { CLOUD_PROVIDER_RULES } from './cloud-providers.js';
import { CLOUD_RULES } from './cloud.js';
import { CODE_HOSTING_RULES } from './code-hosting.js';
import { COMMAND_LINE_RULES } from './command-line.js';
import { DEVELOPER_API_RULES } from './developer-apis.js';
import { DEVOPS_RULES } from './devops.js';
import { EMAIL_RULES } from './email.js';
import { FRAMEWORK_RULES } from './frameworks.js';
import { GENERIC_RULES } from './generic.js';
import { KEY_RULES } from './keys.js';
import { MESSAGING_RULES } from './messaging.js';
import { OBSERVABILITY_RULES } from './observability.js';
import { PAYMENT_RULES } from './payments.js';
import { PLATFORM_RULES } from './platforms.js';
import { PRODUCTIVITY_RULES } from './productivity.js';
import { SAAS_RULES } from './saas.js';
import { SERVER_CONFIG_RULES } from './server-config.js';
import { SOCIAL_RULES } from './social.js';
import { WEB_RULES } from './web.js';

/** Every built-in rule, provider rules first, generic ones last. */
export const ALL_BUILTIN_RULES: readonly SecretRule[] = [
  ...CLOUD_RULES,
  ...CLOUD_PROVIDER_RULES,
  ...PLATFORM_RULES,
  ...CODE_HOSTING_RULES,
  ...DEVOPS_RULES,
  ...ATLASSIAN_RULES,
  ...AI_RULES,
  ...MESSAGING_RULES,
  ...EMAIL_RULES,
  ...SOCIAL_RULES,
  ...SAAS_RULES,
  ...PAYMENT_RULES,
  ...PRODUCTIVITY_RULES,
  ...OBSERVABILITY_RULES,
  ...DEVELOPER_API_RULES,
  ...KEY_RULES,
  ...WEB_RULES,
  ...FRAMEWORK_RULES,
  ...COMMAND_LINE_RULES,
  ...SERVER_CONFIG_RULES,
  ...GENERIC_RULES,
];
