import { ArgspanClarificationError, ArgspanGateError } from '@argspan/instrumentation';

/** True for the typed errors the gate throws instead of dispatching. */
export function isGateError(err: unknown): err is ArgspanGateError {
  return err instanceof ArgspanGateError;
}

/**
 * The text a model is shown for a call the gate stopped: the clarifying question when the gate
 * asks, else the error message. Both name the tool, rule and key, never a value.
 */
export function refusalText(err: ArgspanGateError): string {
  return err instanceof ArgspanClarificationError ? err.question : err.message;
}
