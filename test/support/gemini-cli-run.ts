import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The real Gemini CLI (`@google/gemini-cli`, its non-interactive mode `gemini -p`) run once against
 * a Gemini API on loopback that answers from a script (no model is reachable), with its
 * OpenTelemetry export on (`GEMINI_TELEMETRY_*`: OTLP over HTTP/JSON to a receiver on loopback), its
 * tools its own and those of a real MCP server over stdio (`mcp-fixture-server.mjs`: `lookup_contact`,
 * `send_email`). Every span and log record is the CLI's own.
 */

/** A token the user gives in the prompt (a canary: it must be printed nowhere). */
export const GEMINI_RUN_TOKEN = 'ghp_' + 'C4NARYgeminiCLIrunc4naryxyzw1234567';

/** One part of a scripted model reply: a call of a tool (by the end of the name the CLI declares it under), or text. */
export type ScriptedPart = { call: string; args: Record<string, unknown> } | { text: string };

export interface GeminiCliRunOptions {
  prompt: string;
  /** The model's replies to the agent's requests, in order (the last repeated): each a list of parts. */
  replies: readonly (readonly ScriptedPart[])[];
  /** Export spans too (`telemetry.traces`); off, Gemini CLI's default, it writes log records only, with no trace id. @default true */
  traces?: boolean;
  /** Files to write in the working directory first. */
  files?: Record<string, string>;
  /**
   * Write the telemetry to a local file (`GEMINI_TELEMETRY_OUTFILE`, the `telemetry.outfile`
   * setting Gemini CLI's docs suggest for local use) instead of exporting it over OTLP: the
   * OpenTelemetry SDK's span, log record and metric objects as indented JSON, one after another.
   * Its path is the run's `outfile`.
   */
  outfile?: boolean;
}

/** What a run wrote: OTLP JSON lines received over HTTP, or (with `outfile`) the CLI's own telemetry file. */
export interface GeminiCliRun {
  /** The OTLP JSON lines of its spans (one export request a line); undefined with `traces: false`. */
  traces?: string;
  /** The OTLP JSON lines of its log records (with `outfile`, none: an empty file). */
  logs: string;
  /** With `outfile`: the file the CLI wrote its telemetry to. */
  outfile?: string;
}

const here = dirname(fileURLToPath(import.meta.url));
const CLI = join(dirname(createRequire(import.meta.url).resolve('@google/gemini-cli/package.json')), 'bundle', 'gemini.js');
const MCP_SERVER = join(here, 'mcp-fixture-server.mjs');

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

const listen = (server: Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

/** The names of the functions a Gemini request declares. */
function declaredFunctions(request: string): string[] {
  const tools = (JSON.parse(request) as { tools?: { functionDeclarations?: { name: string }[] }[] }).tools ?? [];
  return tools.flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name));
}

/** Run the CLI once; returns the files its telemetry was written to. */
export async function recordGeminiCliRun(options: GeminiCliRunOptions): Promise<GeminiCliRun> {
  const exported: Record<'traces' | 'logs', string[]> = { traces: [], logs: [] };
  let turn = 0;
  const api = createServer((req, res) => {
    void body(req).then((request) => {
      const url = req.url ?? '';
      // The CLI's model router asks a small model (not streamed) how hard the prompt is: a simple one.
      if (!url.includes(':streamGenerateContent')) {
        const verdict = { reasoning: 'A short task.', complexity_score: 10, model_choice: 'flash' };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: JSON.stringify(verdict) }] }, finishReason: 'STOP', index: 0 }] }));
        return;
      }
      const declared = declaredFunctions(request);
      const script = options.replies[Math.min(turn++, options.replies.length - 1)]!;
      const parts = script.map((p) => {
        if ('text' in p) return { text: p.text };
        const name = declared.find((d) => d === p.call || d.endsWith(`_${p.call}`)) ?? p.call;
        return { functionCall: { name, args: p.args } };
      });
      const chunk = { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 10, totalTokenCount: 30 } };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    });
  });
  const collector = createServer((req, res) => {
    void body(req).then((message) => {
      if (req.url === '/v1/traces') exported.traces.push(message);
      else if (req.url === '/v1/logs') exported.logs.push(message);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  const [apiPort, collectorPort] = [await listen(api), await listen(collector)];
  const dir = mkdtempSync(join(tmpdir(), 'argspan-gemini-cli-'));
  const [home, work] = [join(dir, 'home'), join(dir, 'work')];
  mkdirSync(join(home, '.gemini'), { recursive: true });
  mkdirSync(work);
  const outfile = join(dir, 'gemini-telemetry.log');
  for (const [name, text] of Object.entries(options.files ?? {})) writeFileSync(join(work, name), text);
  writeFileSync(
    join(home, '.gemini', 'settings.json'),
    JSON.stringify({
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      mcpServers: { contacts: { command: process.execPath, args: [MCP_SERVER], trust: true } },
    }),
  );
  try {
    const child = spawn(process.execPath, [CLI, '-p', options.prompt, '--approval-mode', 'yolo'], {
      cwd: work,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        GEMINI_API_KEY: 'not-a-key',
        GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${apiPort}`,
        GEMINI_TELEMETRY_ENABLED: 'true',
        GEMINI_TELEMETRY_TRACES_ENABLED: String(options.traces ?? true),
        GEMINI_TELEMETRY_TARGET: 'local',
        ...(options.outfile
          ? { GEMINI_TELEMETRY_OUTFILE: outfile }
          : { GEMINI_TELEMETRY_OTLP_ENDPOINT: `http://127.0.0.1:${collectorPort}`, GEMINI_TELEMETRY_OTLP_PROTOCOL: 'http' }),
        GEMINI_TELEMETRY_LOG_PROMPTS: 'true',
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    if (code !== 0) throw new Error(`gemini exited with ${code}: ${output.slice(-2000)}`);
  } finally {
    api.close();
    collector.close();
  }
  const write = (name: string, messages: string[]) => {
    const file = join(dir, name);
    writeFileSync(file, messages.map((m) => JSON.stringify(JSON.parse(m))).join('\n') + '\n');
    return file;
  };
  if (options.outfile) return { logs: write('gemini.logs.jsonl', []), outfile };
  if (exported.logs.length === 0) throw new Error('the CLI exported no log records');
  const logs = write('gemini.logs.jsonl', exported.logs);
  if (options.traces === false) return { logs };
  if (exported.traces.length === 0) throw new Error('the CLI exported no spans');
  return { traces: write('gemini.traces.jsonl', exported.traces), logs };
}
