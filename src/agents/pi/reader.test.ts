import { utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyCorpus, corpusPath, hasCorpus, tempDir } from '../../../test/support/temp.js';
import type { Turn } from '../../record/types.js';
import { DiscoveryCache } from '../../scan/discovery-cache.js';
import { piReader } from './index.js';
import { assistant, header, user, writePiFile } from './test-support/pi.js';

const corpusId = 'd703a1a9-1b7b-4fb1-b512-c9738b1fe617';
const corpusName = `2025-11-20T23-33-50-805Z_${corpusId}.jsonl`;

async function corpusHome(): Promise<{ home: string; path: string }> {
  const home = join(await tempDir(), '.pi', 'agent');
  const path = join(home, 'sessions', '--Users-badlogic-workspaces-pi-mono--', corpusName);
  await copyCorpus('pi/loose/large-session.jsonl', path);
  return { home, path };
}

const calls = (turns: readonly Turn[]) => turns.flatMap((t) => t.tool_calls ?? []);
const count = (turns: readonly Turn[], role: Turn['role']) => turns.filter((t) => t.role === role).length;

describe.skipIf(!hasCorpus)('piReader over the real flat session', () => {
  it('discovers the file once, with the header id and working directory', async () => {
    const { home, path } = await corpusHome();
    const found = await piReader.discover(home);
    expect(found.problems).toEqual([]);
    expect(found.sessions).toEqual([
      {
        agent: 'pi',
        sessionId: corpusId,
        home,
        path,
        files: [expect.objectContaining({ path, size: 974031 })],
        cwd: '/Users/badlogic/workspaces/pi-mono',
      },
    ]);
  });

  it('reads every line as one linear branch with usage and cost summed per message', async () => {
    const { home } = await corpusHome();
    const session = (await piReader.discover(home)).sessions[0]!;
    const parsed = await piReader.parse(session, { detail: 'full' });
    expect(parsed.problems).toEqual([]);
    expect(parsed.badLines).toEqual([]);
    expect(parsed.cwds).toEqual(['/Users/badlogic/workspaces/pi-mono']);
    const r = parsed.record!;
    expect(r).toMatchObject({
      agent: 'pi',
      session_id: corpusId,
      repo: '/Users/badlogic/workspaces/pi-mono',
      branch: null,
      started_at: '2025-11-20T23:33:01.550Z',
      ended_at: '2025-11-21T02:14:02.980Z',
    });
    // The aborted gpt-5.1-codex request produced nothing and cost nothing: it names no model.
    expect(r.models).toEqual(['claude-sonnet-4-5']);
    expect(r.totals).toMatchObject({
      input_tokens: 1049,
      output_tokens: 83156,
      cache_read_tokens: 43229469,
      cache_creation_tokens: 4296232,
      reasoning_tokens: 0,
    });
    expect(r.totals.cost_usd).toBeCloseTo(30.3302, 4);
    expect(count(r.turns, 'user')).toBe(88);
    expect(count(r.turns, 'assistant')).toBe(439);
    expect(count(r.turns, 'reasoning')).toBe(1);
    expect(
      r.turns
        .filter((t) => t.role === 'event')
        .map((t) => t.text)
        .sort(),
    ).toEqual([...Array(21).fill('interrupted'), 'error: terminated'].sort());
    const all = calls(r.turns);
    expect(all).toHaveLength(391);
    // Every call has its result except those of requests that were cut off.
    expect(all.filter((c) => c.output === undefined).every((c) => c.status === 'interrupted')).toBe(true);
    expect(all.filter((c) => c.status === 'ok' || c.status === 'error')).toHaveLength(373);
    const edit = all.find((c) => c.name === 'edit');
    expect(edit).toMatchObject({ format: 'diff', path: 'packages/coding-agent/src/tui/user-message-selector.ts', status: 'ok' });
    expect(edit?.input?.startsWith('-import { type Component')).toBe(true);
    expect(all.find((c) => c.name === 'bash' && c.status === 'error')).toMatchObject({ format: 'shell', exit_code: 1 });
    expect(r.turns.find((t) => t.role === 'reasoning')?.text).toMatch(/^The user wants me to use the thinking feature/);
  });

  it("claims a Pi file anywhere, and not another agent's log", async () => {
    const { home, path } = await corpusHome();
    expect(await piReader.claim(path)).toMatchObject({ sessionId: corpusId, home, path });
    const loose = join(await tempDir(), 'copy.jsonl');
    await copyCorpus('pi/loose/large-session.jsonl', loose);
    expect(await piReader.claim(loose)).toMatchObject({ sessionId: corpusId, path: loose });
    expect(await piReader.claim(corpusPath('codex/loose/schema_coverage_small.jsonl'))).toBeNull();
    expect(await piReader.claim(corpusPath('kimi/loose/assistant_tools.wire.jsonl'))).toBeNull();
    expect(await piReader.claim(join(home, 'sessions'))).toBeNull();
  });

  it('keeps the one file in the custody tree, named from the home', async () => {
    const { home, path } = await corpusHome();
    const session = (await piReader.claim(path))!;
    expect(await piReader.tree(session)).toEqual([
      { relPath: `sessions/--Users-badlogic-workspaces-pi-mono--/${corpusName}`, kind: 'file', path },
    ]);
    expect(join(home, 'sessions/--Users-badlogic-workspaces-pi-mono--', corpusName)).toBe(path);
  });
});

describe('piReader homes and discovery', () => {
  it('looks in PI_CODING_AGENT_DIR, else ~/.pi/agent', () => {
    expect(piReader.homes({ env: () => undefined, homedir: '/home/u' })).toEqual(['/home/u/.pi/agent']);
    expect(piReader.homes({ env: (n) => (n === 'PI_CODING_AGENT_DIR' ? '/x/pi' : undefined), homedir: '/home/u' })).toEqual(['/x/pi']);
  });

  it('takes the id from the header, else from the file name, and skips files that are not sessions', async () => {
    const home = join(await tempDir(), 'agent');
    expect(await piReader.discover(home)).toEqual({ sessions: [], problems: [] });
    await writePiFile(home, '2026-04-01T09-00-00-000Z_from-header-name.jsonl', [header('abc123'), user('u1', null, 'hi', 1)]);
    await writePiFile(home, '2026-04-01T09-00-00-000Z_torn-header.jsonl', [], '{"type":"sess\n{"type":"message"}\n');
    await writePiFile(home, 'notes.jsonl', [{ hello: 'world' }]);
    await writePiFile(home, '2026-04-01T09-00-00-000Z_empty.jsonl', []);
    const found = await piReader.discover(home);
    expect(found.sessions.map((s) => s.sessionId).sort()).toEqual(['abc123', 'torn-header']);
    const torn = found.sessions.find((s) => s.sessionId === 'torn-header')!;
    const parsed = await piReader.parse(torn, { detail: 'full' });
    expect(parsed.record).toBeNull();
    expect(parsed.badLines).toEqual([{ path: torn.path, count: 1 }]);
  });

  it('reads a v1 header without version or ids as one branch', async () => {
    const home = join(await tempDir(), 'agent');
    const path = await writePiFile(home, 'x_flat.jsonl', [
      header('flat1', '/old', undefined),
      user(null, null, 'q', 1),
      assistant(null, null, 2, { text: 'a' }),
    ]);
    const parsed = await piReader.parse((await piReader.claim(path))!, { detail: 'full' });
    expect(parsed.record?.turns.map((t) => t.text)).toEqual(['q', 'a']);
    expect(parsed.record?.repo).toBe('/old');
  });
});

describe('pi discovery through a discovery cache', () => {
  it('answers as from the disk, cold and warm, header, torn header and not-a-session alike, and reads a rewritten file again', async () => {
    const home = join(await tempDir(), 'agent');
    const path = await writePiFile(home, '2026-04-01T09-00-00-000Z_from-header-name.jsonl', [header('abc123'), user('u1', null, 'hi', 1)]);
    const torn = await writePiFile(home, '2026-04-01T09-00-00-000Z_torn-header.jsonl', [], '{"type":"sess\n{"type":"message"}\n');
    const other = await writePiFile(home, 'notes.jsonl', [{ hello: 'world' }]);
    const old = Math.floor(Date.now() / 1000) - 3600;
    for (const p of [path, torn, other, join(home, 'sessions', '--work-app--'), join(home, 'sessions')]) await utimes(p, old, old);
    const cache = await DiscoveryCache.open(join(await tempDir(), 'cache.json'), 't', () => Date.now() + 60_000);
    const plain = await piReader.discover(home);
    expect(plain.sessions.map((s) => s.sessionId).sort()).toEqual(['abc123', 'torn-header']);
    expect(await piReader.discover(home, cache)).toEqual(plain);
    await cache.save();
    expect(await piReader.discover(home, cache)).toEqual(plain);
    expect(cache.stats).toMatchObject({ dirHits: 2, dirMisses: 2, factHits: 3, factMisses: 3 });
    await cache.save();

    // Rewritten with another header, its times put back (a coarse clock): read again.
    await writeFile(path, `${JSON.stringify(header('def456', '/work/elsewhere'))}\n`);
    await utimes(path, old, old);
    const after = await piReader.discover(home, cache);
    expect(after).toEqual(await piReader.discover(home));
    expect(after.sessions.find((s) => s.path === path)).toMatchObject({ sessionId: 'def456', cwd: '/work/elsewhere' });
  });
});
