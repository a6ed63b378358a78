import type { HopEventAttributes, HopEventSink } from '../events.js';

/** An event sink that keeps what it was given. */
export function createRecorder(): HopEventSink & { events: { name: string; attributes: HopEventAttributes }[]; names(): string[] } {
  const events: { name: string; attributes: HopEventAttributes }[] = [];
  return {
    events,
    addEvent: (name, attributes = {}) => void events.push({ name, attributes }),
    names: () => events.map((e) => e.name),
  };
}
