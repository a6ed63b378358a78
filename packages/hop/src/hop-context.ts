import { resolve as resolvePath } from 'node:path';
import { EventAttributes as A, HopEvents } from '@argspan/conventions';
import { defaultSecretDetector } from '@argspan/core';
import type { SecretDetector, ValueHasher } from '@argspan/core';
import { currentBootId, isProcessAlive } from './boot-id.js';
import type { Checkpoint, CheckpointInput } from './checkpoint-store.js';
import { CheckpointStore } from './checkpoint-store.js';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import type { StateIo } from './durable-write.js';
import { HopError, HopTransportError, LeaseLostError, toTransportError } from './errors.js';
import type { HopEventAttributes, HopEventSink } from './events.js';
import { emitEvent } from './events.js';
import type { HopFaultPoint, WriteKind } from './faults.js';
import { nodeFs } from './fs-layer.js';
import type { HopRequest, HopResponse, HopSend } from './http-sender.js';
import type { IdempotencyKeyer } from './idempotency.js';
import type { Lease, LeaseView } from './lease.js';
import { LeaseManager } from './lease.js';
import type { ProbeFn, ProbeResult, ProbeTarget } from './probe.js';
import { probeTarget } from './probe.js';
import type { QuarantineReport } from './quarantine.js';
import { DurableQueue } from './queue.js';
import type { HopRunnerOptions } from './types.js';

/** Default state directory. */
export const DEFAULT_STATE_DIR = '.loop-state';

/**
 * Everything one runner shares between its operations — the stores, the lease, the active event
 * sink — and the protocol steps that `runHop` and `drainQueue` both use (probe, wait, send under
 * the lease, durable result, release). Internal: not exported from the package.
 */
export class HopContext {
  readonly o: HopRunnerOptions;
  readonly stateDir: string;
  runId: string;
  readonly clock: Clock;
  readonly io: StateIo;
  readonly detector: SecretDetector;
  readonly residual: SecretDetector;
  readonly store: CheckpointStore;
  readonly queue: DurableQueue;
  readonly lease: LeaseManager;
  readonly ttl: number;
  hasher: ValueHasher | undefined;
  /** Keyed idempotency-key derivation (set at boot, from the same local key as the hasher). */
  idempotencyKey: IdempotencyKeyer | undefined;
  /** Newest checkpoint this runner knows (loaded at boot, updated on every write). */
  cp: Checkpoint | undefined;
  /** Event sink of the operation in progress. */
  sink: HopEventSink | undefined;
  /** Files quarantined since boot started. */
  bootLog: QuarantineReport[] = [];

  constructor(options: HopRunnerOptions) {
    if (typeof options !== 'object' || options === null) throw new HopError('HOP_CONFIG', 'createHopRunner needs an options object (at least `probe`)');
    if (options.stateDir !== undefined && typeof options.stateDir !== 'string') {
      throw new HopError('HOP_CONFIG', `stateDir must be a string path, got a ${typeof options.stateDir}`);
    }
    if (options.runId !== undefined && (typeof options.runId !== 'string' || options.runId === '')) {
      throw new HopError('HOP_CONFIG', `runId must be a non-empty string, got ${typeof options.runId === 'string' ? 'an empty one' : `a ${typeof options.runId}`}`);
    }
    if (options.hashKey !== undefined && !(options.hashKey instanceof Uint8Array && options.hashKey.length >= 16)) {
      throw new HopError('HOP_CONFIG', 'hashKey must be a Uint8Array of at least 16 bytes');
    }
    this.o = options;
    this.stateDir = resolvePath(options.stateDir ?? DEFAULT_STATE_DIR);
    this.runId = options.runId ?? '';
    this.clock = options.clock ?? systemClock;
    this.io = { fs: options.fs ?? nodeFs, faults: options.faults };
    this.detector = options.detector ?? defaultSecretDetector;
    this.residual = options.residualDetector ?? this.detector;
    this.ttl = options.leaseTtlMs ?? 30_000;
    if (typeof this.ttl !== 'number' || !(this.ttl > 0)) throw new HopError('HOP_CONFIG', `leaseTtlMs must be a positive number, got ${typeof options.leaseTtlMs === 'number' ? options.leaseTtlMs : `a ${typeof options.leaseTtlMs}`}`);
    const probe = options.probe as unknown;
    if (typeof probe !== 'function' && !(typeof probe === 'object' && probe !== null && 'host' in probe && 'port' in probe)) {
      throw new HopError('HOP_CONFIG', 'probe is required: a { host, port } target or a function returning a ProbeResult');
    }
    if (typeof probe !== 'function') {
      const { host, port } = probe as { host: unknown; port: unknown };
      if (typeof host !== 'string' || host === '') throw new HopError('HOP_CONFIG', `probe.host must be a non-empty string, got a ${typeof host}`);
      if (!Number.isInteger(port) || (port as number) < 1 || (port as number) > 65535) throw new HopError('HOP_CONFIG', 'probe.port must be an integer from 1 to 65535');
    }
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

  quarantined(r: QuarantineReport): void {
    this.bootLog.push(r);
    emitEvent(this.sink ?? this.o.span, HopEvents.STATE_QUARANTINED, { [A.STATE_FILE]: r.file, [A.REASON]: r.defect });
    try {
      this.o.onQuarantine?.(r);
    } catch {
      // a reporting hook never changes the protocol
    }
  }

  emit(name: (typeof HopEvents)[keyof typeof HopEvents], attrs: HopEventAttributes): void {
    emitEvent(this.sink ?? this.o.span, name, attrs);
  }

  async fault(point: HopFaultPoint): Promise<void> {
    if (this.o.faults) await this.o.faults(point);
  }

  async writeCheckpoint(input: CheckpointInput, kind: WriteKind): Promise<Checkpoint> {
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

  base(step: number): Omit<CheckpointInput, 'phase'> {
    const cp = this.cp?.runId === this.runId ? this.cp : undefined;
    return { runId: this.runId, step, goal: this.o.goal ?? cp?.goal ?? '', ...(cp?.lastOutput !== undefined ? { lastOutput: cp.lastOutput } : {}), flags: { ...cp?.flags } };
  }

  async probe(target: ProbeTarget | ProbeFn | undefined): Promise<ProbeResult> {
    const t = target ?? this.o.probe;
    let result: ProbeResult;
    try {
      result = typeof t === 'function' ? await t() : await probeTarget(t);
      if (typeof result?.ok !== 'boolean') result = { ok: false, reason: 'error', rttMs: 0 };
    } catch {
      result = { ok: false, reason: 'error', rttMs: 0 }; // a failing probe hook fails closed: queue, never send
    }
    this.emit(HopEvents.PROBE, { [A.PROBE_OK]: result.ok, [A.RTT_MS]: result.rttMs, [A.REASON]: result.reason });
    await this.fault('probe:after');
    return result;
  }

  async viewLease(): Promise<LeaseView> {
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

  async waitABit(view: LeaseView, deadline: number, reason: string): Promise<boolean> {
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

  /** Fence check, send, events. `onFailure` runs before the lease is released on a send failure. */
  async sendUnderLease(
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
        idempotencyKey: this.idempotencyKey!(hop.runId, hop.step, hop.fingerprint),
        epoch: lease.epoch,
        checkLease: () => this.lease.assertHolder(lease),
        onRetry: (attempt, status) =>
          this.emit(HopEvents.HOP_SENT, { ...ids, [A.STEP]: hop.step, [A.ATTEMPT]: attempt, [A.HTTP_STATUS]: status, [A.BYTES]: Buffer.byteLength(hop.body) }),
      };
      this.emit(HopEvents.HOP_SENT, { ...ids, [A.STEP]: hop.step, [A.ATTEMPT]: 1, [A.BYTES]: Buffer.byteLength(hop.body), [A.FINGERPRINT]: hop.fingerprint });
      t0 = this.clock.monotonic();
      let response: HopResponse;
      try {
        response = await send(request);
      } catch (err) {
        throw toTransportError(err, hop.step); // a custom sender's own error may quote the body or a header
      }
      if (typeof response !== 'object' || response === null || !Number.isInteger(response.status) || typeof response.body !== 'string') {
        // (the remote may have acted: the outcome is unknown, as after a timeout, and a retry uses the same key)
        throw new HopTransportError(`send for step ${hop.step} resolved without { status: integer, body: string }; the remote may have acted`);
      }
      if (!(response.status >= 200 && response.status < 300)) {
        // a sender must reject non-2xx answers; one that resolves with them is not a result
        throw new HopTransportError(`send for step ${hop.step} resolved with HTTP ${response.status}, not a 2xx result`, response.status);
      }
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
  async writeResult<T>(lease: Lease, step: number, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      this.emit(HopEvents.HOP_FAILED, { [A.LEASE_ID]: lease.id, [A.LEASE_EPOCH]: lease.epoch, [A.STEP]: step, [A.REASON]: 'result-not-durable' });
      throw err;
    }
  }

  async releaseHeld(lease: Lease): Promise<void> {
    try {
      await this.lease.release(lease);
    } catch (err) {
      if (!(err instanceof LeaseLostError)) throw err;
    }
    this.emit(HopEvents.LEASE_RELEASED, { [A.LEASE_ID]: lease.id, [A.LEASE_EPOCH]: lease.epoch });
    await this.fault('release:after');
  }
}
