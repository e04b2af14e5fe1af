// Keeps what the MCP tools read fresh without sweeping on every call: one refresh before the
// first use, then at most one per interval (10 s), shared by calls that arrive meanwhile.

export class Throttled<T> {
  private last: { at: number; value: T } | null = null;
  private running: Promise<T> | null = null;

  constructor(
    private readonly refresh: () => Promise<T>,
    private readonly now: () => number,
    private readonly intervalMs = 10_000,
  ) {}

  /** The value of the latest refresh, refreshing first when none ran in the last interval. */
  async get(): Promise<T> {
    if (this.last !== null && this.now() - this.last.at < this.intervalMs) return this.last.value;
    if (this.running === null) {
      const started = this.now();
      this.running = this.refresh().then(
        (value) => {
          this.last = { at: started, value };
          this.running = null;
          return value;
        },
        (error: unknown) => {
          this.running = null;
          throw error;
        },
      );
    }
    return this.running;
  }
}
