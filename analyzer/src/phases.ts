/** Called after each phase of an analysis with its wall and CPU time (CPU of the whole process: JS and DuckDB's threads). */
export type PhaseListener = (phase: string, wallMs: number, cpuMs: number) => void;

/** Run `fn` as the phase `name`, reporting its wall and CPU time to `on` (if any) when it succeeds. */
export async function phase<T>(on: PhaseListener | undefined, name: string, fn: () => Promise<T>): Promise<T> {
  if (!on) return fn();
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const result = await fn();
  const used = process.cpuUsage(cpu);
  on(name, performance.now() - wall, (used.user + used.system) / 1000);
  return result;
}
