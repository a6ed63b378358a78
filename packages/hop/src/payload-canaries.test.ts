import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSecretDetector } from '@argspan/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HopRequest } from './http-sender.js';
import { createHttpSender } from './http-sender.js';
import { createHopRunner } from './runner.js';
import type { IdempotentServer } from './testing/idempotent-server.js';
import { closedPort, startIdempotentServer } from './testing/idempotent-server.js';
import { filesContaining } from './testing/state-files.js';

/**
 * Canaries of several providers planted anywhere in random JSON payloads — whole values, inside
 * text after a newline, a quote or a separator, as object keys, under credential keys — go
 * through the real protocol (a state directory on disk, a loopback remote, the durable queue on
 * every other run): no canary reaches what `send` receives, what the remote receives, or any
 * state file. Only canaries the detector recognises in plain text are planted: this checks that
 * redaction never depends on how JSON escapes the text around them.
 */
const RUNS = Number(process.env.HOP_CANARY_RUNS ?? '30');
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const DIGITS = '0123456789';

const run = (alphabet: string, n: number) => fc.string({ unit: fc.constantFrom(...alphabet), minLength: n, maxLength: n });
const canary = fc
  .oneof(
    run(ALNUM, 36).map((b) => `ghp_${b}`),
    run('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16).map((b) => `AKIA${b}`),
    run(ALNUM, 20).map((b) => `glpat-${b}`),
    run(ALNUM, 24).map((b) => `sk_live_${b}`),
    fc.tuple(run(DIGITS, 13), run(DIGITS, 13), run(ALNUM, 24)).map(([a, b, c]) => `xoxb-${a}-${b}-${c}`),
    run(`${ALNUM}_-`, 93).map((b) => `sk-ant-api03-${b}AA`),
    run(ALNUM, 36).map((b) => `npm_${b}`),
  )
  .filter((c) => defaultSecretDetector.find(c) !== undefined);

// what may stand next to a canary: a line break (escaped as \n in JSON), a quote (escaped as \"), ...
const boundary = fc.constantFrom('\n', '\r\n', ' ', '\t', '"', "'", '=', ': ', '(', ',', '\u2028');
const words = fc.string({ unit: fc.constantFrom(...'abc XYZ=01'), maxLength: 6 });

/** A text holding canary `c`: alone, or after/before some words and a boundary. */
const plantedText = (c: string) =>
  fc.oneof(
    fc.constant(c),
    fc.tuple(words, boundary, boundary, words).map(([pre, b1, b2, post]) => `${pre}${b1}${c}${b2}${post}`),
    fc.constant(`A=1\n${c}`),
  );

/** A random JSON value with the canaries planted in values and keys (at least one planted). */
function payloadWith(canaries: string[]) {
  const planted = fc.constantFrom(...canaries).chain(plantedText);
  const key = fc.oneof(fc.string({ maxLength: 6 }), planted, fc.constantFrom('password', 'api_key', 'Authorization', 'env', 'note'));
  const leaf = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 6 }), planted);
  const { node } = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(key, tie('node'), { maxKeys: 4 })),
  }));
  return fc
    .tuple(fc.array(node, { maxLength: 3 }), planted, key, fc.nat())
    .map(([items, one, k, at]) => {
      const list = [...items];
      list.splice(at % (list.length + 1), 0, at % 2 ? one : { [k]: one });
      return at % 3 ? list : Object.fromEntries(list.map((v, i) => [String(i), v]));
    });
}

let server: IdempotentServer;
let badPort: number;
const dir = mkdtempSync(join(tmpdir(), 'hop-canaries-'));
beforeAll(async () => {
  server = await startIdempotentServer();
  badPort = await closedPort();
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('canaries in random payloads', () => {
  it(`never reach send, the remote or the state directory (${RUNS} runs, every other one queued and drained)`, async () => {
    const runner = createHopRunner({ stateDir: dir, runId: 'canaries', probe: { host: '127.0.0.1', port: server.port, timeoutMs: 5000 } });
    const seen: string[] = [];
    const http = createHttpSender({ url: server.url });
    const send = (req: HopRequest) => (seen.push(req.body), http(req));
    let step = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(canary, { minLength: 1, maxLength: 3 }).chain((cs) => fc.tuple(fc.constant(cs), payloadWith(cs))),
        async ([canaries, payload]) => {
          const index = step++;
          const queued = index % 2 === 1;
          seen.length = 0;
          const received = server.received.length;
          const probe = queued ? { host: '127.0.0.1', port: badPort, timeoutMs: 150 } : undefined;
          const out = await runner.runHop({ step: { index, needRemoteCapacity: true }, payload, send, ...(probe ? { probe } : {}) });
          expect(out.decision).toBe(queued ? 'queue' : 'remote');
          if (queued) expect(filesContaining(dir, canaries)).toEqual([]); // the queue item, before it drains
          if (queued) expect((await runner.drainQueue({ send })).drained).toHaveLength(1);
          expect(seen).toHaveLength(1);
          const needles = canaries.flatMap((c) => [c, c.slice(-16)]);
          for (const body of [...seen, ...server.received.slice(received)]) {
            JSON.parse(body); // still JSON
            for (const n of needles) expect(body).not.toContain(n);
          }
          expect(filesContaining(dir, needles)).toEqual([]);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
