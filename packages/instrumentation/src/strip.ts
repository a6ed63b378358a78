import { stripToPublicSchema } from '@argspan/core/internal';

/**
 * What a remote hop sends: the arguments with every key outside the tool's public schema removed
 * (core's `stripToPublicSchema`). Without a known schema nothing is stripped.
 */
export function stripForHop(args: unknown, publicKeys: readonly string[] | undefined): { args: unknown; stripped: string[] } {
  if (!publicKeys) return { args, stripped: [] };
  return stripToPublicSchema(args, publicKeys);
}
