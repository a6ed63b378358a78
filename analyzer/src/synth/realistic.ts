import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { EventAttributes, HopEvents, type Provenance, type Residency } from '@argspan/conventions';
import { ArgspanTraceBuilder, type ArgSpec } from './argspan-trace.js';

const TOOLS = [
  { tool: 'calendar.create', keys: ['title', 'start', 'end', 'timezone', 'attendee.email', 'attendee.name', 'location'] },
  { tool: 'mail.send', keys: ['to', 'subject', 'body', 'cc[0]', 'cc[1]'] },
  { tool: 'fs.read', keys: ['path', 'encoding'] },
  { tool: 'summarise', keys: ['text', 'max_words', 'language', 'files[0].path', 'files[1].path', 'files[2].path'] },
  { tool: 'payments.quote', keys: ['account_id', 'price', 'currency', 'memo'] },
] as const;
const PROVENANCE: Provenance[] = ['user_explicit', 'user_explicit', 'user_explicit', 'context_retrieved', 'schema_default', 'model_inferred'];
const RESIDENCY: Residency[] = ['tiny-public', 'tiny-public', 'tiny-public', 'bulky-public', 'unknown'];
const DENYLISTED = new Set(['timezone', 'attendee.email', 'to', 'account_id', 'price', 'currency']);

/** Small deterministic PRNG (mulberry32), so a benchmark run is reproducible. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Write about `spanTarget` spans of realistic argspan traces to `file` as OTLP JSON lines
 * (one turn span, 1–3 tool calls with their argument spans and hop events per trace, 200 spans
 * per line like a batching exporter). Returns the number of spans written.
 */
export async function writeRealisticTraces(file: string, spanTarget: number, seed = 7): Promise<number> {
  const rand = rng(seed);
  const out = createWriteStream(file);
  let written = 0;
  let run = 0;
  while (written < spanTarget) {
    const b = new ArgspanTraceBuilder(seed * 100_000 + run + 1, 1_764_460_800_000_000_000n + BigInt(run) * 1_000_000_000n);
    for (let t = 0; t < 50 && written + b.spans.length < spanTarget; t++) {
      const runId = `run-${seed}-${run}`;
      const turn = b.turn(`turn ${t}`, runId);
      const calls = 1 + Math.floor(rand() * 3);
      let previous: { traceId: string; spanId: string } | undefined;
      for (let c = 0; c < calls; c++) {
        const def = TOOLS[Math.floor(rand() * TOOLS.length)]!;
        const args: ArgSpec[] = def.keys.map((key) => {
          let provenance = PROVENANCE[Math.floor(rand() * PROVENANCE.length)]!;
          if (provenance === 'context_retrieved' && !previous) provenance = 'user_explicit';
          return {
            key,
            provenance,
            residency: RESIDENCY[Math.floor(rand() * RESIDENCY.length)]!,
            denylisted: DENYLISTED.has(key),
            bytes: 8 + Math.floor(rand() * 400),
            ...(provenance === 'context_retrieved' && previous ? { linkTo: previous } : {}),
          };
        });
        const hits = args.filter((a) => a.denylisted && a.provenance === 'model_inferred').map((a) => `${def.tool}.${a.key}`);
        const remote = hits.length === 0 && def.tool === 'summarise' && rand() < 0.7;
        const fp = `fp${run.toString(16)}${t}${c}`;
        previous = b.call(turn, {
          tool: def.tool,
          runId,
          args,
          atMs: 10 + c * 100,
          verdict: remote ? 'remote-ok' : 'local',
          remote,
          hopFingerprint: remote ? fp : undefined,
          gateAction: hits.length ? 'ask' : 'allow',
          gateHits: hits.length ? hits : undefined,
          gateQuestion: hits.length ? `Which value should ${hits[0]} use?` : undefined,
          stopwatch: { localMs: 1 + rand() * 5, remoteRttMs: remote ? 20 + rand() * 80 : undefined, bytesAfterRedaction: 300 },
          events: remote
            ? [
                { name: HopEvents.CHECKPOINT_WRITTEN, atMs: 1, attrs: { [EventAttributes.STEP]: 1, [EventAttributes.FINGERPRINT]: fp } },
                { name: HopEvents.LEASE_ACQUIRED, atMs: 2, attrs: { [EventAttributes.LEASE_ID]: `l${fp}`, [EventAttributes.FINGERPRINT]: fp } },
                { name: HopEvents.HOP_SENT, atMs: 3, attrs: { [EventAttributes.FINGERPRINT]: fp, [EventAttributes.BYTES]: 300 } },
                { name: HopEvents.HOP_COMPLETED, atMs: 40, attrs: { [EventAttributes.RTT_MS]: 37, [EventAttributes.FINGERPRINT]: fp } },
                { name: HopEvents.LEASE_RELEASED, atMs: 41, attrs: { [EventAttributes.LEASE_ID]: `l${fp}` } },
              ]
            : undefined,
        });
      }
    }
    for (const line of b.lines()) {
      if (!out.write(line + '\n')) await once(out, 'drain');
    }
    written += b.spans.length;
    run += 1;
  }
  out.end();
  await once(out, 'finish');
  return written;
}
