import { redactionMarker } from '@argspan/core';
import { stripToPublicSchema } from '@argspan/core/internal';
import type { CallClassification, PathSegment } from '@argspan/core';

/**
 * What a remote hop sends: the arguments with every key outside the tool's public schema removed
 * (core's `stripToPublicSchema`; without a known schema nothing is stripped), and — in case a
 * custom classifier let such a call hop — every leaf labelled secret or dirty-tree (an inherited
 * label included) replaced by a marker naming its rule, before the hop checkpoints or sends it.
 */
export function stripForHop(
  args: unknown,
  publicKeys: readonly string[] | undefined,
  c: Pick<CallClassification, 'leaves' | 'flat'>,
): { args: unknown; stripped: string[] } {
  const out = publicKeys ? stripToPublicSchema(args, publicKeys) : { args, stripped: [] };
  for (let i = 0; i < c.leaves.length; i++) {
    const label = c.leaves[i]!;
    if (label.residency !== 'secret' && label.residency !== 'dirty-tree') continue;
    const path = c.flat[i]?.path;
    if (path && path.length > 0) out.args = replaceAt(out.args, path, redactionMarker(label.rule));
    else if (path) out.args = redactionMarker(label.rule);
  }
  return out;
}

/** `value` with the leaf at `path` replaced (copy on write: the snapshot others read is untouched). */
function replaceAt(value: unknown, path: readonly PathSegment[], marker: string): unknown {
  if (path.length === 0) return marker;
  if (value === null || typeof value !== 'object') return value;
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...(value as unknown[])] : { ...(value as Record<string, unknown>) }) as Record<string | number, unknown>;
  if (!Object.hasOwn(copy, head!)) return value;
  copy[head!] = replaceAt(copy[head!], rest, marker);
  return copy;
}
