import type { SecretRule } from '../types.js';
import { AI_RULES } from './ai.js';
import { CLOUD_RULES } from './cloud.js';
import { CODE_HOSTING_RULES } from './code-hosting.js';
import { GENERIC_RULES } from './generic.js';
import { KEY_RULES } from './keys.js';
import { MESSAGING_RULES } from './messaging.js';
import { SAAS_RULES } from './saas.js';
import { WEB_RULES } from './web.js';

/** Every built-in rule, provider rules first, generic ones last. */
export const ALL_BUILTIN_RULES: readonly SecretRule[] = [
  ...CLOUD_RULES,
  ...CODE_HOSTING_RULES,
  ...AI_RULES,
  ...MESSAGING_RULES,
  ...SAAS_RULES,
  ...KEY_RULES,
  ...WEB_RULES,
  ...GENERIC_RULES,
];
