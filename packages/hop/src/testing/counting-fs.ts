import type { HopFileHandle, HopFs } from '../fs-layer.js';
import { nodeFs } from '../fs-layer.js';

/** The calls that cost on the hop's critical path: fsyncs (files and directories) and metadata changes. */
export const COUNTED_OPS = ['fsync', 'create', 'trunc', 'reopen', 'rename', 'link', 'unlink', 'readdir'] as const;
export type CountedOp = (typeof COUNTED_OPS)[number];
export type OpCounts = Record<CountedOp, number>;

/**
 * The real fs, counting what each call costs: `create` is an exclusive create (O_CREAT|O_EXCL),
 * `trunc` an O_CREAT|O_TRUNC open, `reopen` an open of an existing file in place. Used by the
 * benchmark (to explain its ratios) and by tests (to pin the critical path's syscalls).
 */
export function createCountingFs(): HopFs & { counts: OpCounts; reset(): void } {
  const counts = Object.fromEntries(COUNTED_OPS.map((op) => [op, 0])) as OpCounts;
  const synced = (h: HopFileHandle): HopFileHandle => ({ ...h, sync: () => (counts.fsync++, h.sync()) });
  return {
    ...nodeFs,
    counts,
    reset: () => COUNTED_OPS.forEach((op) => (counts[op] = 0)),
    openForWrite: async (path, exclusive) => (counts[exclusive ? 'create' : 'trunc']++, synced(await nodeFs.openForWrite(path, exclusive))),
    openExisting: async (path) => (counts.reopen++, synced(await nodeFs.openExisting(path))),
    openDir: async (path) => synced(await nodeFs.openDir(path)),
    rename: async (from, to) => (counts.rename++, nodeFs.rename(from, to)),
    link: async (from, to) => (counts.link++, nodeFs.link(from, to)),
    unlink: async (path) => (counts.unlink++, nodeFs.unlink(path)),
    readdir: async (path) => (counts.readdir++, nodeFs.readdir(path)),
  };
}
