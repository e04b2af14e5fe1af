// Keeps what the MCP tools read fresh without sweeping on every call: one refresh before the
// first use, then at most one per interval (10 s), run in the background while calls are
// answered from the previous one, so no call after the first waits for a sweep.

export class Throttled<T> {
  private last: { at: number; value: T } | null = null;
  private running: Promise<T> | null = null;

  constructor(
    private readonly refresh: () => Promise<T>,
    private readonly now: () => number,
    private readonly intervalMs = 10_000,
    private readonly onBackgroundError: (error: unknown) => void = () => undefined,
  ) {}

  private start(): Promise<T> {
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

  private refreshIfStale(): void {
    if (this.last !== null && this.now() - this.last.at >= this.intervalMs && this.running === null)
      this.start().catch(this.onBackgroundError);
  }

  /** The latest value; the first call waits for the first refresh, later ones never wait. */
  async get(): Promise<T> {
    if (this.last === null) return this.start();
    this.refreshIfStale();
    return this.last.value;
  }

  /** The latest value if there is one (starting the first refresh in the background if not), else null. */
  peek(): T | null {
    if (this.last === null) this.start().catch(this.onBackgroundError);
    else this.refreshIfStale();
    return this.last?.value ?? null;
  }
}
