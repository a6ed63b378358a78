import type { ToolSpanRecognizer } from '../types.js';
import { claudeCode, codex, codexSpans, geminiCli, geminiCliSpans, qwenCode } from './coding-agents.js';
import { genaiSemconv, PARAMETER_PREFIX } from './genai-semconv.js';
import { genkit } from './genkit.js';
import { googleAdk } from './google-adk.js';
import { haystack } from './haystack.js';
import { langfuse } from './langfuse.js';
import { langsmith } from './langsmith.js';
import { logfire } from './logfire.js';
import { mastra } from './mastra.js';
import { openinference } from './openinference.js';
import { openllmetry } from './openllmetry.js';
import { pydanticAi } from './pydantic-ai.js';
import { springAi } from './spring-ai.js';
import { vercelAi } from './vercel-ai.js';
import { voltagent } from './voltagent.js';

/**
 * One recogniser per emitter of tool-execution spans, the most specific first: hybrids (Google ADK
 * under OpenInference, OpenLLMetry's openai-agents spans with GenAI attributes, LangSmith's
 * `execute_tool` runs, Spring AI 2's and Mastra's `execute_tool` spans, whose arguments may be in
 * their own attributes) are claimed by their own emitter before the generic GenAI-conventions
 * reader. A span is one call, read by the first recogniser that claims it.
 */
export const TOOL_SPAN_RECOGNIZERS: readonly ToolSpanRecognizer[] = [claudeCode, geminiCli, geminiCliSpans, qwenCode, codex, codexSpans, googleAdk, openllmetry, pydanticAi, vercelAi, langsmith, langfuse, logfire, voltagent, openinference, springAi, mastra, haystack, genkit, genaiSemconv];

/** Every key a recogniser reads a call's arguments from: those a span is read as holding as another type than text (`ForeignSpan.nonText`). */
export const ARGUMENT_KEYS: ReadonlySet<string> = new Set(TOOL_SPAN_RECOGNIZERS.flatMap((r) => r.argumentKeys));

/** Prefixes of attribute keys a recogniser reads a call's arguments from whatever their type: each held as another type is read as its text. */
export const TYPED_ARGUMENT_PREFIXES: readonly string[] = [PARAMETER_PREFIX];
