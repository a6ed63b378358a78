import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createValueHasher } from '@argspan/core';
import { HashKeyError, loadOrCreateHashKey } from '@argspan/core/internal';
import { isProcessAlive } from './boot-id.js';
import type { Checkpoint } from './checkpoint-store.js';
import { drainQueue } from './drain.js';
import { listDir, removeStaleTemps } from './durable-write.js';
import { HopError, HopStateError, errnoCode, toHopError } from './errors.js';
import { createIdempotencyKeyer } from './idempotency.js';
import type { HopEventSink } from './events.js';
import { combineSinks } from './events.js';
import { DEFAULT_STATE_DIR, HopContext } from './hop-context.js';
import type { Lease, LeaseView } from './lease.js';
import { QUARANTINE_DIR } from './quarantine.js';
import { QUEUE_DIR } from './queue.js';
import { redactPayload } from './redact.js';
import { runHop } from './run-hop.js';
import type { BootReport, DrainInput, DrainReport, HopOutcome, HopRunnerOptions, RunHopInput } from './types.js';

export { DEFAULT_STATE_DIR };

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
  /**
   * Record a step the caller ran locally (after a `local` decision). `output`: text, or any JSON
   * value (redacted value by value, then serialised).
   */
  recordLocalResult(input: { step: number; output: unknown; flags?: Record<string, boolean> }): Promise<Checkpoint>;
  /** The newest good checkpoint. */
  readCheckpoint(): Promise<Checkpoint | undefined>;
  /** Number of queued items. */
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
  return new Runner(new HopContext(options));
}

/** The state directory's hash key; its failures (EROFS, ENOSPC, a damaged key file) as {@link HopStateError}. */
async function loadHashKey(stateDir: string): Promise<Buffer> {
  try {
    return await loadOrCreateHashKey(stateDir);
  } catch (err) {
    if (err instanceof HashKeyError) throw new HopStateError(`${err.message}; the loop halts`, err.cause === undefined ? undefined : { cause: err.cause });
    throw err;
  }
}

class Runner implements HopRunner {
  private booted: Promise<BootReport> | undefined;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly ctx: HopContext) {}

  get stateDir(): string {
    return this.ctx.stateDir;
  }

  get runId(): string {
    return this.ctx.runId;
  }

  /** Run `fn` after boot, alone (one operation at a time per runner), with `sink` as the active event sink. */
  private exclusive<T>(operation: string, sink: HopEventSink | undefined, fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(async () => {
      await this.boot();
      this.ctx.sink = combineSinks(this.ctx.o.span, sink);
      try {
        return await fn();
      } catch (err) {
        throw toHopError(err, operation);
      } finally {
        this.ctx.sink = undefined;
      }
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  boot(): Promise<BootReport> {
    this.booted ??= this.doBoot().catch((err: unknown) => {
      this.booted = undefined;
      throw toHopError(err, `boot of state directory ${this.ctx.stateDir}`);
    });
    return this.booted;
  }

  private async doBoot(): Promise<BootReport> {
    const { ctx } = this;
    ctx.bootLog = [];
    for (const d of [ctx.stateDir, join(ctx.stateDir, QUEUE_DIR), join(ctx.stateDir, QUARANTINE_DIR)]) {
      try {
        await ctx.io.fs.mkdir(d);
      } catch (err) {
        const at = (err as NodeJS.ErrnoException).path;
        const where = typeof at === 'string' && at !== d ? ` at ${at}` : '';
        throw new HopStateError(`cannot create state directory ${d} (${errnoCode(err) ?? 'unknown error'}${where})`, { cause: err });
      }
    }
    const hashKey = ctx.o.hashKey ?? (await loadHashKey(ctx.stateDir));
    ctx.hasher = createValueHasher(hashKey);
    ctx.idempotencyKey = createIdempotencyKeyer(hashKey);
    const alive = ctx.o.isProcessAlive ?? isProcessAlive;
    await removeStaleTemps(ctx.io, ctx.stateDir, await listDir(ctx.io, ctx.stateDir, 'state directory'), alive);
    await removeStaleTemps(ctx.io, ctx.queue.dir, await listDir(ctx.io, ctx.queue.dir, 'queue directory'), alive);
    const cp = await ctx.store.load();
    if (ctx.o.runId && cp && cp.runId !== ctx.o.runId && cp.phase === 'intent') {
      throw new HopStateError(
        `state directory ${ctx.stateDir} holds run ${cp.runId} with step ${cp.step} in flight; pass that runId to resume it, or use another stateDir`,
      );
    }
    ctx.runId = ctx.o.runId ?? cp?.runId ?? randomUUID();
    ctx.cp = cp;
    const entries = await ctx.queue.list();
    await ctx.queue.removeOrphanResults();
    const lease = await ctx.lease.inspect();
    const sameRun = cp?.runId === ctx.runId;
    const resumeStep = !cp || !sameRun ? 0 : cp.phase === 'intent' ? cp.step : cp.step + 1;
    return { runId: ctx.runId, checkpoint: cp, resumeStep, queueDepth: entries.length, lease, quarantined: [...ctx.bootLog] };
  }

  runHop(input: RunHopInput): Promise<HopOutcome> {
    // (checked before anything is sent or written: a checkpoint the next boot cannot read halts the loop)
    const problem = input?.step === null || typeof input?.step !== 'object' ? 'step must be an object { index, … }' : (stepProblem(input.step.index) ?? flagsProblem(input.flags));
    if (problem) return Promise.reject(new HopError('HOP_CONFIG', `runHop: ${problem}`));
    return this.exclusive('runHop', input.span, () => runHop(this.ctx, input));
  }

  drainQueue(input: DrainInput): Promise<DrainReport> {
    return this.exclusive('drainQueue', input.span, () => drainQueue(this.ctx, input));
  }

  recordLocalResult(input: { step: number; output: unknown; flags?: Record<string, boolean> }): Promise<Checkpoint> {
    const problem = stepProblem(input?.step) ?? flagsProblem(input?.flags);
    if (problem) return Promise.reject(new HopError('HOP_CONFIG', `recordLocalResult: ${problem}`));
    return this.exclusive('recordLocalResult', undefined, () => {
      const { ctx } = this;
      // a value is redacted value by value, like a payload (a string is redacted as text by the store)
      const output = typeof input.output === 'string' ? input.output : redactPayload(input.output, ctx.detector, input.step);
      const fp = ctx.cp?.step === input.step ? ctx.cp.fingerprint : undefined;
      const b = ctx.base(input.step);
      return ctx.writeCheckpoint(
        { ...b, flags: { ...b.flags, ...input.flags }, phase: 'local', lastOutput: output, ...(fp ? { fingerprint: fp } : {}) },
        'checkpoint-local',
      );
    });
  }

  readCheckpoint(): Promise<Checkpoint | undefined> {
    return this.exclusive('readCheckpoint', undefined, async () => (this.ctx.cp = await this.ctx.store.load()));
  }

  queueDepth(): Promise<number> {
    return this.exclusive('queueDepth', undefined, async () => (await this.ctx.queue.list()).length);
  }

  inspectLease(): Promise<LeaseView> {
    return this.exclusive('inspectLease', undefined, () => this.ctx.lease.inspect());
  }

  tryAcquireLease(fingerprint: string): Promise<Lease | undefined> {
    return this.exclusive('tryAcquireLease', undefined, async () => (await this.ctx.lease.tryAcquire(fingerprint)).lease);
  }

  releaseLease(lease: Lease): Promise<boolean> {
    return this.exclusive('releaseLease', undefined, () => this.ctx.lease.release(lease));
  }
}

/** Why a step index cannot be checkpointed (what the checkpoint reader requires), naming the type, never the value. */
function stepProblem(index: unknown): string | undefined {
  return Number.isSafeInteger(index) && (index as number) >= 0 ? undefined : `a step index must be a non-negative integer, got ${typeof index === 'number' ? 'a number that is not one' : `a value of type ${typeof index}`}`;
}

/** Why flags cannot be checkpointed: each must be a boolean. */
function flagsProblem(flags: unknown): string | undefined {
  if (flags === undefined) return undefined;
  if (flags === null || typeof flags !== 'object' || Array.isArray(flags)) return 'flags must be an object of booleans';
  return Object.values(flags).every((v) => typeof v === 'boolean') ? undefined : 'every flag must be a boolean';
}
