/** Small helpers for benchmark scripts: medians of repeated timed runs, in one process. */

/** Median of `rounds` timings (µs per op) of `ops` calls to `fn`, after a warm-up. */
export function medianMicros(fn: () => unknown, ops: number, rounds = 15): number {
  for (let i = 0; i < ops; i++) fn();
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < ops; i++) fn();
    samples.push(Number(process.hrtime.bigint() - t0) / 1000 / ops);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

export function fmt(n: number, digits = 2): string {
  return n.toFixed(digits);
}
