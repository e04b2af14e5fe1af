// Seed 003: "a session outside every allowed path is never read past its header". Gemini CLI and
// Intendant discovery learns no directory, so sync asks each reader's header first (Gemini's project
// hash matched against the allowed paths and the projects scans saw; Intendant's session meta) and
// parses only what that header puts inside an allowed path. Each reader's full parse is counted.
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { geminiReader } from '../agents/gemini/reader.js';
import { intendantReader } from '../agents/intendant/index.js';
import { FixtureSession } from '../agents/intendant/test-support/fixture.js';
import type { AgentHomes, AgentReader } from '../agents/types.js';
import { unknownCwdReason } from './prepare.js';
import { runSync } from './run.js';
import { cachedRealPath } from './settings.js';

const sha = (p: string): string => createHash('sha256').update(p).digest('hex');

async function geminiChat(home: string, id: string, root: string): Promise<void> {
  const dir = join(home, 'tmp', sha(root), 'chats');
  await mkdir(dir, { recursive: true });
  const lines = [
    { sessionId: id, projectHash: sha(root), startTime: '2026-05-01T10:00:00.000Z', kind: 'main' },
    { id: 'u1', timestamp: '2026-05-01T10:00:01.000Z', type: 'user', content: [{ text: `look at ${root}` }] },
    {
      id: 'g1',
      timestamp: '2026-05-01T10:00:02.000Z',
      type: 'gemini',
      content: 'done',
      model: 'gemini-2.5-pro',
      toolCalls: [{ id: 'r', name: 'read_file', args: { absolute_path: join(root, 'a.ts') }, status: 'success' }],
    },
  ];
  await writeFile(join(dir, `session-${id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
}

async function intendantSession(home: string, id: string, root: string): Promise<void> {
  const s = await FixtureSession.create(home, id, { project_root: root, task: 'Look', status: 'completed' });
  s.laneUser(1_000, 1, 'Look around', { turn: 1 });
  await s.laneAssistant(2_000, 1, 2, 'Looked.');
  await s.save();
}

/** The reader with its full parse counted (the header route stays the reader's own). */
function counted(reader: AgentReader, parsed: string[]): AgentReader {
  return {
    ...reader,
    async parse(session, ctx) {
      parsed.push(session.sessionId);
      return reader.parse(session, ctx);
    },
  };
}

describe('a session outside every allowed path is never read past its header', () => {
  it('Gemini CLI and Intendant: judged on the header (or a known project), parsed only when allowed', async () => {
    const root = await tempDir();
    const repo = join(root, 'code', 'demo');
    const other = join(root, 'code', 'private');
    const gemini = join(root, '.gemini');
    const intendant = join(root, '.intendant');
    await geminiChat(gemini, 'g-in', repo);
    await geminiChat(gemini, 'g-sub', join(repo, 'pkg'));
    await geminiChat(gemini, 'g-unknown-sub', join(repo, 'never-seen'));
    await geminiChat(gemini, 'g-out', other);
    await intendantSession(intendant, 'i-in', repo);
    await intendantSession(intendant, 'i-out', other);

    const parsed: string[] = [];
    const agents: AgentHomes[] = [
      { reader: counted(geminiReader, parsed), homes: [gemini] },
      { reader: counted(intendantReader, parsed), homes: [intendant] },
    ];
    const report = await runSync({
      agents,
      allow: new Map([[repo, 'full' as const]]),
      real: cachedRealPath(),
      homes: ['/home/nobody'],
      cache: null,
      // A scan saw sessions in repo/pkg (and in the private folder, which is not allowed).
      projects: [join(repo, 'pkg'), other],
      hub: null,
    });
    const status = Object.fromEntries(report.sessions.map((s) => [s.session_id, [s.status, s.reason ?? null]]));
    expect(status).toEqual({
      'g-in': ['would_upload', null],
      'g-sub': ['would_upload', null],
      'g-unknown-sub': ['skipped', unknownCwdReason],
      'g-out': ['skipped', unknownCwdReason],
      'i-in': ['would_upload', null],
      'i-out': ['skipped', 'repo not opted in'],
    });
    expect(parsed.sort()).toEqual(['g-in', 'g-sub', 'i-in']);
    expect(report.sessions.find((s) => s.session_id === 'g-in')).toMatchObject({ repo, turns: 2, tool_calls: 1 });
  });
});
