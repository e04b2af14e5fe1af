// Sending a batch of built sessions: one `POST /v1/sources/check` first, so a session the ledger
// holds already sends no body; the bodies of the rest; then each session's note. Every session gets
// its own answer: a refusal or a fault fails that session (or note), never the batch.
import { reason } from '../errors.js';
import { mapPool } from '../fs/pool.js';
import type { HubClient } from './hub/client.js';
import { buildNote } from './note.js';
import type { ReadySession } from './prepare.js';
import type { NoteReport, SessionReport } from './report.js';

/** Notes written at once within a batch. */
const noteConcurrency = 8;

interface LedgerEntry {
  id: string;
  project: string | null;
}

function str(o: unknown, key: string): string | null {
  if (typeof o !== 'object' || o === null) return null;
  const v = (o as Record<string, unknown>)[key];
  return typeof v === 'string' ? v : null;
}

/** The ledger rows a hub lists (agent logs), read once per run when a held hash needs its id. */
export class LedgerIndex {
  private rows: Map<string, LedgerEntry> | null = null;

  constructor(private readonly hub: HubClient) {}

  async lookup(sha256: string): Promise<LedgerEntry | null> {
    this.rows ??= await this.load();
    return this.rows.get(sha256) ?? null;
  }

  private async load(): Promise<Map<string, LedgerEntry>> {
    const rows = new Map<string, LedgerEntry>();
    let cursor: string | null = null;
    // A bound on pages, so a hub that keeps answering with a cursor cannot keep a run here forever.
    for (let page = 0; page < 10_000; page++) {
      const q: string = `/v1/sources?kind=agent_log&limit=100${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
      const answer = await this.hub.expect('GET', q);
      const body = answer.body as { sources?: unknown; cursor?: unknown };
      for (const row of Array.isArray(body.sources) ? body.sources : []) {
        const sha = str(row, 'sha256');
        const id = str(row, 'id');
        if (sha !== null && id !== null && !rows.has(sha)) rows.set(sha, { id, project: str(row, 'project') });
      }
      cursor = typeof body.cursor === 'string' ? body.cursor : null;
      if (cursor === null) break;
    }
    return rows;
  }

  /** Forgets what was read (a session uploaded since is then found on the next lookup). */
  remember(sha256: string, entry: LedgerEntry): void {
    this.rows?.set(sha256, entry);
  }
}

export interface UploadContext {
  hub: HubClient;
  ledger: LedgerIndex;
}

async function uploadBody(s: ReadySession, ctx: UploadContext): Promise<{ id: string; created: boolean }> {
  const answer = await ctx.hub.expect('POST', '/v1/sources', {
    kind: 'agent_log',
    scope: 'personal',
    path: `${s.record.agent} session ${s.record.session_id}`,
    project: s.project,
    body: s.body,
  });
  const id = str(answer.body, 'id');
  if (id === null) throw new Error('the hub answered without an id');
  return { id, created: answer.status === 201 };
}

async function writeNote(s: ReadySession, sourceId: string, ctx: UploadContext): Promise<NoteReport> {
  const note = buildNote(s.record, {
    agentName: s.reader.displayName,
    project: s.project,
    sourceId,
    transcriptUrl: ctx.hub.transcriptUrl(sourceId),
  });
  const base: NoteReport = { slug: note.slug, project: s.project, status: 'failed' };
  try {
    const answer = await ctx.hub.expect('POST', '/v1/notes', { slug: note.slug, title: note.title, body: note.body, project: s.project });
    const status = str(answer.body, 'status') === 'unchanged' ? 'unchanged' : 'written';
    const id = str(answer.body, 'id');
    return { ...base, status, ...(id === null ? {} : { id }), url: ctx.hub.transcriptUrl(sourceId) };
  } catch (error) {
    return { ...base, error: reason(error) };
  }
}

/** Sends one batch; returns each session's report with its status (and note) filled in. */
export async function sendBatch(batch: readonly ReadySession[], ctx: UploadContext): Promise<SessionReport[]> {
  let held: Set<string>;
  try {
    const answer = await ctx.hub.expect('POST', '/v1/sources/check', { hashes: batch.map((s) => s.sha256), scope: 'personal' });
    const list = (answer.body as { held?: unknown }).held;
    held = new Set(Array.isArray(list) ? list.filter((h): h is string => typeof h === 'string') : []);
  } catch (error) {
    return batch.map((s) => ({ ...s.report, status: 'failed', reason: reason(error) }));
  }
  const out: SessionReport[] = [];
  const placed: { s: ReadySession; id: string; status: 'uploaded' | 'unchanged'; at: number }[] = [];
  for (const s of batch) {
    let id: string;
    let status: 'uploaded' | 'unchanged';
    try {
      const known = held.has(s.sha256) ? await ctx.ledger.lookup(s.sha256) : null;
      // Held and listed (with its project, when it has one to gain): no body travels.
      if (known !== null && (known.project !== null || s.project === null)) {
        id = known.id;
        status = 'unchanged';
      } else {
        const sent = await uploadBody(s, ctx);
        id = sent.id;
        status = sent.created ? 'uploaded' : 'unchanged';
        ctx.ledger.remember(s.sha256, { id, project: s.project });
      }
    } catch (error) {
      out.push({ ...s.report, status: 'failed', reason: reason(error) });
      continue;
    }
    // Its place in the report is kept; the report itself is filled in once its note is written.
    placed.push({ s, id, status, at: out.length });
    out.push(s.report);
  }
  // Notes go a few at a time: an unchanged re-sync still writes each (the hub answers `unchanged`),
  // and one at a time that round trip is most of the run.
  const notes = await mapPool(placed, noteConcurrency, ({ s, id }) =>
    s.record.repo === '' ? Promise.resolve(null) : writeNote(s, id, ctx),
  );
  placed.forEach(({ s, id, status, at }, i) => {
    out[at] = { ...s.report, status, id, note: notes[i] ?? null };
  });
  return out;
}
