// The session list answers before its first scan ends: the last saved scan's rows, marked incomplete,
// then this run's scan once it is done (a person's first paint does not wait on the whole home).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assistant, jsonl, user, write } from '../agents/claude-code/test-support/fixtures.js';
import { aiderHomes, aiderReader } from '../agents/aider/reader.js';
import { banner, header, user as aiderUser } from '../agents/aider/test-support/history.js';
import type { AgentHomes } from '../scan/scan.js';
import { SessionList } from './session-list.js';
import { machine } from './test-support/fixture-home.js';

const ids = ['aaaaaaaa-0000-4000-8000-000000000001', 'aaaaaaaa-0000-4000-8000-000000000002', 'aaaaaaaa-0000-4000-8000-000000000003'];

async function session(claudeHome: string, id: string, n: number): Promise<void> {
  const lines = [
    user(`ask ${n}`, n * 100, { sessionId: id }),
    assistant(`msg_${n}`, [{ type: 'text', text: `done ${n}` }], n * 100 + 1, { sessionId: id }),
  ];
  await write(join(claudeHome, 'projects', '-work-demo', `${id}.jsonl`), jsonl(lines));
}

/** The same readers, whose discovery waits for `gate`: a scan that cannot end before the test says so. */
function gated(agents: AgentHomes[], gate: Promise<void>): AgentHomes[] {
  return agents.map((a) => {
    const discover = async (home: string) => {
      await gate;
      return a.reader.discover(home);
    };
    return { ...a, reader: { ...a.reader, discover } };
  });
}

describe('the session list before its first scan', () => {
  it('answers from the last saved scan, marked incomplete, then from its own scan', async () => {
    const m = await machine({ fill: false });
    const claude = join(m.root, '.claude');
    await session(claude, ids[0] as string, 1);
    await session(claude, ids[1] as string, 2);
    // An earlier run: its scan saved the cache.
    const first = await m.store.list.page({ limit: 10 });
    expect(first.complete).toBe(true);
    expect(first.sessions.map((s) => s.session_id).sort()).toEqual([ids[0], ids[1]]);

    // A session written since; this run's scan is held until released.
    await session(claude, ids[2] as string, 3);
    let release = (): void => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const list = new SessionList({
      stateRoot: m.stateRoot,
      userHome: m.root,
      version: 'test',
      agents: () => gated(m.store.readableAgents(), gate),
      index: m.store.index,
      now: Date.now,
    });
    const early = await list.page({ limit: 10 });
    expect(early.complete).toBe(false);
    expect(early.sessions.map((s) => s.session_id).sort()).toEqual([ids[0], ids[1]]);
    expect(early.sessions.every((s) => !s.growing)).toBe(true);

    release();
    await list.refresh();
    const later = await list.page({ limit: 10 });
    expect(later.complete).toBe(true);
    expect(later.sessions.map((s) => s.session_id).sort()).toEqual(ids);
  });

  it('waits for the scan when no scan was saved', async () => {
    const m = await machine({ fill: false });
    await session(join(m.root, '.claude'), ids[0] as string, 1);
    const body = await m.store.list.page({ limit: 10 });
    expect(body.complete).toBe(true);
    expect(body.sessions).toHaveLength(1);
  });
});

describe('the session list over agents that keep logs inside projects', () => {
  it('lists an aider run on its first scan, from the project another session ran in', async () => {
    const m = await machine({ fill: false });
    const repo = join(m.root, 'code', 'app');
    const id = ids[0] as string;
    await write(
      join(m.root, '.claude', 'projects', '-code-app', `${id}.jsonl`),
      jsonl([
        user('ask', 100, { sessionId: id, cwd: repo }),
        assistant('msg_1', [{ type: 'text', text: 'done' }], 101, { sessionId: id, cwd: repo }),
      ]),
    );
    await write(join(repo, '.aider.chat.history.md'), `${header('2026-10-05 10:00:00')}${banner('gpt-5')}${aiderUser('add a test')}`);
    const lookup = { env: () => undefined, homedir: m.root };
    const list = new SessionList({
      stateRoot: m.stateRoot,
      userHome: m.root,
      version: 'test',
      agents: () => m.store.readableAgents(),
      learnedHomes: async (projects) => [{ reader: aiderReader, homes: aiderHomes({ ...lookup, projects }) }],
      index: m.store.index,
      now: Date.now,
    });
    const page = await list.page({ limit: 10 });
    expect(page.sessions.map((s) => s.agent).sort()).toEqual(['aider', 'claude_code']);
  });
});
