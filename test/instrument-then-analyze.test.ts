import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '@argspan/analyzer';
import { ArgspanClarificationError, ArgspanInstrumentation, ArgspanSession, FileSpanExporter } from '@argspan/instrumentation';

// The contract end to end: what the real instrumentation writes with its file exporter is what the
// analyzer reads, and the analyzer finds exactly the assumption the gate caught — no more.
const dir = mkdtempSync(join(tmpdir(), 'argspan-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CANARY = `sk-proj-${'E2Ecanary'.repeat(5)}`;

async function recordRun(): Promise<void> {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new FileSpanExporter({ directory: join(dir, 'traces') }))] });
  const session = new ArgspanSession({ runId: 'run-e2e', userText: 'Set up a 30 minute Q3 roadmap sync with Kenji Sato next Tuesday 10:00' });
  const inst = new ArgspanInstrumentation({ tracerProvider: provider, hashKey: Buffer.alloc(32, 3), session, policy: { remoteAllowlist: ['model.summarise'] } });
  const tools: Record<string, (args: Record<string, unknown>) => unknown> = {
    'contacts.lookup': () => ({ name: 'Kenji Sato', email: 'kenji.sato@example.co.jp', office: 'Tokyo' }),
    'fs.read': () => `OPENAI_API_KEY=${CANARY}\n`,
    'calendar.create': () => ({ ok: true }),
  };
  const run = inst.wrapDispatch((tool, args) => tools[tool]!(args as Record<string, unknown>));
  const turn = provider.getTracer('agent').startSpan('agent turn');
  await context.with(trace.setSpan(context.active(), turn), async () => {
    await run('contacts.lookup', { name: 'Kenji Sato' }, { callId: 'call_1' });
    await run('fs.read', { path: '.env' }, { callId: 'call_2' }); // secret: kept local, still runs here
    const err = await run(
      'calendar.create',
      { title: 'Q3 roadmap sync', when: 'next Tuesday 10:00', timezone: 'Asia/Tokyo', attendee: { name: 'Kenji Sato', email: 'kenji.sato@example.co.jp' } },
      { callId: 'call_3' },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ArgspanClarificationError);
  });
  turn.end();
  await provider.forceFlush();
  await provider.shutdown();
}

describe('instrumentation → file exporter → analyzer', () => {
  it('finds exactly the assumption the gate caught, and no leak', async () => {
    await recordRun();
    const files = readdirSync(join(dir, 'traces'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(readFileSync(join(dir, 'traces', f), 'utf8')).not.toContain(CANARY);

    const result = await analyze({ paths: [join(dir, 'traces')], remoteAllowlist: ['model.summarise'] });
    expect(result.stats.malformed_lines).toBe(0);
    expect(result.stats.spans).toBe(1 + 3 + 1 + 1 + 5); // turn + 3 tool spans + their argument spans
    const byRule = result.findings.map((f) => `${f.rule} ${f.tool} ${f.key}`);
    expect(byRule).toEqual(['assumption_span calendar.create timezone']);
    expect(JSON.stringify(result)).not.toContain(CANARY);
  });
});
