import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Clock } from './clock.js';
import { HopStateError, LeaseLostError, errnoCode } from './errors.js';
import type { StateIo } from './durable-write.js';
import { listDir, readIfExists, writeDurable } from './durable-write.js';
import type { QuarantineReport } from './quarantine.js';
import { quarantineFile } from './quarantine.js';
import { decodeRecord, encodeRecord, shape } from './record.js';

/** A lease as written to disk: `lease.<epoch>.rec`, created exclusively, never rewritten. */
export interface LeaseRecord {
  /** Fencing token: strictly increasing per state directory. */
  epoch: number;
  /** Public lease id (safe on spans). */
  id: string;
  /** Secret-ish holder proof: only the process that knows it may release the lease. */
  nonce: string;
  /** Payload fingerprint of the hop the lease guards. */
  fingerprint: string;
  pid: number;
  bootId: string;
  /** Wall-clock ms. */
  acquiredAt: number;
  /** Wall-clock ms after which other processes may take the lease over. */
  expiresAt: number;
  ttlMs: number;
}

/** A lease this process holds. */
export interface Lease extends LeaseRecord {
  /** Monotonic ms at acquisition: the holder's own deadline never follows wall-clock jumps. */
  acquiredMono: number;
}

/** Why a previous lease no longer counts. */
export type LeaseEndReason = 'released' | 'expired' | 'holder-dead' | 'clock-skew' | 'quarantined';

/** What the lease slot looks like right now. */
export type LeaseView =
  | { status: 'free'; epoch: number; ended?: { reason: LeaseEndReason; record?: LeaseRecord } }
  | { status: 'live'; epoch: number; holder: LeaseRecord };

export interface LeaseOptions {
  ttlMs: number;
  /** fsync lease and release files and the directory (see README, "Durability of leases"). */
  fsync: boolean;
  bootId: string;
  isAlive: (pid: number) => boolean;
  /** A lease acquired further in the future than this was written before a backwards clock jump. */
  maxClockSkewMs: number;
  /** The holder stops trusting its lease this long before the ttl ends. */
  safetyMarginMs: number;
  onQuarantine: (r: QuarantineReport) => void;
}

const LEASE_RE = /^lease\.(\d{12,})\.rec$/;
const RELEASE_RE = /^lease\.(\d{12,})\.released\.rec$/;
/** Old epochs kept on disk before pruning (the newest is never pruned). */
const KEEP_EPOCHS = 8;

const pad = (n: number) => String(n).padStart(12, '0');
const leaseName = (epoch: number) => `lease.${pad(epoch)}.rec`;
const releaseName = (epoch: number) => `lease.${pad(epoch)}.released.rec`;

function validateLease(body: unknown): string | undefined {
  return shape.fields(body, {
    epoch: 'number',
    id: 'string',
    nonce: 'string',
    fingerprint: 'string',
    pid: 'number',
    bootId: 'string',
    acquiredAt: 'number',
    expiresAt: 'number',
    ttlMs: 'number',
  });
}

interface Listing {
  highest: number;
  leases: Set<number>;
  releases: Set<number>;
}

/**
 * The hop lease: one holder per state directory at a time. Acquisition and stale takeover are
 * the same exclusive step — hard-link a fully written file to `lease.<highest+1>.rec`, which
 * fails with EEXIST for every racer but one — so there is no check-then-write window.
 */
export class LeaseManager {
  /** Epoch → nonce of leases this manager created (and has not released). */
  private readonly created = new Map<number, string>();

  constructor(
    private readonly io: StateIo,
    private readonly stateDir: string,
    private readonly clock: Clock,
    private readonly opts: LeaseOptions,
  ) {}

  private async list(): Promise<Listing> {
    const names = await listDir(this.io, this.stateDir, 'state directory');
    const leases = new Set<number>();
    const releases = new Set<number>();
    let highest = 0;
    for (const name of names) {
      let m = LEASE_RE.exec(name);
      if (m) leases.add(Number(m[1]));
      else if ((m = RELEASE_RE.exec(name))) releases.add(Number(m[1]));
      if (m) highest = Math.max(highest, Number(m[1]));
    }
    return { highest, leases, releases };
  }

  /** Inspect the lease slot (quarantines a damaged newest lease file, which then counts as ended). */
  async inspect(): Promise<LeaseView> {
    const { highest, leases, releases } = await this.list();
    if (highest === 0) return { status: 'free', epoch: 0 };
    if (releases.has(highest) || !leases.has(highest)) return { status: 'free', epoch: highest, ended: { reason: 'released' } };
    const name = leaseName(highest);
    const data = await readIfExists(this.io, join(this.stateDir, name));
    if (data === undefined) return this.inspect(); // released and pruned meanwhile: look again
    const decoded = decodeRecord<LeaseRecord>('lease', data, validateLease);
    if (!decoded.ok) {
      // Keep the epoch: a tombstone release marker holds the number, the damaged file goes to quarantine.
      await this.writeRelease(highest, '', 'quarantined');
      const report = await quarantineFile(
        this.io, this.stateDir, this.stateDir, name, decoded.defect, decoded.detail, this.clock.now(),
      );
      if (report) this.opts.onQuarantine(report);
      return { status: 'free', epoch: highest, ended: { reason: 'quarantined' } };
    }
    const record = decoded.body;
    const now = this.clock.now();
    const deadHolder =
      record.bootId !== 'unknown' &&
      (record.bootId !== this.opts.bootId || (record.pid !== process.pid && !this.opts.isAlive(record.pid)));
    if (deadHolder) return { status: 'free', epoch: highest, ended: { reason: 'holder-dead', record } };
    if (now >= record.expiresAt) return { status: 'free', epoch: highest, ended: { reason: 'expired', record } };
    if (record.acquiredAt - now > this.opts.maxClockSkewMs) {
      return { status: 'free', epoch: highest, ended: { reason: 'clock-skew', record } };
    }
    return { status: 'live', epoch: highest, holder: record };
  }

  /**
   * Take the lease if it is free (never waits). Returns the lease, or the view that stopped us
   * (a live holder, or a racer that created the next epoch first).
   */
  async tryAcquire(fingerprint: string): Promise<{ lease: Lease; view: LeaseView } | { lease: undefined; view: LeaseView }> {
    const view = await this.inspect();
    if (view.status === 'live') return { lease: undefined, view };
    const epoch = view.epoch + 1;
    const now = this.clock.now();
    const lease: Lease = {
      epoch,
      id: randomUUID(),
      nonce: randomBytes(16).toString('hex'),
      fingerprint,
      pid: process.pid,
      bootId: this.opts.bootId,
      acquiredAt: now,
      expiresAt: now + this.opts.ttlMs,
      ttlMs: this.opts.ttlMs,
      acquiredMono: this.clock.monotonic(),
    };
    const { acquiredMono: _mono, ...record } = lease;
    const created = await writeDurable(this.io, this.stateDir, leaseName(epoch), encodeRecord('lease', record), {
      kind: 'lease',
      exclusive: true,
      fsyncFile: this.opts.fsync,
      fsyncDir: this.opts.fsync,
    });
    if (!created) return { lease: undefined, view: await this.inspect() };
    this.created.set(epoch, lease.nonce);
    // A racer holding a stale listing may have linked an epoch that was already pruned; the
    // highest epoch on disk decides, so such a lease is released at once and never used.
    const after = await this.list();
    if (after.highest !== epoch) {
      this.created.delete(epoch);
      await this.writeRelease(epoch, lease.id, 'released');
      return { lease: undefined, view: await this.inspect() };
    }
    await this.prune(after, epoch);
    return { lease, view };
  }

  /** Throw {@link LeaseLostError} unless `lease` is still the live lease (checked right before a send). */
  async assertHolder(lease: Lease): Promise<void> {
    const elapsed = this.clock.monotonic() - lease.acquiredMono;
    if (elapsed >= lease.ttlMs - this.opts.safetyMarginMs) {
      throw new LeaseLostError(`lease epoch ${lease.epoch} ran out (${Math.round(elapsed)} ms of ${lease.ttlMs} ms held)`);
    }
    if (this.clock.now() >= lease.expiresAt - this.opts.safetyMarginMs) {
      throw new LeaseLostError(`lease epoch ${lease.epoch} is past its expiry by the wall clock; others may take it over`);
    }
    const { highest, releases } = await this.list();
    if (highest > lease.epoch) throw new LeaseLostError(`lease epoch ${lease.epoch} was taken over (epoch ${highest} exists)`);
    if (releases.has(lease.epoch)) throw new LeaseLostError(`lease epoch ${lease.epoch} was already released`);
  }

  /**
   * Release `lease`. Only the holder whose nonce matches the file may release it; anyone else gets
   * {@link LeaseLostError}. Returns false when it was already released.
   */
  async release(lease: Pick<Lease, 'epoch' | 'nonce' | 'id'>): Promise<boolean> {
    // Lease files are immutable and created exclusively, so a nonce this manager wrote needs no re-read.
    if (this.created.get(lease.epoch) !== lease.nonce) {
      const data = await readIfExists(this.io, join(this.stateDir, leaseName(lease.epoch)));
      const decoded = data === undefined ? undefined : decodeRecord<LeaseRecord>('lease', data, validateLease);
      if (!decoded?.ok || decoded.body.nonce !== lease.nonce) {
        throw new LeaseLostError(`refusing to release lease epoch ${lease.epoch}: caller is not its holder`);
      }
    }
    this.created.delete(lease.epoch);
    return this.writeRelease(lease.epoch, lease.id, 'released');
  }

  /**
   * Write the release marker `lease.<epoch>.released.rec`. Its name alone marks the epoch released
   * (the content is a record for people), so it is one exclusive create, not temp + link; with
   * `fsync` it is made durable like every other record.
   */
  private async writeRelease(epoch: number, leaseId: string, reason: LeaseEndReason): Promise<boolean> {
    const body = encodeRecord('lease-release', { epoch, leaseId, reason, releasedAt: this.clock.now() });
    if (this.opts.fsync) {
      return writeDurable(this.io, this.stateDir, releaseName(epoch), body, { kind: 'release', exclusive: true, fsyncFile: true, fsyncDir: true });
    }
    const faults = this.io.faults;
    await faults?.('release:before-write');
    let h;
    try {
      h = await this.io.fs.openForWrite(join(this.stateDir, releaseName(epoch)), true);
    } catch (err) {
      if (errnoCode(err) === 'EEXIST') return false;
      throw new HopStateError(`create of ${releaseName(epoch)} failed (${errnoCode(err) ?? 'unknown error'})`, { cause: err });
    }
    try {
      await h.writeAll(body).catch(() => undefined); // the name is the release; a short body is only cosmetic
    } finally {
      await h.close().catch(() => undefined);
    }
    await faults?.('release:after-write');
    return true;
  }

  private async prune(listing: Listing, current: number): Promise<void> {
    const floor = current - KEEP_EPOCHS;
    if (floor <= 0) return;
    for (const e of listing.leases) if (e < floor) await this.io.fs.unlink(join(this.stateDir, leaseName(e))).catch(() => undefined);
    for (const e of listing.releases) if (e < floor) await this.io.fs.unlink(join(this.stateDir, releaseName(e))).catch(() => undefined);
  }
}
