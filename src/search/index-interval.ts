// How often `index --watch` sweeps by default: its own module so the CLI's help names it without
// loading the sweep.
export const defaultIntervalMs = 30_000;
