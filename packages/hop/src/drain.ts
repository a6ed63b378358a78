import { EventAttributes as A, HopEvents } from '@argspan/conventions';
import { HopRejectedError } from './errors.js';
import type { HopContext } from './hop-context.js';
import type { Lease } from './lease.js';
import type { QueueDone, QueueEntry } from './queue.js';
import type { DrainInput, DrainReport, DrainedItem } from './types.js';

/** After a green probe, send queued hops oldest first, each under the lease. */
export async function drainQueue(ctx: HopContext, input: DrainInput): Promise<DrainReport> {
  const drained: DrainedItem[] = [];
  const max = input.maxItems ?? Infinity;
  const report = async (stopped?: DrainReport['stopped']): Promise<DrainReport> => ({
    drained,
    remaining: (await ctx.queue.list()).length,
    ...(stopped ? { stopped } : {}),
  });
  if (!(await ctx.probe(input.probe)).ok) return report('probe-failed');
  for (;;) {
    const head = (await ctx.queue.list())[0];
    if (!head) return report();
    if (drained.length >= max) return report('max-items');
    const deadline = ctx.clock.monotonic() + (ctx.o.leaseWaitMs ?? ctx.ttl);
    let lease: Lease | undefined;
    while (!lease) {
      const got = await ctx.lease.tryAcquire(head.item.fingerprint);
      lease = got.lease;
      if (lease) break;
      if (!(await ctx.waitABit(got.view, deadline, 'lease-live'))) return report('lease-busy');
      if (!(await ctx.probe(input.probe)).ok) return report('probe-failed'); // fresh probe after waiting
    }
    // Everything below happens under the lease: re-read the head, another drainer may have moved on.
    const entry = (await ctx.queue.list())[0];
    if (!entry || entry.done) {
      // an item sent before a crash, result durable: finish it without sending again
      if (entry?.done) drained.push(await finishQueued(ctx, entry, entry.done, true));
      await ctx.releaseHeld(lease);
      continue;
    }
    const held = lease;
    const res = await ctx.sendUnderLease(held, entry.item, input.send, async (err) => {
      if (err instanceof HopRejectedError) {
        const done = await ctx.queue.markDone(entry, { status: err.status, output: '', leaseEpoch: held.epoch });
        await finishQueued(ctx, entry, done, false);
      }
    });
    const done = await ctx.writeResult(held, entry.item.step, () =>
      ctx.queue.markDone(entry, { status: res.response.status, output: res.response.body, leaseEpoch: held.epoch }),
    );
    drained.push(await finishQueued(ctx, entry, done, false));
    await ctx.releaseHeld(held);
  }
}


/** After the result is durable: update a matching `queued` checkpoint, then remove the item. */
export async function finishQueued(ctx: HopContext, entry: QueueEntry, done: QueueDone, finishedOnly: boolean): Promise<DrainedItem> {
  const { item } = entry;
  const cp = ctx.cp;
  if (cp && cp.runId === item.runId && cp.step === item.step && cp.fingerprint === item.fingerprint && cp.phase === 'queued') {
    const ok = done.status >= 200 && done.status < 300;
    await ctx.writeCheckpoint(
      { ...ctx.base(item.step), phase: ok ? 'done' : 'failed', fingerprint: item.fingerprint, leaseEpoch: done.leaseEpoch, ...(ok ? { lastOutput: done.output } : {}) },
      ok ? 'checkpoint-done' : 'checkpoint-failed',
    );
  }
  await ctx.fault('dequeue:before-unlink');
  await ctx.queue.remove(entry);
  await ctx.fault('dequeue:after-unlink');
  const remaining = (await ctx.queue.list()).length;
  ctx.emit(HopEvents.QUEUE_DRAINED, { [A.QUEUE_ITEM]: entry.seq, [A.STEP]: item.step, [A.QUEUE_DEPTH]: remaining, [A.HTTP_STATUS]: done.status });
  return { seq: entry.seq, runId: item.runId, step: item.step, status: done.status, output: done.output, finishedOnly };
}

