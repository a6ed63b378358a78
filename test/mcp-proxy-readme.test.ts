/**
 * The READMEs' `mcpServers` snippets, run as a desktop client would run them (the SDK's Client over
 * stdio), with only the two placeholder folders filled in; and the `--help` output the CLI README
 * shows, against the real one.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { makeCanary } from '../packages/adapters/test-support/fixtures.js';
import { CLI_BIN, readFileSpans, resultText, toolSpans } from './support/mcp-proxy.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const READMES = ['README.md', 'packages/cli/README.md'];

interface Entry {
  command: string;
  args: string[];
}

/** Every `mcpServers` entry in a README's JSON code blocks. */
function snippets(readme: string): Entry[] {
  const text = readFileSync(join(ROOT, readme), 'utf8');
  return [...text.matchAll(/```json\n([\s\S]*?)```/g)]
    .map((m) => JSON.parse(m[1]!) as { mcpServers?: Record<string, Entry> })
    .flatMap((doc) => Object.values(doc.mcpServers ?? {}));
}

describe('the README mcpServers snippets', () => {
  const entries = READMES.flatMap((r) => snippets(r).map((e) => ({ readme: r, ...e })));

  it('are there: the checkout snippet in both READMEs, the release one in the CLI README', () => {
    expect(entries.map((e) => `${e.readme}: ${e.command}`)).toEqual(['README.md: node', 'packages/cli/README.md: node', 'packages/cli/README.md: npx']);
    expect(entries[0]!.args).toEqual(entries[1]!.args);
  });

  for (const entry of entries.slice(1)) {
    it(`runs "${entry.command} ${entry.args.slice(0, 3).join(' ')} …" as written: the filesystem server behind the proxy`, async () => {
      const home = mkdtempSync(join(tmpdir(), 'argspan-readme-home-'));
      const projects = join(home, 'projects');
      mkdirSync(projects);
      const canary = makeCanary();
      writeFileSync(join(projects, 'notes.md'), 'Ship the parser on Thursday.\n');
      writeFileSync(join(projects, '.env'), `OPENAI_API_KEY=${canary}\n`);
      const args = entry.args.map((a) => a.replace('/path/to/argspan', ROOT.replace(/\/$/, '')).replace('/Users/you/projects', projects));
      // The client's own environment, with HOME moved so the default ~/.argspan lands in the test's folder.
      const transport = new StdioClientTransport({ command: entry.command, args, cwd: ROOT, env: { ...getDefaultEnvironment(), HOME: home }, stderr: 'pipe' });
      const client = new Client({ name: 'claude-ai', version: '0.14.0' });
      try {
        await client.connect(transport);
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('read_text_file');
        expect(resultText(await client.callTool({ name: 'read_text_file', arguments: { path: join(projects, 'notes.md') } }))).toBe('Ship the parser on Thursday.\n');
        const env = await client.callTool({ name: 'read_text_file', arguments: { path: join(projects, '.env') } });
        expect(env.isError).toBe(true);
        expect(resultText(env)).toContain('rule secret-file-name at path');
        expect(resultText(env)).not.toContain(canary);
      } finally {
        await client.close();
      }
      const traces = join(home, '.argspan', 'traces');
      for (let i = 0; i < 100 && readFileSpans(traces).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      const reads = toolSpans(readFileSpans(traces), 'read_text_file');
      expect(reads.map((s) => s.attributes['argspan.enforcement'])).toEqual(['run', 'deny']);
      const analyzed = spawnSync(process.execPath, [CLI_BIN, 'analyze', traces, '--fail-on', 'high'], { encoding: 'utf8' });
      expect(analyzed.status, analyzed.stderr).toBe(0);
      rmSync(home, { recursive: true, force: true });
    }, 120_000);
  }
});

describe('argspan mcp-proxy --help in the CLI README', () => {
  it('is what the command prints', () => {
    const readme = readFileSync(join(ROOT, 'packages/cli/README.md'), 'utf8');
    const shown = /### `argspan mcp-proxy --help`\n\n```\n([\s\S]*?)```/.exec(readme)?.[1];
    const printed = spawnSync(process.execPath, [CLI_BIN, 'mcp-proxy', '--help'], { encoding: 'utf8' });
    expect(printed.status).toBe(0);
    expect(shown?.trimEnd()).toBe(printed.stdout.trimEnd());
  });
});
