// What the message index knows that the session list wants: counts for /api/health and each
// session's first ask (its first user message, from the shard's first segment). Segments are
// content-named and immutable, so a first ask read once is never read again.
import { readManifest } from '../search/store.js';
import { readSegment } from '../search/shard-build.js';

export interface IndexFacts {
  state: 'empty' | 'ready';
  revision: number;
  window_days: number | null;
  sessions: number;
  messages: number;
}

const firstAskChars = 300;

export class IndexView {
  private readonly firstBySegment = new Map<string, string | null>();
  /** `<agent>:<session id>` → first ask, as of the last refresh. */
  private firstAsks = new Map<string, string>();
  facts: IndexFacts = { state: 'empty', revision: 0, window_days: null, sessions: 0, messages: 0 };

  constructor(private readonly root: string) {}

  firstAsk(agent: string, sessionId: string): string | null {
    return this.firstAsks.get(`${agent}:${sessionId}`) ?? null;
  }

  /** Re-reads the manifest (after a sweep) and the first segment of sessions not seen before. */
  async refresh(): Promise<void> {
    const read = await readManifest(this.root);
    if (read.state !== 'ok') {
      this.facts = { state: 'empty', revision: 0, window_days: null, sessions: 0, messages: 0 };
      return;
    }
    const m = read.manifest;
    const asks = new Map<string, string>();
    let messages = 0;
    const live = new Set<string>();
    for (const [key, entry] of Object.entries(m.sessions)) {
      messages += entry.records;
      const first = entry.segments[0]?.file;
      if (first === undefined) continue;
      live.add(first);
      if (!this.firstBySegment.has(first)) {
        const segment = await readSegment(this.root, first).catch(() => null);
        const ask = segment?.records.find((r) => r.role === 'user' && r.subagent !== true)?.text ?? null;
        this.firstBySegment.set(first, ask === null ? null : ask.replace(/\s+/g, ' ').trim().slice(0, firstAskChars));
      }
      const ask = this.firstBySegment.get(first);
      if (ask !== null && ask !== undefined) asks.set(key, ask);
    }
    for (const file of this.firstBySegment.keys()) if (!live.has(file)) this.firstBySegment.delete(file);
    this.firstAsks = asks;
    this.facts = { state: 'ready', revision: m.revision, window_days: m.window_days, sessions: Object.keys(m.sessions).length, messages };
  }
}
