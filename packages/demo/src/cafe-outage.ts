import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnDemoChild, type DemoChild } from './child.js';

const script = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));

export interface CafeOutageOptions {
  tracesDir: string;
  hashKey: Buffer;
  out: (line?: string) => void;
}

export interface CafeOutageResult {
  requests: number;
  sideEffects: number;
}

/**
 * Scene 3. A remote overflow hop to a loopback model server that dies mid-flight; the agent
 * process is killed; both restart; the agent replays from its checkpoint under the same
 * idempotency key and the server performs exactly one side effect.
 */
export async function runCafeOutage({ tracesDir, hashKey, out }: CafeOutageOptions): Promise<CafeOutageResult> {
  out('3. The café outage: a remote overflow hop, a server that dies mid-flight, an agent killed mid-hop');
  const tmp = mkdtempSync(join(tmpdir(), 'argspan-demo-cafe-'));
  const stateDir = join(tmp, '.loop-state');
  const ledger = join(tmp, 'side-effects.jsonl');
  const runId = 'demo-cafe-outage';
  const children: DemoChild[] = [];
  const start = (name: string, args: string[]) => {
    const c = spawnDemoChild(script(name), args);
    children.push(c);
    return c;
  };
  const agentArgs = (port: unknown) => [stateDir, tracesDir, String(port), runId, hashKey.toString('hex')];
  try {
    const flaky = start('model-server.js', [ledger, '--die-mid-flight']);
    const { port } = await flaky.waitFor((e) => 'port' in e);
    const agent = start('cafe-agent.js', agentArgs(port));
    const boot1 = await agent.waitFor((e) => e.event === 'boot');
    out(`   agent boots with no checkpoint (${String(boot1.checkpoint)}); gate: model.summarise is bulky-public and allowlisted → remote hop`);
    await flaky.waitFor((e) => e.event === 'died-mid-flight');
    await flaky.exited;
    out('   model server performed the request, then died before answering');
    await agent.kill('SIGKILL');
    out('   agent process killed mid-hop (SIGKILL): no answer, lease and checkpoint left on disk');

    const server = start('model-server.js', [ledger]);
    const { port: port2 } = await server.waitFor((e) => 'port' in e);
    const again = start('cafe-agent.js', agentArgs(port2));
    const boot2 = await again.waitFor((e) => e.event === 'boot');
    out(`   agent restarts: boot replays from the checkpoint (phase ${String(boot2.checkpoint)}, step ${String(boot2.resumeStep)}), not from chat history`);
    const done = await again.waitFor((e) => e.event === 'result' || e.event === 'hop-failed', 30_000);
    await again.exited;
    if (done.event !== 'result') throw new Error(`café agent failed after restart: ${String(done.error)}`);
    out(`   hop completed: ${String(done.summary)}`);
    await server.kill('SIGTERM');

    const requests = [flaky, server].flatMap((c) => c.events).filter((e) => e.event === 'request').length;
    const sideEffects = readFileSync(ledger, 'utf8').split('\n').filter((l) => l.trim() !== '').length;
    out(`   model server: ${requests} requests under one idempotency key, ${sideEffects} side effect${sideEffects === 1 ? '' : 's'}`);
    return { requests, sideEffects };
  } finally {
    await Promise.all(children.map((c) => c.kill('SIGKILL')));
    rmSync(tmp, { recursive: true, force: true });
  }
}
