import { randomUUID } from 'node:crypto';
import { resolve as resolvePath } from 'node:path';
import { EventAttributes as A, HopEvents } from '@argspan/conventions';
import { createValueHasher, defaultSecretDetector, loadOrCreateHashKey } from '@argspan/core';
import type { ValueHasher } from '@argspan/core';
import { currentBootId, isProcessAlive } from './boot-id.js';
import type { Checkpoint, CheckpointInput } from './checkpoint-store.js';
import { CheckpointStore } from './checkpoint-store.js';
import { systemClock } from './clock.js';
import { decide } from './decide.js';
import type { StateIo } from './durable-write.js';
import { listDir, removeStaleTemps } from './durable-write.js';
import { HopError, HopRejectedError, HopStateError, LeaseLostError } from './errors.js';
import type { HopEventAttributes, HopEventSink } from './events.js';
import { combineSinks, emitEvent } from './events.js';
import type { HopFaultPoint, WriteKind } from './faults.js';
import { nodeFs } from './fs-layer.js';
import type { HopRequest, HopResponse, HopSend } from './http-sender.js';
import { idempotencyKey } from './idempotency.js';
import type { Lease, LeaseView } from './lease.js';
import { LeaseManager } from './lease.js';
import type { ProbeFn, ProbeResult, ProbeTarget } from './probe.js';
import { probeTarget } from './probe.js';
import type { QuarantineReport } from './quarantine.js';
import { QUARANTINE_DIR } from './quarantine.js';
import type { QueueEntry, QueueDone } from './queue.js';
import { DurableQueue, QUEUE_DIR } from './queue.js';
import { redactText } from './redact.js';
import type { BootReport, DrainInput, DrainReport, DrainedItem, HopOutcome, HopRunnerOptions, RunHopInput } from './types.js';
import { join } from 'node:path';

/** Default state directory. */
export const DEFAULT_STATE_DIR = '.loop-state';

/** The write-ahead hop protocol over one state directory. Create with {@link createHopRunner}. */
export interface HopRunner {
  readonly stateDir: string;
  /** Run id (known after `boot()`). */
  readonly runId: string;
  /** Prepare the state directory and read where to resume. Called implicitly by every other method. */
  boot(): Promise<BootReport>;
  /** Checkpoint, probe, decide, lease, send with an idempotency key, checkpoint the result, release. */
  runHop(input: RunHopInput): Promise<HopOutcome>;
  /** After a green probe, send queued hops in enqueue order, each under the lease. */
  drainQueue(input: DrainInput): Promise<DrainReport>;
  /** Record a step the caller ran locally (after a `local` decision). */
  recordLocalResult(input: { step: number; output: string; flags?: Record<string, boolean> }): Promise<Checkpoint>;
  /** The newest good checkpoint. */
  readCheckpoint(): Promise<Checkpoint | undefined>;
  /** Queued items, FIFO. */
  queueDepth(): Promise<number>;
  /** The lease slot as it is now. */
  inspectLease(): Promise<LeaseView>;
  /** Low-level: take the lease without waiting (for callers running their own protocol). */
  tryAcquireLease(fingerprint: string): Promise<Lease | undefined>;
  /** Low-level: release a lease this process holds (nonce checked). */
  releaseLease(lease: Lease): Promise<boolean>;
}

/** Create a hop runner. No I/O happens until the first call. */
export function createHopRunner(options: HopRunnerOptions): HopRunner {
  return new Runner(options);
}

class Runner implements HopRunner {
  readonly stateDir: string;
  runId: string;
  private readonly o: HopRunnerOptions;
  private readonly clock;
  private readonly io: StateIo;
  private readonly detector;
  private readonly residual;
  private readonly store: CheckpointStore;
  private readonly queue: DurableQueue;
  private readonly lease: LeaseManager;
  private readonly ttl: number;
  private hasher: ValueHasher | undefined;
  private booted: Promise<BootReport> | undefined;
  private cp: Checkpoint | undefined;
  private sink: HopEventSink | undefined;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(options: HopRunnerOptions) {
    this.o = options;
    this.stateDir = resolvePath(options.stateDir ?? DEFAULT_STATE_DIR);
    this.runId = options.runId ?? '';
    this.clock = options.clock ?? systemClock;
    this.io = { fs: options.fs ?? nodeFs, faults: options.faults };
    this.detector = options.detector ?? defaultSecretDetector;
    this.residual = options.residualDetector ?? this.detector;
    this.ttl = options.leaseTtlMs ?? 30_000;
    if (!(this.ttl > 0)) throw new HopError('HOP_CONFIG', `leaseTtlMs must be positive, got ${String(options.leaseTtlMs)}`);
    const now = () => this.clock.now();
    const onQ = (r: QuarantineReport) => this.quarantined(r);
    this.store = new CheckpointStore(this.io, this.stateDir, this.detector, onQ, now);
    this.queue = new DurableQueue(this.io, this.stateDir, this.detector, onQ, now);
    this.lease = new LeaseManager(this.io, this.stateDir, this.clock, {
      ttlMs: this.ttl,
      fsync: options.fsyncLease ?? false,
      bootId: currentBootId(),
      isAlive: options.isProcessAlive ?? isProcessAlive,
      maxClockSkewMs: options.maxClockSkewMs ?? 60_000,
      safetyMarginMs: options.leaseSafetyMarginMs ?? Math.min(1000, this.ttl / 10),
      onQuarantine: onQ,
    });
  }

  private bootLog: QuarantineReport[] = [];

  private quarantined(r: QuarantineReport): void {
    this.bootLog.push(r);
    emitEvent(this.sink ?? this.o.span, HopEvents.STATE_QUARANTINED, { [A.STATE_FILE]: r.file, [A.REASON]: r.defect });
    try {
      this.o.onQuarantine?.(r);
    } catch {
      // a reporting hook never changes the protocol
    }
  }

  /** Run `fn` alone (one operation at a time per runner) with `sink` as the active event sink. */
  private exclusive<T>(sink: HopEventSink | undefined, fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(async () => {
      this.sink = combineSinks(this.o.span, sink);
      try {
        return await fn();
      } finally {
        this.sink = undefined;
      }
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  private emit(name: (typeof HopEvents)[keyof typeof HopEvents], attrs: HopEventAttributes): void {
    emitEvent(this.sink ?? this.o.span, name, attrs);
  }

  private async fault(point: HopFaultPoint): Promise<void> {
    if (this.o.faults) await this.o.faults(point);
  }

  boot(): Promise<BootReport> {
    this.booted ??= this.doBoot().catch((err: unknown) => {
      this.booted = undefined;
      throw err;
    });
    return this.booted;
  }

  private async doBoot(): Promise<BootReport> {
    this.bootLog = [];
    try {
      for (const d of [this.stateDir, join(this.stateDir, QUEUE_DIR), join(this.stateDir, QUARANTINE_DIR)]) await this.io.fs.mkdir(d);
    } catch (err) {
      throw new HopStateError(`cannot create state directory ${this.stateDir} (${(err as NodeJS.ErrnoException).code ?? 'error'})`, { cause: err });
    }
    this.hasher = createValueHasher(this.o.hashKey ?? (await loadOrCreateHashKey(this.stateDir)));
    const alive = this.o.isProcessAlive ?? isProcessAlive;
    await removeStaleTemps(this.io, this.stateDir, await listDir(this.io, this.stateDir, 'state directory'), alive);
    await removeStaleTemps(this.io, this.queue.dir, await listDir(this.io, this.queue.dir, 'queue directory'), alive);
    const cp = await this.store.load();
    if (this.o.runId && cp && cp.runId !== this.o.runId && cp.phase === 'intent') {
      throw new HopStateError(
        `state directory ${this.stateDir} holds run ${cp.runId} with step ${cp.step} in flight; pass that runId to resume it, or use another stateDir`,
      );
    }
    this.runId = this.o.runId ?? cp?.runId ?? randomUUID();
    this.cp = cp;
    const entries = await this.queue.list();
    await this.queue.removeOrphanResults();
    const lease = await this.lease.inspect();
    const sameRun = cp?.runId === this.runId;
    const resumeStep = !cp || !sameRun ? 0 : cp.phase === 'intent' ? cp.step : cp.step + 1;
    return { runId: this.runId, checkpoint: cp, resumeStep, queueDepth: entries.length, lease, quarantined: [...this.bootLog] };
  }

  private async writeCheckpoint(input: CheckpointInput, kind: WriteKind): Promise<Checkpoint> {
    const cp = await this.store.write(input, kind);
    this.cp = cp;
    this.emit(HopEvents.CHECKPOINT_WRITTEN, {
      [A.STEP]: cp.step,
      [A.CHECKPOINT_PHASE]: cp.phase,
      [A.CHECKPOINT_GENERATION]: cp.generation,
      ...(cp.fingerprint ? { [A.FINGERPRINT]: cp.fingerprint } : {}),
    });
    return cp;
  }

  private base(step: number): Omit<CheckpointInput, 'phase'> {
    const cp = this.cp?.runId === this.runId ? this.cp : undefined;
    return { runId: this.runId, step, goal: this.o.goal ?? cp?.goal ?? '', ...(cp?.lastOutput !== undefined ? { lastOutput: cp.lastOutput } : {}), flags: { ...cp?.flags } };
  }

  private async probe(target: ProbeTarget | ProbeFn | undefined): Promise<ProbeResult> {
    const t = target ?? this.o.probe;
    let result: ProbeResult;
    try {
      result = typeof t === 'function' ? await t() : await probeTarget(t);
    } catch {
      result = { ok: false, reason: 'error', rttMs: 0 }; // a failing probe hook fails closed: queue, never send
    }
    this.emit(HopEvents.PROBE, { [A.PROBE_OK]: result.ok, [A.RTT_MS]: result.rttMs, [A.REASON]: result.reason });
    await this.fault('probe:after');
    return result;
  }

  private async viewLease(): Promise<LeaseView> {
    const view = await this.lease.inspect();
    if (view.status === 'free' && view.ended && view.ended.reason !== 'released') {
      this.emit(HopEvents.LEASE_EXPIRED, {
        [A.LEASE_EPOCH]: view.epoch,
        [A.REASON]: view.ended.reason,
        ...(view.ended.record ? { [A.LEASE_ID]: view.ended.record.id } : {}),
      });
    }
    return view;
  }

  private async waitABit(view: LeaseView, deadline: number, reason: string): Promise<boolean> {
    const remaining = deadline - this.clock.monotonic();
    this.emit(HopEvents.LEASE_WAIT, {
      [A.LEASE_EPOCH]: view.epoch,
      [A.REASON]: reason,
      ...(view.status === 'live' ? { [A.LEASE_ID]: view.holder.id } : {}),
    });
    if (remaining <= 0) return false;
    const untilExpiry = view.status === 'live' ? view.holder.expiresAt - this.clock.now() + 1 : Infinity;
    await this.clock.sleep(Math.max(1, Math.min(this.o.pollMs ?? 25, remaining, untilExpiry)));
    return true;
  }

  runHop(input: RunHopInput): Promise<HopOutcome> {
    return this.exclusive(input.span, async () => {
      await this.boot();
      const { step } = input;
      const text = typeof input.payload === 'string' ? input.payload : JSON.stringify(input.payload);
      if (typeof text !== 'string') throw new HopError('HOP_PAYLOAD', `step ${step.index}: payload is not serialisable to JSON`);
      const body = redactText(text, this.detector).text;
      const fingerprint = this.hasher!.hash(body);
      const secretsLeft = step.secretsLeft ?? this.residual.find(body) !== undefined;

      const replay = await this.replay(step.index, fingerprint);
      if (replay) return replay;

      await this.writeCheckpoint({ ...this.base(step.index), flags: { ...this.base(step.index).flags, ...input.flags }, phase: 'intent', fingerprint }, 'checkpoint-intent');

      const started = this.clock.monotonic();
      const deadline = started + (this.o.leaseWaitMs ?? this.ttl);
      let lease: Lease | undefined;
      let reason;
      while (!lease) {
        const view = await this.viewLease(); // an expired lease is no retry: decide again with a fresh probe
        const probe = await this.probe(input.probe);
        const d = decide({ ...step, secretsLeft }, probe, { live: view.status === 'live' });
        reason = d.reason;
        this.emit(HopEvents.HOP_DECISION, { [A.STEP]: step.index, [A.DECISION]: d.decision, [A.REASON]: d.reason, [A.FINGERPRINT]: fingerprint });
        if (d.decision === 'local') return { decision: 'local', reason: d.reason, replayed: false, fingerprint };
        if (d.decision === 'queue') {
          const q = await this.queue.enqueue({ runId: this.runId, step: step.index, fingerprint, body });
          this.emit(HopEvents.QUEUE_ENQUEUED, { [A.STEP]: step.index, [A.QUEUE_ITEM]: q.seq, [A.QUEUE_DEPTH]: q.depth, [A.BYTES]: q.bytes, [A.FINGERPRINT]: fingerprint });
          await this.writeCheckpoint({ ...this.base(step.index), phase: 'queued', fingerprint }, 'checkpoint-queued');
          return { decision: 'queue', reason: d.reason, queueSeq: q.seq, replayed: false, fingerprint };
        }
        if (d.decision === 'wait') {
          if (!(await this.waitABit(view, deadline, d.reason))) {
            return { decision: 'wait', reason: d.reason, waitedMs: this.clock.monotonic() - started, fingerprint };
          }
          continue;
        }
        const got = await this.lease.tryAcquire(fingerprint);
        lease = got.lease;
        if (!lease && !(await this.waitABit(got.view, deadline, 'lost-race'))) {
          return { decision: 'wait', reason: 'lease-live', waitedMs: this.clock.monotonic() - started, fingerprint };
        }
      }
      const res = await this.sendUnderLease(lease, { runId: this.runId, step: step.index, fingerprint, body }, input.send, async (err) => {
        if (err instanceof HopRejectedError) {
          await this.writeCheckpoint({ ...this.base(step.index), phase: 'failed', fingerprint, leaseEpoch: lease.epoch }, 'checkpoint-failed');
        }
      });
      await this.writeResult(lease, step.index, () =>
        this.writeCheckpoint({ ...this.base(step.index), phase: 'done', fingerprint, lastOutput: res.response.body, leaseEpoch: lease.epoch }, 'checkpoint-done'),
      );
      await this.releaseHeld(lease);
      return { decision: 'remote', reason: reason ?? 'need-remote-capacity', status: res.response.status, output: res.response.body, rttMs: res.rttMs, epoch: lease.epoch, replayed: false, fingerprint };
    });
  }

  /** The outcome already on the checkpoint for this step and payload, if any. */
  private async replay(step: number, fingerprint: string): Promise<HopOutcome | undefined> {
    const cp = this.cp;
    if (!cp || cp.runId !== this.runId) return undefined;
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
    const queued = (await this.queue.list()).find((e) => e.item.runId === this.runId && e.item.step === step && e.item.fingerprint === fingerprint);
    if (!queued) return undefined;
    if (cp.phase !== 'queued') await this.writeCheckpoint({ ...this.base(step), phase: 'queued', fingerprint }, 'checkpoint-queued');
    return { decision: 'queue', reason: 'replayed', queueSeq: queued.seq, replayed: true, fingerprint };
  }

  /** Fence check, send, events. `onFailure` runs before the lease is released on a send failure. */
  private async sendUnderLease(
    lease: Lease,
    hop: { runId: string; step: number; fingerprint: string; body: string },
    send: HopSend,
    onFailure: (err: unknown) => Promise<void>,
  ): Promise<{ response: HopResponse; rttMs: number }> {
    const ids = { [A.LEASE_ID]: lease.id, [A.LEASE_EPOCH]: lease.epoch };
    this.emit(HopEvents.LEASE_ACQUIRED, { ...ids, [A.STEP]: hop.step, [A.FINGERPRINT]: hop.fingerprint });
    await this.fault('lease:after-acquire');
    let t0 = 0;
    try {
      await this.fault('send:before');
      await this.lease.assertHolder(lease);
      await this.fault('send:after-fence-check');
      const request: HopRequest = {
        ...hop,
        idempotencyKey: idempotencyKey(hop.runId, hop.step, hop.fingerprint),
        epoch: lease.epoch,
        checkLease: () => this.lease.assertHolder(lease),
        onRetry: (attempt, status) =>
          this.emit(HopEvents.HOP_SENT, { ...ids, [A.STEP]: hop.step, [A.ATTEMPT]: attempt, [A.HTTP_STATUS]: status, [A.BYTES]: Buffer.byteLength(hop.body) }),
      };
      this.emit(HopEvents.HOP_SENT, { ...ids, [A.STEP]: hop.step, [A.ATTEMPT]: 1, [A.BYTES]: Buffer.byteLength(hop.body), [A.FINGERPRINT]: hop.fingerprint });
      t0 = this.clock.monotonic();
      const response = await send(request);
      const rttMs = Math.round((this.clock.monotonic() - t0) * 100) / 100;
      await this.fault('send:after-response');
      this.emit(HopEvents.HOP_COMPLETED, { ...ids, [A.STEP]: hop.step, [A.HTTP_STATUS]: response.status, [A.RTT_MS]: rttMs, [A.BYTES]: Buffer.byteLength(response.body) });
      return { response, rttMs };
    } catch (err) {
      const status = (err as { status?: unknown }).status;
      this.emit(HopEvents.HOP_FAILED, {
        ...ids,
        [A.STEP]: hop.step,
        [A.REASON]: err instanceof HopError ? err.code : 'send-error',
        ...(typeof status === 'number' ? { [A.HTTP_STATUS]: status } : {}),
      });
      await onFailure(err);
      await this.releaseHeld(lease).catch(() => undefined); // outcome known or unknown: the same key is used next time
      throw err;
    }
  }

  /** Write a result durably; if that fails the lease is NOT released (the result is not durable). */
  private async writeResult<T>(lease: Lease, step: number, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      this.emit(HopEvents.HOP_FAILED, { [A.LEASE_ID]: lease.id, [A.LEASE_EPOCH]: lease.epoch, [A.STEP]: step, [A.REASON]: 'result-not-durable' });
      throw err;
    }
  }

  private async releaseHeld(lease: Lease): Promise<void> {
    try {
      await this.lease.release(lease);
    } catch (err) {
      if (!(err instanceof LeaseLostError)) throw err;
    }
    this.emit(HopEvents.LEASE_RELEASED, { [A.LEASE_ID]: lease.id, [A.LEASE_EPOCH]: lease.epoch });
    await this.fault('release:after');
  }

  drainQueue(input: DrainInput): Promise<DrainReport> {
    return this.exclusive(input.span, async () => {
      await this.boot();
      const drained: DrainedItem[] = [];
      const max = input.maxItems ?? Infinity;
      const report = async (stopped?: DrainReport['stopped']): Promise<DrainReport> => ({
        drained,
        remaining: (await this.queue.list()).length,
        ...(stopped ? { stopped } : {}),
      });
      if (!(await this.probe(input.probe)).ok) return report('probe-failed');
      for (;;) {
        const head = (await this.queue.list())[0];
        if (!head) return report();
        if (drained.length >= max) return report('max-items');
        if (head.done) {
          drained.push(await this.finishQueued(head, head.done, true));
          continue;
        }
        const deadline = this.clock.monotonic() + (this.o.leaseWaitMs ?? this.ttl);
        let lease: Lease | undefined;
        while (!lease) {
          const got = await this.lease.tryAcquire(head.item.fingerprint);
          lease = got.lease;
          if (lease) break;
          if (!(await this.waitABit(got.view, deadline, 'lease-live'))) return report('lease-busy');
          if (!(await this.probe(input.probe)).ok) return report('probe-failed'); // fresh probe after waiting
        }
        const entry = (await this.queue.list()).find((e) => e.seq === head.seq && e.item.id === head.item.id);
        if (!entry || entry.done) {
          if (entry?.done) drained.push(await this.finishQueued(entry, entry.done, true));
          await this.releaseHeld(lease);
          continue;
        }
        const held = lease;
        const res = await this.sendUnderLease(held, entry.item, input.send, async (err) => {
          if (err instanceof HopRejectedError) {
            const done = await this.queue.markDone(entry, { status: err.status, output: '', leaseEpoch: held.epoch });
            await this.finishQueued(entry, done, false);
          }
        });
        const done = await this.writeResult(held, entry.item.step, () =>
          this.queue.markDone(entry, { status: res.response.status, output: res.response.body, leaseEpoch: held.epoch }),
        );
        drained.push(await this.finishQueued(entry, done, false));
        await this.releaseHeld(held);
      }
    });
  }

  /** After the result is durable: update a matching `queued` checkpoint, then remove the item. */
  private async finishQueued(entry: QueueEntry, done: QueueDone, finishedOnly: boolean): Promise<DrainedItem> {
    const { item } = entry;
    const cp = this.cp;
    if (cp && cp.runId === item.runId && cp.step === item.step && cp.fingerprint === item.fingerprint && cp.phase === 'queued') {
      const ok = done.status >= 200 && done.status < 300;
      await this.writeCheckpoint(
        { ...this.base(item.step), phase: ok ? 'done' : 'failed', fingerprint: item.fingerprint, leaseEpoch: done.leaseEpoch, ...(ok ? { lastOutput: done.output } : {}) },
        ok ? 'checkpoint-done' : 'checkpoint-failed',
      );
    }
    await this.fault('dequeue:before-unlink');
    await this.queue.remove(entry);
    await this.fault('dequeue:after-unlink');
    const remaining = (await this.queue.list()).length;
    this.emit(HopEvents.QUEUE_DRAINED, { [A.QUEUE_ITEM]: entry.seq, [A.STEP]: item.step, [A.QUEUE_DEPTH]: remaining, [A.HTTP_STATUS]: done.status });
    return { seq: entry.seq, runId: item.runId, step: item.step, status: done.status, output: done.output, finishedOnly };
  }

  recordLocalResult(input: { step: number; output: string; flags?: Record<string, boolean> }): Promise<Checkpoint> {
    return this.exclusive(undefined, async () => {
      await this.boot();
      const fp = this.cp?.step === input.step ? this.cp.fingerprint : undefined;
      const b = this.base(input.step);
      return this.writeCheckpoint(
        { ...b, flags: { ...b.flags, ...input.flags }, phase: 'local', lastOutput: input.output, ...(fp ? { fingerprint: fp } : {}) },
        'checkpoint-local',
      );
    });
  }

  readCheckpoint(): Promise<Checkpoint | undefined> {
    return this.exclusive(undefined, async () => {
      await this.boot();
      this.cp = await this.store.load();
      return this.cp;
    });
  }

  queueDepth(): Promise<number> {
    return this.exclusive(undefined, async () => {
      await this.boot();
      return (await this.queue.list()).length;
    });
  }

  inspectLease(): Promise<LeaseView> {
    return this.exclusive(undefined, async () => {
      await this.boot();
      return this.lease.inspect();
    });
  }

  tryAcquireLease(fingerprint: string): Promise<Lease | undefined> {
    return this.exclusive(undefined, async () => {
      await this.boot();
      return (await this.lease.tryAcquire(fingerprint)).lease;
    });
  }

  releaseLease(lease: Lease): Promise<boolean> {
    return this.exclusive(undefined, async () => {
      await this.boot();
      return this.lease.release(lease);
    });
  }
}
