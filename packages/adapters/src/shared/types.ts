import type { Residency } from '@argspan/conventions';
import type { ArgspanInstrumentationConfig } from '@argspan/instrumentation';

/**
 * Options every adapter takes: the instrumentation's own configuration (tracer provider, session,
 * policy, schemas, hash key, …) plus what "local" means for a framework tool.
 */
export interface AdapterOptions extends ArgspanInstrumentationConfig {
  /**
   * Call residencies the adapter refuses to dispatch even though the core verdict is `local`. A
   * framework tool's result goes straight back into the agent's context, which the model reads, so
   * a call whose arguments name or carry a secret (reading `.env`, sending an API key) is kept on
   * this machine by not running it: verdict `refuse`, `ArgspanRefusedError`, the tool is never
   * reached. Add `'dirty-tree'` when the agent's model is remote and must not see uncommitted work.
   * @default ['secret']
   */
  refuseResidencies?: readonly Residency[];
}

/** What a refused, blocked or asked call does in adapters that can answer the model instead of throwing. */
export type RefusalMode = 'throw' | 'result';
