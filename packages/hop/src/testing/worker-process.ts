import type { ChildProcess } from 'node:child_process';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The compiled crash worker (tests spawn the dist JS, which `npm test` builds first). */
export const WORKER_JS = fileURLToPath(new URL('../../dist/testing/crash-worker.js', import.meta.url));
const PKG = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Bring packages/hop/dist up to date (`tsc -b`, incremental: about a second when nothing changed),
 * so process tests never run a stale worker even when vitest is started without `npm test`.
 */
export function buildDist(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', join(PKG, 'tsconfig.json')], { stdio: 'pipe' });
  if (!existsSync(WORKER_JS)) throw new Error(`${WORKER_JS} missing after tsc -b`);
}

/** A running worker with its stdout split into JSON lines. */
export interface Worker {
  child: ChildProcess;
  lines: Record<string, unknown>[];
  /** Resolves with the first line matching `pred` (rejects if the worker exits first). */
  waitFor(pred: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  send(line: string): void;
}

export function startWorker(env: Record<string, string>): Worker {
  const child = spawn(process.execPath, [WORKER_JS], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: Record<string, unknown>[] = [];
  const waiters: { pred: (l: Record<string, unknown>) => boolean; resolve: (l: Record<string, unknown>) => void }[] = [];
  let buf = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buf += chunk;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const text = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        line = { raw: text };
      }
      lines.push(line);
      for (const w of waiters.filter((x) => x.pred(line))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  // ('close', not 'exit': the child's last lines may still be on their way through the pipes when it exits)
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  return {
    child,
    lines,
    exited,
    send: (line) => child.stdin!.write(line + '\n'),
    waitFor: (pred, timeoutMs = 20_000) => {
      const hit = lines.find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`worker ${child.pid}: no matching line within ${timeoutMs} ms; got ${JSON.stringify(lines)}`)), timeoutMs);
        waiters.push({ pred, resolve: (l) => (clearTimeout(timer), resolve(l)) });
        void exited.then((e) => {
          clearTimeout(timer);
          reject(new Error(`worker ${child.pid} exited (${e.code ?? e.signal}) before a matching line; got ${JSON.stringify(lines)} ${e.stderr}`));
        });
      });
    },
  };
}
