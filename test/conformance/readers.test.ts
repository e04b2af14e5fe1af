// One suite run against every registered reader, on a small home of that agent: discover → claim →
// parse → tree → messages, and what the registry promises about the agents it lists.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readers } from '../../src/agents/all-readers.js';
import type { AgentReader, DiscoveredSession, HomeLookup } from '../../src/agents/types.js';
import { Catalog } from '../../src/custody/catalog.js';
import { agentOfSource } from '../../src/names/sources.js';
import type { MessageExtract } from '../../src/record/message-index.js';
import { agentIds } from '../../src/record/types.js';
import { tempDir } from '../support/temp.js';
import { homeFixtures, said, saidLater } from './homes.js';

const noEnv = (homedir: string): HomeLookup => ({ env: () => undefined, homedir });

/** The agent's default home inside a fresh user home, written by its fixture. */
async function homeOf(reader: AgentReader): Promise<{ user: string; home: string }> {
  const user = await tempDir('agentlog-conformance-');
  const home = reader.homes(noEnv(user))[0];
  if (home === undefined) throw new Error(`${reader.id} names no home`);
  await homeFixtures[reader.id].write(home);
  return { user, home };
}

async function discovered(reader: AgentReader, home: string): Promise<DiscoveredSession[]> {
  const found = await reader.discover(home);
  expect(found.problems).toEqual([]);
  return [...found.sessions].sort((a, b) => (a.sessionId < b.sessionId ? -1 : 1));
}

const prose = (x: MessageExtract): [string, string][] => x.records.map((r) => [r.role, r.text]);

describe('the registry', () => {
  it('lists every agent id once, and nothing else', () => {
    const ids = readers.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...agentIds].sort());
  });

  it('gives every reader a name, aliases that name it alone, and home variables that mean what they say', () => {
    for (const reader of readers) {
      expect(reader.displayName.trim()).not.toBe('');
      for (const spelling of [reader.id, reader.displayName, ...reader.aliases]) expect(agentOfSource(spelling), spelling).toBe(reader.id);
      expect(reader.homeVariables.length, reader.id).toBeGreaterThan(0);
      const user = '/u';
      const unset = reader.homes(noEnv(user));
      for (const v of reader.homeVariables) {
        // Set to its documented default, a variable changes nothing; set elsewhere, the homes move there.
        const expanded = v.default.replace(/^~(?=\/|$)/, user);
        expect(reader.homes({ env: (n) => (n === v.name ? expanded : undefined), homedir: user }), `${v.name}=${expanded}`).toEqual(unset);
        const moved = reader.homes({ env: (n) => (n === v.name ? '/elsewhere' : undefined), homedir: user });
        // An agent read from several homes (Cline: its data folder and each VS Code's storage) moves the ones the variable names.
        expect(
          moved.some((h) => h.startsWith('/elsewhere')),
          v.name,
        ).toBe(true);
      }
    }
  });
});

describe.each(readers.map((r) => [r.id, r] as const))('reader %s', (_id, reader) => {
  it('discovers each session once, and claims each by the path discovery gives', async () => {
    const { home } = await homeOf(reader);
    const sessions = await discovered(reader, home);
    expect(sessions).toHaveLength(2);
    expect(new Set(sessions.map((s) => s.sessionId)).size).toBe(2);
    for (const s of sessions) {
      expect(s).toMatchObject({ agent: reader.id, home });
      expect(s.files.length).toBeGreaterThan(0);
      for (const f of s.files) expect(existsSync(f.path), f.path).toBe(true);
      const claimed = await reader.claim(s.path);
      expect(claimed, s.path).toMatchObject({ agent: reader.id, sessionId: s.sessionId });
      for (const other of readers) if (other !== reader) expect(await other.claim(s.path), `${other.id} claims ${s.path}`).toBeNull();
    }
  });

  it('parses each session into the record, and the extractor reads the same messages', async () => {
    const { home } = await homeOf(reader);
    for (const [n, s] of (await discovered(reader, home)).entries()) {
      const parsed = await reader.parse(s, { detail: 'full' });
      expect(parsed.problems).toEqual([]);
      expect(parsed.badLines).toEqual([]);
      expect(parsed.record).toMatchObject({ agent: reader.id, session_id: s.sessionId });
      const turns = (parsed.record?.turns ?? []).filter((t) => t.role === 'user' || t.role === 'assistant').map((t) => [t.role, t.text]);
      const [q, a] = said(n);
      expect(turns).toEqual([
        ['user', q],
        ['assistant', a],
      ]);
      const extract = await reader.messages.extract(s, null);
      expect(extract.problems).toEqual([]);
      expect(extract.badLines).toBe(0);
      expect(prose(extract)).toEqual(turns);
      // Custody facts take the reader's cheap answer when discovery has none: it must be the parse's.
      if (reader.cwd !== undefined) expect(await reader.cwd(s)).toBe(parsed.cwds[0] ?? null);
    }
  });

  it('declares a custody tree holding the session file, and a keep copies it byte for byte', async () => {
    const { user, home } = await homeOf(reader);
    const sessions = await discovered(reader, home);
    for (const s of sessions) {
      const tree = await reader.tree(s);
      for (const e of tree) expect(isAbsolute(e.relPath) || e.relPath.split('/').includes('..'), e.relPath).toBe(false);
      const main = s.files[0]?.path;
      const holds = tree.some((e) => e.kind === 'file' && e.path === main);
      // A session that lives in a database is kept as an export the same reader reads back.
      expect(holds || tree.some((e) => e.kind === 'export'), `${s.sessionId}: ${JSON.stringify(tree)}`).toBe(true);
    }
    const catalog = await Catalog.open({
      stateRoot: join(user, '.agentlog'),
      agents: [{ reader, homes: [home] }],
      version: '0.0.0-test',
      now: () => 0,
    });
    const report = await catalog.keep();
    expect(report.totals).toMatchObject({ failed: 0 });
    const root = report.installations[0]?.root;
    if (root === undefined) throw new Error('no installation kept');
    for (const s of sessions)
      for (const e of await reader.tree(s))
        if (e.kind === 'file') expect((await readFile(join(root, e.relPath))).equals(await readFile(e.path)), e.relPath).toBe(true);
        else expect((await readFile(join(root, e.relPath))).equals(await e.produce()), e.relPath).toBe(true);
  });

  it('resumes extraction from its cursor to the same messages a full read gives', async () => {
    const { home } = await homeOf(reader);
    for (const [n, s] of (await discovered(reader, home)).entries()) {
      const first = await reader.messages.extract(s, null);
      await homeFixtures[reader.id].grow(s);
      const grown = (await discovered(reader, home))[n];
      if (grown === undefined) throw new Error('the grown session is gone');
      const full = await reader.messages.extract(grown, null);
      expect(prose(full)).toEqual([...said(n), ...saidLater(n)].map((text, i) => [i % 2 === 0 ? 'user' : 'assistant', text]));
      const resumed = await reader.messages.extract(grown, {
        files: first.files.map(({ path, offset, mode }) => ({ path, offset, mode })),
        carry: first.carry,
      });
      // An append-only log resumes where it stopped; a document read whole is read again.
      if (first.files.every((f) => f.mode === 'append')) expect(resumed.fresh).toBe(false);
      expect(resumed.fresh ? prose(resumed) : [...prose(first), ...prose(resumed)]).toEqual(prose(full));
      // The record reads the grown session the same way.
      const parsed = await reader.parse(grown, { detail: 'full' });
      const turns = (parsed.record?.turns ?? []).filter((t) => t.role === 'user' || t.role === 'assistant').map((t) => [t.role, t.text]);
      expect(turns).toEqual(prose(full));
    }
  });
});
