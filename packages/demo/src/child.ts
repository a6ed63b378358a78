import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A compiled demo script run as a child process that reports milestones as JSON lines on stdout. */
export interface DemoChild {
  process: ChildProcess;
  /** Every JSON line the child printed so far. */
  events: Record<string, unknown>[];
  /** Resolves with the first event matching `pred` (already seen or still to come). */
  waitFor(pred: (e: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Resolves when the child has exited. */
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

export function spawnDemoChild(script: string, args: string[]): DemoChild {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const events: Record<string, unknown>[] = [];
  const waiters: { pred: (e: Record<string, unknown>) => boolean; resolve: (e: Record<string, unknown>) => void }[] = [];
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString('utf8')).slice(-4000)));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    let e: Record<string, unknown>;
    try {
      e = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    events.push(e);
    for (const w of waiters.splice(0)) {
      if (w.pred(e)) w.resolve(e);
      else waiters.push(w);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    process: child,
    events,
    exited,
    waitFor(pred, timeoutMs = 20_000) {
      const seen = events.find(pred);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${script}: no expected event within ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
        const done = (e: Record<string, unknown>) => (clearTimeout(timer), resolve(e));
        waiters.push({ pred, resolve: done });
        void exited.then(() => setTimeout(() => reject(new Error(`${script} exited before the expected event; stderr: ${stderr}`)), 50));
      });
    },
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
