import type { HopStep } from './decide.js';
import { HopDeferredError, HopError, toHopError } from './errors.js';
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
 * event sink. Calls get consecutive step indexes starting where the checkpoint left off, so a
 * restarted agent that re-issues its calls re-sends under the same idempotency keys.
 * `queue` and `wait` decisions reject with {@link HopDeferredError} (the span records its class).
 */
export function createRemoteHop(runner: HopRunner, options: RemoteHopOptions): RemoteHopFn {
  if (typeof options?.send !== 'function') throw new HopError('HOP_CONFIG', 'createRemoteHop needs a `send` function');
  let next: number | undefined;
  const ready = runner.boot().then(
    (b) => void (next = b.resumeStep),
    () => undefined, // boot errors surface on the first call
  );
  return async (call, span) => {
    let inLocalTool = false;
    try {
      await ready;
      if (next === undefined) next = (await runner.boot()).resumeStep;
      const index = next++;
      const step = options.step
        ? await hook('step', index, () => options.step!(call, index))
        : { index, needRemoteCapacity: true, secretsLeft: call.residency === 'secret' };
      const out = await runner.runHop({ step, payload: call.args ?? null, send: options.send, span });
      switch (out.decision) {
        case 'remote':
          return options.decode ? await hook('decode', step.index, () => options.decode!(out.output, call)) : decodeDefault(out.output);
        case 'local': {
          if (out.replayed) return decodeDefault(out.output ?? '');
          if (!options.runLocal) throw new HopDeferredError('local', step.index, out.reason);
          inLocalTool = true;
          const result = await options.runLocal(call);
          inLocalTool = false;
          await runner.recordLocalResult({ step: step.index, output: result ?? null });
          return result;
        }
        case 'queue':
          throw new HopDeferredError('queue', step.index, out.reason, out.queueSeq);
        case 'wait':
          throw new HopDeferredError('wait', step.index, out.reason);
      }
    } catch (err) {
      // the local tool's own errors pass through as thrown: they are the call's result, not the protocol's
      if (inLocalTool) throw err;
      throw toHopError(err, 'remote hop');
    }
  };
}
