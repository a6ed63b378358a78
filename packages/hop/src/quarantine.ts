import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { HopStateError, errnoCode } from './errors.js';
import type { StateIo } from './durable-write.js';
import { syncDir } from './durable-write.js';
import type { RecordDefect } from './record.js';

/** Sub-directory of the state directory where unreadable files are kept. */
export const QUARANTINE_DIR = 'quarantine';

/** A file moved to quarantine. */
export interface QuarantineReport {
  /** Base name the file had. */
  file: string;
  /** Base name it has now, inside `quarantine/`. */
  quarantinedAs: string;
  defect: RecordDefect;
  /** What exactly was wrong (never the content). */
  detail: string;
}

/**
 * Move an unreadable state file into `stateDir/quarantine/` (kept, renamed with the defect and a
 * timestamp), durably. Returns the report, or undefined when the file vanished meanwhile (another
 * process quarantined it first).
 */
export async function quarantineFile(
  io: StateIo,
  stateDir: string,
  dir: string,
  name: string,
  defect: RecordDefect,
  detail: string,
  now: number,
): Promise<QuarantineReport | undefined> {
  const qdir = join(stateDir, QUARANTINE_DIR);
  const quarantinedAs = `${name}.${defect}.${now}.${randomBytes(3).toString('hex')}`;
  try {
    await io.fs.mkdir(qdir);
    await io.fs.rename(join(dir, name), join(qdir, quarantinedAs));
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    throw new HopStateError(`could not quarantine ${join(dir, name)} (${defect}: ${detail}) (${errnoCode(err) ?? 'unknown error'})`, {
      cause: err,
    });
  }
  await syncDir(io, qdir);
  await syncDir(io, dir);
  return { file: name, quarantinedAs, defect, detail };
}
