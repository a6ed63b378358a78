import type { SecretRule } from '../types.js';
import { rule } from './define.js';
import { L, R, RD, re } from './patterns.js';
import { ALNUM, B64URL, sample } from './sample.js';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** OpenAI, Anthropic, Hugging Face, Groq, xAI, Replicate, Perplexity. */
export const AI_RULES: readonly SecretRule[] = [
  rule({
    id: 'openai-api-key',
    family: 'openai',
    description: 'OpenAI API key (sk-proj-, sk-svcacct-, sk-admin-, legacy sk-)',
    keywords: ['sk-'],
    pattern: re(L, 'sk-(?:(?:proj|svcacct|admin)-[\\w-]{40,250}|[A-Za-z0-9]{48})', RD),
    minEntropy: 3.5,
    examples: {
      truePositives: [
        `OPENAI_API_KEY=sk-proj-${sample(B64URL, 156, 'oa1')}`,
        `sk-${sample(ALNUM, 20, 'oa2')}T3BlbkFJ${sample(ALNUM, 20, 'oa3')}`,
      ],
      falsePositives: ['sk-proj-your-api-key-here', 'task-' + sample(ALNUM, 48, 'oa4'), `sk-ant-api03-${sample(ALNUM, 40, 'x')}`],
    },
  }),
  rule({
    id: 'anthropic-api-key',
    family: 'anthropic',
    description: 'Anthropic API or admin key (sk-ant-api03-, sk-ant-admin01-)',
    keywords: ['sk-ant-'],
    pattern: re(L, 'sk-ant-(?:api|admin|oat|ort)\\d{2}-[\\w-]{80,120}', RD),
    minEntropy: 3.5,
    examples: {
      truePositives: [`x-api-key: sk-ant-api03-${sample(B64URL, 93, 'an')}AA`],
      falsePositives: ['sk-ant-api03-...', 'sk-ant-api03-' + 'x'.repeat(95)],
    },
  }),
  rule({
    id: 'huggingface-token',
    family: 'huggingface',
    description: 'Hugging Face user or organisation access token (hf_, api_org_)',
    keywords: ['hf_', 'api_org_'],
    pattern: re(L, '(?:hf_|api_org_)[A-Za-z0-9]{34}', R),
    minEntropy: 3.5,
    validate: (s) => /[A-Z]/.test(s) && /[a-z]/.test(s.slice(3)),
    examples: {
      truePositives: [`HF_TOKEN=hf_${sample(LETTERS, 34, 'hf')}`, `api_org_${sample(LETTERS, 34, 'hf2')}`],
      falsePositives: ['hf_hub_download_with_cache_files_x', 'hf_' + 'a'.repeat(34)],
    },
  }),
  rule({
    id: 'groq-api-key',
    family: 'groq',
    description: 'Groq API key (gsk_)',
    keywords: ['gsk_'],
    pattern: re(L, 'gsk_[A-Za-z0-9]{52}', R),
    minEntropy: 3.5,
    examples: { truePositives: [`GROQ_API_KEY=gsk_${sample(ALNUM, 52, 'gq')}`], falsePositives: ['gsk_' + 'x'.repeat(52)] },
  }),
  rule({
    id: 'xai-api-key',
    family: 'xai',
    description: 'xAI API key (xai-)',
    keywords: ['xai-'],
    pattern: re(L, 'xai-[A-Za-z0-9]{80}', R),
    minEntropy: 3.5,
    examples: { truePositives: [`XAI_API_KEY=xai-${sample(ALNUM, 80, 'xa')}`], falsePositives: ['xai-sdk'] },
  }),
  rule({
    id: 'replicate-api-token',
    family: 'replicate',
    description: 'Replicate API token (r8_)',
    keywords: ['r8_'],
    pattern: re(L, 'r8_[A-Za-z0-9]{37}', R),
    minEntropy: 3.5,
    examples: { truePositives: [`REPLICATE_API_TOKEN=r8_${sample(ALNUM, 37, 'r8')}`], falsePositives: ['r8_short'] },
  }),
  rule({
    id: 'perplexity-api-key',
    family: 'perplexity',
    description: 'Perplexity API key (pplx-)',
    keywords: ['pplx-'],
    pattern: re(L, 'pplx-[A-Za-z0-9]{48}', R),
    minEntropy: 3.5,
    examples: { truePositives: [`pplx-${sample(ALNUM, 48, 'px')}`], falsePositives: ['pplx-api'] },
  }),
];
