import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import { FencedOffError, HopConflictError, HopError, HopRejectedError, HopTransportError, errnoCode } from './errors.js';

/** What the runner hands a sender for one hop. */
export interface HopRequest {
  runId: string;
  step: number;
  /** Payload fingerprint (keyed hash of the redacted body). */
  fingerprint: string;
  /** The redacted payload: exactly what may leave the machine. */
  body: string;
  /** Same on every retry of this hop. Send it; never log it. */
  idempotencyKey: string;
  /** Fencing token of the lease the hop runs under. A remote that sees a higher one rejects lower ones. */
  epoch: number;
  /** Throws `LeaseLostError` if the lease is no longer held; call before every retry. */
  checkLease(): Promise<void>;
  /** Report a retry (attempt ≥ 2) so it is recorded as a span event. */
  onRetry?(attempt: number, status: number): void;
}

/** The remote's answer. */
export interface HopResponse {
  status: number;
  body: string;
}

/** Sends one hop. Resolves with a 2xx answer or rejects (see the HTTP adapter for the mapping). */
export type HopSend = (request: HopRequest) => Promise<HopResponse>;

/** Header names the HTTP adapter sends. */
export const HopHeaders = {
  IDEMPOTENCY_KEY: 'Idempotency-Key',
  /** The lease epoch (fencing token); a remote may refuse lower epochs than it has seen with 412. */
  LEASE_EPOCH: 'Argspan-Lease-Epoch',
} as const;

/** Options of {@link createHttpSender}. */
export interface HttpSenderOptions {
  /** Endpoint the hop is POSTed to. */
  url: string | URL;
  /** @default 'POST' */
  method?: string;
  /** Extra request headers (authorization, ...). */
  headers?: Record<string, string>;
  /** @default 'application/json' */
  contentType?: string;
  /** How long one attempt may take in all, ms: connecting, sending and reading the whole answer (a remote that trickles its answer is cut off). @default 30000 */
  timeoutMs?: number;
  /** Wait before retrying a 409, ms (doubles each time, capped at 2 s). @default 50 */
  conflictRetryDelayMs?: number;
  /** Attempts in total while the remote answers 409. @default 20 */
  maxConflictAttempts?: number;
  /** @default systemClock */
  clock?: Clock;
}

const MAX_RESPONSE = 16 * 1024 * 1024;

/**
 * An HTTP(S) sender: POSTs the redacted body with `Idempotency-Key` and the lease epoch.
 * 2xx → result; 409 → wait and retry with the same key; 422 → {@link HopRejectedError} (loud, no
 * retry); 412 → {@link FencedOffError}; anything else → {@link HopTransportError}.
 */
export function createHttpSender(options: HttpSenderOptions): HopSend {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    // the URL is not repeated: it may carry credentials (user:password@host)
    throw new HopError('HOP_CONFIG', 'createHttpSender: url is not a valid absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new HopError('HOP_CONFIG', `createHttpSender: url must be http: or https:, got ${url.protocol}`);
  const clock = options.clock ?? systemClock;
  const maxAttempts = options.maxConflictAttempts ?? 20;
  return async (req) => {
    let delay = options.conflictRetryDelayMs ?? 50;
    for (let attempt = 1; ; attempt++) {
      if (attempt > 1) {
        await clock.sleep(delay);
        delay = Math.min(delay * 2, 2000);
        await req.checkLease();
      }
      const res = await post(url, options, req);
      if (res.status >= 200 && res.status < 300) return res;
      if (res.status === 409) {
        if (attempt >= maxAttempts) throw new HopConflictError(409, attempt);
        req.onRetry?.(attempt + 1, res.status);
        continue;
      }
      if (res.status === 422) throw new HopRejectedError(422, req.step);
      if (res.status === 412) throw new FencedOffError(412, req.epoch);
      throw new HopTransportError(`remote answered HTTP ${res.status} for step ${req.step}`, res.status);
    }
  };
}

function post(url: URL, options: HttpSenderOptions, req: HopRequest): Promise<HopResponse> {
  const body = Buffer.from(req.body, 'utf8');
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    let r: ReturnType<typeof send>;
    try {
      r = send(url, {
        method: options.method ?? 'POST',
        agent: false,
        headers: {
          ...options.headers,
          'content-type': options.contentType ?? 'application/json',
          'content-length': String(body.length),
          [HopHeaders.IDEMPOTENCY_KEY]: req.idempotencyKey,
          [HopHeaders.LEASE_EPOCH]: String(req.epoch),
        },
      });
    } catch {
      // Node refuses an invalid method or header before anything is sent; its message is not
      // repeated (it can quote a header)
      return reject(new HopError('HOP_CONFIG', `hop to ${url.host} refused before sending: invalid method or header in the sender options`));
    }
    // The whole attempt, not the socket's idle time: a remote that trickles its answer a byte at a
    // time must not hold the attempt past the lease it was sent under.
    const deadline = setTimeout(() => r.destroy(new HopTransportError(`hop to ${url.host} timed out`)), options.timeoutMs ?? 30_000);
    r.once('close', () => clearTimeout(deadline));
    r.once('error', (err) =>
      reject(err instanceof HopTransportError ? err : new HopTransportError(`hop to ${url.host} failed (${errnoCode(err) ?? 'transport error'})`, undefined, { cause: err })),
    );
    r.once('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_RESPONSE) return res.destroy(new HopTransportError(`response from ${url.host} exceeds ${MAX_RESPONSE} bytes`));
        chunks.push(c);
      });
      res.once('error', (err) => reject(err instanceof HopTransportError ? err : new HopTransportError(`reading response from ${url.host} failed`, res.statusCode, { cause: err })));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    r.end(body);
  });
}
