// The app through a real socket on 127.0.0.1: event streams (replay, live, resume), the search cap,
// searches, rename, report.zip and a session read from its kept copy after the vendor deleted it.
import { appendFile, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { sweep } from '../search/sweep.js';
import type { DeepSearchLine, ErrorBody, MessageSearchBody, RenameBody, SessionDetailBody, SessionsBody } from './api-types.js';
import { createApp } from './app.js';
import { machine, testToken, type Machine } from './test-support/fixture-home.js';
import { hasCorpus } from '../../test/support/corpus.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function listen(m: Machine): Promise<string> {
  // Bind first to learn the port, then build the app for that exact Host.
  let port = 0;
  const app = {
    fetch: (req: Request) =>
      createApp({ store: m.store, token: testToken, host: '127.0.0.1', port, webRoot: null, userHome: m.root, eventsPollMs: 100 }).fetch(
        req,
      ),
  };
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }) as Server;
  servers.push(server);
  await new Promise<void>((r) => server.once('listening', () => r()));
  port = (server.address() as AddressInfo).port;
  return `http://127.0.0.1:${port}`;
}

const auth = { Authorization: `Bearer ${testToken}` };

interface SseEvent {
  event: string;
  id: string | undefined;
  data: unknown;
}

/** Reads SSE events from a response until `until` says stop. */
async function readEvents(res: Response, until: (events: SseEvent[]) => boolean, timeoutMs = 5000): Promise<SseEvent[]> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let buf = '';
  const deadline = Date.now() + timeoutMs;
  while (!until(events)) {
    if (Date.now() > deadline) throw new Error(`timed out with ${events.length} events: ${events.map((e) => e.event).join(',')}`);
    const { value, done } = await reader.read();
    if (done) break;
    buf += decoder.decode(value, { stream: true });
    for (let at = buf.indexOf('\n\n'); at !== -1; at = buf.indexOf('\n\n')) {
      const block = buf.slice(0, at);
      buf = buf.slice(at + 2);
      const ev: SseEvent = { event: 'message', id: undefined, data: null };
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) ev.event = line.slice(7);
        else if (line.startsWith('id: ')) ev.id = line.slice(4);
        else if (line.startsWith('data: ')) ev.data = JSON.parse(line.slice(6));
      }
      events.push(ev);
    }
  }
  await reader.cancel();
  return events;
}

const claudeId = '1af7fc5e-8455-4414-9ccd-011d40f70b2a';
const claudeFile = (m: Machine): string => join(m.root, '.claude', 'projects', '-sample-project', `${claudeId}.jsonl`);
const newLine = (n: number): string =>
  `${JSON.stringify({ type: 'user', uuid: `live-${n}`, sessionId: claudeId, timestamp: new Date().toISOString(), message: { role: 'user', content: `live line ${n}` } })}\n`;

describe.skipIf(!hasCorpus)('events', () => {
  it('replays, then streams appends live, and resumes from Last-Event-ID with no gap or repeat', async () => {
    const m = await machine();
    const base = await listen(m);
    const url = `${base}/api/session/claude_code/${claudeId}/events`;
    const detail = (await (
      await fetch(`${base}/api/session/claude_code/${claudeId}?limit=1`, { headers: auth })
    ).json()) as SessionDetailBody;
    const res = await fetch(url, { headers: auth });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const t0 = Date.now();
    const replay = await readEvents(res, (e) => e.some((x) => x.event === 'replay_end'));
    expect(replay[0]?.event).toBe('replay_start');
    const entries = replay.filter((e) => e.event === 'entry');
    expect(entries).toHaveLength(detail.total);
    expect(Date.now() - t0).toBeLessThan(5000);

    const live = await fetch(url, { headers: auth });
    const pending = readEvents(live, (e) => e.filter((x) => x.event === 'entry').length > detail.total);
    await new Promise((r) => setTimeout(r, 300));
    const wrote = Date.now();
    await appendFile(claudeFile(m), newLine(1));
    const got = await pending;
    expect(Date.now() - wrote).toBeLessThan(1000);
    const last = got.filter((e) => e.event === 'entry').at(-1) as SseEvent;
    expect((last.data as { preview: string }).preview).toBe('live line 1');

    // Resume from the last entry seen: only what came after it.
    await appendFile(claudeFile(m), newLine(2) + newLine(3));
    const resumed = await fetch(url, { headers: { ...auth, 'Last-Event-ID': last.id as string } });
    const after = await readEvents(resumed, (e) => e.some((x) => x.event === 'replay_end'));
    expect(after.filter((e) => e.event === 'entry').map((e) => (e.data as { preview: string }).preview)).toEqual([
      'live line 2',
      'live line 3',
    ]);
    const bad = await fetch(url, { headers: { ...auth, 'Last-Event-ID': 'yesterday' } });
    expect(bad.status).toBe(400);
  });
});

describe.skipIf(!hasCorpus)('searches', () => {
  it('serves the search --json document with no-store, and a third concurrent query gets 429 busy', async () => {
    const m = await machine();
    await sweep({ root: m.store.searchRoot, agents: m.store.readableAgents(), windowDays: 0 });
    const base = await listen(m);
    const res = await fetch(`${base}/api/sessions/message-search?q=auth+middleware`, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as MessageSearchBody;
    expect(body.ok).toBe(true);
    expect(body.sessions.map((s) => s.agent)).toContain('intendant');
    const required = await fetch(`${base}/api/sessions/message-search?q=`, { headers: auth });
    expect(required.status).toBe(400);
    expect(((await required.json()) as ErrorBody).error.code).toBe('QueryRequired');

    // Two queries hold both slots; the third waits 50 ms and is refused.
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    const a = m.store.gate.run(() => held);
    const b = m.store.gate.run(() => held);
    const t0 = Date.now();
    const busy = await fetch(`${base}/api/sessions/message-search?q=auth`, { headers: auth });
    expect(busy.status).toBe(429);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(45);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(((await busy.json()) as ErrorBody).error.code).toBe('busy');
    release();
    await Promise.all([a, b]);
    expect((await fetch(`${base}/api/sessions/message-search?q=auth`, { headers: auth })).status).toBe(200);
  });

  it('streams deep-search hits as NDJSON, tool output included, then a summary', async () => {
    const m = await machine();
    const base = await listen(m);
    const res = await fetch(`${base}/api/sessions/deep-search?q=middleware`, { headers: auth });
    expect(res.headers.get('content-type')).toMatch(/ndjson/);
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as DeepSearchLine);
    const summary = lines.at(-1);
    expect(summary?.type).toBe('summary');
    expect(lines.filter((l) => l.type === 'hit').length).toBe(summary?.type === 'summary' ? summary.hits : -1);
    expect(lines.some((l) => l.type === 'hit' && l.agent === 'intendant')).toBe(true);
    const limited = (await (await fetch(`${base}/api/sessions/deep-search?q=the&max_hits=2`, { headers: auth })).text()).trim().split('\n');
    expect(JSON.parse(limited.at(-1) as string)).toMatchObject({ type: 'summary', hits: 2, stopped: 'hit_limit' });
  });
});

describe.skipIf(!hasCorpus)('custody through the server', () => {
  it('renames, zips the kept tree, and reads a session from the kept copy after its vendor files are deleted', async () => {
    const m = await machine();
    const base = await listen(m);
    const put = await fetch(`${base}/api/session/claude_code/${claudeId}/name`, {
      method: 'PUT',
      headers: { ...auth, 'Content-Type': 'application/json', Origin: base },
      body: JSON.stringify({ name: 'Sample two' }),
    });
    expect(put.status).toBe(200);
    expect((await put.json()) as RenameBody).toMatchObject({ name: 'Sample two', stored_in: 'overlay' });
    const listed = (await (await fetch(`${base}/api/sessions?q=sample+two`, { headers: auth })).json()) as SessionsBody;
    expect(listed.sessions.map((s) => s.session_id)).toEqual([claudeId]);
    const badBody = await fetch(`${base}/api/session/claude_code/${claudeId}/name`, {
      method: 'PUT',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: '{"nom":1}',
    });
    expect(badBody.status).toBe(400);

    const notKept = await fetch(`${base}/api/session/claude_code/${claudeId}/report.zip`, { headers: auth });
    expect(notKept.status).toBe(404);
    const catalog = await m.store.sources.allCatalog();
    await catalog.keep();
    const zip = await fetch(`${base}/api/session/claude_code/${claudeId}/report.zip`, { headers: auth });
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const bytes = Buffer.from(await zip.arrayBuffer());
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    expect(bytes.includes(Buffer.from(`kept/projects/-sample-project/${claudeId}.jsonl`))).toBe(true);
    expect(bytes.includes(Buffer.from('serve.log'))).toBe(true);

    const before = (await (
      await fetch(`${base}/api/session/claude_code/${claudeId}?limit=5`, { headers: auth })
    ).json()) as SessionDetailBody;
    await rm(claudeFile(m));
    await new Promise((r) => setTimeout(r, 2100));
    const after = (await (
      await fetch(`${base}/api/session/claude_code/${claudeId}?limit=5`, { headers: auth })
    ).json()) as SessionDetailBody;
    expect(after.root).toBe('kept');
    expect(after.total).toBe(before.total);
    expect(after.entries.map((e) => e.preview)).toEqual(before.entries.map((e) => e.preview));
  });
});
