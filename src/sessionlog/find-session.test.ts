import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { findLatestSession, findSession, listSessions } from './find-session.js';
import { readMetaSync } from './meta.js';
import { SessionLog } from './session-log.js';

function clockAt(ms: number): { now(): number } {
  let t = ms;
  return { now: () => ++t };
}

async function session(root: string, name: string, opts: { project?: string; role?: string; at?: number } = {}): Promise<SessionLog> {
  const log = await SessionLog.open({
    dir: join(root, 'logs', name),
    projectRoot: opts.project ?? '/p',
    task: name,
    ...(opts.role !== undefined ? { role: opts.role } : {}),
    clock: clockAt(opts.at ?? 1_000),
  });
  await log.close();
  return log;
}

describe('findSession', () => {
  it('resolves an exact id, then a unique prefix; an ambiguous prefix lists the candidates', async () => {
    const root = await tempDir();
    await session(root, 'abc11111-0000-4000-8000-000000000001');
    await session(root, 'abc22222-0000-4000-8000-000000000002');
    await session(root, 'fff00000-0000-4000-8000-000000000003');
    expect((await findSession(root, 'abc11111-0000-4000-8000-000000000001')).sessionId).toBe('abc11111-0000-4000-8000-000000000001');
    expect((await findSession(root, 'abc2')).sessionId).toBe('abc22222-0000-4000-8000-000000000002');
    expect((await findSession(root, 'f')).dir).toBe(join(root, 'logs', 'fff00000-0000-4000-8000-000000000003'));
    const err = await findSession(root, 'abc').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'AmbiguousSession' });
    expect(String((err as Error).message)).toContain('abc11111-0000-4000-8000-000000000001, abc22222-0000-4000-8000-000000000002');
    await expect(findSession(root, 'zzz')).rejects.toMatchObject({ code: 'SessionNotFound' });
    await expect(findSession(root, '  ')).rejects.toMatchObject({ code: 'InvalidArgument' });
  });

  it('matches a meta id that differs from the folder name, and survives a deleted folder', async () => {
    const root = await tempDir();
    const dir = join(root, 'logs', 'pinned');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'session_meta.json'), JSON.stringify({ session_id: 'meta-id-1234', task: 't' }));
    expect((await findSession(root, 'meta-id')).dir).toBe(dir);
    expect((await findSession(root, 'pinned')).sessionId).toBe('meta-id-1234');
    rmSync(dir, { recursive: true });
    await expect(findSession(root, 'meta-id')).rejects.toMatchObject({ code: 'SessionNotFound' });
  });

  it('accepts path-form ids only inside <stateRoot>/logs (no .. or symlink escapes)', async () => {
    const root = await tempDir();
    const log = await session(root, 's1');
    expect((await findSession(root, log.dir)).sessionId).toBe('s1');
    const outside = join(root, 'elsewhere');
    mkdirSync(outside);
    writeFileSync(join(outside, 'session_meta.json'), JSON.stringify({ session_id: 'evil' }));
    await expect(findSession(root, outside)).rejects.toMatchObject({ code: 'PathOutsideLogs' });
    await expect(findSession(root, join(root, 'logs', '..', 'elsewhere'))).rejects.toMatchObject({ code: 'PathOutsideLogs' });
    symlinkSync(outside, join(root, 'logs', 'link'));
    await expect(findSession(root, join(root, 'logs', 'link'))).rejects.toMatchObject({ code: 'PathOutsideLogs' });
    await expect(findSession(root, join(root, 'logs'))).rejects.toMatchObject({ code: 'PathOutsideLogs' });
  });

  it('reports a corrupt meta with its file and line instead of swallowing it', async () => {
    const root = await tempDir();
    await session(root, 'good');
    const bad = join(root, 'logs', 'bad');
    mkdirSync(bad);
    writeFileSync(join(bad, 'session_meta.json'), '{\n  "session_id": 12\n}\n');
    const { sessions, problems } = await listSessions(root);
    expect(sessions.map((s) => [s.sessionId, s.meta === null])).toEqual([
      ['bad', true],
      ['good', false],
    ]);
    expect(problems).toEqual([
      { file: join(bad, 'session_meta.json'), reason: expect.stringContaining(`${join(bad, 'session_meta.json')}:2: session_id`) },
    ]);
    expect((await findSession(root, 'bad')).problems).toHaveLength(1);
  });
});

describe('findLatestSession', () => {
  it('picks the most recent top-level session of the project by epoch ms, skipping sub-agents', async () => {
    const root = await tempDir();
    await session(root, 'old', { at: 1_000 });
    await session(root, 'new', { at: 5_000 });
    await session(root, 'sub', { at: 9_000, role: 'research' });
    await session(root, 'other-project', { at: 9_000, project: '/q' });
    await session(root, 'resident', { at: 7_000, role: 'resident' });
    expect((await findLatestSession(root, '/p')).session?.sessionId).toBe('resident');
    expect((await findLatestSession(root, '/q')).session?.sessionId).toBe('other-project');
    expect((await findLatestSession(root, '/none')).session).toBeNull();
    expect((await findLatestSession(join(root, 'missing'), '/p')).session).toBeNull();
  });

  it('orders legacy metas by their local created_at', async () => {
    const root = await tempDir();
    for (const [name, created] of [
      ['a', '2026-05-24T10:30:00'],
      ['b', '2026-05-25T09:00:00'],
    ] as const) {
      mkdirSync(join(root, 'logs', name), { recursive: true });
      writeFileSync(
        join(root, 'logs', name, 'session_meta.json'),
        JSON.stringify({ session_id: name, created_at: created, project_root: '/p', role: null }),
      );
    }
    expect((await findLatestSession(root, '/p')).session?.sessionId).toBe('b');
    // Reopening a legacy session derives its immutable created_at_ms from created_at.
    const log = await SessionLog.open({ dir: join(root, 'logs', 'a'), projectRoot: '/p', task: 't' });
    await log.close();
    expect(log.sessionId).toBe('a');
    const meta = readMetaSync(log.dir);
    expect(meta?.created_at).toBe('2026-05-24T10:30:00');
    expect(meta?.created_at_ms).toBe(new Date(2026, 4, 24, 10, 30, 0).getTime());
  });
});
