import { spawnSync } from 'node:child_process';
import type { SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * argspan installed as a user installs it before a registry release: every published workspace
 * packed with `npm pack` (scripts/pack.mjs), the tarballs installed into an empty project outside
 * this repository together with the user's own OpenTelemetry SDK and MCP packages, then used from
 * there — the instrumentation under the user's NodeTracerProvider, the MCP adapter against the real
 * filesystem server, the types from TypeScript, and `npx argspan classify` / `analyze`.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PROJECT_FILES = join(ROOT, 'test', 'install-project');
const LOCK = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };

/** The version this repository's lockfile installed, so the user project resolves the same release from npm's cache. */
function lockedVersion(name: string): string {
  const version = LOCK.packages[`node_modules/${name}`]?.version;
  if (version === undefined) throw new Error(`${name} is not in package-lock.json`);
  return version;
}

/** The environment without npm's per-run variables (vitest may run under `npm test`, inside the monorepo's workspace). */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && k !== 'INIT_CWD') env[k] = v;
  return env;
}

function run(cwd: string, command: string, args: string[], input?: string): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, env: cleanEnv(), encoding: 'utf8', input, timeout: 240_000, maxBuffer: 64 * 1024 * 1024 });
}

function ok(r: SpawnSyncReturns<string>, what: string): string {
  if (r.status !== 0) throw new Error(`${what} exited ${r.status ?? r.signal}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
  return r.stdout;
}

/** The `@opentelemetry/api` range the README's install lines give. */
const README_API_RANGE = '~1.9.0';

const lines = (s: string) => s.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

describe('argspan installed from its tarballs into a project outside the repository', () => {
  const work = mkdtempSync(join(tmpdir(), 'argspan-install-'));
  const tarballs = join(work, 'tarballs');
  const project = join(work, 'user-agent');
  let agentOutput = '';

  beforeAll(() => {
    const packed = ok(run(ROOT, process.execPath, [join(ROOT, 'scripts', 'pack.mjs'), tarballs]), 'scripts/pack.mjs').trim().split('\n');
    expect(packed.map((p) => p.slice(tarballs.length + 1)).sort()).toEqual([
      'argspan-0.1.0.tgz',
      'argspan-adapters-0.1.0.tgz',
      'argspan-analyzer-0.1.0.tgz',
      'argspan-conventions-0.1.0.tgz',
      'argspan-core-0.1.0.tgz',
      'argspan-hop-0.1.0.tgz',
      'argspan-instrumentation-0.1.0.tgz',
      'argspan-setup-0.1.0.tgz',
    ]);
    ok(run(work, 'mkdir', ['-p', project]), 'mkdir');
    // What the README tells a user to write: the tarballs as file: dependencies, next to their own packages.
    const dependencies: Record<string, string> = {};
    for (const file of readdirSync(tarballs)) {
      const name = file === 'argspan-0.1.0.tgz' ? 'argspan' : `@argspan/${file.slice('argspan-'.length, -'-0.1.0.tgz'.length)}`;
      dependencies[name] = `file:../tarballs/${file}`;
    }
    for (const name of ['@opentelemetry/sdk-trace-node', '@modelcontextprotocol/sdk', '@modelcontextprotocol/server-filesystem']) {
      dependencies[name] = lockedVersion(name);
    }
    // The API as the README's install line names it (a range: npm picks the newest release in it).
    dependencies['@opentelemetry/api'] = README_API_RANGE;
    const devDependencies = { typescript: lockedVersion('typescript'), '@types/node': lockedVersion('@types/node') };
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user-agent', private: true, type: 'module', dependencies, devDependencies }, null, 2));
    for (const f of ['agent.mjs', 'agent-types.ts', 'tsconfig.json']) copyFileSync(join(PROJECT_FILES, f), join(project, f));
    ok(run(project, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error']), 'npm install');
    // The agent runs once; the CLI tests below analyse the traces it wrote.
    agentOutput = ok(run(project, process.execPath, ['agent.mjs']), 'node agent.mjs');
  }, 600_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('installs no package whose engines exclude this Node', () => {
    const r = run(project, 'npm', ['ls', '--all', '--json']);
    expect(r.stderr).not.toMatch(/EBADENGINE/);
    expect(JSON.parse(r.stdout).dependencies.argspan.version).toBe('0.1.0');
  });

  it('ships no compiler cache, and no module whose source map points at a missing source', () => {
    const installed = ['argspan', ...readdirSync(join(project, 'node_modules', '@argspan')).map((n) => `@argspan/${n}`)];
    expect(installed).toHaveLength(8);
    for (const name of installed) {
      const dir = realpathSync(join(project, 'node_modules', name));
      const files = readdirSync(dir, { recursive: true, encoding: 'utf8' });
      expect(files.filter((f) => f.endsWith('.tsbuildinfo')), name).toEqual([]);
      for (const map of files.filter((f) => f.endsWith('.js.map'))) {
        const sources = (JSON.parse(readFileSync(join(dir, map), 'utf8')) as { sources: string[] }).sources;
        for (const source of sources) expect(existsSync(resolve(dir, dirname(map), source)), `${name}/${map} -> ${source}`).toBe(true);
      }
    }
  });

  it("gives a tree with every peer dependency met, with the README's OpenTelemetry API range", () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(`@opentelemetry/api@${README_API_RANGE}`);
    // An invalid or missing peer (an API release the SDK does not accept) makes `npm ls` fail.
    const r = run(project, 'npm', ['ls', '--all']);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/\binvalid\b|UNMET (?!OPTIONAL)/);
  });

  it("runs the instrumentation under the user's own NodeTracerProvider and the MCP adapter against the real server", () => {
    const out = lines(agentOutput);
    expect(out).toEqual([
      { name: 'calendar.create', outcome: 'held', question: expect.stringContaining('`timezone`') },
      { name: 'read notes', outcome: 'ran' },
      { name: 'read .env', outcome: 'denied', enforcement: 'deny' },
    ]);
    const traces = readdirSync(join(project, 'traces'));
    expect(traces.length).toBeGreaterThan(0);
    const written = traces.map((f) => readFileSync(join(project, 'traces', f), 'utf8')).join('');
    expect(written).toContain('"execute_tool read_text_file"');
    expect(written).toContain('"invoke_agent install-agent"');
    expect(written).not.toContain('hunter2-install-canary');
  });

  it('type-checks a TypeScript file against the published declarations', () => {
    ok(run(project, process.execPath, [join('node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json']), 'tsc');
  });

  it('runs npx argspan classify on recorded calls', () => {
    const transcript = readFileSync(join(ROOT, 'fixtures', 'calls', 'demo-transcript.jsonl'), 'utf8');
    const r = run(project, 'npx', ['--no-install', 'argspan', 'classify', '--fail-on-gate'], transcript);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1); // the third call bundles .env: denied
    const decided = lines(r.stdout);
    expect(decided).toHaveLength(transcript.trim().split('\n').length);
    expect(decided[2]).toMatchObject({ tool: 'code.review', residency: 'secret', enforcement: { action: 'deny' } });
  });

  it("runs npx argspan analyze on the agent's traces and on a shipped fixture", () => {
    const own = run(project, 'npx', ['--no-install', 'argspan', 'analyze', 'traces', '--format', 'json', '--fail-on', 'none']);
    expect(own.status, own.stderr).toBe(0);
    const report = JSON.parse(own.stdout) as { findings: { rule: string; tool: string | null; key: string | null }[]; stats: Record<string, number> };
    // 1 turn + 3 calls + their 5 argument spans; the one finding is the held guess (info).
    expect(report.stats.spans).toBe(9);
    expect(report.findings.map((f) => [f.rule, f.tool, f.key])).toEqual([['held_assumption', 'calendar.create', 'timezone']]);

    copyFileSync(join(ROOT, 'fixtures', 'traces', 'dotenv.jsonl'), join(project, 'dotenv.jsonl'));
    const fixture = run(project, 'npx', ['--no-install', 'argspan', 'analyze', 'dotenv.jsonl']);
    expect(fixture.status).toBe(1);
    expect(fixture.stdout).toMatch(/critical\s+credential_in_attribute\s+summarise/);
  });

  it("runs the GitHub Actions example's argspan steps as written", () => {
    const workflow = parse(readFileSync(join(ROOT, 'examples', 'github-actions', 'agent-tool-calls.yml'), 'utf8')) as {
      jobs: Record<string, { steps: { name?: string; run?: string }[] }>;
    };
    const steps = Object.values(workflow.jobs).flatMap((j) => j.steps).filter((s) => s.run?.includes('argspan'));
    expect(steps.map((s) => s.name)).toEqual(['Gate on assumption spans and leaks', 'SARIF for code scanning', 'JUnit for the checks tab']);
    for (const step of steps) {
      expect(step.run).toMatch(/^npx --no-install argspan /); // never fetches an unreleased package from the registry
      const r = run(project, 'bash', ['-eo', 'pipefail', '-c', step.run!]);
      expect(r.status, `${step.name}: ${r.stderr}`).toBe(0); // the agent's one finding is info, under --fail-on high
    }
    const sarif = JSON.parse(readFileSync(join(project, 'argspan.sarif'), 'utf8')) as { runs: { results: { ruleId: string }[] }[] };
    expect(sarif.runs[0]!.results.map((r) => r.ruleId)).toEqual(['held_assumption']);
    expect(readFileSync(join(project, 'argspan-junit.xml'), 'utf8')).toMatch(/^<\?xml/);
  });
});
