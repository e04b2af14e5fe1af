import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { claudeCodeReader } from '../agents/claude-code/reader.js';
import { codexReader } from '../agents/codex/reader.js';
import { Rollout, writeRollout } from '../agents/codex/test-support/rollout-fixture.js';
import type { AgentReader } from '../agents/types.js';
import { assistant, usage, user, writeMain, writeSubagent } from '../agents/claude-code/test-support/fixtures.js';
import { sessionIndexPath } from './session-index.js';
import { scanCachePath } from './scan-cache.js';
import { scan } from './scan.js';

async function home(): Promise<{ claude: string; state: string }> {
  const root = await tempDir();
  const claude = join(root, '.claude');
  const path = await writeMain(claude, [user('hello', 0), assistant('m1', [{ type: 'text', text: 'hi' }], 1, {}, { usage: usage(10, 5) })]);
  // Two lines nobody can parse, so the file reports bad lines.
  await writeFile(path, `${await readFile(path, 'utf8')}{not json\n{"half":\n`);
  // And one in a subagent's transcript: a warm run must name that file, not the main one.
  const side = await writeSubagent(claude, 'a1', [user('look', 2, { isSidechain: true, agentId: 'a1' })]);
  await writeFile(side, `${await readFile(side, 'utf8')}{oops\n`);
  return { claude, state: join(root, 'state') };
}

const run = (claude: string, state: string) =>
  scan({ agents: [{ reader: claudeCodeReader, homes: [claude] }], stateRoot: state, userHome: null, readerVersion: 't' });

describe('the scan cache', () => {
  it('reports bad lines on a warm run as on the cold one', async () => {
    const { claude, state } = await home();
    const cold = await run(claude, state);
    expect(cold.bad_lines).toEqual([
      { path: expect.stringMatching(/\d{12}\.jsonl$/), count: 2 },
      { path: expect.stringContaining('agent-a1.jsonl'), count: 1 },
    ]);
    const warm = await run(claude, state);
    expect(warm.bad_lines).toEqual(cold.bad_lines);
    expect(warm.usage.size).toBe(1);
  });

  it('writes a session past ASCII as pure ASCII and lists it as the cold run did', async () => {
    const root = await tempDir();
    const claude = join(root, '.claude');
    await writeMain(claude, [user('héllo wörld 🙂 \u2028', 0), assistant('m1', [{ type: 'text', text: 'hi' }], 1)]);
    const state = join(root, 'state');
    const cold = await run(claude, state);
    expect(cold.sessions[0]?.first_ask).toContain('héllo wörld 🙂');
    const text = await readFile(scanCachePath(state), 'utf8');
    expect(/[^\u0000-\u007e]/.test(text)).toBe(false);
    const warm = await run(claude, state);
    expect(warm.sessions).toEqual(cold.sessions);
    expect(warm.state_problems).toEqual([]);
  });

  it('reads a file replaced by one of the same size and mtime afresh, though its first bytes were remembered', async () => {
    const { claude, state } = await home();
    // A clock a minute ahead: every file is past the racy window, so the remembered prefix is trusted.
    const later = { now: () => Date.now() + 60_000 };
    const scanLater = () =>
      scan({ agents: [{ reader: claudeCodeReader, homes: [claude] }], stateRoot: state, userHome: null, readerVersion: 't', clock: later });
    const main = (await scanLater()).sessions[0]?.file ?? '';
    const path = main.startsWith('/') ? main : join(claude, main);
    // Whole seconds long past, as a coarse-grained filesystem would leave them.
    const pinnedAt = Math.floor(Date.now() / 1000) - 3600;
    await utimes(path, pinnedAt, pinnedAt);
    await scanLater();
    expect((await scanLater()).sessions[0]?.first_ask).toBe('hello');
    const before = await stat(path);
    const aside = `${path}.new`;
    await writeFile(aside, (await readFile(path, 'utf8')).replace('hello', 'howdy'));
    await utimes(aside, pinnedAt, pinnedAt);
    await rename(aside, path);
    expect((await stat(path)).size).toBe(before.size);
    expect((await stat(path)).mtimeMs).toBe(before.mtimeMs);
    expect((await scanLater()).sessions[0]?.first_ask).toBe('howdy');
  });

  it('quarantines a corrupt cache file, rebuilds it and says so', async () => {
    const { claude, state } = await home();
    await run(claude, state);
    await writeFile(scanCachePath(state), '{"version": 2, "readerVersion": "t", "entries": {');
    const r = await run(claude, state);
    expect(r.sessions).toHaveLength(1);
    expect(r.state_problems).toEqual([{ path: scanCachePath(state), kind: 'unparsed', reason: expect.stringContaining('moved aside') }]);
    const files = await readdir(join(state, 'cache', 'scan'));
    expect(files.some((f) => f.startsWith('sessions.json.corrupt-'))).toBe(true);
    expect((await run(claude, state)).state_problems).toEqual([]);
  });

  it('never trusts an edited cache whose entries have the wrong shape', async () => {
    const { claude, state } = await home();
    await run(claude, state);
    const cache = JSON.parse(await readFile(scanCachePath(state), 'utf8')) as { entries: Record<string, { row: { totals: unknown } }> };
    for (const e of Object.values(cache.entries)) e.row.totals = 'lots';
    await writeFile(scanCachePath(state), JSON.stringify(cache));
    const r = await run(claude, state);
    expect(r.state_problems[0]?.reason).toMatch(/not a scan cache at entries\..*totals/);
    expect(r.sessions[0]?.totals.input_tokens).toBe(10);
  });

  it('reports a cache it could not save instead of swallowing it', async () => {
    const { claude, state } = await home();
    // A file where the cache's folder belongs: no permission bit stops root, this stops everyone.
    await mkdir(join(state, 'cache'), { recursive: true });
    await writeFile(join(state, 'cache', 'scan'), 'in the way');
    const r = await run(claude, state);
    expect(r.sessions).toHaveLength(1);
    expect(r.state_problems).toEqual([
      { path: scanCachePath(state), kind: 'unreadable', reason: expect.stringContaining('could not save') },
      {
        path: expect.stringMatching(/discovery-scan\.json$/),
        kind: 'unreadable',
        reason: expect.stringContaining('could not save the discovery cache'),
      },
      { path: sessionIndexPath(state), kind: 'unreadable', reason: expect.stringContaining('could not save the session index') },
    ]);
  });

  it('keeps the entries of agents a narrowed scan did not look at, and drops those of sessions gone', async () => {
    const { claude, state } = await home();
    const codex = join(claude, '..', '.codex');
    const id = '019a0000-0000-7000-8000-000000000001';
    await writeRollout(codex, id, new Rollout(id).meta().line('event_msg', { type: 'user_message', message: 'hi' }).text());
    const other = `${id.slice(0, -1)}2`;
    const gone = await writeRollout(
      codex,
      other,
      new Rollout(other).meta().line('event_msg', { type: 'user_message', message: 'bye' }).text(),
    );
    let parses = 0;
    const counted = (reader: AgentReader): AgentReader => ({
      ...reader,
      parse: (session, ctx) => {
        parses++;
        return reader.parse(session, ctx);
      },
    });
    const claudeHomes = { reader: counted(claudeCodeReader), homes: [claude] };
    const codexHomes = { reader: counted(codexReader), homes: [codex] };
    const scanOf = (agents: (typeof claudeHomes)[]) =>
      scan({ agents, stateRoot: state, userHome: null, readerVersion: 't', parsePool: { minBytes: Number.POSITIVE_INFINITY } });
    expect((await scanOf([claudeHomes, codexHomes])).sessions).toHaveLength(3);
    await rm(gone);
    parses = 0;
    // `scan --agent codex`: Claude Code's entry must outlive it; the gone rollout's must not.
    expect((await scanOf([codexHomes])).sessions).toHaveLength(1);
    expect(parses).toBe(0);
    const full = await scanOf([claudeHomes, codexHomes]);
    expect(full.sessions).toHaveLength(2);
    expect(parses).toBe(0);
    const saved = JSON.parse(await readFile(scanCachePath(state), 'utf8')) as { entries: Record<string, unknown> };
    expect(Object.keys(saved.entries)).toHaveLength(2);
  });
});
