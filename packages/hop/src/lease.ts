import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Clock } from './clock.js';
import { HopStateError, LeaseLostError, errnoCode } from './errors.js';
import type { StateIo } from './durable-write.js';
import { listDir, readIfExists, syncDir, tempNameFor, writeDurable } from './durable-write.js';
import type { QuarantineReport } from './quarantine.js';
import { quarantineFile } from './quarantine.js';
import { decodeRecord, encodeRecord, shape } from './record.js';

/**
 * A lease as written to disk: `lease.<epoch>.rec`, created exclusively, never rewritten. Its
 * holder releases it by renaming it to `lease.<epoch>.released.rec`.
 */
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
  /** fsync lease files and the directory, on acquire and on release (see README, "Durability"). */
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
 *
 * The critical path pays no file creation and no deletion in steady state: the temp file of a
 * new lease is the oldest prunable release marker, renamed and overwritten in place; release is a
 * rename of the lease file to its marker name; and a manager that released the newest epoch
 * itself tries `epoch + 1` at once (the exclusive link is the check; the re-list after it catches
 * a stale guess), so acquisition lists the directory once.
 */
export class LeaseManager {
  /** Epoch → nonce of leases this manager created (and has not released). */
  private readonly created = new Map<number, string>();
  /** The epoch this manager released last: the next acquisition tries the one after it first. */
  private releasedEpoch: number | undefined;
  /** An old release marker the next acquisition recycles as its temp file (from the last listing). */
  private recyclable: number | undefined;

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
      await this.writeTombstone(highest);
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
    const hinted = this.releasedEpoch;
    this.releasedEpoch = undefined;
    if (hinted !== undefined) {
      // We released the newest epoch ourselves: the slot is free unless someone moved on, and
      // then the exclusive link fails (EEXIST) or the re-list shows a higher epoch; either way
      // we look properly below.
      const lease = this.newLease(hinted + 1, fingerprint);
      if ((await this.create(lease)) && (await this.confirm(lease))) {
        return { lease, view: { status: 'free', epoch: hinted, ended: { reason: 'released' } } };
      }
    }
    const view = await this.inspect();
    if (view.status === 'live') return { lease: undefined, view };
    const lease = this.newLease(view.epoch + 1, fingerprint);
    if ((await this.create(lease)) && (await this.confirm(lease))) return { lease, view };
    return { lease: undefined, view: await this.inspect() };
  }

  private newLease(epoch: number, fingerprint: string): Lease {
    const now = this.clock.now();
    return {
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
  }

  /** Exclusively create `lease.<epoch>.rec` (false: a racer was first), recycling an old marker as the temp file. */
  private async create(lease: Lease): Promise<boolean> {
    const { acquiredMono: _mono, ...record } = lease;
    const reuseTemp = await this.recycle(leaseName(lease.epoch));
    return writeDurable(this.io, this.stateDir, leaseName(lease.epoch), encodeRecord('lease', record), {
      kind: 'lease',
      exclusive: true,
      fsyncFile: this.opts.fsync,
      fsyncDir: this.opts.fsync,
      ...(reuseTemp ? { reuseTemp } : {}),
    });
  }

  /**
   * We linked `lease.<epoch>.rec`. A racer holding a stale listing (or a stale hint) may have
   * linked an epoch that was already used: pruned since, or released (a release renames the lease
   * file away, so its name is free again). The listing decides — the epoch must be the highest
   * and have no release marker — so such a lease is released at once and never used (false).
   */
  private async confirm(lease: Lease): Promise<boolean> {
    this.created.set(lease.epoch, lease.nonce);
    const after = await this.list();
    if (after.highest !== lease.epoch || after.releases.has(lease.epoch)) {
      this.created.delete(lease.epoch);
      await this.markReleased(lease.epoch);
      return false;
    }
    await this.prune(after, lease.epoch);
    return true;
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
      const held = await this.recordOf(lease.epoch);
      if (held?.record.nonce !== lease.nonce) {
        throw new LeaseLostError(`refusing to release lease epoch ${lease.epoch}: caller is not its holder`);
      }
      if (held.released) return false;
    }
    this.created.delete(lease.epoch);
    const released = await this.markReleased(lease.epoch);
    if (released) this.releasedEpoch = lease.epoch;
    return released;
  }

  /** The lease record of `epoch`: its lease file, or its release marker once renamed. */
  private async recordOf(epoch: number): Promise<{ record: LeaseRecord; released: boolean } | undefined> {
    const live = await readIfExists(this.io, join(this.stateDir, leaseName(epoch)));
    const data = live ?? (await readIfExists(this.io, join(this.stateDir, releaseName(epoch))));
    const decoded = data === undefined ? undefined : decodeRecord<LeaseRecord>('lease', data, validateLease);
    return decoded?.ok ? { record: decoded.body, released: live === undefined } : undefined;
  }

  /**
   * Release `epoch`: rename `lease.<epoch>.rec` to `lease.<epoch>.released.rec` (the marker's
   * name is the release; it keeps the lease record for people). A rename is atomic and succeeds
   * once, so it is as exclusive as creating a marker and pays no file creation. False when the
   * lease file is gone (already released, or quarantined under a tombstone).
   */
  private async markReleased(epoch: number): Promise<boolean> {
    const faults = this.io.faults;
    await faults?.('release:before-write');
    try {
      await this.io.fs.rename(join(this.stateDir, leaseName(epoch)), join(this.stateDir, releaseName(epoch)));
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return false;
      throw new HopStateError(`release of ${join(this.stateDir, leaseName(epoch))} (rename to ${releaseName(epoch)}) failed (${errnoCode(err) ?? 'unknown error'})`, { cause: err });
    }
    await faults?.('release:after-write');
    if (this.opts.fsync) {
      await syncDir(this.io, this.stateDir);
      await faults?.('release:after-dir-fsync');
    }
    return true;
  }

  /**
   * Write a tombstone release marker for an epoch whose lease file is damaged (it goes to
   * quarantine): the epoch number survives and the slot is free. Exclusive create, made durable
   * like every other record when `fsync` is on.
   */
  private async writeTombstone(epoch: number): Promise<void> {
    const body = encodeRecord('lease-release', { epoch, leaseId: '', reason: 'quarantined', releasedAt: this.clock.now() });
    if (this.opts.fsync) {
      await writeDurable(this.io, this.stateDir, releaseName(epoch), body, { kind: 'release', exclusive: true, fsyncFile: true, fsyncDir: true });
      return;
    }
    let h;
    try {
      h = await this.io.fs.openForWrite(join(this.stateDir, releaseName(epoch)), true);
    } catch (err) {
      if (errnoCode(err) === 'EEXIST') return;
      throw new HopStateError(`create of ${join(this.stateDir, releaseName(epoch))} failed (${errnoCode(err) ?? 'unknown error'})`, { cause: err });
    }
    try {
      await h.writeAll(body).catch(() => undefined); // the name is the release; a short body is only cosmetic
    } finally {
      await h.close().catch(() => undefined);
    }
  }

  /**
   * Remove epochs more than {@link KEEP_EPOCHS} below `current`, except the newest such release
   * marker: the next acquisition recycles it as its temp file (so in steady state nothing is
   * deleted — each acquisition recycles the marker that fell out of the window).
   */
  private async prune(listing: Listing, current: number): Promise<void> {
    const floor = current - KEEP_EPOCHS;
    this.recyclable = undefined;
    if (floor <= 0) return;
    let keep: number | undefined;
    for (const e of listing.releases) if (e < floor && !listing.leases.has(e) && (keep === undefined || e > keep)) keep = e;
    for (const e of listing.leases) if (e < floor) await this.io.fs.unlink(join(this.stateDir, leaseName(e))).catch(() => undefined);
    for (const e of listing.releases) if (e < floor && e !== keep) await this.io.fs.unlink(join(this.stateDir, releaseName(e))).catch(() => undefined);
    this.recyclable = keep;
  }

  /** Rename the recyclable old marker to a temp name for `finalName` (undefined: none, or a racer took it). */
  private async recycle(finalName: string): Promise<string | undefined> {
    const e = this.recyclable;
    this.recyclable = undefined;
    if (e === undefined) return undefined;
    const temp = join(this.stateDir, tempNameFor(finalName));
    return this.io.fs.rename(join(this.stateDir, releaseName(e)), temp).then(
      () => temp,
      () => undefined,
    );
  }
}
