import { ALL_BUILTIN_RULES } from './rules/index.js';
import type { SecretRule } from './types.js';

/**
 * The built-in rules: cloud providers, code hosting and package registries, AI providers,
 * messaging, SaaS, private keys and JWTs, URL/header credentials, generic assignments. One file
 * per family under `rules/`, each rule with its own true/false-positive examples.
 */
export const BUILTIN_RULES: readonly SecretRule[] = ALL_BUILTIN_RULES;
