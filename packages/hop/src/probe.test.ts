import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PROBE_TIMEOUT_MS, probeTarget, type ProbeTarget } from './probe.js';
import { closedPort } from './testing/idempotent-server.js';

const servers: { close(cb?: () => void): unknown }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(() => r(undefined)))));
});

async function http(handler: Parameters<typeof createServer>[0]): Promise<number> {
  const s: Server = createServer(handler);
  servers.push({ close: (cb) => (s.closeAllConnections(), s.close(cb)) });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as AddressInfo).port;
}

describe('probeTarget', () => {
  it('defaults to the seed 150 ms hard timeout', () => {
    expect(DEFAULT_PROBE_TIMEOUT_MS).toBe(150);
  });

  it('never throws: a target Node refuses (a port out of range, not a number, no target) is an error result naming no value', async () => {
    for (const target of [{ host: '127.0.0.1', port: 99999 }, { host: '127.0.0.1', port: '4318x' }, null]) {
      await expect(probeTarget(target as unknown as ProbeTarget)).resolves.toMatchObject({ ok: false, reason: 'error' });
    }
  });

  it('is green when TCP connects', async () => {
    const port = await http((_q, s) => s.end());
    const r = await probeTarget({ host: '127.0.0.1', port, timeoutMs: 5000 });
    expect(r).toMatchObject({ ok: true, reason: 'ok' });
    expect(r.rttMs).toBeGreaterThanOrEqual(0);
  });

  it('fails fast on a refused connect', async () => {
    const r = await probeTarget({ host: '127.0.0.1', port: await closedPort(), timeoutMs: 5000 });
    expect(r).toMatchObject({ ok: false, reason: 'refused' });
  });

  it('checks content: green only when status and body match', async () => {
    const port = await http((_q, s) => s.end('argspan-ok'));
    expect(await probeTarget({ host: '127.0.0.1', port, timeoutMs: 5000, http: { path: '/health', expectBodyIncludes: 'argspan-ok' } })).toMatchObject({ ok: true });
  });

  it('spots a captive portal that accepts TCP and redirects HTTP', async () => {
    const port = await http((_q, s) => {
      s.statusCode = 302;
      s.setHeader('location', 'http://portal.example/login');
      s.end();
    });
    expect(await probeTarget({ host: '127.0.0.1', port, timeoutMs: 5000, http: { expectBodyIncludes: 'argspan-ok' } })).toMatchObject({ ok: false, reason: 'captive-portal' });
  });

  it('spots a captive portal that answers 200 with its own login page', async () => {
    const port = await http((_q, s) => s.end('<html>Please log in to the hotel wifi</html>'));
    expect(await probeTarget({ host: '127.0.0.1', port, timeoutMs: 5000, http: { expectBodyIncludes: 'argspan-ok' } })).toMatchObject({ ok: false, reason: 'captive-portal' });
  });

  it('reports an unexpected status', async () => {
    const port = await http((_q, s) => ((s.statusCode = 503), s.end()));
    expect(await probeTarget({ host: '127.0.0.1', port, timeoutMs: 5000, http: {} })).toMatchObject({ ok: false, reason: 'http-status' });
  });

  it('enforces the hard timeout when the host accepts TCP and never answers', async () => {
    const sockets: import('node:net').Socket[] = [];
    const tcp = createTcpServer((sock) => void sockets.push(sock)); // accepts, never speaks HTTP
    servers.push({ close: (cb) => (sockets.forEach((x) => x.destroy()), tcp.close(cb)) });
    await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
    const port = (tcp.address() as AddressInfo).port;
    const t0 = performance.now();
    const r = await probeTarget({ host: '127.0.0.1', port, timeoutMs: 120, http: {} });
    const took = performance.now() - t0;
    expect(r).toMatchObject({ ok: false, reason: 'timeout' });
    expect(took).toBeGreaterThanOrEqual(100);
    expect(took).toBeLessThan(2000); // bounded: the probe never hangs with the host
  });
});
