import { redactSecrets } from '@argspan/core';

/**
 * Errors the hop protocol raises. Messages name the file, the operation and the errno code;
 * they never carry a payload, an output or an idempotency key, and a credential in a path they
 * name (a state directory under `cache-ghp_…`) is shown as its marker, in the message and in the
 * system error kept as `cause`.
 */

/**
 * Base class: every hop error has a stable `code`. Used as such for `HOP_CONFIG` (an invalid
 * option), `HOP_PAYLOAD` (the payload cannot become JSON: a BigInt, a cycle, a getter or proxy
 * trap that threw, too deep), `HOP_REDACTION` (the secret detector failed), `HOP_STALE_STEP` (a
 * step behind the checkpoint), `HOP_HOOK` (a `createRemoteHop` hook threw) and `HOP_INTERNAL`
 * (anything unforeseen; names the operation). The subclasses below carry the others.
 */
export class HopError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(redactSecrets(message).text, options?.cause === undefined ? options : { cause: shownCause(options.cause) });
    this.name = new.target.name;
    this.code = code;
  }
}

/**
 * The state directory could not be read or written durably (ENOSPC, EACCES, a corrupt file with
 * no good generation left, an unreadable queue). The loop must halt: nothing was sent.
 */
export class HopStateError extends HopError {
  /** Code of the failed system call (EROFS, EACCES, ENOSPC, ENOTDIR, …), when one failed. */
  readonly errno: string | undefined;
  constructor(message: string, options?: { cause?: unknown }) {
    super('HOP_STATE', message, options);
    this.errno = errnoCode(options?.cause);
  }
}

/** The lease was lost (expired, taken over, released) before the send: the hop did not happen. */
export class LeaseLostError extends HopError {
  constructor(message: string) {
    super('HOP_LEASE_LOST', message);
  }
}

/** The remote refused the request because its fencing epoch is older than one it has seen. */
export class FencedOffError extends HopError {
  readonly status: number;
  constructor(status: number, epoch: number) {
    super('HOP_FENCED', `remote fenced off lease epoch ${epoch} (HTTP ${status}): a newer lease holder exists`);
    this.status = status;
  }
}

/** The remote answered 422: the request is invalid and will never succeed with this payload. */
export class HopRejectedError extends HopError {
  readonly status: number;
  constructor(status: number, step: number) {
    super('HOP_REJECTED', `remote rejected step ${step} with HTTP ${status} (unprocessable): not retrying`);
    this.status = status;
  }
}

/** The remote kept answering 409 (request with this key in progress) past the retry budget. */
export class HopConflictError extends HopError {
  readonly status: number;
  constructor(status: number, attempts: number) {
    super('HOP_CONFLICT', `remote answered HTTP ${status} ${attempts} times for the same idempotency key: giving up for now`);
    this.status = status;
  }
}

/** Transport failure or an unexpected status: the outcome is unknown; retry with the same key. */
export class HopTransportError extends HopError {
  readonly status: number | undefined;
  constructor(message: string, status?: number, options?: { cause?: unknown }) {
    super('HOP_TRANSPORT', message, options);
    this.status = status;
  }
}

/** errno code of a Node system error, if any. */
export function errnoCode(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The call did not run remotely: the protocol decided `queue` (durably queued; `drainQueue()` sends
 * it later), `wait` (another holder's lease outlived `leaseWaitMs`) or `local` with no local runner.
 */
export class HopDeferredError extends HopError {
  readonly decision: 'local' | 'queue' | 'wait';
  readonly step: number;
  readonly queueSeq: number | undefined;
  constructor(decision: 'local' | 'queue' | 'wait', step: number, reason: string, queueSeq?: number) {
    const what =
      decision === 'queue'
        ? `queued durably as item ${queueSeq ?? '?'} until the remote is reachable`
        : decision === 'wait'
          ? 'not sent: another process holds the hop lease'
          : 'not sent: the protocol decided to run it locally and no local runner was given';
    super('HOP_DEFERRED', `step ${step} ${what} (${reason})`);
    this.decision = decision;
    this.step = step;
    this.queueSeq = queueSeq;
  }
}

/**
 * A system error kept as a cause, as it may be shown: itself, or, when its message or path holds a
 * credential (a path under `cache-ghp_…`), a copy with those redacted and its code, errno and
 * syscall kept (the original's stack repeats the path, so it is not kept).
 */
function shownCause(cause: unknown): unknown {
  if (!(cause instanceof Error)) return cause;
  const e = cause as NodeJS.ErrnoException & { dest?: unknown };
  const texts = [e.message, e.path, e.dest].filter((t): t is string => typeof t === 'string');
  if (texts.every((t) => redactSecrets(t).text === t)) return cause;
  const copy = new Error(redactSecrets(e.message).text) as NodeJS.ErrnoException;
  if (e.code !== undefined) copy.code = e.code;
  if (e.errno !== undefined) copy.errno = e.errno;
  if (e.syscall !== undefined) copy.syscall = e.syscall;
  if (typeof e.path === 'string') copy.path = redactSecrets(e.path).text;
  return copy;
}

/** Name of an error's class, if it is a plain identifier (a hostile `name` is not repeated). */
function errorClass(err: unknown): string {
  const name = (err as Error | undefined)?.name;
  return typeof name === 'string' && /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name) ? name : 'error';
}

/**
 * The last line: any failure that is not already a {@link HopError} becomes one, naming the
 * operation and, for a system error, the call, the path and the errno code. The original is kept
 * as `cause` only for system errors: another error's message may quote a payload or a header.
 */
export function toHopError(err: unknown, operation: string): HopError {
  if (err instanceof HopError) return err;
  const sys = systemError(err);
  if (sys) {
    return new HopStateError(`${operation}: ${sys.syscall}${sys.path ? ` of ${sys.path}` : ''} failed (${sys.code})`, { cause: err });
  }
  return new HopError('HOP_INTERNAL', `${operation} failed unexpectedly (${errorClass(err)})`);
}

/** A send that failed with something other than a {@link HopError}: the outcome is unknown. */
export function toTransportError(err: unknown, step: number): HopError {
  if (err instanceof HopError) return err;
  const sys = systemError(err);
  return new HopTransportError(
    `send for step ${step} failed (${sys?.code ?? errorClass(err)}); outcome unknown, a retry uses the same key`,
    undefined,
    sys ? { cause: err } : undefined,
  );
}

/** A failed system call (code, syscall, maybe a path): its message quotes no data. Not Node's ERR_* argument errors, which can. */
function systemError(err: unknown): { code: string; syscall: string; path: string | undefined } | undefined {
  const { code, syscall, path } = (err ?? {}) as NodeJS.ErrnoException;
  if (typeof code !== 'string' || typeof syscall !== 'string') return undefined;
  return { code, syscall, path: typeof path === 'string' ? path : undefined };
}
