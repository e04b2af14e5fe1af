import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { SessionLog } from './session-log.js';
import { readMetaSync } from './meta.js';

/** A clock that moves 5 ms per reading from a fixed start. */
function steppingClock(start = Date.UTC(2026, 6, 19, 14, 3, 27, 512)): { now(): number } {
  let t = start;
  return { now: () => (t += 5) };
}

function rows(dir: string): Record<string, unknown>[] {
  return readFileSync(join(dir, 'session.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function mode(path: string): number {
  return statSync(path).mode & 0o777;
}

describe('SessionLog.open', () => {
  it('creates <stateRoot>/logs/<uuid>/ with turns/, meta and a session_start row', async () => {
    const root = await tempDir();
    const log = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 'Fix it', clock: steppingClock() });
    expect(log.dir.startsWith(join(root, 'logs'))).toBe(true);
    expect(log.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(statSync(join(log.dir, 'turns')).isDirectory()).toBe(true);
    const meta = readMetaSync(log.dir);
    expect(meta).toMatchObject({ session_id: log.sessionId, project_root: '/p', task: 'Fix it', status: 'running' });
    expect(typeof meta?.created_at_ms).toBe('number');
    expect(meta?.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    const first = rows(log.dir)[0];
    expect(first).toMatchObject({ event: 'session_start', level: 'info' });
    expect(first?.ts).toMatch(/^\d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(typeof first?.ts_ms).toBe('number');
    await log.close();
  });

  it('mints ids that never start with "-" (they ride argv as --resume <id>)', async () => {
    const root = await tempDir();
    for (let i = 0; i < 16; i++) {
      const log = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 't' });
      expect(log.sessionId.startsWith('-')).toBe(false);
      expect(log.sessionId).toHaveLength(36);
      await log.close();
    }
  });

  it('makes every folder 0700 and every file 0600 from creation', async () => {
    const root = await tempDir();
    const log = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 't' });
    log.turnStart(1);
    log.userMessage({ provenance: 'task', text: 'go' });
    log.modelResponseWithMessage({ content: 'ok' });
    log.reasoning({ summary: 's', content: 'full' });
    log.agentInput({ commands: [{ function: 'exec' }] });
    log.agentOutput({ stdout: 'out', stderr: 'err' });
    log.contextSnapshot({ source: 'native', label: 'req', raw: { a: 1 }, format: 'x' });
    log.runtimeLog('7', 'stdout').close();
    log.writeSummary({ outcome: 'completed' });
    await log.close();
    expect(mode(join(root, 'logs'))).toBe(0o700);
    expect(mode(log.dir)).toBe(0o700);
    expect(mode(join(log.dir, 'turns'))).toBe(0o700);
    const all = [
      ...readdirSync(log.dir).map((f) => join(log.dir, f)),
      ...readdirSync(join(log.dir, 'turns')).map((f) => join(log.dir, 'turns', f)),
    ];
    const regular = all.filter((p) => statSync(p).isFile());
    expect(regular.length).toBeGreaterThan(12);
    for (const p of regular) expect([p, mode(p)]).toEqual([p, 0o600]);
  });

  it('takes the id from the folder name, or from an existing meta', async () => {
    const root = await tempDir();
    const dir = join(root, 'pinned-session');
    const a = await SessionLog.open({ dir, projectRoot: '/p', task: 't' });
    expect(a.sessionId).toBe('pinned-session');
    await a.close();
    const meta = JSON.parse(readFileSync(join(dir, 'session_meta.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'session_meta.json'), JSON.stringify({ ...meta, session_id: 'from-meta' }));
    const b = await SessionLog.open({ dir, projectRoot: '/p', task: 't' });
    expect(b.sessionId).toBe('from-meta');
    await b.close();
  });

  it('rewrites the meta atomically: immutable created_at_ms, moving updated_at_ms, unknown fields, name, role and worktree kept', async () => {
    const root = await tempDir();
    const dir = join(root, 'logs', 's1');
    const clock = steppingClock();
    const a = await SessionLog.open({
      dir,
      projectRoot: '/p',
      task: 'first',
      name: '  Fix   auth  bug ',
      role: 'research',
      clock,
      worktree: { branch: 'b', path: '/w', base_root: '/p' },
    });
    const m1 = readMetaSync(dir);
    expect(m1?.name).toBe('Fix auth bug');
    await a.close();
    const raw = JSON.parse(readFileSync(join(dir, 'session_meta.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'session_meta.json'), JSON.stringify({ ...raw, custom_field: { keep: true } }));
    const b = await SessionLog.open({ dir, projectRoot: '/p', task: 'second', clock });
    b.roundComplete(1, 3);
    const m2 = readMetaSync(dir);
    expect(m2?.created_at_ms).toBe(m1?.created_at_ms);
    expect(m2?.created_at).toBe(m1?.created_at);
    expect(m2?.updated_at_ms).toBeGreaterThan(m1?.updated_at_ms ?? Infinity);
    expect(m2).toMatchObject({
      task: 'second',
      name: 'Fix auth bug',
      role: 'research',
      status: 'idle',
      rounds: 1,
      custom_field: { keep: true },
      worktree: { branch: 'b', path: '/w', base_root: '/p' },
    });
    b.writeSummary({ outcome: 'completed' });
    expect(readMetaSync(dir)).toMatchObject({ status: 'completed', rounds: 1 });
    await b.close();
    expect(readdirSync(dir).filter((f) => f.includes('session_meta'))).toEqual(['session_meta.json']);
    expect(readFileSync(join(dir, 'session_meta.json'), 'utf8')).toContain('\n  "session_id"');
  });

  it('moves status running → idle → completed, and a close while running → interrupted', async () => {
    const root = await tempDir();
    const a = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 't' });
    a.turnStart(3);
    await a.close();
    expect(readMetaSync(a.dir)).toMatchObject({ status: 'interrupted', last_turn: 3 });
    const b = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 't' });
    b.turnStart(2);
    b.roundComplete(1, 2);
    await b.close();
    expect(readMetaSync(b.dir)).toMatchObject({ status: 'idle', last_turn: 2 });
    const c = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 't' });
    c.writeSummary({ outcome: 'completed', totalTurns: 5 });
    c.markInterrupted();
    await c.close();
    expect(readMetaSync(c.dir)).toMatchObject({ status: 'completed', last_turn: 5 });
    const summary = JSON.parse(readFileSync(join(c.dir, 'summary.json'), 'utf8')) as Record<string, unknown>;
    expect(summary).toMatchObject({ task: 't', outcome: 'completed', total_turns: 5, session_id: c.sessionId, session_dir: c.dir });
    const stats = JSON.parse(readFileSync(join(c.dir, 'session_summary.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(stats)).toEqual([
      'duration_secs',
      'voice_provider',
      'voice_model',
      'voice_connections',
      'voice_reconnects',
      'model_turns',
      'cu_tasks',
      'frames_sent',
      'errors',
      'user_transcripts',
      'total_tokens',
    ]);
    expect(rows(c.dir).at(-1)).toMatchObject({ event: 'session_end', file: 'summary.json' });
  });

  it('writes turn consistently: absent before the first turn, the current turn after it', async () => {
    const root = await tempDir();
    const log = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 't' });
    log.info('before');
    log.modelResponseWithMessage({ content: 'early' });
    log.turnStart(3, { budgetPct: 25.5, remainingTokens: 150_000 });
    log.info('after');
    await log.close();
    const r = rows(log.dir);
    for (const row of r.filter((x) => x.message === 'before' || x.message === 'early')) expect(row).not.toHaveProperty('turn');
    expect(r.find((x) => x.event === 'turn_start')).toMatchObject({ turn: 3, data: { budget_pct: 25.5, remaining_tokens: 150_000 } });
    expect(r.find((x) => x.message === 'after')?.turn).toBe(3);
    for (const row of r) expect(Object.keys(row).filter((k) => row[k] === null)).toEqual([]);
  });

  it('falls back to a fresh private temporary folder when the chosen one cannot be opened, and records it', async () => {
    const root = await tempDir();
    writeFileSync(join(root, 'not-a-dir'), 'x');
    const tmpRoot = await tempDir();
    const log = await SessionLog.open({ dir: join(root, 'not-a-dir', 'session'), projectRoot: '/p', task: 't', tmpRoot });
    expect(log.fallback?.requestedDir).toBe(join(root, 'not-a-dir', 'session'));
    expect(log.dir.startsWith(join(tmpRoot, 'agentlog-session-'))).toBe(true);
    expect(mode(log.dir)).toBe(0o700);
    expect(log.runtimeEnv()).toEqual({ INTENDANT_LOG_DIR: log.dir });
    const rt = log.runtimeLog('1', 'stdout');
    expect(rt.path.startsWith(log.dir)).toBe(true);
    rt.close();
    expect(readMetaSync(log.dir)?.fallback).toMatchObject({ requested_dir: join(root, 'not-a-dir', 'session') });
    expect(rows(log.dir).some((r) => r.level === 'warn' && String(r.message).includes('could not be opened'))).toBe(true);
    await log.close();
    // A second session gets its own folder: never a fixed shared path.
    const other = await SessionLog.open({ dir: join(root, 'not-a-dir', 'session'), projectRoot: '/p', task: 't', tmpRoot });
    expect(other.dir).not.toBe(log.dir);
    await other.close();
  });

  it('fails loudly in strict mode', async () => {
    const root = await tempDir();
    writeFileSync(join(root, 'file'), 'x');
    await expect(SessionLog.open({ dir: join(root, 'file', 's'), projectRoot: '/p', task: 't', strict: true })).rejects.toMatchObject({
      code: 'OpenFailed',
    });
  });

  it('refuses to reopen over a corrupt meta, naming file and line', async () => {
    const root = await tempDir();
    const dir = join(root, 'logs', 'bad');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'session_meta.json'), '{\n  "session_id": "bad",\n  "task": \n}\n');
    const err = await SessionLog.open({ dir, projectRoot: '/p', task: 't' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'CorruptMeta' });
    expect(String((err as Error).message)).toContain(`${join(dir, 'session_meta.json')}:4:1`);
  });

  it('throws Closed after close and InvalidArgument on bad input', async () => {
    const root = await tempDir();
    const log = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 't' });
    expect(() => log.turnStart(-1)).toThrow(expect.objectContaining({ code: 'InvalidArgument' }));
    expect(() => log.userMessage({ provenance: 'tool_output' as 'task', text: 'x' })).toThrow(
      expect.objectContaining({ code: 'InvalidArgument' }),
    );
    await log.close();
    expect(() => log.info('late')).toThrow(expect.objectContaining({ code: 'Closed' }));
    await expect(SessionLog.open({ projectRoot: '/p', task: 't' })).rejects.toMatchObject({ code: 'InvalidArgument' });
  });
});
