// At most `slots` message-search queries run at once per process (seed 000: a cap of 2); one more
// waits up to `waitMs` for a slot, then is refused with 429 `busy` and Retry-After.
import { HttpError } from './http-error.js';

export class SearchGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly slots = 2,
    private readonly waitMs = 50,
  ) {}

  /** Runs `fn` in a slot, or throws 429 busy when none frees within the wait. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    // A finishing query hands its slot straight to the first waiter, so no newcomer slips in between.
    if (this.running >= this.slots) await this.wait();
    else this.running++;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next !== undefined) next();
      else this.running--;
    }
  }

  private wait(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const wake = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const i = this.waiting.indexOf(wake);
        if (i !== -1) this.waiting.splice(i, 1);
        reject(new HttpError(429, 'busy', 'two searches are already running; try again in a moment', { 'Retry-After': '1' }));
      }, this.waitMs);
      this.waiting.push(wake);
    });
  }
}
