import { mkdtempSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { FileSpanExporter } from '@argspan/setup';

/**
 * A deploy agent run by Anthropic's own TypeScript SDK (`@anthropic-ai/sdk`, its tool runner and its
 * OpenTelemetry traces, content mode `content`) against a Messages API on loopback that answers
 * from a script: no model is reachable, every span is the SDK's own. The model first asks for the
 * latest build (its result names the billing account), then deploys it with the account id copied
 * from that result, a time zone and a secret file's path of its own, and the registry token the
 * user gave.
 */

/** The registry token the user gives in the prompt (a canary: it must be printed nowhere). */
export const ANTHROPIC_RUN_TOKEN = 'ghp_' + 'C4NARYanthropicSDKrunc4naryxyzw12345';

/** The first tool's result: the billing account the deploy's `account_id` is copied from. */
const BUILD_RESULT = 'build 4812 passed; artifact registry.example.com/billing:4812; billing account acct-7741';

/** The deploy call's arguments. */
const DEPLOY_ARGUMENTS = {
  service: 'billing',
  environment: 'staging',
  artifact: 'registry.example.com/billing:4812',
  account_id: 'acct-7741',
  timezone: 'America/New_York',
  attachment: '/app/.env',
  registry_token: ANTHROPIC_RUN_TOKEN,
};

/** The model's replies, in order: a call of each tool, then the answer. */
const REPLIES = [
  [{ type: 'tool_use', id: 'toolu_01GetBuild', name: 'get_build', input: { service: 'billing' } }],
  [{ type: 'tool_use', id: 'toolu_02Deploy', name: 'deploy', input: DEPLOY_ARGUMENTS }],
  [{ type: 'text', text: 'Deployed build 4812 to staging.' }],
];

/** The prompt: the user's words in one text block, or in several (the SDK cuts whole blocks from the start to fit its limit). */
export type UserContent = string | { type: 'text'; text: string }[];

export interface AnthropicRunOptions {
  user: UserContent;
  /** The SDK's `traces.maxContentBytes`: content past it is cut, and the span flagged `anthropic.content.truncated`. */
  maxContentBytes?: number;
}

let contextInstalled = false;

/** Run the agent once; returns the OTLP JSON lines file its spans were written to (argspan's file exporter). */
export async function recordAnthropicSdkRun(options: AnthropicRunOptions): Promise<string> {
  if (!contextInstalled) {
    // As the Node SDK does: without a context manager each span would start a trace of its own.
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    contextInstalled = true;
  }
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const content = REPLIES[Math.min(requests++, REPLIES.length - 1)]!;
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${requests}` });
      res.end(
        JSON.stringify({
          id: `msg_${requests}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content,
          stop_reason: content[0]!.type === 'tool_use' ? 'tool_use' : 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 20, output_tokens: 10 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dir = mkdtempSync(join(tmpdir(), 'argspan-anthropic-sdk-'));
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new FileSpanExporter({ directory: dir, prefix: 'anthropic-sdk' }))] });
  try {
    const client = new Anthropic({
      baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: 'not-a-key',
      maxRetries: 0,
      openTelemetry: { tracerProvider: provider, traces: { contentMode: 'content', ...(options.maxContentBytes !== undefined ? { maxContentBytes: options.maxContentBytes } : {}) } },
    });
    const text = { type: 'string' } as const;
    const tools = [
      betaTool({
        name: 'get_build',
        description: 'The latest passing build of a service',
        inputSchema: { type: 'object', properties: { service: text }, required: ['service'] },
        run: () => BUILD_RESULT,
      }),
      betaTool({
        name: 'deploy',
        description: 'Deploy a build',
        inputSchema: {
          type: 'object',
          properties: { service: text, environment: text, artifact: text, account_id: text, timezone: text, attachment: text, registry_token: text },
          required: ['service'],
        },
        run: () => 'deployed',
      }),
    ];
    await client.beta.messages.toolRunner({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: options.user }], tools });
  } finally {
    await provider.forceFlush();
    await provider.shutdown();
    server.close();
  }
  const files = readdirSync(dir);
  if (files.length !== 1) throw new Error(`expected one trace file, got ${files.length}`);
  return join(dir, files[0]!);
}
