import type { Clock } from '../clock.js';

/** A clock tests can jump: `sleep` advances both clocks instead of waiting. */
export interface FakeClock extends Clock {
  /** Move the wall clock only (a jump: NTP step, suspend, manual change). */
  jumpWall(ms: number): void;
  /** Let time pass (wall and monotonic). */
  advance(ms: number): void;
}

export function createFakeClock(startWall = 1_800_000_000_000): FakeClock {
  let wall = startWall;
  let mono = 0;
  return {
    now: () => wall,
    monotonic: () => mono,
    sleep: async (ms) => {
      wall += ms;
      mono += ms;
      await Promise.resolve();
    },
    jumpWall: (ms) => {
      wall += ms;
    },
    advance: (ms) => {
      wall += ms;
      mono += ms;
    },
  };
}
