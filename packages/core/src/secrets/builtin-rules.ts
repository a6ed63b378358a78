import type { SecretRule } from './types.js';

/** The seed sentinels: AWS access key ids, GitHub classic tokens, OpenAI keys, PEM private keys. */
export const BUILTIN_RULES: readonly SecretRule[] = [
  {
    id: 'aws-access-key-id',
    description: 'AWS access key id',
    keywords: ['AKIA', 'ASIA'],
    pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  },
  {
    id: 'github-token',
    description: 'GitHub personal access / OAuth / app token',
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{82})\b/g,
  },
  {
    id: 'openai-api-key',
    description: 'OpenAI API key',
    keywords: ['sk-'],
    pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}\b/g,
  },
  {
    id: 'private-key',
    description: 'PEM or OpenSSH private key (also a BEGIN line with no END)',
    keywords: ['PRIVATE KEY'],
    pattern: /-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----/g,
  },
];
