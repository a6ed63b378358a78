import type { SecretRule } from '../types.js';
import { shannonEntropy } from '../value-filters.js';
import { rule } from './define.js';
import { SHAPE, keyed } from './keyed.js';
import { L, R, RD, re } from './patterns.js';
import { ALNUM, B64URL, HEX, LOWER_NUM, sample } from './sample.js';

/** Entropy (bits per character) a random key of these formats has far above; their placeholders far below. */
const PROOF_ENTROPY = 4.5;

/**
 * An OpenAI project, service-account or admin key as issued: 58 or 74 URL-safe characters,
 * `T3BlbkFJ` (base64 of `OpenAI`), 58 or 74 more, random.
 */
function openAiKeyShape(s: string): boolean {
  return /^sk-(?:proj|svcacct|admin)-(?:[\w-]{74}|[\w-]{58})T3BlbkFJ(?:[\w-]{74}|[\w-]{58})$/.test(s) && shannonEntropy(s) >= PROOF_ENTROPY;
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** OpenAI, Anthropic, Hugging Face, Groq, xAI, Replicate, Perplexity, OpenRouter, DeepSeek, LangSmith, Pinecone, Cerebras, Browserbase; Cohere, Mistral, DeepSeek and others after their key. */
export const AI_RULES: readonly SecretRule[] = [
  rule({
    id: 'openai-api-key',
    family: 'openai',
    description: 'OpenAI API key (sk-proj-, sk-svcacct-, sk-admin-, legacy sk-)',
    // (`sk-` where a run begins; the longer prefixes everywhere, for a key glued to a word)
    keywords: ['sk-', 'sk-proj-', 'sk-svcacct-', 'sk-admin-'],
    tokenPrefix: true,
    keywordsAnywhere: ['sk-proj-', 'sk-svcacct-', 'sk-admin-'],
    pattern: re(L, 'sk-(?:(?:proj|svcacct|admin)-[\\w-]{40,250}|[A-Za-z0-9]{48})', RD),
    minEntropy: 3.5,
    proof: openAiKeyShape,
    examples: {
      truePositives: [
        `OPENAI_API_KEY=sk-proj-${sample(B64URL, 156, 'oa1')}`,
        `sk-${sample(ALNUM, 20, 'oa2')}T3BlbkFJ${sample(ALNUM, 20, 'oa3')}`,
        // glued to a word: the key's own marker (T3BlbkFJ between two random halves) proves it
        `echo tokensk-proj-${sample(B64URL, 74, 'oa5')}T3BlbkFJ${sample(B64URL, 74, 'oa6')} | tee .env`,
        `{"auth":"Bearersk-svcacct-${sample(B64URL, 58, 'oa7')}T3BlbkFJ${sample(B64URL, 58, 'oa8')}"}`,
      ],
      falsePositives: [
        'sk-proj-your-api-key-here',
        'task-' + sample(ALNUM, 48, 'oa4'),
        `sk-ant-api03-${sample(ALNUM, 40, 'x')}`,
        // glued without the marker, or a marked placeholder: nothing proves a word-glued prefix
        `tokensk-proj-${sample(B64URL, 156, 'oa9')}`,
        `risk-proj-${'x'.repeat(74)}T3BlbkFJ${'x'.repeat(74)}`,
      ],
    },
  }),
  rule({
    id: 'anthropic-api-key',
    family: 'anthropic',
    description: 'Anthropic API or admin key (sk-ant-api03-, sk-ant-admin01-)',
    keywords: ['sk-ant-'],
    tokenPrefix: true,
    // (also glued to a word: `tokensk-ant-api03-…`, kept when the whole key has its exact shape)
    keywordsAnywhere: ['sk-ant-'],
    pattern: re(L, 'sk-ant-(?:api|admin|oat|ort)\\d{2}-[\\w-]{80,120}', RD),
    minEntropy: 3.5,
    proof: (s) => /^sk-ant-(?:api03|admin01)-[\w-]{93}AA$/.test(s) && shannonEntropy(s) >= PROOF_ENTROPY,
    examples: {
      truePositives: [
        `x-api-key: sk-ant-api03-${sample(B64URL, 93, 'an')}AA`,
        `export KEY=mykeysk-ant-api03-${sample(B64URL, 93, 'an2')}AA`,
        `curl -H "x-api-key:sk-ant-admin01-${sample(B64URL, 93, 'an3')}AA" https://api.anthropic.com/v1/organizations/me`,
      ],
      falsePositives: [
        'sk-ant-api03-...',
        'sk-ant-api03-' + 'x'.repeat(95),
        // glued to a word: a length off by one, or a placeholder of the right shape
        `tokensk-ant-api03-${sample(B64URL, 94, 'an4')}AA`,
        `tokensk-ant-api03-${'x'.repeat(93)}AA`,
      ],
    },
  }),
  rule({
    id: 'huggingface-token',
    family: 'huggingface',
    description: 'Hugging Face user or organisation access token (hf_, api_org_)',
    keywords: ['hf_', 'api_org_'],
    tokenPrefix: true,
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
    tokenPrefix: true,
    pattern: re(L, 'gsk_[A-Za-z0-9]{52}', R),
    minEntropy: 3.5,
    examples: { truePositives: [`GROQ_API_KEY=gsk_${sample(ALNUM, 52, 'gq')}`], falsePositives: ['gsk_' + 'x'.repeat(52)] },
  }),
  rule({
    id: 'xai-api-key',
    family: 'xai',
    description: 'xAI API key (xai-)',
    keywords: ['xai-'],
    tokenPrefix: true,
    pattern: re(L, 'xai-[A-Za-z0-9]{80}', R),
    minEntropy: 3.5,
    examples: { truePositives: [`XAI_API_KEY=xai-${sample(ALNUM, 80, 'xa')}`], falsePositives: ['xai-sdk'] },
  }),
  rule({
    id: 'replicate-api-token',
    family: 'replicate',
    description: 'Replicate API token (r8_)',
    keywords: ['r8_'],
    tokenPrefix: true,
    pattern: re(L, 'r8_[A-Za-z0-9]{37}', R),
    minEntropy: 3.5,
    examples: { truePositives: [`REPLICATE_API_TOKEN=r8_${sample(ALNUM, 37, 'r8')}`], falsePositives: ['r8_short'] },
  }),
  rule({
    id: 'perplexity-api-key',
    family: 'perplexity',
    description: 'Perplexity API key (pplx-)',
    keywords: ['pplx-'],
    tokenPrefix: true,
    pattern: re(L, 'pplx-[A-Za-z0-9]{48}', R),
    minEntropy: 3.5,
    examples: { truePositives: [`pplx-${sample(ALNUM, 48, 'px')}`], falsePositives: ['pplx-api'] },
  }),
  rule({
    id: 'tavily-api-key',
    family: 'tavily',
    description: 'Tavily search API key (tvly-, tvly-dev-, tvly-prod- + 32 letters and digits)',
    // (docs.tavily.com: `Authorization: Bearer tvly-…`; keys in the dashboard begin with tvly-)
    keywords: ['tvly-'],
    tokenPrefix: true,
    pattern: re(L, 'tvly-(?:(?:dev|prod)-)?[A-Za-z0-9]{24,64}', R),
    minEntropy: 3.5,
    examples: {
      truePositives: [`TAVILY_API_KEY=tvly-${sample(ALNUM, 32, 'tv1')}`, `tavily_client = TavilyClient(api_key="tvly-dev-${sample(ALNUM, 32, 'tv2')}")`],
      falsePositives: ['TavilyClient(api_key="tvly-YOUR_API_KEY")', 'tvly-python', `tvly-${'x'.repeat(32)}`],
    },
  }),
  rule({
    id: 'nvidia-api-key',
    family: 'nvidia',
    description: 'NVIDIA API catalog / NGC API key (nvapi- + 64 characters)',
    // (NVIDIA NIM's hosted endpoints, integrate.api.nvidia.com: `NVIDIA_API_KEY=nvapi-…`, sent as a Bearer token)
    keywords: ['nvapi-'],
    tokenPrefix: true,
    pattern: re(L, 'nvapi-[A-Za-z0-9_-]{60,72}', RD),
    minEntropy: 3.5,
    examples: {
      truePositives: [`export NVIDIA_API_KEY=nvapi-${sample(B64URL, 64, 'nv1')}`, `client = OpenAI(base_url="https://integrate.api.nvidia.com/v1", api_key="nvapi-${sample(B64URL, 64, 'nv2')}")`],
      falsePositives: ["export NVIDIA_API_KEY='nvapi-...'", '#include "nvapi-helpers.h"', `nvapi-${'x'.repeat(64)}`],
    },
  }),
  rule({
    id: 'firecrawl-api-key',
    family: 'firecrawl',
    description: 'Firecrawl API key (fc- + 32 hex)',
    // (docs.firecrawl.dev: `Authorization: Bearer fc-…`)
    keywords: ['fc-'],
    tokenPrefix: true,
    pattern: re(L, 'fc-[0-9a-f]{32}', RD),
    minEntropy: 2.4, // below the lowest of a million random tokens of this shape (3 missed 10 per million)
    examples: {
      truePositives: [`FIRECRAWL_API_KEY=fc-${sample(HEX, 32, 'fc1')}`, `curl -H "Authorization: Bearer fc-${sample(HEX, 32, 'fc2')}" https://api.firecrawl.dev/v2/scrape`],
      falsePositives: ['Authorization: Bearer fc-123456789', '<div class="fc-event fc-daygrid-event">', `fc-${'0'.repeat(32)}`],
    },
  }),
  rule({
    id: 'openrouter-api-key',
    family: 'openrouter',
    description: 'OpenRouter API key (sk-or-v1- + 64 hex)',
    keywords: ['sk-or-v1-'],
    tokenPrefix: true,
    pattern: re(L, 'sk-or-v1-[0-9a-f]{64}', R),
    minEntropy: 3,
    examples: { truePositives: [`OPENROUTER_API_KEY=sk-or-v1-${sample(HEX, 64, 'or')}`], falsePositives: ['sk-or-v1-' + '0'.repeat(64)] },
  }),
  rule({
    id: 'deepseek-api-key',
    family: 'deepseek',
    description: 'DeepSeek API key (sk- + 32 hex)',
    keywords: ['sk-'],
    tokenPrefix: true,
    pattern: re(L, 'sk-[0-9a-f]{32}', R),
    minEntropy: 3,
    examples: {
      truePositives: [`DEEPSEEK_API_KEY=sk-${sample(HEX, 32, 'dsk')}`, `client = OpenAI(api_key="sk-${sample(HEX, 32, 'dsk2')}", base_url="https://api.deepseek.com")`],
      falsePositives: ['sk-' + '0'.repeat(32), 'sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', `task-${sample(HEX, 32, 'dsk3')}`, `sk-${sample(HEX, 40, 'dsk4')}`],
    },
  }),
  rule({
    id: 'langsmith-api-key',
    family: 'langsmith',
    description: 'LangSmith personal or service API key (lsv2_pt_, lsv2_sk_)',
    keywords: ['lsv2_pt_', 'lsv2_sk_'],
    tokenPrefix: true,
    pattern: re(L, 'lsv2_(?:pt|sk)_[0-9a-f]{32}_[0-9a-f]{10}', R),
    minEntropy: 3,
    examples: { truePositives: [`LANGSMITH_API_KEY=lsv2_pt_${sample(HEX, 32, 'ls1')}_${sample(HEX, 10, 'ls2')}`], falsePositives: ['lsv2_pt_short'] },
  }),
  rule({
    id: 'pinecone-api-key',
    family: 'pinecone',
    description: 'Pinecone vector database API key (pcsk_ + key id + _ + secret)',
    // (docs.pinecone.io: sent in the `Api-Key` header; the key id before the second `_` names the key)
    keywords: ['pcsk_'],
    tokenPrefix: true,
    pattern: re(L, 'pcsk_[A-Za-z0-9]{4,8}_[A-Za-z0-9]{50,80}', R),
    minEntropy: 3.5,
    examples: {
      truePositives: [`PINECONE_API_KEY=pcsk_${sample(ALNUM, 6, 'pc1')}_${sample(ALNUM, 63, 'pc2')}`, `pc = Pinecone(api_key="pcsk_${sample(ALNUM, 5, 'pc3')}_${sample(ALNUM, 63, 'pc4')}")`],
      falsePositives: ['PINECONE_API_KEY=pcsk_YOUR_PINECONE_API_KEY', 'PINECONE_API_KEY=pcsk_...', `pcsk_abcdef_${'x'.repeat(63)}`],
    },
  }),
  rule({
    id: 'cerebras-api-key',
    family: 'cerebras',
    description: 'Cerebras inference API key (csk- + 48 lowercase letters and digits)',
    // (inference-docs.cerebras.ai: `Authorization: Bearer $CEREBRAS_API_KEY`)
    keywords: ['csk-'],
    tokenPrefix: true,
    pattern: re(L, 'csk-[a-z0-9]{48}', RD),
    minEntropy: 3.5,
    examples: {
      truePositives: [`CEREBRAS_API_KEY=csk-${sample(LOWER_NUM, 48, 'cb1')}`, `client = Cerebras(api_key="csk-${sample(LOWER_NUM, 48, 'cb2')}")`],
      falsePositives: ['CEREBRAS_API_KEY=csk-...', `csk-${'x'.repeat(48)}`, 'CEREBRAS_API_KEY=csk-your-cerebras-api-key'],
    },
  }),
  rule({
    id: 'browserbase-api-key',
    family: 'browserbase',
    description: 'Browserbase API key (bb_live_ + letters and digits)',
    // (docs.browserbase.com: sent in the `X-BB-API-Key` header)
    keywords: ['bb_live_'],
    tokenPrefix: true,
    pattern: re(L, 'bb_live_[A-Za-z0-9_-]{20,40}', RD),
    minEntropy: 3.5,
    examples: {
      truePositives: [`BROWSERBASE_API_KEY=bb_live_${sample(ALNUM, 27, 'bb1')}`, `curl -H "X-BB-API-Key: bb_live_${sample(B64URL, 27, 'bb2')}" https://api.browserbase.com/v1/sessions`],
      falsePositives: ['BROWSERBASE_API_KEY=bb_live_your-api-key-here', `bb_live_${'x'.repeat(27)}`],
    },
  }),
  keyed({
    id: 'ai-provider-api-key',
    family: 'ai',
    description: 'Cohere, Mistral, DeepSeek, Together, Fireworks, ElevenLabs, AssemblyAI, Voyage or Gemini API key after its provider key (CO_API_KEY, MISTRAL_API_KEY, …)',
    names: ['cohere', 'co', 'mistral', 'deepseek', 'together', 'fireworks', 'elevenlabs', 'eleven', 'assemblyai', 'assembly_ai', 'voyage', 'gemini', 'anyscale'],
    values: ['sk-[0-9a-f]{32}', 'sk_[0-9a-f]{48}', 'fw_[A-Za-z0-9]{24,40}', 'pa-[\\w-]{40,60}', SHAPE.hex(32, 64), SHAPE.alnum(32, 40)],
    minEntropy: 3.3,
    example: { env: 'COHERE_API_KEY', value: (s) => sample(ALNUM, 40, s) },
    truePositives: [`MISTRAL_API_KEY=${sample(ALNUM, 32, 'mi')}`, `deepseek_api_key = "sk-${sample(HEX, 32, 'ds')}"`, `TOGETHER_API_KEY=${sample(HEX, 64, 'tg')}`],
  }),
];
