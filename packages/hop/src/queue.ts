import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { SecretDetector } from '@argspan/core';
import { HopStateError, errnoCode } from './errors.js';
import type { StateIo } from './durable-write.js';
import { listDir, readIfExists, syncDir, writeDurable } from './durable-write.js';
import type { QuarantineReport } from './quarantine.js';
import { quarantineFile } from './quarantine.js';
import { decodeRecord, encodeRecord, shape } from './record.js';
import { assertNoSecrets, redactText } from './redact.js';

/** Sub-directory of the state directory holding the queue. */
export const QUEUE_DIR = 'queue';

/** A hop waiting for the network: `queue/<seq>.item.rec`. The body is already redacted. */
export interface QueueItem {
  id: string;
  runId: string;
  step: number;
  fingerprint: string;
  /** Redacted payload, exactly what will be sent. */
  body: string;
  enqueuedAt: number;
}

/** Result of a sent item, written before the item is removed: `queue/<seq>.done.rec`. */
export interface QueueDone {
  itemId: string;
  status: number;
  /** Redacted response body. */
  output: string;
  leaseEpoch: number;
  completedAt: number;
}

/** One queue position. */
export interface QueueEntry {
  seq: number;
  item: QueueItem;
  /** Present when the item was sent and its result recorded, but it was not yet removed. */
  done?: QueueDone;
}

const pad = (n: number) => String(n).padStart(12, '0');
const itemName = (seq: number) => `${pad(seq)}.item.rec`;
const doneName = (seq: number) => `${pad(seq)}.done.rec`;
const ITEM_RE = /^(\d{12,})\.item\.rec$/;
const DONE_RE = /^(\d{12,})\.done\.rec$/;

const validateItem = (b: unknown) =>
  shape.fields(b, { id: 'string', runId: 'string', step: 'number', fingerprint: 'string', body: 'string', enqueuedAt: 'number' });
const validateDone = (b: unknown) =>
  shape.fields(b, { itemId: 'string', status: 'number', output: 'string', leaseEpoch: 'number', completedAt: 'number' });

/**
 * Durable FIFO queue, one file per item named by its sequence number. Enqueue links a fully
 * written, fsync'd file to the next free sequence number exclusively (so concurrent enqueuers
 * get distinct positions in the order they won), then fsyncs the directory: only then is the
 * caller told "queued".
 */
export class DurableQueue {
  readonly dir: string;

  constructor(
    private readonly io: StateIo,
    private readonly stateDir: string,
    private readonly detector: SecretDetector,
    private readonly onQuarantine: (r: QuarantineReport) => void,
    private readonly now: () => number,
  ) {
    this.dir = join(stateDir, QUEUE_DIR);
  }

  /**
   * Every entry in FIFO order. An unreadable directory or a damaged item is an error (the
   * damaged file is quarantined first): an unreadable queue is never treated as empty.
   */
  async list(): Promise<QueueEntry[]> {
    const names = await listDir(this.io, this.dir, 'queue directory');
    const items = new Map<number, string>();
    const dones = new Map<number, string>();
    for (const name of names) {
      let m = ITEM_RE.exec(name);
      if (m) items.set(Number(m[1]), name);
      else if ((m = DONE_RE.exec(name))) dones.set(Number(m[1]), name);
    }
    const entries: QueueEntry[] = [];
    const damaged: QuarantineReport[] = [];
    for (const seq of [...items.keys()].sort((a, b) => a - b)) {
      const name = items.get(seq)!;
      const data = await readIfExists(this.io, join(this.dir, name));
      if (data === undefined) continue; // drained meanwhile
      const decoded = decodeRecord<QueueItem>('queue-item', data, validateItem);
      if (!decoded.ok) {
        const r = await quarantineFile(this.io, this.stateDir, this.dir, name, decoded.defect, decoded.detail, this.now());
        if (r) {
          damaged.push(r);
          this.onQuarantine(r);
        }
        continue;
      }
      const entry: QueueEntry = { seq, item: decoded.body };
      const done = dones.has(seq) ? await this.readDone(seq) : undefined;
      if (done && done.itemId === decoded.body.id) entry.done = done;
      entries.push(entry);
    }
    if (damaged.length > 0) {
      const list = damaged.map((q) => `${q.file} (${q.defect}) -> quarantine/${q.quarantinedAs}`).join(', ');
      throw new HopStateError(`damaged queue item(s) in ${this.dir}: ${list}; draining halts so order and content are not guessed`);
    }
    return entries;
  }

  private async readDone(seq: number): Promise<QueueDone | undefined> {
    const data = await readIfExists(this.io, join(this.dir, doneName(seq)));
    if (data === undefined) return undefined;
    const decoded = decodeRecord<QueueDone>('queue-done', data, validateDone);
    if (decoded.ok) return decoded.body;
    // A damaged result only costs a resend under the same idempotency key.
    const r = await quarantineFile(this.io, this.stateDir, this.dir, doneName(seq), decoded.defect, decoded.detail, this.now());
    if (r) this.onQuarantine(r);
    return undefined;
  }

  /**
   * Append a hop. The body is the one `runHop` redacted and fingerprinted, kept byte for byte (a
   * second, text-level pass could break a redacted JSON body, and a drained hop must send what a
   * direct one would); a body in which the detector still finds a secret is refused. Idempotent:
   * the same run, step and fingerprint already queued returns the existing position. Resolves only
   * once the item is durable.
   */
  async enqueue(input: Omit<QueueItem, 'id' | 'enqueuedAt'>): Promise<{ seq: number; depth: number; deduped: boolean; bytes: number }> {
    const { body } = input;
    const entries = await this.list();
    const existing = entries.find(
      (e) => e.item.runId === input.runId && e.item.step === input.step && e.item.fingerprint === input.fingerprint,
    );
    if (existing) return { seq: existing.seq, depth: entries.length, deduped: true, bytes: Buffer.byteLength(existing.item.body) };
    const item: QueueItem = { id: randomUUID(), runId: input.runId, step: input.step, fingerprint: input.fingerprint, body, enqueuedAt: this.now() };
    const bytes = encodeRecord('queue-item', item);
    assertNoSecrets(bytes.toString('utf8'), this.detector, 'queue item');
    let seq = Math.max(0, ...entries.map((e) => e.seq), ...(await this.doneSeqs())) + 1;
    for (;;) {
      const created = await writeDurable(this.io, this.dir, itemName(seq), bytes, {
        kind: 'enqueue',
        exclusive: true,
        fsyncFile: true,
        fsyncDir: true,
      });
      if (created) return { seq, depth: entries.length + 1, deduped: false, bytes: Buffer.byteLength(body) };
      seq += 1; // a concurrent enqueuer took this position
    }
  }

  private async doneSeqs(): Promise<number[]> {
    const names = await listDir(this.io, this.dir, 'queue directory');
    return names.flatMap((n) => {
      const m = DONE_RE.exec(n);
      return m ? [Number(m[1])] : [];
    });
  }

  /** Record a sent item's result durably (output redacted here), before the item is removed. */
  async markDone(entry: QueueEntry, result: Omit<QueueDone, 'itemId' | 'completedAt'>): Promise<QueueDone> {
    const done: QueueDone = {
      itemId: entry.item.id,
      status: result.status,
      output: redactText(result.output, this.detector).text,
      leaseEpoch: result.leaseEpoch,
      completedAt: this.now(),
    };
    const bytes = encodeRecord('queue-done', done);
    assertNoSecrets(bytes.toString('utf8'), this.detector, 'queue result');
    await writeDurable(this.io, this.dir, doneName(entry.seq), bytes, { kind: 'queue-done', exclusive: false, fsyncFile: true, fsyncDir: true });
    return done;
  }

  /** Remove a finished item (durably), then its result record. */
  async remove(entry: QueueEntry): Promise<void> {
    try {
      await this.io.fs.unlink(join(this.dir, itemName(entry.seq)));
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') {
        throw new HopStateError(`removing drained queue item ${itemName(entry.seq)} failed (${errnoCode(err) ?? 'unknown error'})`, { cause: err });
      }
    }
    await syncDir(this.io, this.dir);
    await this.io.fs.unlink(join(this.dir, doneName(entry.seq))).catch(() => undefined);
  }

  /** Drop result records whose item is gone (a crash between the two unlinks). */
  async removeOrphanResults(): Promise<void> {
    const names = await listDir(this.io, this.dir, 'queue directory');
    const items = new Set(names.filter((n) => ITEM_RE.test(n)).map((n) => Number(ITEM_RE.exec(n)![1])));
    for (const n of names) {
      const m = DONE_RE.exec(n);
      if (m && !items.has(Number(m[1]))) await this.io.fs.unlink(join(this.dir, n)).catch(() => undefined);
    }
  }
}
