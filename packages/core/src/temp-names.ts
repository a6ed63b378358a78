import { randomBytes } from 'node:crypto';

/**
 * Temp file name for `finalName` written by this process: `.<final>.<pid>.<rand>.tmp`. The pid
 * lets a later process tell a dead writer's leftover from a running writer's file.
 */
export function tempNameFor(finalName: string): string {
  return `.${finalName}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

/** Pid that wrote a temp file named by {@link tempNameFor} (for `finalName`, when given), or undefined when `name` is not one. */
export function tempFileOwner(name: string, finalName?: string): number | undefined {
  const m = /^\.(.+)\.(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name);
  if (!m || (finalName !== undefined && m[1] !== finalName)) return undefined;
  return Number(m[2]);
}
