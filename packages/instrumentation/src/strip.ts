/**
 * What a remote hop sends: the arguments with every key outside the tool's public schema removed.
 * Placeholder until `stripToPublicSchema` lands in @argspan/core: without a schema nothing is
 * stripped; with one, only top-level keys are kept.
 */
export function stripForHop(
  args: unknown,
  publicKeys: readonly string[] | undefined,
  _classified: readonly string[],
): { args: unknown; stripped: string[] } {
  if (!publicKeys || typeof args !== 'object' || args === null || Array.isArray(args)) return { args, stripped: [] };
  const keep = new Set(publicKeys);
  const out: Record<string, unknown> = {};
  const stripped: string[] = [];
  for (const [k, v] of Object.entries(args)) {
    if (keep.has(k)) out[k] = v;
    else stripped.push(k);
  }
  return { args: out, stripped };
}
