import { HopEvents } from '@argspan/conventions';

/** The span events of one successful remote hop, in order (test support; not exported). */
export const REMOTE_HOP_EVENTS: readonly string[] = [
  HopEvents.CHECKPOINT_WRITTEN,
  HopEvents.PROBE,
  HopEvents.HOP_DECISION,
  HopEvents.LEASE_ACQUIRED,
  HopEvents.HOP_SENT,
  HopEvents.HOP_COMPLETED,
  HopEvents.CHECKPOINT_WRITTEN,
  HopEvents.LEASE_RELEASED,
];
