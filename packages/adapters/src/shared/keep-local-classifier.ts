import { Verdict } from '@argspan/conventions';
import type { Residency } from '@argspan/conventions';
import type { ClassifyContext } from '@argspan/core';
import type { Classifier, ToolSchema } from '@argspan/instrumentation';

/** The residencies refused by default: a secret never enters the agent's context through a tool. */
export const DEFAULT_REFUSE_RESIDENCIES: readonly Residency[] = ['secret'];

/** Appended to the core's reason when the adapter turns a `local` verdict into `refuse`. Names no value. */
export function keptLocalReason(reason: string, residency: Residency): string {
  return `${reason}; refused: a ${residency} call is not dispatched because the tool's result goes back into the agent's context`;
}

/**
 * Wrap a classifier so that (1) schemas the adapter learned at run time (MCP `listTools`, a tool's
 * input schema) reach classification even when the instrumentation was built before they were
 * known, and (2) a call whose residency is in `refuse` gets verdict `refuse`: the instrumentation
 * then throws `ArgspanRefusedError` and never dispatches it. A throw in `base` propagates, so the
 * instrumentation fails closed.
 */
export function keepLocalClassifier(
  base: Classifier,
  refuse: readonly Residency[],
  learned: (tool: string) => ToolSchema | undefined,
): Classifier {
  const refused = new Set<string>(refuse);
  return (call, ctx, options) => {
    const c = base(call, withSchema(ctx, learned(call.tool)), options);
    if (refused.has(c.residency) && c.verdict !== Verdict.REFUSE) {
      return { ...c, verdict: Verdict.REFUSE, reason: keptLocalReason(c.reason, c.residency) };
    }
    return c;
  };
}

/** `ctx` with the learned schema's fields filled in where the instrumentation supplied none. */
function withSchema(ctx: ClassifyContext, schema: ToolSchema | undefined): ClassifyContext {
  if (!schema) return ctx;
  const out: ClassifyContext = { ...ctx };
  if (out.schemaDefaults === undefined && schema.defaults) out.schemaDefaults = schema.defaults;
  if (out.safeDefaults === undefined && schema.safeDefaults) out.safeDefaults = schema.safeDefaults;
  if (out.publicSchemaKeys === undefined && schema.publicKeys) out.publicSchemaKeys = schema.publicKeys;
  return out;
}
