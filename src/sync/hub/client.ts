// The sync client's side of the hub's HTTP API (the routes in src/hub/app.ts): bearer-token
// requests with retries for network faults, 5xx and 429 (exponential backoff, each attempt and the
// whole request time-limited), and a breaker: after a few requests in a row have failed every
// retry, the rest of the run fails fast instead of waiting out each one (every session still gets
// its own answer: one failure never aborts a run).
import { SyncError } from '../allow/errors.js';

export interface RetryPolicy {
  /** Attempts per request (the first included). */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** One attempt's limit. */
  attemptTimeoutMs: number;
  /** A request's limit over every attempt and wait. */
  requestTimeoutMs: number;
  /** Requests in a row that failed every attempt before the client stops retrying. */
  breakerAfter: number;
}

export const defaultRetry: RetryPolicy = {
  attempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 4000,
  attemptTimeoutMs: 30_000,
  requestTimeoutMs: 60_000,
  breakerAfter: 3,
};

export interface HubClientOptions {
  url: string;
  token: string;
  userAgent: string;
  retry?: Partial<RetryPolicy>;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export interface HubAnswer {
  status: number;
  body: unknown;
}

const retryable = (status: number): boolean => status === 429 || status >= 500;

function errorText(body: unknown, status: number): string {
  if (typeof body === 'object' && body !== null && 'error' in body) {
    const e = (body as { error: unknown }).error;
    if (typeof e === 'object' && e !== null) {
      const { code, message } = e as { code?: unknown; message?: unknown };
      return `${typeof code === 'string' ? code : status}: ${typeof message === 'string' ? message : 'refused'}`;
    }
  }
  return `HTTP ${status}`;
}

export class HubClient {
  private readonly base: string;
  private readonly retry: RetryPolicy;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private failedInARow = 0;

  constructor(private readonly opts: HubClientOptions) {
    this.base = opts.url.replace(/\/+$/, '');
    this.retry = { ...defaultRetry, ...opts.retry };
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.now = opts.now ?? Date.now;
  }

  /** The page a person reads a source's transcript at. */
  transcriptUrl(sourceId: string): string {
    return `${this.base}/wiki.html?view=sessions&source=${encodeURIComponent(sourceId)}`;
  }

  /**
   * One request with retries. Answers any status the hub gave that is not worth retrying (2xx, 4xx);
   * throws `HubUnreachable` when every attempt failed.
   */
  async request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<HubAnswer> {
    const tripped = this.failedInARow >= this.retry.breakerAfter;
    const attempts = tripped ? 1 : this.retry.attempts;
    const deadline = this.now() + this.retry.requestTimeoutMs;
    let last = 'no attempt made';
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) {
        const wait = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
        if (this.now() + wait >= deadline) break;
        await this.sleep(wait);
      }
      const left = Math.max(1, Math.min(this.retry.attemptTimeoutMs, deadline - this.now()));
      try {
        const res = await fetch(`${this.base}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${this.opts.token}`,
            'user-agent': this.opts.userAgent,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(left),
        });
        const text = await res.text();
        let json: unknown = null;
        try {
          json = text === '' ? null : JSON.parse(text);
        } catch {
          json = null;
        }
        if (retryable(res.status)) {
          last = errorText(json, res.status);
          continue;
        }
        this.failedInARow = 0;
        return { status: res.status, body: json };
      } catch (error) {
        last =
          error instanceof Error
            ? error.cause instanceof Error
              ? `${error.message}: ${error.cause.message}`
              : error.message
            : String(error);
      }
    }
    this.failedInARow++;
    throw new SyncError('HubUnreachable', 'failed', `the hub at ${this.base} did not answer ${method} ${path} (${last})`);
  }

  /** A 2xx answer's body, or `HubRefused` with the hub's own reason. */
  async expect(method: 'GET' | 'POST', path: string, body?: unknown): Promise<HubAnswer> {
    const answer = await this.request(method, path, body);
    if (answer.status >= 200 && answer.status < 300) return answer;
    const kind = answer.status === 401 || answer.status === 403 ? 'usage' : 'failed';
    throw new SyncError('HubRefused', kind, `the hub refused ${method} ${path}: ${errorText(answer.body, answer.status)}`);
  }
}
