/**
 * @argspan/hop — the write-ahead hop protocol (seed 001): checkpoint to local disk, probe the
 * host, take a lease, send with an idempotency key, checkpoint the result, release. Offline work
 * waits, redacted, in a durable FIFO queue.
 */
export { createHopRunner, DEFAULT_STATE_DIR } from './runner.js';
export type { HopRunner } from './runner.js';
export type {
  HopRunnerOptions,
  RunHopInput,
  HopOutcome,
  DrainInput,
  DrainReport,
  DrainedItem,
  BootReport,
} from './types.js';
export { createRemoteHop } from './remote-hop.js';
export type { RemoteHopCall, RemoteHopOptions, RemoteHopFn } from './remote-hop.js';
export { decide } from './decide.js';
export type { HopStep, DecisionReason, LeaseFacts } from './decide.js';
export { probeTarget, DEFAULT_PROBE_TIMEOUT_MS } from './probe.js';
export type { ProbeTarget, ProbeResult, ProbeReason, ProbeFn, HttpContentCheck } from './probe.js';
export { createHttpSender, HopHeaders } from './http-sender.js';
export type { HopRequest, HopResponse, HopSend, HttpSenderOptions } from './http-sender.js';
export { systemClock } from './clock.js';
export type { Clock } from './clock.js';
export { nodeFs } from './fs-layer.js';
export type { HopFs, HopFileHandle } from './fs-layer.js';
export type { HopEventSink, HopEventAttributes, HopEventAttributeValue } from './events.js';
export type { Checkpoint, CheckpointPhase } from './checkpoint-store.js';
export type { Lease, LeaseRecord, LeaseView, LeaseEndReason } from './lease.js';
export type { QueueItem } from './queue.js';
export type { QuarantineReport } from './quarantine.js';
export type { RecordDefect } from './record.js';
export { WRITE_KINDS, WRITE_STAGES, PROTOCOL_POINTS } from './faults.js';
export type { HopFaultPoint, FaultHook, WriteKind, WriteStage, ProtocolPoint } from './faults.js';
export {
  HopError,
  HopStateError,
  LeaseLostError,
  FencedOffError,
  HopRejectedError,
  HopConflictError,
  HopTransportError,
  HopDeferredError,
} from './errors.js';
