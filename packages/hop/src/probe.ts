import { request } from 'node:http';
import { connect } from 'node:net';

/** Why a probe failed (or `ok`). */
export type ProbeReason = 'ok' | 'refused' | 'timeout' | 'unreachable' | 'captive-portal' | 'http-status' | 'error';

/** Outcome of one probe. */
export interface ProbeResult {
  ok: boolean;
  reason: ProbeReason;
  /** Wall time the probe took, ms. */
  rttMs: number;
}

/**
 * Optional HTTP content check, for captive portals that accept TCP and then hijack HTTP: the
 * probe GETs `path` and is green only when the status and body match.
 */
export interface HttpContentCheck {
  /** Request path. @default '/' */
  path?: string;
  /** Status the real host answers. @default 200 */
  expectStatus?: number;
  /** Text the real host's body contains (a portal's login page does not). */
  expectBodyIncludes?: string;
  /** Host header to send. @default the target host */
  hostHeader?: string;
}

/** Where and how to probe. */
export interface ProbeTarget {
  host: string;
  port: number;
  /** Hard timeout for the whole probe (TCP connect plus the optional HTTP check). @default 150 */
  timeoutMs?: number;
  http?: HttpContentCheck;
}

/** A probe is any function answering "is the remote reachable right now?". */
export type ProbeFn = () => Promise<ProbeResult>;

/** Default hard timeout of a probe, ms (seed 001). */
export const DEFAULT_PROBE_TIMEOUT_MS = 150;

const MAX_BODY = 64 * 1024;

/**
 * Probe `target`: a TCP connect with a hard timeout, then, if configured, one HTTP GET whose
 * status and body must match. Never throws; the result says why it failed.
 */
export function probeTarget(target: ProbeTarget): Promise<ProbeResult> {
  if (typeof target !== 'object' || target === null) return Promise.resolve({ ok: false, reason: 'error', rttMs: 0 });
  const timeoutMs = target.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 100) / 100;
  return new Promise<ProbeResult>((resolve) => {
    let settled = false;
    const cleanups: (() => void)[] = [];
    const finish = (reason: ProbeReason) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      for (const c of cleanups) c();
      resolve({ ok: reason === 'ok', reason, rttMs: elapsed() });
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    let socket: ReturnType<typeof connect>;
    try {
      socket = connect({ host: target.host, port: target.port });
    } catch {
      // (Node refuses a port out of range or a host that is not a string, quoting it: not repeated)
      return finish('error');
    }
    cleanups.push(() => socket.destroy());
    socket.once('error', (err: NodeJS.ErrnoException) => finish(classify(err)));
    socket.once('connect', () => {
      if (!target.http) return finish('ok');
      socket.destroy();
      const check = target.http;
      const req = request({
        host: target.host,
        port: target.port,
        path: check.path ?? '/',
        method: 'GET',
        agent: false,
        headers: { host: check.hostHeader ?? target.host, connection: 'close' },
      });
      cleanups.push(() => req.destroy());
      req.once('error', (err: NodeJS.ErrnoException) => finish(classify(err)));
      req.once('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < MAX_BODY) chunks.push(c);
          size += c.length;
        });
        res.once('error', () => finish('error'));
        res.once('end', () => {
          if (res.statusCode !== (check.expectStatus ?? 200)) {
            // A redirect or a login page instead of the host's own answer: a captive portal.
            return finish(res.statusCode !== undefined && res.statusCode >= 300 && res.statusCode < 400 ? 'captive-portal' : 'http-status');
          }
          if (check.expectBodyIncludes !== undefined && !Buffer.concat(chunks).toString('utf8').includes(check.expectBodyIncludes)) {
            return finish('captive-portal');
          }
          finish('ok');
        });
      });
      req.end();
    });
  });
}

function classify(err: NodeJS.ErrnoException): ProbeReason {
  switch (err.code) {
    case 'ECONNREFUSED':
      return 'refused';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'unreachable';
    case 'ETIMEDOUT':
      return 'timeout';
    default:
      return 'error';
  }
}
