import type { HopStep } from './decide.js';
import { HopConflictError, HopDeferredError, HopError, HopTransportError, LeaseLostError, toHopError } from './errors.js';
import type { HopEventSink } from './events.js';
import type { HopSend } from './http-sender.js';
import type { HopRunner } from './runner.js';

/**
 * The fields of `@argspan/instrumentation`'s `RemoteHopRequest` the protocol uses (declared here
 * structurally, so the instrumentation can depend on this package and not the other way round).
 */
export interface RemoteHopCall {
  tool: string;
  callId: string;
  /** Arguments already stripped to the tool's public schema. */
  args: unknown;
  /** The call's residency label; `secret` means a secret is left (the protocol then keeps it local). */
  residency?: string;
}

/** Options of {@link createRemoteHop}. */
export interface RemoteHopOptions {
  /** Transport of the hop (e.g. `createHttpSender`). Receives the redacted, stripped arguments as JSON. */
  send: HopSend;
  /** Turn the remote's response body into the tool's result. @default JSON.parse, else the raw text */
  decode?: (body: string, call: RemoteHopCall) => unknown;
  /**
   * Run the call locally when the protocol decides `local` (a secret left after redaction, or the
   * step does not need remote capacity); its result is checkpointed. @default none: throw {@link HopDeferredError}
   */
  runLocal?: (call: RemoteHopCall) => Promise<unknown>;
  /** The protocol step of a call. @default `{ index, needRemoteCapacity: true, secretsLeft: residency === 'secret' }` */
  step?: (call: RemoteHopCall, index: number) => HopStep;
}

/** A function of the instrumentation's `RemoteHop` shape: `(request, span) => Promise<result>`. */
export type RemoteHopFn = (call: RemoteHopCall, span: HopEventSink) => Promise<unknown>;

/**
 * Run a caller's hook; what it throws becomes {@link HopError} `HOP_HOOK` naming the hook and the
 * step, never its message (a decode error may quote the response).
 */
async function hook<T>(name: 'step' | 'decode', step: number, fn: () => T): Promise<Awaited<T>> {
  try {
    return await fn();
  } catch {
    throw new HopError('HOP_HOOK', `the ${name} hook of createRemoteHop threw for step ${step}`);
  }
}

const decodeDefault = (body: string): unknown => {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
};

/**
 * Plug the hop protocol into the instrumentation's wrapper: pass the result as its `remote`
 * option, and every `remote-ok` call runs through `runHop` with its `execute_tool` span as the
 * event sink. Calls get consecutive step indexes starting where the checkpoint left off: a
 * restarted agent whose first call is the one that was in flight re-sends it under the same
 * idempotency key, and so does a call issued again right after its outcome was left unknown (a
 * timeout, a reset, a 409 past its retries, a lost lease) or its answer failed `decode` (replayed
 * from the checkpoint, not performed again). `queue` and `wait` decisions reject with
 * {@link HopDeferredError} (the span records its class).
 */
export function createRemoteHop(runner: HopRunner, options: RemoteHopOptions): RemoteHopFn {
  if (typeof options?.send !== 'function') throw new HopError('HOP_CONFIG', 'createRemoteHop needs a `send` function');
  let next: number | undefined;
  // The last call whose outcome is unknown, or whose answer the caller could not decode, by its step
  // and what it is (the tool and its stripped arguments as JSON, held in memory only, never
  // written): the same call issued again next runs at that step, so the remote sees the same
  // idempotency key and performs it once (a step already done is replayed from its checkpoint).
  let unknownOutcome: { index: number; call: string } | undefined;
  const ready = runner.boot().then(
    (b) => void (next = b.resumeStep),
    () => undefined, // boot errors surface on the first call
  );
  return async (call, span) => {
    const progress: StepProgress = { running: false, performed: false };
    try {
      await ready;
      if (next === undefined) next = (await runner.boot()).resumeStep;
      const what = callText(call);
      const retry = unknownOutcome !== undefined && unknownOutcome.index === next - 1 && unknownOutcome.call === what;
      const index = retry ? unknownOutcome!.index : next++;
      unknownOutcome = undefined;
      try {
        return await runStep(runner, options, call, span, index, progress);
      } catch (err) {
        const unknown = err instanceof HopTransportError || err instanceof HopConflictError || err instanceof LeaseLostError;
        if (what !== undefined && (unknown || progress.performed)) unknownOutcome = { index, call: what };
        throw err;
      }
    } catch (err) {
      // the local tool's own errors pass through as thrown: they are the call's result, not the protocol's
      if (progress.running) throw err;
      throw toHopError(err, 'remote hop');
    }
  };
}

/** A call as one text (tool and arguments), to tell the same call issued again; undefined when its arguments are not JSON. */
function callText(call: RemoteHopCall): string | undefined {
  try {
    return JSON.stringify([call.tool, call.args ?? null]);
  } catch {
    return undefined;
  }
}

/** How far a step got: `running` while the caller's local tool runs; `performed` once the remote answered (its `done` checkpoint written). */
interface StepProgress {
  running: boolean;
  performed: boolean;
}

/** Run one call as protocol step `index`, recording in `progress` how far it got. */
async function runStep(runner: HopRunner, options: RemoteHopOptions, call: RemoteHopCall, span: HopEventSink, index: number, progress: StepProgress): Promise<unknown> {
  const step = options.step ? await hook('step', index, () => options.step!(call, index)) : { index, needRemoteCapacity: true, secretsLeft: call.residency === 'secret' };
  const out = await runner.runHop({ step, payload: call.args ?? null, send: options.send, span });
  switch (out.decision) {
    case 'remote':
      progress.performed = true;
      return options.decode ? await hook('decode', step.index, () => options.decode!(out.output, call)) : decodeDefault(out.output);
    case 'local': {
      if (out.replayed) return decodeDefault(out.output ?? '');
      if (!options.runLocal) throw new HopDeferredError('local', step.index, out.reason);
      progress.running = true;
      const result = await options.runLocal(call);
      progress.running = false;
      await runner.recordLocalResult({ step: step.index, output: result ?? null });
      return result;
    }
    case 'queue':
      throw new HopDeferredError('queue', step.index, out.reason, out.queueSeq);
    case 'wait':
      throw new HopDeferredError('wait', step.index, out.reason);
  }
}
