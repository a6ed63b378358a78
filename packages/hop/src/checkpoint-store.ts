import { join } from 'node:path';
import type { SecretDetector } from '@argspan/core';
import { HopStateError } from './errors.js';
import type { StateIo } from './durable-write.js';
import { listDir, readIfExists, tempNameFor, writeDurable } from './durable-write.js';
import type { WriteKind } from './faults.js';
import type { QuarantineReport } from './quarantine.js';
import { quarantineFile } from './quarantine.js';
import { decodeRecord, encodeRecord, shape } from './record.js';
import { assertNoSecrets, redactText } from './redact.js';

/** Where a step stands. */
export type CheckpointPhase = 'intent' | 'queued' | 'done' | 'local' | 'failed';
const PHASES: readonly CheckpointPhase[] = ['intent', 'queued', 'done', 'local', 'failed'];

/** The loop's state on disk: where replay starts. Goal and output are stored redacted. */
export interface Checkpoint {
  runId: string;
  /** Generation number, +1 per write. */
  generation: number;
  /** Step index. */
  step: number;
  phase: CheckpointPhase;
  /** Payload fingerprint of the step (keyed hash of the redacted payload). */
  fingerprint?: string;
  /** The loop's goal, redacted. */
  goal: string;
  /** Output of the last completed step, redacted. */
  lastOutput?: string;
  /** Loop flags (names chosen by the caller). */
  flags: Record<string, boolean>;
  /** Fencing epoch of the lease the step's hop ran under. */
  leaseEpoch?: number;
  /** Wall-clock ms when written. */
  writtenAt: number;
}

export type CheckpointInput = Omit<Checkpoint, 'generation' | 'writtenAt'>;

const PREFIX = 'checkpoint.';
const SUFFIX = '.rec';
/**
 * Generations on disk after a write: the new one and the two before it. The next write recycles
 * the oldest of them as its temp file, so even mid-write two good generations stay on disk.
 */
const KEEP = 3;

function nameOf(generation: number): string {
  return `${PREFIX}${String(generation).padStart(12, '0')}${SUFFIX}`;
}

function generationOf(name: string): number | undefined {
  const m = /^checkpoint\.(\d{12,})\.rec$/.exec(name);
  return m ? Number(m[1]) : undefined;
}

function validate(body: unknown): string | undefined {
  const problem = shape.fields(body, {
    runId: 'string',
    generation: 'number',
    step: 'number',
    phase: 'string',
    fingerprint: 'string?',
    goal: 'string',
    lastOutput: 'string?',
    flags: 'object',
    leaseEpoch: 'number?',
    writtenAt: 'number',
  });
  if (problem) return problem;
  const b = body as Checkpoint;
  if (!PHASES.includes(b.phase)) return `unknown phase ${JSON.stringify(b.phase).slice(0, 20)}`;
  if (!Object.values(b.flags).every((v) => typeof v === 'boolean')) return 'a flag is not a boolean';
  return undefined;
}

/** A record is only good under its own name (a recycled file must never count as another generation). */
function sameGeneration(body: unknown, gen: number): string | undefined {
  const g = (body as Checkpoint).generation;
  return g === gen ? undefined : `record holds generation ${g}, file name says ${gen}`;
}

/**
 * Generational checkpoint files `checkpoint.<generation>.rec` in the state directory. Each write
 * is a new generation (atomic, durable); the previous ones are kept so a damaged newest file falls
 * back to them.
 *
 * Old generations are recycled, never deleted: the write of generation G+1 renames generation
 * G-2 to a temp name, overwrites it in place, fsyncs it and renames it to G+1. On ext4, freeing
 * the blocks of a file that was fsync'd (unlink, O_TRUNC) costs a large part of an fsync, and
 * creating a file is a further metadata write; a rename costs neither.
 */
export class CheckpointStore {
  /** Generations on disk after this store's last write, newest first (undefined: list the directory). */
  private known: number[] | undefined;

  constructor(
    private readonly io: StateIo,
    private readonly stateDir: string,
    private readonly detector: SecretDetector,
    private readonly onQuarantine: (r: QuarantineReport) => void,
    private readonly now: () => number,
  ) {}

  private async generations(): Promise<number[]> {
    const names = await listDir(this.io, this.stateDir, 'state directory');
    return names
      .map(generationOf)
      .filter((g): g is number => g !== undefined)
      .sort((a, b) => b - a);
  }

  /**
   * The newest good checkpoint, or undefined when none was ever written. A damaged generation is
   * quarantined and reported and the previous one used; when every generation is damaged the
   * loop halts with a {@link HopStateError}.
   */
  async load(): Promise<Checkpoint | undefined> {
    this.known = undefined;
    const quarantined: QuarantineReport[] = [];
    for (const gen of await this.generations()) {
      const name = nameOf(gen);
      const data = await readIfExists(this.io, join(this.stateDir, name));
      if (data === undefined) continue; // pruned by a concurrent writer
      const decoded = decodeRecord<Checkpoint>('checkpoint', data, (body) => validate(body) ?? sameGeneration(body, gen));
      if (decoded.ok) return decoded.body;
      const report = await quarantineFile(this.io, this.stateDir, this.stateDir, name, decoded.defect, decoded.detail, this.now());
      if (report) {
        quarantined.push(report);
        this.onQuarantine(report);
      }
    }
    if (quarantined.length > 0) {
      const list = quarantined.map((q) => `${q.file} (${q.defect}) -> quarantine/${q.quarantinedAs}`).join(', ');
      throw new HopStateError(`no good checkpoint generation in ${this.stateDir}: ${list}; the loop halts`);
    }
    return undefined;
  }

  /**
   * Write the next generation (goal and output redacted here): recycle the oldest kept generation
   * as the temp file, write, fsync, rename, fsync the directory. Generations beyond {@link KEEP}
   * (left by a crash or a concurrent writer) are removed afterwards.
   *
   * After its own write the store knows which generations are on disk and does not list the
   * directory again: renaming the oldest of them is the check. Every write recycles the
   * generation KEEP below it, so when another writer (another process) has moved on, that
   * generation is gone, the rename fails, and the store lists the directory after all.
   */
  async write(input: CheckpointInput, kind: WriteKind): Promise<Checkpoint> {
    const known = this.known;
    this.known = undefined; // until this write is durable, trust only a listing
    let gens = known ?? (await this.generations());
    let reuseTemp = await this.recycle(gens[KEEP - 1]);
    if (known && !reuseTemp) {
      gens = await this.generations();
      reuseTemp = await this.recycle(gens[KEEP - 1]);
    }
    const generation = (gens[0] ?? 0) + 1;
    const record: Checkpoint = {
      runId: input.runId,
      generation,
      step: input.step,
      phase: input.phase,
      ...(input.fingerprint !== undefined ? { fingerprint: input.fingerprint } : {}),
      goal: redactText(input.goal, this.detector).text,
      ...(input.lastOutput !== undefined ? { lastOutput: redactText(input.lastOutput, this.detector).text } : {}),
      flags: { ...input.flags },
      ...(input.leaseEpoch !== undefined ? { leaseEpoch: input.leaseEpoch } : {}),
      writtenAt: this.now(),
    };
    const bytes = encodeRecord('checkpoint', record);
    try {
      assertNoSecrets(bytes.toString('utf8'), this.detector, `checkpoint generation ${generation}`);
    } catch (err) {
      // nothing was written: the recycled generation goes back under its name, untouched
      if (reuseTemp) await this.io.fs.rename(reuseTemp, join(this.stateDir, nameOf(gens[KEEP - 1]!))).catch(() => undefined);
      throw err;
    }
    await writeDurable(this.io, this.stateDir, nameOf(generation), bytes, {
      kind,
      exclusive: false,
      fsyncFile: true,
      fsyncDir: true,
      ...(reuseTemp ? { reuseTemp } : {}),
    });
    for (const old of gens.slice(KEEP)) {
      await this.io.fs.unlink(join(this.stateDir, nameOf(old))).catch(() => undefined);
    }
    // on disk now: this generation and the newest KEEP-1 before it; known only once there are KEEP
    const now = [generation, ...gens.slice(0, KEEP - 1)];
    if (now.length === KEEP) this.known = now;
    return record;
  }

  /**
   * Rename generation `gen` to a temp name of this process, to be overwritten by the next write.
   * Undefined when there is none or the rename fails (a concurrent writer took it first): the
   * write then uses a fresh temp file, and a generation left over is removed by a later write.
   */
  private async recycle(gen: number | undefined): Promise<string | undefined> {
    if (gen === undefined) return undefined;
    const temp = join(this.stateDir, tempNameFor(nameOf(gen)));
    return this.io.fs.rename(join(this.stateDir, nameOf(gen)), temp).then(
      () => temp,
      () => undefined,
    );
  }

  /** Size in bytes a record would take (for events and the benchmark). */
  static encodedSize(record: Checkpoint): number {
    return encodeRecord('checkpoint', record).length;
  }
}
