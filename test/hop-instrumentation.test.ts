import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CallAttributes, HopEvents, OtelAttributes } from '@argspan/conventions';
import { createHopRunner, createHttpSender, createRemoteHop, HopDeferredError, HopTransportError } from '@argspan/hop';
import type { HopSend } from '@argspan/hop';
import type { RemoteHop } from '@argspan/instrumentation';
import { ArgspanRefusedError, instrumentDispatch } from '@argspan/instrumentation';
import type { IdempotentServer } from '../packages/hop/src/testing/idempotent-server.js';
import { closedPort, startIdempotentServer } from '../packages/hop/src/testing/idempotent-server.js';
import { filesContaining } from '../packages/hop/src/testing/state-files.js';
import { REMOTE_HOP_EVENTS } from '../packages/hop/src/testing/event-sequences.js';

// The hop protocol plugged into the instrumentation's wrapper: a `remote-ok` call runs through
// checkpoint → probe → lease → send → checkpoint → release, recorded on its execute_tool span.
let dir: string;
let server: IdempotentServer;
let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;
const key = randomBytes(32);
const CANARY = 'AKIA' + 'HOPWIRECANARYQZX';
const big = `${'public release notes, '.repeat(500)}`; // bulky public: may go remote

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hop-inst-'));
  server = await startIdempotentServer({ responseSuffix: ` ${CANARY}` });
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
});
afterEach(async () => {
  await provider.shutdown();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function setup(probePort: number, send: HopSend = createHttpSender({ url: server.url })) {
  const runner = createHopRunner({ stateDir: dir, runId: 'agent-run', probe: { host: '127.0.0.1', port: probePort, timeoutMs: 5000 } });
  const remote: RemoteHop = createRemoteHop(runner, { send, decode: (body) => ({ remote: body }) });
  const local = vi.fn(async () => 'ran locally');
  const run = instrumentDispatch(local, { tracerProvider: provider, hashKey: key, policy: { remoteAllowlist: ['summarise'] }, remote });
  return { runner, run, local };
}

describe('@argspan/hop inside the instrumentation wrapper', () => {
  it('runs a remote-ok call through the protocol and records every step on the execute_tool span', async () => {
    const { run, local } = setup(server.port);
    // a secret in the arguments: the gate denies the call (its result would reach the model), the hop never starts
    await expect(run('summarise', { text: big, note: `with ${CANARY}` })).rejects.toBeInstanceOf(ArgspanRefusedError);
    expect(server.received).toHaveLength(0);
    exporter.reset();
    const result = await run('summarise', { text: big });
    expect(result).toEqual({ remote: `applied 1 ${CANARY}` }); // the caller gets the real answer in memory
    expect(local).toHaveBeenCalledTimes(0);
    const span = exporter.getFinishedSpans().find((s) => s.name === 'execute_tool summarise')!;
    expect(span.attributes[CallAttributes.VERDICT]).toBe('remote-ok');
    expect(span.attributes[CallAttributes.HOP_REMOTE]).toBe(true);
    expect(span.events.map((e) => e.name)).toEqual(REMOTE_HOP_EVENTS);
    const exported = JSON.stringify(exporter.getFinishedSpans().map((s) => ({ a: s.attributes, e: s.events })));
    const idemKey = server.keysSeen[0]!;
    expect(exported).not.toContain(idemKey.slice(0, 16));
    expect(exported).not.toContain(CANARY);
    expect(server.received.join('\n')).not.toContain(CANARY); // redacted before it left
    expect(filesContaining(dir, [CANARY])).toEqual([]);
  });

  it('queues a remote-ok call when the host is down, fails the span loudly, and drains it later once', async () => {
    const { runner, run } = setup(await closedPort());
    const err = await run('summarise', { text: big }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HopDeferredError);
    expect((err as HopDeferredError).decision).toBe('queue');
    const span = exporter.getFinishedSpans().find((s) => s.name === 'execute_tool summarise')!;
    expect(span.attributes[OtelAttributes.ERROR_TYPE]).toBe('HopDeferredError');
    expect(span.events.map((e) => e.name)).toContain(HopEvents.QUEUE_ENQUEUED);
    expect(server.received).toHaveLength(0);
    const report = await runner.drainQueue({ send: createHttpSender({ url: server.url }), probe: { host: '127.0.0.1', port: server.port } });
    expect(report.drained).toHaveLength(1);
    expect([...server.sideEffects.values()]).toEqual([1]);
  });

  it('an agent restarted mid-hop re-issues its call: same step, same key, one side effect', async () => {
    const http = createHttpSender({ url: server.url });
    let crash = false;
    const flaky: HopSend = async (req) => {
      const res = await http(req);
      if (crash) throw new Error('process died before the answer was checkpointed');
      return res;
    };
    const first = setup(server.port, flaky);
    await first.run('summarise', { text: big });
    crash = true;
    // a custom sender's own error is a transport error: outcome unknown, the retry uses the same key
    await expect(first.run('summarise', { text: big + ' part two' })).rejects.toBeInstanceOf(HopTransportError);
    const again = setup(server.port); // a new process on the same state directory resumes at step 1
    expect(await again.run('summarise', { text: big + ' part two' })).toEqual({ remote: `applied 2 ${CANARY}` });
    expect(server.sideEffects.size).toBe(2);
    expect([...server.sideEffects.values()]).toEqual([1, 1]);
    expect(server.keysSeen[1]).toBe(server.keysSeen[2]);
  });
});
