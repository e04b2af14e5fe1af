import { readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { claudeCodeReader } from '../agents/claude-code/reader.js';
import { assistant, sessionId, user, writeMain } from '../agents/claude-code/test-support/fixtures.js';
import type { AgentHomes } from '../agents/types.js';
import { lookupCachedId } from './cache-lookup.js';
import { fixedAgents, resolveIdTarget } from './resolve.js';
import { codexOldFolder, oldFolderId } from '../agents/codex/test-support/old-folder.js';
import { codexReader } from '../agents/codex/reader.js';
import { sessionIndexPath } from './session-index.js';
import { scan } from './scan.js';

const readerVersion = 't';
// Folders written a moment ago prove nothing (their ctime is racy): these scans run a minute later.
const later = { now: () => Date.now() + 60_000 };

async function scanned(): Promise<{
  agents: AgentHomes[];
  claude: string;
  main: string;
  cache: { stateRoot: string; readerVersion: string };
}> {
  const root = await tempDir();
  const claude = join(root, '.claude');
  const main = await writeMain(claude, [user('hello', 0), assistant('m1', [{ type: 'text', text: 'hi' }], 1)]);
  const agents = [{ reader: claudeCodeReader, homes: [claude] }];
  const stateRoot = join(root, 'state');
  await scan({ agents, stateRoot, userHome: null, readerVersion, clock: later });
  return { agents, claude, main, cache: { stateRoot, readerVersion } };
}

/** What `resolveIdTarget` answers: the session, or the error's code and message. */
async function outcome(run: Promise<unknown>): Promise<unknown> {
  try {
    return { ok: await run };
  } catch (error) {
    const e = error as { code?: string; message: string };
    return { code: e.code, message: e.message };
  }
}

/** The cached answer must equal the full walk's, whatever changed since the scan. */
async function expectSameAsDiscovery(id: string, agents: AgentHomes[], cache: { stateRoot: string; readerVersion: string }): Promise<void> {
  const walked = await outcome(resolveIdTarget(id, fixedAgents(agents)));
  expect(await outcome(resolveIdTarget(id, fixedAgents(agents), cache))).toEqual(walked);
}

describe('resolving an id through the scan cache', () => {
  it('answers an unchanged session from the cache, as the walk does', async () => {
    const { agents, main, cache } = await scanned();
    const hit = await lookupCachedId(sessionId, fixedAgents(agents), cache);
    expect(hit?.session.path).toBe(main);
    expect(hit).toEqual(await resolveIdTarget(sessionId, fixedAgents(agents)));
  });

  it('does not trust the cache for a file that grew', async () => {
    const { agents, main, cache } = await scanned();
    await writeFile(main, `${await readFile(main, 'utf8')}${JSON.stringify(user('more', 2))}\n`);
    expect(await lookupCachedId(sessionId, fixedAgents(agents), cache)).toBeNull();
    await expectSameAsDiscovery(sessionId, agents, cache);
  });

  it('does not trust the cache for a file replaced by another of the same size and mtime', async () => {
    const { agents, main, cache } = await scanned();
    // A whole-second mtime, so it can be set back exactly after the file is replaced.
    const when = 1_700_000_000;
    await utimes(main, when, when);
    await scan({ agents, stateRoot: cache.stateRoot, userHome: null, readerVersion, clock: later });
    expect(await lookupCachedId(sessionId, fixedAgents(agents), cache)).not.toBeNull();
    const before = await stat(main);
    const text = await readFile(main, 'utf8');
    const other = text.replace('hello', 'jello');
    expect(other.length).toBe(text.length);
    await writeFile(`${main}.new`, other);
    await rename(`${main}.new`, main);
    await utimes(main, when, when);
    const after = await stat(main);
    expect([after.ino !== before.ino, after.size, after.mtimeMs]).toEqual([true, before.size, before.mtimeMs]);
    expect(await lookupCachedId(sessionId, fixedAgents(agents), cache)).toBeNull();
    await expectSameAsDiscovery(sessionId, agents, cache);
  });

  it('answers a prefix a new session shares exactly as the walk does (ambiguous), and the full id still', async () => {
    const { agents, claude, cache } = await scanned();
    const newer = '11111111-2222-4333-8444-999999999999';
    await writeMain(claude, [user('second', 0, { sessionId: newer })], newer);
    const prefix = sessionId.slice(0, 8);
    expect(await lookupCachedId(prefix, fixedAgents(agents), cache)).toBeNull();
    await expectSameAsDiscovery(prefix, agents, cache);
    expect(await outcome(resolveIdTarget(prefix, fixedAgents(agents), cache))).toMatchObject({ code: 'AmbiguousSession' });
    await expectSameAsDiscovery(sessionId, agents, cache);
    await expectSameAsDiscovery(newer, agents, cache);
  });

  it('does not answer a deleted session from the cache', async () => {
    const { agents, main, cache } = await scanned();
    await rm(main);
    expect(await lookupCachedId(sessionId, fixedAgents(agents), cache)).toBeNull();
    await expectSameAsDiscovery(sessionId, agents, cache);
    expect(await outcome(resolveIdTarget(sessionId, fixedAgents(agents), cache))).toMatchObject({ code: 'SessionNotFound' });
  });

  it('walks the homes past a corrupt index, which the next scan rebuilds and reports', async () => {
    const { agents, cache } = await scanned();
    const path = sessionIndexPath(cache.stateRoot);
    await writeFile(path, '{"version": 1, "sessions": [');
    expect(await lookupCachedId(sessionId, fixedAgents(agents), cache)).toBeNull();
    await expectSameAsDiscovery(sessionId, agents, cache);
    expect(await readFile(path, 'utf8')).toBe('{"version": 1, "sessions": [');
    const report = await scan({ agents, stateRoot: cache.stateRoot, userHome: null, readerVersion, clock: later });
    expect(report.state_problems).toEqual([{ path, kind: 'unparsed', reason: 'the session index was not an index; rebuilt' }]);
    expect(await lookupCachedId(sessionId, fixedAgents(agents), cache)).not.toBeNull();
  });

  it('answers a unique prefix from the index while no folder changed', async () => {
    const { agents, main, cache } = await scanned();
    const hit = await lookupCachedId(sessionId.slice(0, 8), fixedAgents(agents), cache);
    expect(hit?.session.path).toBe(main);
    expect(hit).toEqual(await resolveIdTarget(sessionId.slice(0, 8), fixedAgents(agents)));
  });

  it('answers a prefix past a home the scan did not walk only while that home is absent', async () => {
    const { claude, cache } = await scanned();
    const other = join(dirname(claude), '.claude-other');
    const wider = [{ reader: claudeCodeReader, homes: [claude, other] }];
    expect(await lookupCachedId(sessionId.slice(0, 8), fixedAgents(wider), cache)).not.toBeNull();
    const newer = `${sessionId.slice(0, 8)}-2222-4333-8444-999999999999`;
    await writeMain(other, [user('elsewhere', 0, { sessionId: newer })], newer);
    expect(await lookupCachedId(sessionId.slice(0, 8), fixedAgents(wider), cache)).toBeNull();
    await expectSameAsDiscovery(sessionId.slice(0, 8), wider, cache);
  });

  it('answers a prefix past a home the scan did not walk once that home, walked alone, holds no session sharing it', async () => {
    // The bench's case: the scan learns project folders (Aider's homes) that it did not walk itself.
    const { claude, main, cache } = await scanned();
    const other = join(dirname(claude), '.claude-other');
    const unrelated = 'aaaaaaaa-2222-4333-8444-999999999999';
    await writeMain(other, [user('elsewhere', 0, { sessionId: unrelated })], unrelated);
    const wider = [{ reader: claudeCodeReader, homes: [claude, other] }];
    const hit = await lookupCachedId(sessionId.slice(0, 8), fixedAgents(wider), cache);
    expect(hit?.session.path).toBe(main);
    expect(hit).toEqual(await resolveIdTarget(sessionId.slice(0, 8), fixedAgents(wider)));
  });

  it('walks for a prefix when a new session lies in a new folder, and for an empty id never matches', async () => {
    const { agents, claude, cache } = await scanned();
    const newer = `${sessionId.slice(0, 8)}-2222-4333-8444-999999999999`;
    await writeMain(claude, [user('second', 0, { sessionId: newer })], newer, '-home-someone-other');
    await expectSameAsDiscovery(sessionId.slice(0, 8), agents, cache);
    expect(await lookupCachedId('', fixedAgents(agents), cache)).toBeNull();
    expect(await outcome(resolveIdTarget('', fixedAgents(agents), cache))).toMatchObject({ code: 'AmbiguousSession' });
  });

  it("keeps the other agents' sessions when a scan looks at one agent, and still walks for them once their folders change", async () => {
    const { agents, claude, main, cache } = await scanned();
    const { codex } = await codexOldFolder(dirname(claude));
    const both = [...agents, { reader: codexReader, homes: [codex] }];
    const onlyCodex = both.slice(1);
    await scan({ agents: both, stateRoot: cache.stateRoot, userHome: null, readerVersion, clock: later });
    // `scan --agent codex`: the index it writes still names the Claude Code session, prefix included.
    await scan({ agents: onlyCodex, stateRoot: cache.stateRoot, userHome: null, readerVersion, clock: later });
    expect((await lookupCachedId(sessionId, fixedAgents(both), cache))?.session.path).toBe(main);
    expect((await lookupCachedId(sessionId.slice(0, 8), fixedAgents(both), cache))?.session.path).toBe(main);
    expect((await lookupCachedId(oldFolderId(1), fixedAgents(both), cache))?.session.sessionId).toBe(oldFolderId(1));
    // And the other way round: `scan --agent claude_code` keeps Codex's sessions.
    await scan({ agents, stateRoot: cache.stateRoot, userHome: null, readerVersion, clock: later });
    expect((await lookupCachedId(oldFolderId(2), fixedAgents(both), cache))?.session.sessionId).toBe(oldFolderId(2));
    // A Claude Code session added since to a folder only the carried part of the index names: the prefix walks.
    await scan({ agents: onlyCodex, stateRoot: cache.stateRoot, userHome: null, readerVersion, clock: later });
    const newer = `${sessionId.slice(0, 8)}-2222-4333-8444-999999999999`;
    await writeMain(claude, [user('second', 0, { sessionId: newer })], newer);
    expect(await lookupCachedId(sessionId.slice(0, 8), fixedAgents(both), cache)).toBeNull();
    await expectSameAsDiscovery(sessionId.slice(0, 8), both, cache);
  });

  it('walks for a prefix when a new session lies in an old folder whose mtime was put back', async () => {
    const { agents, claude, main, cache } = await scanned();
    // A whole second, so that the folder's mtime can be put back exactly.
    const when = Math.floor(Date.now() / 1000) - 3600;
    await utimes(dirname(main), when, when);
    // The lookup sees the folder moved and drops the digest, so the next scan records it again.
    expect(await lookupCachedId(sessionId.slice(0, 8), fixedAgents(agents), cache)).toBeNull();
    await scan({ agents, stateRoot: cache.stateRoot, userHome: null, readerVersion, clock: later });
    expect(await lookupCachedId(sessionId.slice(0, 8), fixedAgents(agents), cache)).not.toBeNull();
    const newer = `${sessionId.slice(0, 8)}-2222-4333-8444-999999999999`;
    const second = await writeMain(claude, [user('second', 0, { sessionId: newer })], newer);
    expect(dirname(second)).toBe(dirname(main));
    // `touch -r` or an unpacked archive: the folder's mtime says nothing changed, its ctime moved.
    await utimes(dirname(main), when, when);
    expect(await lookupCachedId(sessionId.slice(0, 8), fixedAgents(agents), cache)).toBeNull();
    await expectSameAsDiscovery(sessionId.slice(0, 8), agents, cache);
  });

  it('ignores a cache written by other readers', async () => {
    const { agents, cache } = await scanned();
    expect(await lookupCachedId(sessionId, fixedAgents(agents), { ...cache, readerVersion: 'other' })).toBeNull();
  });
});
