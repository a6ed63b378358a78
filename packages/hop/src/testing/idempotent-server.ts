import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HopHeaders } from '../http-sender.js';

/** Behaviour knobs of the test remote. */
export interface IdempotentServerOptions {
  /** Answer 409 this many times per key before processing it. @default 0 */
  conflictsPerKey?: number;
  /** Answer 422 for bodies containing this text. */
  rejectBodiesIncluding?: string;
  /** Text appended to every response body (to plant canaries in outputs). @default '' */
  responseSuffix?: string;
  /** Delay before answering a processed request, ms. @default 0 */
  delayMs?: number;
}

/** A loopback HTTP remote that honours Idempotency-Key and the lease epoch, and counts side effects. */
export interface IdempotentServer {
  url: string;
  port: number;
  /** Side effects per idempotency key (exactly-once means every value is 1). */
  sideEffects: Map<string, number>;
  /** Body of each key's first side effect, in the order they happened. */
  applied: { key: string; body: string; epoch: number }[];
  /** Every body received (for canary greps). */
  received: string[];
  /** Keys seen per request, in order (to check retries reuse the key). */
  keysSeen: string[];
  staleRejected: number;
  maxEpoch: number;
  close(): Promise<void>;
}

/**
 * Start the test remote on 127.0.0.1. POST /hop: a request with an epoch below the highest seen
 * is refused with 412 (fencing); a key in progress gets 409; a completed key gets its stored answer
 * without a second side effect. GET /health answers `argspan-ok` (for the probe's content check).
 */
export async function startIdempotentServer(options: IdempotentServerOptions = {}): Promise<IdempotentServer> {
  const completed = new Map<string, { status: number; body: string }>();
  const inProgress = new Set<string>();
  const conflicts = new Map<string, number>();
  const state = {
    sideEffects: new Map<string, number>(),
    applied: [] as IdempotentServer['applied'],
    received: [] as string[],
    keysSeen: [] as string[],
    staleRejected: 0,
    maxEpoch: 0,
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/health') return void res.end('argspan-ok');
      const body = Buffer.concat(chunks).toString('utf8');
      state.received.push(body);
      const key = req.headers[HopHeaders.IDEMPOTENCY_KEY.toLowerCase()];
      const epoch = Number(req.headers[HopHeaders.LEASE_EPOCH.toLowerCase()]);
      if (typeof key !== 'string' || !Number.isInteger(epoch)) {
        res.statusCode = 400;
        return void res.end('missing key or epoch');
      }
      state.keysSeen.push(key);
      if (epoch < state.maxEpoch) {
        state.staleRejected++;
        res.statusCode = 412;
        return void res.end('stale lease epoch');
      }
      state.maxEpoch = epoch;
      const done = completed.get(key);
      if (done) {
        res.statusCode = done.status;
        return void res.end(done.body);
      }
      if (inProgress.has(key)) {
        res.statusCode = 409;
        return void res.end('in progress');
      }
      const n = conflicts.get(key) ?? 0;
      if (n < (options.conflictsPerKey ?? 0)) {
        conflicts.set(key, n + 1);
        res.statusCode = 409;
        return void res.end('in progress');
      }
      if (options.rejectBodiesIncluding !== undefined && body.includes(options.rejectBodiesIncluding)) {
        completed.set(key, { status: 422, body: 'unprocessable' });
        res.statusCode = 422;
        return void res.end('unprocessable');
      }
      inProgress.add(key);
      state.sideEffects.set(key, (state.sideEffects.get(key) ?? 0) + 1);
      state.applied.push({ key, body, epoch });
      const answer = { status: 200, body: `applied ${state.applied.length}${options.responseSuffix ?? ''}` };
      setTimeout(() => {
        completed.set(key, answer);
        inProgress.delete(key);
        res.statusCode = answer.status;
        res.end(answer.body);
      }, options.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/hop`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** A loopback port with nothing listening (connect is refused at once). */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
