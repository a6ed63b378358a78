import { redactName } from '@argspan/core';

/**
 * Progress on stderr: only on a TTY, and only once loading has taken more than a moment
 * (`delayMs`); then redrawn every `intervalMs` with the current file and the elapsed time, so
 * one large file shows progress too. Never writes to stdout.
 */
export function createProgress(
  stderr: NodeJS.WritableStream,
  delayMs = 500,
  intervalMs = 250,
): { update: (i: number, total: number, file: string) => void; done: () => void } {
  const tty = (stderr as NodeJS.WriteStream).isTTY === true;
  const start = Date.now();
  let state = { i: 0, total: 1, file: '' };
  let shown = false;
  const draw = () => {
    shown = true;
    const width = 20;
    const filled = Math.round((state.i / Math.max(state.total, 1)) * width);
    const secs = Math.round((Date.now() - start) / 1000);
    stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] loading ${state.i + 1}/${state.total} ${state.file.slice(-40)} (${secs}s)\u001b[K`);
  };
  let timer: NodeJS.Timeout | undefined;
  if (tty) {
    timer = setTimeout(function tick() {
      draw();
      timer = setTimeout(tick, intervalMs);
      timer.unref();
    }, delayMs);
    timer.unref();
  }
  return {
    update(i, total, file) {
      // (a file is named by whoever wrote it: a credential in its name is not drawn)
      state = { i, total, file: redactName(file) };
    },
    done() {
      if (timer) clearTimeout(timer);
      if (shown) stderr.write('\r\u001b[K');
    },
  };
}
