import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { FileSpanExporter } from '@argspan/setup';
import { analyzeBin, parseJson } from './analyze-helpers.js';

/**
 * The Vercel AI SDK's own telemetry (`experimental_telemetry`, its `ai.*` spans) of a run whose
 * model (a scripted transcript: no model is reachable) asks for two calls in one step, the second
 * writing a secret file with a long content, under an OpenTelemetry SDK whose attribute value
 * length limit cuts every long attribute: the model span's `ai.response.toolCalls` and the tool
 * span's `ai.toolCall.args` are both cut inside the content.
 */
const LIMIT = 400;
const CONTENT = Array.from({ length: 200 }, (_, i) => `SETTING_${i}=value ${i}`).join('\n');

async function recordCutRun(limit: number | undefined): Promise<string> {
  // (as the Node SDK does: without a context manager each span would start a trace of its own)
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const dir = mkdtempSync(join(tmpdir(), 'argspan-vercel-cut-'));
  const provider = new BasicTracerProvider({
    ...(limit !== undefined ? { spanLimits: { attributeValueLengthLimit: limit } } : {}),
    spanProcessors: [new SimpleSpanProcessor(new FileSpanExporter({ directory: dir, prefix: 'ai-sdk' }))],
  });
  let step = 0;
  const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } };
  const model = new MockLanguageModelV3({
    doGenerate: async () =>
      step++ === 0
        ? {
            content: [
              { type: 'tool-call', toolCallId: 'call_list', toolName: 'list_dir', input: JSON.stringify({ dir: '/app' }) },
              { type: 'tool-call', toolCallId: 'call_write', toolName: 'write_file', input: JSON.stringify({ path: '/app/.env', content: CONTENT }) },
            ],
            finishReason: { unified: 'tool-calls', raw: undefined },
            usage,
            warnings: [],
          }
        : { content: [{ type: 'text', text: 'Saved.' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
  });
  const text = { type: 'string' } as const;
  try {
    await generateText({
      model,
      prompt: 'Save the deploy settings where the app reads them.',
      tools: {
        list_dir: tool({ description: 'List a directory', inputSchema: jsonSchema<{ dir: string }>({ type: 'object', properties: { dir: text }, required: ['dir'] }), execute: async () => '.env config.json' }),
        write_file: tool({
          description: 'Write a file',
          inputSchema: jsonSchema<{ path: string; content: string }>({ type: 'object', properties: { path: text, content: text }, required: ['path', 'content'] }),
          execute: async () => 'written',
        }),
      },
      stopWhen: stepCountIs(3),
      experimental_telemetry: { isEnabled: true, tracer: provider.getTracer('ai') },
    });
  } finally {
    await provider.forceFlush();
    await provider.shutdown();
    context.disable();
  }
  const files = readdirSync(dir);
  if (files.length !== 1) throw new Error(`expected one trace file, got ${files.length}`);
  return join(dir, files[0]!);
}

describe('argspan analyze on the Vercel AI SDK\'s telemetry cut at an attribute length limit', () => {
  it('reads the model\'s cut list of calls to the cut: the call it went through is the tool span\'s call (by its id), not a second, unnamed one', async () => {
    const whole = await recordCutRun(undefined);
    const cut = await recordCutRun(LIMIT);
    const findings = (file: string) => {
      const run = analyzeBin(file, '--format', 'json');
      expect(run.code, run.stderr).toBe(1);
      return { stats: parseJson(run).stats, found: parseJson(run).findings.filter((f) => !f.rule.startsWith('report_')).map((f) => `${f.rule} ${f.tool} ${f.key}`).sort() };
    };
    const read = findings(whole);
    expect(read.stats).toMatchObject({ foreign_calls: 2, unreadable_args_calls: 0 });
    expect(read.found).toEqual(['sensitive_arg_dispatched write_file path']);
    // (cut: the same calls and finding; the write's content past the cut counted as not checked)
    const readCut = findings(cut);
    expect(readCut.stats).toMatchObject({ foreign_calls: 2 });
    expect(readCut.found).toEqual(read.found);
    // (the model's request alone, its tool spans left out: the write read by its tool and key from the cut list, its arguments' JSON text read to the cut)
    const modelOnly = join(mkdtempSync(join(tmpdir(), 'argspan-vercel-cut-')), 'model-only.jsonl');
    const lines = readFileSync(cut, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[] });
    for (const d of lines) for (const rs of d.resourceSpans) for (const ss of rs.scopeSpans) ss.spans = ss.spans.filter((span) => span.name !== 'ai.toolCall');
    writeFileSync(modelOnly, lines.map((d) => JSON.stringify(d)).join('\n') + '\n');
    const readModelOnly = findings(modelOnly);
    expect(readModelOnly.stats).toMatchObject({ foreign_calls: 2, unreadable_args_calls: 1 });
    expect(readModelOnly.found).toEqual(read.found);
  });
});
