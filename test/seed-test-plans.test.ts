import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ArgAttributes } from '@argspan/conventions';
import { classifyCall, type CallClassification, type CallContext, type DirtySet } from '@argspan/core';
import { createHopRunner, decide, type Clock, type HopSend, type QueueItem } from '@argspan/hop';
import { ArgspanClarificationError, ArgspanSession, instrumentDispatch } from '@argspan/instrumentation';
import { memoryTracing } from '../packages/instrumentation/test-support/tracing.js';
import { decodeRecord } from '../packages/hop/src/record.js';
import { filesContaining, listFilesDeep } from '../packages/hop/src/testing/state-files.js';

// The three seeds' test plans, ported literally: each `it` is one of the seed's checks, named as
// the seed names it, asserting what the seed asserts — through argspan's public API, and for seeds
// 000 and 002 also through the real `argspan classify` binary. Where argspan deliberately differs
// from a seed's sketch, the test says how, and shows the seed's assertion still holds.

const BIN = fileURLToPath(new URL('../packages/cli/bin/argspan.js', import.meta.url));

/** `argspan classify` on recorded calls: one JSON answer per line. */
function classifyCli(lines: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const r = spawnSync(process.execPath, [BIN, 'classify'], { input: lines.map((l) => JSON.stringify(l)).join('\n') + '\n', encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('seed 000: test_tool_arg_gate.py', () => {
  // DIRTY = ("src/config.py",); ALLOW = frozenset({"format_public_corpus", "summarize_docs"})
  const DIRTY = ['src/config.py'];
  const ALLOW = ['format_public_corpus', 'summarize_docs'];
  const dirtySet: DirtySet = { root: '/home/dev/project', paths: new Set(DIRTY), prefixes: [], lines: new Set() };
  /** The seed's `decide(tool_name, arguments, dirty_prefixes, remote_allowlist)`: action is argspan's verdict, label its residency. */
  const decideApi = (tool: string, args: Record<string, unknown>) => {
    const c = classifyCall({ tool, args }, {}, { dirty: dirtySet, remoteAllowlist: ALLOW });
    return { action: c.verdict, label: c.residency };
  };
  const calls = [
    { tool: 'read_file', args: { path: '/home/dev/project/.env' } },
    { tool: 'apply_patch', args: { path: 'src/config.py', diff: '@@' } },
    { tool: 'run_terminal', args: { cmd: 'ls' } },
    { tool: 'summarize_docs', args: { text: 'A'.repeat(9000) } },
  ];
  const cli = classifyCli(calls.map((c) => ({ ...c, dirty: DIRTY, remote_allowlist: ALLOW })));
  const decideCli = (i: number) => ({ action: cli[i]!.verdict, label: cli[i]!.residency });

  for (const [name, i, check] of [
    ['test_dotenv_stays_local', 0, (v: { action: unknown; label: unknown }) => v.action === 'local' && v.label === 'secret'],
    ['test_uncommitted_path_stays_local', 1, (v: { action: unknown; label: unknown }) => v.action === 'local' && v.label === 'dirty-tree'],
    ['test_unknown_tool_is_refused', 2, (v: { action: unknown; label: unknown }) => v.action === 'refuse'],
    ['test_sanitized_docs_may_go_remote', 3, (v: { action: unknown; label: unknown }) => v.action === 'remote-ok' && v.label === 'bulky-public'],
  ] as const) {
    it(name, () => {
      const { tool, args } = calls[i]!;
      expect(check(decideApi(tool, args)), 'public API').toBe(true);
      expect(check(decideCli(i)), 'argspan classify').toBe(true);
    });
  }
});

describe('seed 001: loop_lease.test.js', () => {
  const dir = mkdtempSync(join(tmpdir(), 'argspan-seed001-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let wall = 1_000;
  const clock: Clock = { now: () => wall, monotonic: () => wall, sleep: async (ms) => void (wall += ms) };
  let probeOk = true;
  const options = { stateDir: dir, clock, leaseTtlMs: 20_000, leaseWaitMs: 0, probe: async () => ({ ok: probeOk, rttMs: probeOk ? 40 : 150, reason: 'connect' as const }) };
  const send: HopSend = vi.fn(async () => ({ status: 200, body: 'ok' }));

  it('runs the seed\'s assert sequence through @argspan/hop', async () => {
    // const step = checkpoint({ goal: "summarize README; token=ghp_example", index: 0, ... forbidRemoteSecrets: true });
    const runner = createHopRunner({ ...options, goal: 'summarize README; token=ghp_example' });
    const step = await runner.recordLocalResult({ step: 0, output: '', flags: { localOnly: false, forbidRemoteSecrets: true } });
    // assert.match(step.goal, /\[REDACTED\]/) — argspan's marker names the rule ([REDACTED:credential-assignment]).
    expect(step.goal).toMatch(/\[REDACTED[\]:]/);
    expect(step.goal).not.toContain('ghp_example');

    // assert.equal(decide(step, { ok: true, rttMs: 40 }, null), "local");
    const secretsLeft = false; // after redaction nothing credential-shaped is left in the goal
    expect(decide({ index: 0, forbidRemoteSecrets: true, secretsLeft }, { ok: true }, { live: false }).decision).toBe('local');

    // const item = queueHop("explain the gate; api_key=abcd"); assert.equal(item.body.includes("abcd"), false);
    probeOk = false;
    const queued = await runner.runHop({ step: { index: 1, needRemoteCapacity: true }, payload: 'explain the gate; api_key=abcd', send });
    expect(queued.decision).toBe('queue');
    // The item's body is checked as the seed checks it. The state files are grepped for needles
    // that cannot occur by chance: 'abcd' alone turns up in the records' random hex hashes.
    const items = listFilesDeep(join(dir, 'queue')).filter((f) => f.endsWith('.item.rec'));
    expect(items).toHaveLength(1);
    const item = decodeRecord<QueueItem>('queue-item', readFileSync(items[0]!), () => undefined);
    expect(item.ok && item.body.body.includes('explain the gate')).toBe(true);
    expect(item.ok && item.body.body.includes('abcd')).toBe(false);
    expect(filesContaining(dir, ['api_key=abcd', '=abcd', 'ghp_example'])).toEqual([]);

    // assert.equal(decide(step, { ok: false, rttMs: 150 }, null), "queue");
    // The seed's sketch would answer "local" here (its forbidRemoteSecrets rule fires on any
    // redaction marker, before the probe). argspan keeps a step local only for secrets *left after*
    // redaction, so a redacted step waits in the queue, as the seed's assertion expects.
    expect(decide({ index: 0, forbidRemoteSecrets: true, secretsLeft }, { ok: false }, { live: false }).decision).toBe('queue');

    // const remoteStep = { ...step, forbidRemoteSecrets: false, needRemoteCapacity: true };
    // assert.equal(decide(remoteStep, { ok: true, rttMs: 40 }, null), "remote");
    const remoteStep = { index: 2, forbidRemoteSecrets: false, needRemoteCapacity: true };
    expect(decide({ ...remoteStep, secretsLeft }, { ok: true }, { live: false }).decision).toBe('remote');

    // const lease = takeLease(item, 1_000); assert.equal(leaseAlive(lease, 1_500), true); assert.equal(leaseAlive(lease, 30_000), false);
    wall = 1_000;
    const lease = await runner.tryAcquireLease(queued.fingerprint);
    expect(lease).toBeDefined();
    wall = 1_500;
    expect((await runner.inspectLease()).status).toBe('live');
    // assert.equal(decide(remoteStep, { ok: true, rttMs: 40 }, lease, 1_500), "wait"); — and a second
    // process's runHop for the same work waits instead of opening a second remote call.
    expect(decide({ ...remoteStep, secretsLeft }, { ok: true }, { live: true }).decision).toBe('wait');
    probeOk = true;
    const other = createHopRunner(options);
    expect((await other.runHop({ step: remoteStep, payload: 'explain the gate', send })).decision).toBe('wait');
    expect(send).not.toHaveBeenCalled();
    wall = 30_000;
    expect((await runner.inspectLease()).status).toBe('free');
  });
});

describe('seed 002: the provenance test plan', () => {
  // The walkthrough fixture: "Book a follow-up with Priya tomorrow morning."
  const args = { title: 'Follow-up with Priya', when: 'tomorrow morning', attendee: { name: 'Priya' }, timezone: 'UTC' };
  const blobs = ['calendar connected', 'Priya is on the support roster'];
  const userText = 'Book a follow-up with Priya tomorrow morning.';
  const source = (c: CallClassification, key: string) => c.leaves.find((l) => l.key === key)?.provenance;
  const recorded = (ctx: CallContext & { schemaDefaults?: Record<string, unknown> }, a: Record<string, unknown> = args) => ({
    tool: 'calendar.create',
    args: a,
    user_text: ctx.userText,
    context: ctx.context,
    schema_defaults: ctx.schemaDefaults ?? {},
  });
  const checks: [string, CallContext & { schemaDefaults?: Record<string, unknown> }, Record<string, unknown>, (c: { key: (k: string) => unknown; hits: unknown }) => void][] = [
    ['walkthrough: exactly one blocked path, calendar.create.timezone', { userText, context: blobs }, args, (c) => {
      expect(c.hits).toEqual(['calendar.create.timezone']);
      for (const k of ['title', 'attendee.name', 'when']) expect(c.key(k)).toBe('user_explicit');
    }],
    ['1. User mentions UTC. Expect user_explicit for timezone.', { userText: 'Book a follow-up with Priya tomorrow morning at 9:00 UTC.', context: blobs }, args, (c) => {
      expect(c.key('timezone')).toBe('user_explicit');
    }],
    ['2. User omits timezone. Expect model_inferred and a gate hit.', { userText, context: blobs }, args, (c) => {
      expect(c.key('timezone')).toBe('model_inferred');
      expect(c.hits).toContain('calendar.create.timezone');
    }],
    ['3. Schema default is UTC. Expect schema_default, not a guess.', { userText, context: blobs, schemaDefaults: { timezone: 'UTC' } }, args, (c) => {
      expect(c.key('timezone')).toBe('schema_default');
    }],
    ['4. Retrieved memory contains Asia/Tokyo. Expect context_retrieved if copied.', { userText, context: [...blobs, 'Priya works from Asia/Tokyo'] }, { ...args, timezone: 'Asia/Tokyo' }, (c) => {
      expect(c.key('timezone')).toBe('context_retrieved');
    }],
    ['5. Nested attendee.email is guessed. Expect a gate hit.', { userText: 'Book a follow-up with Priya tomorrow morning at 9:00 UTC.', context: blobs }, { ...args, attendee: { name: 'Priya', email: 'priya@example.com' } }, (c) => {
      expect(c.hits).toEqual(['calendar.create.attendee.email']);
    }],
  ];
  const cli = classifyCli(checks.map(([, ctx, a]) => recorded(ctx, a)));

  checks.forEach(([name, ctx, a, check], i) => {
    it(name, () => {
      const c = classifyCall({ tool: 'calendar.create', args: a }, ctx);
      check({ key: (k) => source(c, k), hits: c.gate.hits });
      const line = cli[i] as { gate: { hits: string[] }; args: { key: string; provenance: string }[] };
      check({ key: (k) => line.args.find((l) => l.key === k)?.provenance, hits: line.gate.hits });
    });
  });

  /** The walkthrough through the instrumentation with excerpts on: its argument spans, by key. */
  async function argSpansOfRun(): Promise<Map<string, Record<string, unknown>>> {
    const { provider, spans } = memoryTracing();
    const run = instrumentDispatch(vi.fn(), { tracerProvider: provider, hashKey: Buffer.alloc(32, 2), excerpts: true, session: new ArgspanSession({ userText }) });
    await expect(run('calendar.create', args)).rejects.toBeInstanceOf(ArgspanClarificationError);
    return new Map(spans().filter((s) => s.name.startsWith('tool_arg ')).map((s) => [String(s.attributes[ArgAttributes.KEY]), s.attributes as Record<string, unknown>]));
  }

  it('6. Excerpt must not appear in the hashed column.', async () => {
    const spans = await argSpansOfRun();
    const title = spans.get('title')!;
    expect(title[ArgAttributes.EXCERPT]).toBe('Follow-up with Priya');
    for (const s of spans.values()) {
      const hash = String(s[ArgAttributes.VALUE_HASH]);
      expect(hash).toMatch(/^[0-9a-f]{32}$/);
      for (const value of Object.values({ ...args, ...args.attendee })) expect(hash).not.toContain(String(value));
      if (s[ArgAttributes.EXCERPT] !== undefined) expect(hash).not.toContain(String(s[ArgAttributes.EXCERPT]));
    }
    // The CLI prints labels only: no excerpt, no value.
    expect(JSON.stringify(cli)).not.toContain('Follow-up with Priya');
  });

  it('7. Two runs with the same args share the same value_hash.', async () => {
    const first = await argSpansOfRun();
    const second = await argSpansOfRun();
    expect(first.size).toBe(4);
    for (const [key, s] of first) expect(second.get(key)![ArgAttributes.VALUE_HASH], key).toBe(s[ArgAttributes.VALUE_HASH]);
  });
});
