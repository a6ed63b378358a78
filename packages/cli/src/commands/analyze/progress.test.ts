import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress } from './progress.js';

function stream(tty: boolean): { s: PassThrough; out: () => string } {
  const s = new PassThrough();
  let text = '';
  s.on('data', (d: Buffer) => (text += d.toString()));
  Object.assign(s, { isTTY: tty });
  return { s, out: () => text };
}

describe('analyze progress', () => {
  it('draws on a TTY once loading takes longer than the delay, then clears the line', async () => {
    const { s, out } = stream(true);
    const p = createProgress(s, 20, 10);
    p.update(0, 2, 'traces/a.jsonl');
    await new Promise((r) => setTimeout(r, 60));
    p.done();
    expect(out()).toContain('loading 1/2 traces/a.jsonl');
    expect(out().endsWith('\r\u001b[K')).toBe(true);
  });

  it('stays silent when stderr is not a TTY or loading is quick', async () => {
    const notTty = stream(false);
    const p1 = createProgress(notTty.s, 0, 5);
    p1.update(0, 1, 'x');
    await new Promise((r) => setTimeout(r, 30));
    p1.done();
    const quick = stream(true);
    const p2 = createProgress(quick.s, 1000, 5);
    p2.update(0, 1, 'x');
    p2.done();
    expect(notTty.out() + quick.out()).toBe('');
  });
});
