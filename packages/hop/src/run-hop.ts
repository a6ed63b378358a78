import { EventAttributes as A, HopEvents } from '@argspan/conventions';
import { decide } from './decide.js';
import type { DecisionReason } from './decide.js';
import { HopError, HopRejectedError } from './errors.js';
import type { HopContext } from './hop-context.js';
import type { Lease } from './lease.js';
import { redactPayload } from './redact.js';
import type { HopOutcome, RunHopInput } from './types.js';

/** Checkpoint, probe, decide, lease, send with an idempotency key, checkpoint the result, release. */
export async function runHop(ctx: HopContext, input: RunHopInput): Promise<HopOutcome> {
  const { step } = input;
  // values are redacted before serialising: the body is what is fingerprinted, queued and sent
  const body = redactPayload(input.payload, ctx.detector, step.index);
  const fingerprint = ctx.hasher!.hash(body);
  const secretsLeft = step.secretsLeft ?? residualFinding(ctx, body);

  const replayed = await replay(ctx, step.index, fingerprint);
  if (replayed) return replayed;

  await ctx.writeCheckpoint({ ...ctx.base(step.index), flags: { ...ctx.base(step.index).flags, ...input.flags }, phase: 'intent', fingerprint }, 'checkpoint-intent');

  const started = ctx.clock.monotonic();
  const deadline = started + (ctx.o.leaseWaitMs ?? ctx.ttl);
  let lease: Lease | undefined;
  let reason: DecisionReason | undefined;
  while (!lease) {
    const view = await ctx.viewLease(); // an expired lease is no retry: decide again with a fresh probe
    const probe = await ctx.probe(input.probe);
    const d = decide({ ...step, secretsLeft }, probe, { live: view.status === 'live' });
    reason = d.reason;
    ctx.emit(HopEvents.HOP_DECISION, { [A.STEP]: step.index, [A.DECISION]: d.decision, [A.REASON]: d.reason, [A.FINGERPRINT]: fingerprint });
    if (d.decision === 'local') return { decision: 'local', reason: d.reason, replayed: false, fingerprint };
    if (d.decision === 'queue') {
      const q = await ctx.queue.enqueue({ runId: ctx.runId, step: step.index, fingerprint, body });
      ctx.emit(HopEvents.QUEUE_ENQUEUED, { [A.STEP]: step.index, [A.QUEUE_ITEM]: q.seq, [A.QUEUE_DEPTH]: q.depth, [A.BYTES]: q.bytes, [A.FINGERPRINT]: fingerprint });
      await ctx.writeCheckpoint({ ...ctx.base(step.index), phase: 'queued', fingerprint }, 'checkpoint-queued');
      return { decision: 'queue', reason: d.reason, queueSeq: q.seq, replayed: false, fingerprint };
    }
    if (d.decision === 'wait') {
      if (!(await ctx.waitABit(view, deadline, d.reason))) {
        return { decision: 'wait', reason: d.reason, waitedMs: ctx.clock.monotonic() - started, fingerprint };
      }
      continue;
    }
    const got = await ctx.lease.tryAcquire(fingerprint);
    lease = got.lease;
    if (!lease && !(await ctx.waitABit(got.view, deadline, 'lost-race'))) {
      return { decision: 'wait', reason: 'lease-live', waitedMs: ctx.clock.monotonic() - started, fingerprint };
    }
  }
  const res = await ctx.sendUnderLease(lease, { runId: ctx.runId, step: step.index, fingerprint, body }, input.send, async (err) => {
    if (err instanceof HopRejectedError) {
      await ctx.writeCheckpoint({ ...ctx.base(step.index), phase: 'failed', fingerprint, leaseEpoch: lease.epoch }, 'checkpoint-failed');
    }
  });
  await ctx.writeResult(lease, step.index, () =>
    ctx.writeCheckpoint({ ...ctx.base(step.index), phase: 'done', fingerprint, lastOutput: res.response.body, leaseEpoch: lease.epoch }, 'checkpoint-done'),
  );
  await ctx.releaseHeld(lease);
  return { decision: 'remote', reason: reason ?? 'need-remote-capacity', status: res.response.status, output: res.response.body, rttMs: res.rttMs, epoch: lease.epoch, replayed: false, fingerprint };
}

/** Whether the residual detector still finds a secret; a detector that fails counts as yes (fail closed: stays local). */
function residualFinding(ctx: HopContext, body: string): boolean {
  try {
    return ctx.residual.find(body) !== undefined;
  } catch {
    return true;
  }
}

/** The outcome already on the checkpoint for this step and payload, if any. */
async function replay(ctx: HopContext, step: number, fingerprint: string): Promise<HopOutcome | undefined> {
  const cp = ctx.cp;
  if (!cp || cp.runId !== ctx.runId) return undefined;
  if (cp.step > step) {
    throw new HopError('HOP_STALE_STEP', `step ${step} is behind the checkpoint (step ${cp.step}, ${cp.phase}): replay starts from the checkpoint`);
  }
  if (cp.step !== step || cp.fingerprint !== fingerprint) return undefined;
  if (cp.phase === 'done') {
    return { decision: 'remote', reason: 'replayed', status: 0, output: cp.lastOutput ?? '', rttMs: 0, epoch: cp.leaseEpoch ?? 0, replayed: true, fingerprint };
  }
  if (cp.phase === 'local') return { decision: 'local', reason: 'replayed', replayed: true, output: cp.lastOutput ?? '', fingerprint };
  if (cp.phase === 'failed') throw new HopRejectedError(422, step);
  // intent or queued: if the hop is already queued (a crash may have come before the `queued`
  // checkpoint), it stays queued — sending it now as well would hop it twice.
  const queued = (await ctx.queue.list()).find((e) => e.item.runId === ctx.runId && e.item.step === step && e.item.fingerprint === fingerprint);
  if (!queued) return undefined;
  if (cp.phase !== 'queued') await ctx.writeCheckpoint({ ...ctx.base(step), phase: 'queued', fingerprint }, 'checkpoint-queued');
  return { decision: 'queue', reason: 'replayed', queueSeq: queued.seq, replayed: true, fingerprint };
}

