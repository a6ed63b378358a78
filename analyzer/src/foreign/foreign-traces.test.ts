import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../analyze.js';
import { Db } from '../db.js';
import type { AnalysisResult } from '../types.js';

// Traces of nine emitters, Semantic Kernel and the OpenTelemetry OpenAI instrumentation's log records (fixtures/traces/foreign/README.md: sources, licences, grades): the
// analyzer finds each tool call under its emitter, reports invented values on denylisted keys,
// credentials and secret-file paths by tool and key — and nothing else.
const DIR = fileURLToPath(new URL('../../../fixtures/traces/foreign/', import.meta.url));

interface Expected {
  /** `emitter tool source` of every call found. */
  calls: string[];
  noEvidence?: number;
  /** `rule tool key` of every finding. */
  findings: string[];
  /** Calls whose arguments the trace holds in no readable form. */
  unreadable?: number;
  /** The run every call is grouped under: the conversation or session id the trace names (none: null). */
  run?: string;
}

const EXPECTED: Record<string, Expected> = {
  'genai-aisdk-otel-function-tool.json': { calls: ['genai-semconv myTool tool-span'], findings: [] },
  'genai-aisdk-otel-provider-tool.json': { calls: ['genai-semconv mcp.ask_question tool-span'], findings: [] },
  // The user said "New York"; the model sent timezone America/New_York (and a unit, not denylisted).
  'genai-openllmetry-anthropic-timezone-model-only.json': {
    calls: ['genai-semconv get_time model-output', 'genai-semconv get_weather model-output'],
    findings: ['assumption_span get_time timezone'],
  },
  'langfuse-langchain-tool-write-document.json': { calls: ['langfuse write_document tool-span'], noEvidence: 1, findings: [] },
  // The Langfuse JS SDK's own spans (a real run, 5.11: `observeOpenAI`'s generations, tool observations): the model's call
  // in the generation's output and the tool observation that ran it are one call; the zone the model guessed is reported,
  // the city the user named (the agent's input, the generation's user message) is not.
  'langfuse-5.11-openai-agent-guessed.json': { calls: ['langfuse get_weather tool-span'], findings: ['assumption_span get_weather timezone'] },
  // The same with the answers streamed: the calls Langfuse put together from the chunks (no role, no call id) are still one each.
  'langfuse-5.11-openai-agent-streamed.json': { calls: ['langfuse get_weather tool-span'], findings: ['assumption_span get_weather timezone'] },
  // Another run: the zone get_weather got is lookup_city's result (its observation's output, and the tool message of the next
  // generation's input), passed on: nothing to report.
  'langfuse-5.11-openai-agent-chained.json': { calls: ['langfuse lookup_city tool-span', 'langfuse get_weather tool-span'], findings: [] },
  // A LangChain agent (`createAgent`) under Langfuse's `CallbackHandler` (a real run): LangGraph's node spans repeat the
  // conversation, the tool observation's output is LangChain's serialised ToolMessage; the same answers as above.
  'langfuse-5.11-langchain-agent-guessed.json': { calls: ['langfuse get_weather tool-span'], findings: ['assumption_span get_weather timezone'] },
  'langfuse-5.11-langchain-agent-chained.json': { calls: ['langfuse lookup_city tool-span', 'langfuse get_weather tool-span'], findings: [] },
  // get_weather's Zod schema gives the zone as its default (in the `tools` of each generation's input): the schema's value, no guess.
  'langfuse-5.11-langchain-agent-default.json': { calls: ['langfuse get_weather tool-span'], findings: [] },
  'langsmith-otel-traceable-tool.json': { calls: ['langsmith get_weather tool-span'], findings: [] },
  // LangSmith's own export of a traceable agent (a real run): the zone its tool run got is the agent's guess; a tool
  // without parameters (`get_time`, `{}`) is a checked call with none.
  'langsmith-0.10-otel-traceable-weather.json': { calls: ['langsmith get_weather tool-span', 'langsmith get_time tool-span'], findings: ['assumption_span get_weather timezone'] },
  // The same run with `LANGSMITH_HIDE_INPUTS=true` (every input `{}`, the flag in each run's metadata): both calls not
  // checked, and without evidence (the agent's input hidden too), never clean calls without arguments.
  'langsmith-0.10-otel-traceable-inputs-hidden.json': { calls: ['langsmith get_weather tool-span', 'langsmith get_time tool-span'], noEvidence: 2, unreadable: 2, findings: [] },
  // Another agent's run: the zone get_weather got is lookup_city's result, passed on (nothing to report).
  'langsmith-0.10-otel-traceable-chained.json': { calls: ['langsmith lookup_city tool-span', 'langsmith get_weather tool-span'], findings: [] },
  // The same with `LANGSMITH_HIDE_OUTPUTS=true` (every output `{}`): lookup_city's result not recorded, so the zone
  // after it has no evidence either way — never the model's guess.
  'langsmith-0.10-otel-traceable-outputs-hidden.json': { calls: ['langsmith lookup_city tool-span', 'langsmith get_weather tool-span'], noEvidence: 1, findings: [] },
  'openinference-anthropic-timezone-model-only.json': {
    calls: ['openinference get_time model-output', 'openinference get_weather model-output'],
    findings: ['assumption_span get_time timezone'],
  },
  'openinference-claude-agent-sdk-bash.json': { calls: ['openinference Bash tool-span'], findings: [], run: '493eec35-215c-4b7b-a7e3-94cce106a7f5' },
  'openinference-google-adk-weather.json': { calls: ['google-adk get_weather tool-span'], findings: [], run: '4a5b6c7d' },
  'openllmetry-decorators-workflow-task.json': { calls: [], findings: [] },
  'openllmetry-openai-agents-weather.json': { calls: ['openllmetry get_weather tool-span'], findings: [] },
  // OpenLLMetry for Node (real runs, @traceloop/node-server-sdk 0.27): `withTool` around a tool beside the OpenAI client's
  // GenAI spans, and the Vercel AI SDK's spans as its span processor rewrites them; the zone the model guessed is reported.
  'openllmetry-js-0.27-openai-weather.json': { calls: ['openllmetry get_weather tool-span'], findings: ['assumption_span get_weather timezone'] },
  'openllmetry-js-0.27-ai-sdk-weather.json': { calls: ['openllmetry get_weather tool-span'], findings: ['assumption_span get_weather timezone'] },
  // OpenLLMetry's own flattened layout (gen_ai.prompt.{i}.*, gen_ai.completion.{i}.tool_calls.{j}.*): the user named the city.
  'openllmetry-openai-legacy-tool-calls-model-only.json': { calls: ['openllmetry get_current_weather model-output'], findings: [] },
  'pydantic-ai-v2-format-my-ret.json': { calls: ['pydantic-ai my_ret tool-span'], findings: [], run: '3f1d2c4e-9a7b-4c1e-8d2f-5b6a7c8d9e0f' },
  'pydantic-ai-v5-format-my-ret.json': { calls: ['genai-semconv my_ret tool-span'], findings: [], run: '3f1d2c4e-9a7b-4c1e-8d2f-5b6a7c8d9e0f' },
  'vercel-ai-legacy-otel-v7-streamtext-tool.json': { calls: ['vercel-ai tool1 tool-span'], findings: [] },
  'vercel-ai-legacy-v4-streamtext-tool.json': { calls: ['vercel-ai tool1 tool-span'], findings: [] },
  'derived/vercel-ai-dotenv-path.json': { calls: ['vercel-ai tool1 tool-span'], findings: ['sensitive_arg_dispatched tool1 value'] },
  // Google ADK for TypeScript's own spans (a real run, @google/adk 2.0): the zone the model guessed is reported. With content
  // capture off, ADK writes `{}` for the arguments and the result: the call is not checked, and has no evidence (never clean).
  'google-adk-js-2.0-weather.json': { calls: ['google-adk get_weather tool-span'], findings: ['assumption_span get_weather timezone'], run: 'a068c599-f78d-4ee6-b151-bc11155d55e4' },
  'google-adk-js-2.0-content-off.json': { calls: ['google-adk get_weather tool-span'], noEvidence: 1, unreadable: 1, findings: [], run: 'fd850e62-22a2-4908-b801-9c164863770c' },
  // Phoenix's "Download → OTLP JSON" of the ADK trace: snake_case field names, no resource or scope.
  'derived/phoenix-export-google-adk-weather.json': { calls: ['google-adk get_weather tool-span'], findings: [], run: '4a5b6c7d' },
  // Phoenix's REST answer (GET …/spans/otlpv1) for the Anthropic trace: {"data": [spans]}, snake_case.
  'derived/phoenix-rest-anthropic-timezone.json': {
    calls: ['openinference get_time model-output', 'openinference get_weather model-output'],
    findings: ['assumption_span get_time timezone'],
  },
  // Langfuse's public API answer (GET /api/public/observations, v1) for the Langfuse SDK's trace.
  'derived/langfuse-api-observations-write-document.json': { calls: ['langfuse write_document tool-span'], noEvidence: 1, findings: [] },
  // LangSmith's answer to POST /api/v1/runs/query for the exporter's trace.
  'derived/langsmith-api-runs-traceable-tool.json': { calls: ['langsmith get_weather tool-span'], findings: [] },
  // Semantic Kernel .NET's messages as span events (gen_ai.user.message …, gen_ai.choice): the user's words are
  // read from them, so the call has evidence (Boston, MA: the model added the state).
  'semantic-kernel-dotnet-message-events-weather.json': { calls: ['genai-semconv GetCurrentWeather tool-span'], findings: [] },
  // The same run as SK .NET wrote it before May 2025 (gen_ai.content.prompt / .completion): the function's span
  // had no GenAI attributes, so the call is the one the completion event proposed.
  'derived/semantic-kernel-dotnet-legacy-content-events-weather.json': { calls: ['genai-semconv GetCurrentWeather model-output'], findings: [] },
  'derived/semantic-kernel-token-in-choice.json': {
    calls: ['genai-semconv GetCurrentWeather tool-span'],
    findings: ['credential_in_attribute GetCurrentWeather location'],
  },
  // Semantic Kernel Python: its spans (the function's execute_tool span with the arguments and call id) and, in the logs
  // export, its messages as log records (gen_ai.user.message …, gen_ai.choice): together the call has the user's words.
  'semantic-kernel-python-weather.traces.json + semantic-kernel-python-weather.logs.json': { calls: ['genai-semconv WeatherPlugin-GetWeather tool-span'], findings: [] },
  // The traces alone hold no message: the call is read, with no evidence either way.
  'semantic-kernel-python-weather.traces.json': { calls: ['genai-semconv WeatherPlugin-GetWeather tool-span'], noEvidence: 1, findings: [] },
  // The logs alone: the call is the one the choice proposed.
  'semantic-kernel-python-weather.logs.json': { calls: ['genai-semconv WeatherPlugin-GetWeather model-output'], findings: [] },
  // One model output: its text quotes an AWS key id no argument holds (by attribute), its get_weather call carries two credentials (by argument).
  'derived/genai-credentials-in-output-text-and-call.json': {
    calls: ['genai-semconv get_time model-output', 'genai-semconv get_weather model-output'],
    findings: ['assumption_span get_time timezone', 'credential_in_attribute get_weather env', 'credential_in_attribute get_weather location', 'credential_in_attribute null gen_ai.output.messages'],
  },
  // The official OpenTelemetry instrumentation of OpenAI's Python SDK: its chat spans hold no content; the messages and the
  // model's two calls are log records in the logs export beside the traces ("a + b": analysed together).
  'otel-python-openai-v2-weather.traces.json + otel-python-openai-v2-weather.logs.json': {
    calls: ['genai-semconv get_current_weather model-output', 'genai-semconv get_current_weather model-output'],
    findings: [],
  },
  // The traces alone: the spans hold no call.
  'otel-python-openai-v2-weather.traces.json': { calls: [], findings: [] },
  // The logs alone: the spans they name are made from them.
  'otel-python-openai-v2-weather.logs.json': {
    calls: ['genai-semconv get_current_weather model-output', 'genai-semconv get_current_weather model-output'],
    findings: [],
  },
  // The collector's file exporter writing both signals to one file.
  'derived/otel-python-openai-v2-weather.collector.jsonl': {
    calls: ['genai-semconv get_current_weather model-output', 'genai-semconv get_current_weather model-output'],
    findings: [],
  },
  // Content capture off (the instrumentation's default): the calls are there, their arguments and the user's words not —
  // counted, never read as clean.
  'otel-python-openai-v2-weather.traces.json + derived/otel-python-openai-v2-no-content.logs.json': {
    calls: ['genai-semconv get_current_weather model-output', 'genai-semconv get_current_weather model-output'],
    noEvidence: 2,
    unreadable: 2,
    findings: [],
  },
  'otel-python-openai-v2-weather.traces.json + derived/otel-python-openai-v2-planted.logs.json': {
    calls: ['genai-semconv get_current_weather model-output', 'genai-semconv get_current_weather model-output'],
    findings: ['assumption_span get_current_weather timezone', 'credential_in_attribute get_current_weather location'],
  },
  // LiteLLM's OpenTelemetry integration: two model calls, the first proposing two calls (in OpenAI's `tool_calls` beside the
  // GenAI parts, and again in `gen_ai.completion.{i}.function_call.*`), the second holding their results: each call once.
  'litellm-otel-parallel-tool-calls.json': { calls: ['litellm get_news model-output', 'litellm get_weather model-output'], findings: [] },
  // The token in both calls' city: by tool and argument, never again by attribute for the copies (output messages, history).
  'derived/litellm-token-in-tool-calls.json': {
    calls: ['litellm get_news model-output', 'litellm get_weather model-output'],
    findings: ['credential_in_attribute get_news city', 'credential_in_attribute get_weather city'],
  },
  // Mastra's OpenTelemetry exporter before it followed the GenAI conventions: `tool.execute {tool}`, the input in gen_ai.tool.input.
  'mastra-otel-exporter-0.x-tool-calculator.json': { calls: ['mastra calculator tool-span'], noEvidence: 1, findings: [] },
  // The token by tool and argument, once (the exporter's generic `input` holds the same text).
  'derived/mastra-token-in-tool-input.json': { calls: ['mastra calculator tool-span'], noEvidence: 1, findings: ['credential_in_attribute calculator expression'] },
  // Mastra 0.x with its model span: the prompt in gen_ai.prompt (Mastra's {"messages"}) is the user's words, so the expression
  // they gave is theirs and the zone they never gave is the model's guess.
  'derived/mastra-0.x-model-prompt-timezone.json': { calls: ['mastra calculator tool-span'], findings: ['assumption_span calculator timezone'] },
  // The token again in the next request's history (gen_ai.prompt, and the same text in the generic `input`): by argument, once.
  'derived/mastra-0.x-token-in-history.json': { calls: ['mastra calculator tool-span'], findings: ['credential_in_attribute calculator expression'] },
  // Mastra 1.71's real run (`@mastra/otel-exporter` 1.4, the GenAI conventions beside Mastra's own attributes): the user's words
  // in the agent run's input; the zone the model guessed is reported; said by the user, nothing; said in an earlier run of the
  // thread (Mastra's memory: a trace per run, the thread its `gen_ai.conversation.id`, the run key), nothing.
  'mastra-1.71-agent-weather-tool.json': { calls: ['mastra getWeather tool-span'], findings: ['assumption_span getWeather timezone'] },
  'mastra-1.71-agent-weather-zone-said.json': { calls: ['mastra getWeather tool-span'], findings: [] },
  'mastra-1.71-thread-zone-said-earlier.json': { calls: ['mastra getWeather tool-span'], findings: [], run: 'thread-1' },
  // The token in the call, and in its copies in the step's, the generation's and the streamed chunk's outputs: by argument, once.
  'derived/mastra-1.71-planted.json': { calls: ['mastra getWeather tool-span'], findings: ['assumption_span getWeather timezone', 'credential_in_attribute getWeather api_key'] },
  // OpenInference's AG2 instrumentation: input.value is the whole func_call; the arguments are read from tool_call.function.arguments.
  'openinference-ag2-tool-add.json': { calls: ['openinference add tool-span'], noEvidence: 1, findings: [] },
  // The secret-file path is reported under its own key, `path` (read from input.value it was the key `arguments`).
  'derived/openinference-ag2-dotenv-path.json': { calls: ['openinference add tool-span'], noEvidence: 1, findings: ['sensitive_arg_dispatched add path'] },
  // OpenInference's BeeAI instrumentation: the TOOL span's input.value is the run's parameters {"input", "options"}; the input is
  // the call the model proposed (one call, not two), its keys the tool's own.
  'openinference-beeai-openmeteo.json': { calls: ['openinference OpenMeteoTool tool-span'], findings: [] },
  'derived/openinference-beeai-token-in-location.json': { calls: ['openinference OpenMeteoTool tool-span'], findings: ['credential_in_attribute OpenMeteoTool location_name'] },
  // The BeeAI trace as Phoenix's UI downloads it: no scope to name the instrumentation, still one call (the TOOL span's
  // `metadata.class_name` is BeeAI's processor's), read as the original is (see 'report what the traces they came from do').
  'derived/phoenix-export-beeai-openmeteo.json': { calls: ['openinference OpenMeteoTool tool-span'], findings: [] },
  // OpenInference's Haystack instrumentation writes no TOOL span (haystack-ai 2.18's ToolInvoker is a CHAIN): the call is the
  // model's proposal, with no call id; the user's query is the user's.
  'openinference-haystack-agent-search.json': { calls: ['openinference search model-output'], findings: [] },
  // OpenInference's CrewAI instrumentation: a TOOL span (tool.parameters is the args schema there) and no model span; the task's
  // description on the kickoff span (crew_tasks) is the user's request, so the URL it names is not the model's guess.
  'openinference-crewai-scrape-website.json': { calls: ['openinference scrape_website tool-span'], findings: [] },
  // OpenInference's DSPy instrumentation: TOOL spans named `{tool}.__call__` with no tool.name (the tool is `add`, and ReAct's own
  // `finish`), the arguments `{"kwargs": {…}}`; the question on the ReAct span's input is the user's.
  'openinference-dspy-react-add.json': { calls: ['openinference add tool-span', 'openinference finish tool-span'], findings: [] },
  // OpenInference's LangChain instrumentation, a chat model with bound tools (no tool run): the model's two calls, the numbers
  // the user's; the same calls in output.value (the LLMResult: the message's tool_calls and additional_kwargs) are not counted again.
  'openinference-langchain-tool-calls-model-only.json': { calls: ['openinference add model-output', 'openinference multiply model-output'], findings: [] },
  // OpenInference's LlamaIndex instrumentation, FunctionCallingLLM.achat with a tool (no tool run): the city the user named.
  'openinference-llama-index-weather-model-only.json': { calls: ['openinference get_weather model-output'], findings: [] },
  // OpenInference's OpenAI instrumentation, Chat Completions: the model's two calls (its history's two earlier ones, made in no span
  // of this trace, are not calls); the same calls in output.value (the ChatCompletion's choices) are not counted again.
  'openinference-openai-chat-completions-tool-calls-model-only.json': {
    calls: ['openinference get_population model-output', 'openinference get_weather model-output'],
    findings: [],
  },
  // The Responses API: the call is the first Response's function_call item (in the output messages and output.value), its
  // output the second request's function_call_output; no tool span.
  'openinference-openai-responses-function-call.json': { calls: ['openinference get_weather model-output'], findings: [] },
  // The same test run against Anthropic (claude-3-5-haiku): a text block before the tool_use, recorded as the output message's
  // content beside its call; the text is the model's, the city the user's.
  'openinference-llama-index-anthropic-weather-model-only.json': { calls: ['openinference get_weather model-output'], findings: [] },
  // OpenInference's JS OpenAI instrumentation, the SDK's runTools (three model calls, the tools run by the SDK, no tool span):
  // each call the model's proposal once; the location is the first tool's result, not the model's guess.
  'openinference-js-openai-runtools-weather.json': { calls: ['openinference getCurrentLocation model-output', 'openinference getWeather model-output'], findings: [] },
  // Spring AI's tool-calling observation (Micrometer Tracing): no prompt on any span, so no evidence either way.
  'spring-ai-1.1-tool-call-weather.json': { calls: ['spring-ai getCurrentWeather tool-span'], noEvidence: 1, findings: [] },
  'spring-ai-2.0-execute-tool-weather.json': { calls: ['spring-ai getCurrentWeather tool-span'], noEvidence: 1, findings: [] },
  // google-genai's automatic function calling: each parameter its own attribute (code.function.parameters.{name}.value);
  // the int parameter (held as an int) read as its text, as ClickHouse holds it. The model span holds no content.
  'google-genai-tool-parameters-somefunction.json': { calls: ['genai-semconv somefunction tool-span'], noEvidence: 1, findings: [] },
  'derived/google-genai-dotenv-path.json': { calls: ['genai-semconv somefunction tool-span'], noEvidence: 1, findings: ['sensitive_arg_dispatched somefunction otherparam'] },
  'derived/google-genai-token-in-parameter.json': { calls: ['genai-semconv somefunction tool-span'], noEvidence: 1, findings: ['credential_in_attribute somefunction otherparam'] },
  // OpenLIT's model span with content capture off: the model's two calls only in gen_ai.tool.{name,call.id,args}, joined with ", ".
  'openlit-groq-parallel-tool-calls.json': { calls: ['genai-semconv get_weather model-output', 'genai-semconv get_weather model-output'], noEvidence: 2, findings: [] },
  'derived/openlit-token-and-dotenv-in-tool-args.json': {
    calls: ['genai-semconv get_weather model-output', 'genai-semconv get_weather model-output'],
    noEvidence: 2,
    findings: ['credential_in_attribute get_weather city', 'sensitive_arg_dispatched get_weather city'],
  },
  'derived/spring-ai-token-in-arguments.json': { calls: ['spring-ai getCurrentWeather tool-span'], noEvidence: 1, findings: ['credential_in_attribute getCurrentWeather location'] },
  // Microsoft Agent Framework (Python): invoke_agent → chat, execute_tool, chat; the model's call in the tool_call parts with its
  // arguments as the JSON string the client got (Python json.dumps of a string), the user named the city.
  'agent-framework-python-get-weather.json': { calls: ['genai-semconv get_weather tool-span'], findings: [] },
  'derived/openinference-token-in-input.json': { calls: ['openinference Bash tool-span'], findings: ['credential_in_attribute Bash command'], run: '493eec35-215c-4b7b-a7e3-94cce106a7f5' },
  // Claude Code's OpenTelemetry events (log records, no span): a Read call of a prompt recorded as `<REDACTED>` and without
  // OTEL_LOG_TOOL_DETAILS, so neither the user's words nor the arguments are there — counted, never read as clean; the
  // session is the run.
  'claude-code-2.1-read-tool.logs.json': { calls: ['claude-code Read tool-span'], noEvidence: 1, unreadable: 1, findings: [], run: '11111111-2222-3333-4444-555555555555' },
  // With the prompt and the tools' details recorded: the .env read, the token in Bash's command (by `tool_input`'s key, once:
  // `tool_parameters` holds it too), the MCP tool by its server and name, and the zone the prompt never gave; the upload the
  // user refused, known by its decision record only: the model's request, which never ran.
  'derived/claude-code-tool-details-planted.logs.json': {
    calls: ['claude-code Bash tool-span', 'claude-code Read tool-span', 'claude-code mcp__calendar__create_event tool-span', 'claude-code Bash model-output'],
    findings: ['credential_in_attribute Bash command', 'sensitive_arg_dispatched Read file_path', 'assumption_span mcp__calendar__create_event timezone', 'sensitive_arg_dispatched Bash full_command'],
    run: '11111111-2222-3333-4444-555555555555',
  },
  // Claude Code's traces (beta) of the same prompt: the Read's `claude_code.tool` span, the prompt `<REDACTED>` on the interaction
  // span and no OTEL_LOG_TOOL_DETAILS: as its events, nothing to read, counted so; the session is the run.
  'claude-code-2.1-read-tool.traces.json': { calls: ['claude-code Read tool-span'], noEvidence: 1, unreadable: 1, findings: [], run: '11111111-2222-3333-4444-555555555555' },
  // With the prompt and the tools' details: the Read's `file_path`, Bash's `full_command` (the span's parts of the arguments,
  // by their attributes' names), the MCP tool's `tool_input` (detailed beta tracing); the refused upload, whose permission
  // wait says `reject`: the model's request.
  'derived/claude-code-tool-details-planted.traces.json': {
    calls: ['claude-code Bash tool-span', 'claude-code Read tool-span', 'claude-code mcp__calendar__create_event tool-span', 'claude-code Bash model-output'],
    findings: ['credential_in_attribute Bash full_command', 'sensitive_arg_dispatched Read file_path', 'assumption_span mcp__calendar__create_event timezone', 'sensitive_arg_dispatched Bash full_command'],
    run: '11111111-2222-3333-4444-555555555555',
  },
  // Another prompt's spans with the tools' output recorded too (OTEL_LOG_TOOL_CONTENT, detailed beta tracing: every
  // `tool_input` after its label line): the address mailed is Bash's output, not the model's guess (no finding); the bucket
  // listed is copied out of the .env read (secret); the address paged is only in the model's own Write (its guess).
  'derived/claude-code-tool-content-planted.traces.json': {
    calls: [
      'claude-code Bash tool-span',
      'claude-code Read tool-span',
      'claude-code Bash tool-span',
      'claude-code mcp__mail__send tool-span',
      'claude-code Read tool-span',
      'claude-code mcp__storage__list_objects tool-span',
      'claude-code Write tool-span',
      'claude-code mcp__pager__page tool-span',
    ],
    findings: ['sensitive_arg_dispatched Read file_path', 'sensitive_arg_dispatched mcp__storage__list_objects bucket', 'assumption_span mcp__pager__page email'],
    run: '11111111-2222-3333-4444-666666666666',
  },
  // Its events and its spans exported together, the events in the trace: each call once, read from its event's
  // `tool_input` (the model's whole arguments), the span's attributes copies of them.
  'derived/claude-code-tool-details-planted.traces.json + derived/claude-code-tool-details-in-trace.logs.json': {
    calls: ['claude-code Bash tool-span', 'claude-code Read tool-span', 'claude-code mcp__calendar__create_event tool-span', 'claude-code Bash model-output'],
    findings: ['credential_in_attribute Bash command', 'sensitive_arg_dispatched Read file_path', 'assumption_span mcp__calendar__create_event timezone', 'sensitive_arg_dispatched Bash full_command'],
    run: '11111111-2222-3333-4444-555555555555',
  },
  // VoltAgent's own observability: the tool span is the call (the model's replies are recorded nowhere); the units the tool's
  // Zod schema defaults to are the schema's; the conversation the agent was called in is the run.
  'voltagent-2.10-agent-weather-tool.json': { calls: ['voltagent getWeather tool-span'], findings: [], run: 'conv-1' },
  'derived/voltagent-2.10-planted.json': { calls: ['voltagent getWeather tool-span'], findings: ['assumption_span getWeather timezone', 'credential_in_attribute getWeather api_key'], run: 'conv-1' },
  // A supervisor's sub-agent: its task is the supervisor's model's words, so the zone it passed on is a guess, not the user's.
  'voltagent-2.10-supervisor-weather-subagent.json': { calls: ['voltagent delegate_task tool-span', 'voltagent getWeather tool-span'], findings: ['assumption_span getWeather timezone'], run: 'conv-2' },
  // Codex CLI's log export: `cat .env`, then a curl sending the token the read gave (the read's output holds it too); the
  // conversation is the run. Without `log_user_prompt` the prompt is `[REDACTED]`: no evidence either way.
  'codex-0.171-exec-env.logs.json': {
    calls: ['codex exec_command tool-span', 'codex exec_command tool-span'],
    findings: ['credential_in_attribute exec_command output', 'credential_in_attribute exec_command cmd', 'sensitive_arg_dispatched exec_command cmd'],
    run: '01a25060-cd15-7f93-ba33-1bd23f00e8fc',
  },
  // Codex's trace export alone: its tool spans name each call, but no span holds the arguments or the prompt: counted so.
  'codex-0.171-exec-env-traced.traces.json': { calls: ['codex exec_command tool-span', 'codex exec_command tool-span'], noEvidence: 2, unreadable: 2, findings: [], run: '01a25067-e375-77d1-89ea-5522fc308ee2' },
  // Beside the log export of the same run: each call once, its record's (the span a copy).
  'codex-0.171-exec-env-traced.traces.json + codex-0.171-exec-env-traced.logs.json': {
    calls: ['codex exec_command tool-span', 'codex exec_command tool-span'],
    findings: ['credential_in_attribute exec_command output', 'credential_in_attribute exec_command cmd', 'sensitive_arg_dispatched exec_command cmd'],
    run: '01a25067-e375-77d1-89ea-5522fc308ee2',
  },
  // An MCP server's tool (Codex's `mcp__fs` namespace), named as Claude Code names them; the absolute path is the model's.
  'codex-0.171-exec-mcp.logs.json': { calls: ['codex mcp__fs__read_text_file tool-span'], findings: [], run: '01a2506d-a6ad-70e1-b035-11fc617bed85' },
  // A freeform tool (`apply_patch` for gpt-5.5: its arguments the patch's text, not JSON) read as its one argument, `input`:
  // the token copied from the .env read into the patch is found by tool and key, and the call is checked.
  'codex-0.171-exec-patch.logs.json': {
    calls: ['codex exec_command tool-span', 'codex apply_patch tool-span'],
    findings: ['credential_in_attribute apply_patch input', 'credential_in_attribute exec_command output', 'sensitive_arg_dispatched exec_command cmd'],
    run: '01a250f4-a33d-79b3-aba9-6567470a988d',
  },
  // `codex exec` refusing an escalation it may not ask for (`scp .env …` outside its read-only sandbox: its record's
  // `success = false`, its refusal as the output): the model's request, not a call that ran, and no tool result.
  'codex-0.171-exec-refused.logs.json': {
    calls: ['codex exec_command model-output'],
    findings: ['sensitive_arg_dispatched exec_command cmd', 'sensitive_arg_dispatched exec_command justification'],
    run: '01a2519e-05ed-7b23-b692-70529f33fcbc',
  },
  'derived/codex-0.171-prompt-redacted.logs.json': {
    calls: ['codex exec_command tool-span', 'codex exec_command tool-span'],
    noEvidence: 2,
    findings: ['credential_in_attribute exec_command output', 'credential_in_attribute exec_command cmd', 'sensitive_arg_dispatched exec_command cmd'],
    run: '01a25060-cd15-7f93-ba33-00000000cafe',
  },
  // opencode's run (`experimental.openTelemetry`: the AI SDK's spans): `cat .env`, then a curl sending the token the read gave;
  // the token in the command, in the read's result and in the next requests' history; the session is the run.
  'opencode-1.18-run-env.json': {
    calls: ['vercel-ai bash tool-span', 'vercel-ai bash tool-span'],
    findings: [
      // (the history's copies, under other attribute names, are the result's credential: one finding)
      'credential_in_attribute bash ai.toolCall.result',
      'credential_in_attribute bash command',
      'sensitive_arg_dispatched bash command',
    ],
    run: 'ses_daeea14efffeLOBa09m2mLb3k2',
  },
  // Qwen Code's local telemetry file (the SDK's own objects, log records of a newer sdk-logs): its records are the calls, each
  // once beside its `qwen-code.tool` span; the .env read, and the token the read gave in the next command.
  'qwen-code-0.24-env.telemetry.log': {
    calls: ['qwen-code read_file tool-span', 'qwen-code run_shell_command tool-span'],
    findings: ['credential_in_attribute run_shell_command command', 'sensitive_arg_dispatched read_file file_path'],
    run: '95357b44-d1dd-43f1-a0eb-c2f91b7aef5a',
  },
  // Gemini CLI's events: the glob call's arguments are the user's (the path is in the prompt of its prompt id).
  'gemini-cli-glob-tool.logs.json': { calls: ['gemini-cli glob tool-span'], findings: [], run: 'b9280381-505c-433a-a0f5-731345d35f87' },
  'derived/gemini-cli-planted.logs.json': {
    calls: ['gemini-cli glob tool-span'],
    findings: ['credential_in_attribute glob pattern', 'sensitive_arg_dispatched glob path'],
    run: 'b9280381-505c-433a-a0f5-731345d35f87',
  },
};

const work = mkdtempSync(join(tmpdir(), 'argspan-foreign-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const results = new Map<string, { result: AnalysisResult; calls: string[]; runs: (string | null)[] }>();

// one analysis per fixture, in turn: on a busy 2-core machine they take longer than the default hook timeout
beforeAll(async () => {
  for (const [i, file] of Object.keys(EXPECTED).entries()) {
    const dbPath = join(work, `db-${i}.duckdb`);
    const result = await analyze({ paths: file.split(' + ').map((f) => join(DIR, f)), dbPath });
    const db = await Db.open(dbPath);
    try {
      const rows = await db.all(`SELECT emitter || ' ' || tool || ' ' || call_source AS c, run_id FROM tool_calls ORDER BY c`);
      results.set(file, { result, calls: rows.map((r) => String(r.c)), runs: rows.map((r) => (r.run_id === null ? null : String(r.run_id))) });
    } finally {
      db.close();
    }
  }
}, 600_000);

describe.each(Object.keys(EXPECTED))('foreign trace %s', (file) => {
  it('finds each tool call under its emitter, and exactly the expected findings', () => {
    const got = results.get(file)!;
    const want = EXPECTED[file]!;
    expect(got.calls).toEqual([...want.calls].sort());
    expect(got.result.stats.foreign_calls).toBe(want.calls.length);
    expect(got.result.stats.no_evidence_calls).toBe(want.noEvidence ?? 0);
    expect(got.result.stats.unreadable_args_calls).toBe(want.unreadable ?? 0);
    expect(got.result.findings.map((f) => `${f.rule} ${f.tool} ${f.key}`).sort()).toEqual([...want.findings].sort());
    expect(got.runs).toEqual(want.calls.map(() => want.run ?? null));
  });
});

describe('foreign findings', () => {
  it('name the emitter and never a value', () => {
    const tz = results.get('openinference-anthropic-timezone-model-only.json')!.result.findings[0]!;
    expect(tz.message).toBe('Tool get_time was called with a model-inferred value for the denylisted key timezone (recorded by openinference).');
    // The emitter is a field of each finding too, the library whose span it is.
    const emitters = (file: string) => results.get(file)!.result.findings.map((f) => f.emitter);
    expect(emitters('openinference-anthropic-timezone-model-only.json')).toEqual(['openinference']);
    expect(emitters('genai-openllmetry-anthropic-timezone-model-only.json')).toEqual(['genai-semconv']);
    expect(emitters('derived/vercel-ai-dotenv-path.json')).toEqual(['vercel-ai']);
    expect(emitters('derived/openinference-token-in-input.json')).toEqual(['openinference']);
    expect(emitters('derived/spring-ai-token-in-arguments.json')).toEqual(['spring-ai']);
    expect(emitters('derived/litellm-token-in-tool-calls.json')).toEqual(['litellm', 'litellm']);
    expect(emitters('derived/mastra-token-in-tool-input.json')).toEqual(['mastra']);
    expect(emitters('derived/claude-code-tool-details-planted.logs.json')).toEqual(['claude-code', 'claude-code', 'claude-code', 'claude-code']);
    expect(emitters('derived/gemini-cli-planted.logs.json')).toEqual(['gemini-cli', 'gemini-cli']);
    expect(emitters('derived/claude-code-tool-details-planted.traces.json')).toEqual(['claude-code', 'claude-code', 'claude-code', 'claude-code']);
    // A call Claude Code refused (its decision record, or its span's permission wait) never ran: the finding says so.
    for (const file of ['derived/claude-code-tool-details-planted.logs.json', 'derived/claude-code-tool-details-planted.traces.json']) {
      const refused = results.get(file)!.result.findings.find((f) => f.rule === 'sensitive_arg_dispatched' && f.tool === 'Bash')!;
      expect(refused.message).toContain('but the model asked for the call (its request recorded by claude-code; the trace holds no run of it)');
    }
    const all = JSON.stringify([...results.values()].map((r) => r.result));
    for (const value of ['America/New_York', 'America/Los_Angeles', '/app/.env', 'ghp_C4NARY', 'acme-backups-7f3a', 'dev-lead@example.com', 'oncall-eu-7']) expect(all).not.toContain(value);
  });

  it('read Phoenix\'s snake_case download and REST answer, Langfuse\'s observations and LangSmith\'s runs as the same spans as the traces they came from', async () => {
    const spans = async (file: string) => {
      const dbPath = join(work, `${file.replace(/\W/g, '_')}.duckdb`);
      await analyze({ paths: [join(DIR, file)], dbPath });
      const db = await Db.open(dbPath);
      try {
        return await db.all(`SELECT trace_id, span_id, parent_span_id, "name", status_code, start_ns // 1000 AS start_us FROM spans ORDER BY span_id`);
      } finally {
        db.close();
      }
    };
    expect(await spans('derived/phoenix-export-google-adk-weather.json')).toEqual(await spans('openinference-google-adk-weather.json'));
    // Its REST answer holds the same spans: ids, names, times (to the microsecond Phoenix keeps) and status.
    expect(await spans('derived/phoenix-rest-anthropic-timezone.json')).toEqual(await spans('openinference-anthropic-timezone-model-only.json'));
    // And Langfuse's observations answer holds the spans of the SDK's trace.
    expect(await spans('derived/langfuse-api-observations-write-document.json')).toEqual(await spans('langfuse-langchain-tool-write-document.json'));
    // LangSmith's runs answer: the spans its exporter writes for those runs.
    expect(await spans('derived/langsmith-api-runs-traceable-tool.json')).toEqual(await spans('langsmith-otel-traceable-tool.json'));
  });

  it('read google-genai\'s per-parameter attributes as the call\'s arguments, one of them an int, each attribute a copy of them', async () => {
    const dbPath = join(work, 'google-genai-rows.duckdb');
    await analyze({ paths: [join(DIR, 'google-genai-tool-parameters-somefunction.json')], dbPath });
    const db = await Db.open(dbPath);
    try {
      expect(await db.all(`SELECT key, bytes::INTEGER AS bytes FROM tool_args ORDER BY key`)).toEqual([
        { key: 'otherparam', bytes: 3 },
        { key: 'someparam', bytes: 3 },
      ]);
      expect((await db.all(`SELECT "attribute" FROM argument_blobs ORDER BY ALL`)).map((r) => r.attribute)).toEqual([
        'code.function.parameters.otherparam.value',
        'code.function.parameters.someparam.value',
      ]);
    } finally {
      db.close();
    }
  });

  it('read the Phoenix download of the BeeAI trace as the trace it came from: the same calls, arguments, labels and argument copies', async () => {
    const rows = async (file: string) => {
      const dbPath = join(work, `${file.replace(/\W/g, '_')}-rows.duckdb`);
      await analyze({ paths: [join(DIR, file)], dbPath });
      const db = await Db.open(dbPath);
      try {
        return {
          // (the download has a trace id of its own, so it loads beside the planted BeeAI variant: not compared)
          calls: await db.all(`SELECT span_id, tool, call_id, emitter, call_source, residency, args_count, args_bytes, no_evidence FROM tool_calls ORDER BY span_id`),
          // (values are hashed with a key of each analysis's own: not compared)
          args: await db.all(`SELECT call_span_id, key, provenance, residency, rule, bytes FROM tool_args ORDER BY call_span_id, key`),
          blobs: await db.all(`SELECT * EXCLUDE (trace_id) FROM argument_blobs ORDER BY ALL`),
        };
      } finally {
        db.close();
      }
    };
    const original = await rows('openinference-beeai-openmeteo.json');
    expect(original.calls).toHaveLength(1);
    expect(await rows('derived/phoenix-export-beeai-openmeteo.json')).toEqual(original);
  });

  it('derived files are what derive.mjs writes', async () => {
    const { derivedFiles } = (await import(join(DIR, 'derive.mjs'))) as { derivedFiles: () => Record<string, string> };
    for (const [rel, text] of Object.entries(derivedFiles())) expect(readFileSync(join(DIR, rel), 'utf8'), rel).toBe(text);
  });
});
