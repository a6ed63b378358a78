import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';

/**
 * A regular file's bytes. Anything else under its name (a FIFO, a device, a link to `/dev/zero`) is
 * refused — EISDIR for a directory, else EINVAL — before a byte is read: reading it would block the
 * process (or a thread) for good, or never end. Opened non-blocking, so a FIFO's open does not wait
 * for a writer. For small state files (a key, a checkpoint, a lease).
 */
export function readRegularFileSync(path: string): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: stats.isDirectory() ? 'EISDIR' : 'EINVAL' });
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
