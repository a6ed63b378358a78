/**
 * The café outage's agent, run as a child process so it can be killed mid-hop:
 * `node cafe-agent.js <state-dir> <traces-dir> <server-port> <run-id> <hash-key-hex>`.
 *
 * It asks argspan to run one `model.summarise` call over bulky public notes. The gate says
 * remote-ok, so the call goes through the write-ahead hop protocol: checkpoint, probe, lease, send
 * with an idempotency key, checkpoint the result, release. Prints one JSON line per milestone.
 */
import { ArgspanInstrumentation, ArgspanSession } from '@argspan/instrumentation';
import { setupTracing } from '@argspan/setup';
import { createHopRunner, createHttpSender, createRemoteHop } from '@argspan/hop';
import { DEMO_NOTES, SUMMARISE_TOOL } from './cafe-notes.js';

const [stateDir, tracesDir, portText, runId, keyHex] = process.argv.slice(2);
if (!stateDir || !tracesDir || !portText || !runId || !keyHex) {
  process.stderr.write('usage: cafe-agent <state-dir> <traces-dir> <server-port> <run-id> <hash-key-hex>\n');
  process.exit(2);
}
const port = Number(portText);
const say = (o: Record<string, unknown>) => process.stdout.write(JSON.stringify(o) + '\n');

const tracing = setupTracing({
  serviceName: 'argspan-demo-cafe-agent',
  exporter: process.env.OTEL_EXPORTER_OTLP_ENDPOINT ? 'both' : 'file',
  file: { directory: tracesDir, prefix: `cafe-${process.pid}` },
  // Small batches, flushed often: this process may be killed at any moment.
  batch: { scheduledDelayMillis: 50 },
});

const hashKey = Buffer.from(keyHex, 'hex');
const runner = createHopRunner({
  stateDir,
  runId,
  goal: 'summarise the parser design notes',
  probe: { host: '127.0.0.1', port, timeoutMs: 150 },
  hashKey,
  leaseTtlMs: 5_000,
});
const boot = await runner.boot();
say({ event: 'boot', resumeStep: boot.resumeStep, checkpoint: boot.checkpoint?.phase ?? 'none' });

const instrumentation = new ArgspanInstrumentation({
  hashKey,
  session: new ArgspanSession({ runId, userText: 'Summarise the parser design notes while I am offline at the café' }),
  policy: { remoteAllowlist: [SUMMARISE_TOOL] },
  remote: createRemoteHop(runner, { send: createHttpSender({ url: `http://127.0.0.1:${port}/v1/summarise`, timeoutMs: 5_000 }) }),
});
const dispatch = instrumentation.wrapDispatch(() => {
  throw new Error('no local summariser on this laptop');
});

try {
  const result = (await dispatch(SUMMARISE_TOOL, { text: DEMO_NOTES }, { callId: 'call_summarise_1' })) as { summary?: string };
  say({ event: 'result', summary: result.summary ?? null });
} catch (err) {
  say({ event: 'hop-failed', error: err instanceof Error ? err.name : 'unknown' });
  process.exitCode = 1;
} finally {
  await tracing.shutdown();
}
