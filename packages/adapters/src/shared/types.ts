import type { ArgspanInstrumentationConfig } from '@argspan/instrumentation';

/**
 * Options every adapter takes: the instrumentation's own configuration (tracer provider, session,
 * policy, schemas, hash key, …). The policy decides verdict and enforcement exactly as for
 * `instrumentDispatch`.
 */
export type AdapterOptions = ArgspanInstrumentationConfig;

/** What a refused, blocked or asked call does in adapters that can answer the model instead of throwing. */
export type RefusalMode = 'throw' | 'result';
