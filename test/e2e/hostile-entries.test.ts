// A FIFO named like a session file, and a looping link, in a real home: every command returns in
// bounded time, reports the bad entry, and keeps every other session (a neighbour never hides a home).
import { execFileSync } from 'node:child_process';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonl as claudeJsonl, assistant, user } from '../../src/agents/claude-code/test-support/fixtures.js';
import { prompt, state, step, writeSession } from '../../src/agents/kimi/test-support/wire.js';
import { SessionLog } from '../../src/sessionlog/index.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const mkfifo = (path: string): void => void execFileSync('mkfifo', [path]);
const claudeId = '11111111-2222-4333-8444-555555555555';
const kimiId = 'session_3c1f2d8e-1b2a-4c3d-8e9f-0a1b2c3d4e5f';

interface Scan {
  sessions: { agent: string; session_id: string }[];
  unreadable: { path: string; kind: string; reason: string }[];
}

/** A home with one good session of Claude Code, Kimi and Intendant, each beside a planted FIFO. */
async function hostileHome(home: string): Promise<{ env: Record<string, string>; intendantId: string }> {
  const project = join(home, '.claude', 'projects', '-work-demo');
  await mkdir(project, { recursive: true });
  await writeFile(
    join(project, `${claudeId}.jsonl`),
    claudeJsonl([user('Fix the parser', 1), assistant('m1', [{ type: 'text', text: 'Done.' }], 2)]),
  );
  mkfifo(join(project, 'agent-x.jsonl'));
  await symlink('zz.jsonl', join(project, 'zz.jsonl'));

  const kimiHome = join(home, '.kimi-code');
  await writeSession(kimiHome, kimiId, {
    state: state('/work/demo'),
    wires: { main: [prompt('list the files', 1), ...step('s1', 2, { text: 'Two files.' })] },
  });
  const fifoSession = await writeSession(kimiHome, 'session_ffffffff-1b2a-4c3d-8e9f-0a1b2c3d4e5f', {
    wires: { main: [prompt('second', 1), ...step('s2', 2, { text: 'ok' })] },
  });
  mkfifo(join(fifoSession, 'state.json'));

  const intendant = join(home, '.intendant');
  const log = await SessionLog.open({ stateRoot: intendant, projectRoot: '/work/app', task: 'rename the parser' });
  log.userMessage({ provenance: 'task', text: 'rename the parser' });
  log.turnStart(1);
  log.modelResponseWithMessage({ content: 'Renamed it.' });
  await log.close();
  const meta = join(intendant, 'logs', log.sessionId, 'session_meta.json');
  await rm(meta);
  mkfifo(meta);
  return { env: { KIMI_CODE_HOME: kimiHome, INTENDANT_HOME: intendant }, intendantId: log.sessionId };
}

describe('a home with FIFOs and a looping link', () => {
  it('scan, show, tail, keep and index all return, report the bad entries and keep the rest', { timeout: 60_000 }, async () => {
    const home = await tempDir();
    const { env, intendantId } = await hostileHome(home);

    const scan = await runCli(['scan', '--json'], home, env);
    expect(scan.code, scan.stderr).toBe(0);
    const report = JSON.parse(scan.stdout) as Scan;
    expect(report.sessions.map((s) => `${s.agent}:${s.session_id}`).sort()).toEqual([
      `claude_code:${claudeId}`,
      `intendant:${intendantId}`,
      `kimi:${kimiId}`,
      'kimi:session_ffffffff-1b2a-4c3d-8e9f-0a1b2c3d4e5f',
    ]);
    const bad = report.unreadable.map((u) => u.path.slice(home.length + 1)).sort();
    expect(bad).toEqual([
      '.claude/projects/-work-demo/agent-x.jsonl',
      '.claude/projects/-work-demo/zz.jsonl',
      `.intendant/logs/${intendantId}/session_meta.json`,
      '.kimi-code/sessions/wd_demo_0123456789ab/session_ffffffff-1b2a-4c3d-8e9f-0a1b2c3d4e5f/state.json',
    ]);

    for (const id of [claudeId, kimiId, intendantId]) {
      const show = await runCli(['show', id, '--json'], home, env);
      expect(show.code, `${id}: ${show.stderr}`).toBe(0);
      const tail = await runCli(['tail', id, '--json'], home, env);
      expect(tail.code, `${id}: ${tail.stderr}`).toBe(0);
    }
    const keep = await runCli(['keep', '--all', '--json'], home, env);
    expect(keep.code, keep.stderr).toBeLessThanOrEqual(1);
    expect(keep.stdout).toContain(claudeId);
    const index = await runCli(['index', '--json'], home, env);
    expect(index.code, index.stderr).toBeLessThanOrEqual(1);
    const search = await runCli(['search', 'parser', '--window-days', '0', '--json'], home, env);
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toContain(claudeId);
  });
});
