// The quick search's message lane (seed 000 "Dashboard integration"): from 2 characters, debounced
// ~225 ms; a new query aborts the request in flight and an answer for an older query is dropped;
// a 429 is retried once after the server's Retry-After. Pure of the DOM: fetch and timers come in.

export type LaneAnswer<T> = { kind: 'ok'; body: T } | { kind: 'busy'; retryAfterMs: number } | { kind: 'error'; message: string };

/** One request for `query`; must reject (or resolve, ignored) when `signal` aborts. */
export type LaneFetch<T> = (query: string, signal: AbortSignal) => Promise<LaneAnswer<T>>;

export type LaneState<T> =
  | { status: 'idle' }
  | { status: 'loading'; query: string }
  | { status: 'done'; query: string; body: T }
  | { status: 'error'; query: string; message: string };

export interface LaneOptions {
  debounceMs: number;
  minChars: number;
  /** A Retry-After longer than this is cut to it: the person is typing now. */
  maxRetryWaitMs: number;
}

export const defaultLaneOptions: LaneOptions = { debounceMs: 225, minChars: 2, maxRetryWaitMs: 1000 };

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });

export class MessageLane<T> {
  #timer: ReturnType<typeof setTimeout> | null = null;
  #inFlight: AbortController | null = null;
  /** Bumped per query: an answer carrying an older generation is stale. */
  #generation = 0;
  #query = '';

  constructor(
    private readonly fetcher: LaneFetch<T>,
    private readonly onState: (state: LaneState<T>) => void,
    private readonly options: LaneOptions = defaultLaneOptions,
  ) {}

  /** The person typed: the lane (re)starts for `raw`, or goes idle under `minChars`. */
  input(raw: string): void {
    const query = raw.trim();
    if (query === this.#query) return;
    this.#query = query;
    this.#cancel();
    const generation = ++this.#generation;
    if ([...query].length < this.options.minChars) {
      this.onState({ status: 'idle' });
      return;
    }
    this.onState({ status: 'loading', query });
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#run(query, generation);
    }, this.options.debounceMs);
  }

  /** Runs the current query again now (e.g. the include-superseded toggle changed). */
  refresh(): void {
    const query = this.#query;
    this.#query = '';
    this.input(query);
  }

  dispose(): void {
    this.#cancel();
    this.#generation++;
  }

  #cancel(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#inFlight?.abort();
    this.#inFlight = null;
  }

  async #run(query: string, generation: number): Promise<void> {
    const controller = new AbortController();
    this.#inFlight = controller;
    const stale = (): boolean => generation !== this.#generation || controller.signal.aborted;
    try {
      let answer = await this.fetcher(query, controller.signal);
      if (answer.kind === 'busy' && !stale()) {
        await sleep(Math.min(answer.retryAfterMs, this.options.maxRetryWaitMs), controller.signal);
        if (stale()) return;
        answer = await this.fetcher(query, controller.signal);
      }
      if (stale()) return;
      if (answer.kind === 'ok') this.onState({ status: 'done', query, body: answer.body });
      else if (answer.kind === 'busy') this.onState({ status: 'error', query, message: 'The search is busy; type again in a moment.' });
      else this.onState({ status: 'error', query, message: answer.message });
    } catch (error) {
      if (stale()) return;
      this.onState({ status: 'error', query, message: error instanceof Error ? error.message : String(error) });
    } finally {
      if (this.#inFlight === controller) this.#inFlight = null;
    }
  }
}
