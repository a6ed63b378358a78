/** Progress on stderr: only on a TTY, only once loading has taken more than a moment. */
export function createProgress(stderr: NodeJS.WritableStream, delayMs = 500): { update: (i: number, total: number, file: string) => void; done: () => void } {
  const tty = (stderr as NodeJS.WriteStream).isTTY === true;
  const start = Date.now();
  let shown = false;
  return {
    update(i, total, file) {
      if (!tty || Date.now() - start < delayMs) return;
      shown = true;
      const width = 20;
      const filled = Math.round((i / Math.max(total, 1)) * width);
      stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${i + 1}/${total} ${file.slice(-50)}\u001b[K`);
    },
    done() {
      if (shown) stderr.write('\r\u001b[K');
    },
  };
}
