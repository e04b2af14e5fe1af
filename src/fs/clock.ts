// Time as the layers below the CLI see it: an injected clock (tests pass a fixed or stepping one)
// and the one length of a day.

/** Where a module gets "now" from. */
export interface Clock {
  /** Epoch milliseconds, UTC. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Milliseconds in a day (a search window of N days reaches back N × this). */
export const dayMs = 86_400_000;
