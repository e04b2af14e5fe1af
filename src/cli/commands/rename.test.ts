// End to end: `agentlog rename` on a Claude Code home (overlay) and on an Intendant-format
// session written by agentlog/sessionlog (its own meta), then `scan` and `show` display the name.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../test/support/cli.js';
import { copyCorpus, hasCorpus, tempDir } from '../../../test/support/temp.js';
import { readMetaSync } from '../../sessionlog/meta.js';
import { SessionLog } from '../../sessionlog/session-log.js';

const claudeId = '1af7fc5e-8455-4414-9ccd-011d40f70b2a';

async function claudeHome(): Promise<string> {
  const home = await tempDir();
  await copyCorpus(
    `claude/projects/-sample-project/${claudeId}.jsonl`,
    join(home, '.claude', 'projects', '-sample-project', `${claudeId}.jsonl`),
  );
  return home;
}

describe('agentlog rename', () => {
  it.skipIf(!hasCorpus)('names a Claude Code session in the overlay, and scan and show display it', async () => {
    const home = await claudeHome();
    const r = await runCli(['rename', '1af7', '  Sample', '  session ', '--json'], home);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toEqual({
      agent: 'claude_code',
      session_id: claudeId,
      name: 'Sample session',
      stored_in: 'overlay',
      path: join(home, '.agentlog', 'session_names.json'),
    });
    expect(JSON.parse(readFileSync(join(home, '.agentlog', 'session_names.json'), 'utf8'))).toEqual({
      'claude-code': { [claudeId]: 'Sample session' },
    });

    const scan = await runCli(['scan', '--json'], home);
    expect(scan.code).toBe(0);
    const rows = (JSON.parse(scan.stdout) as { sessions: { session_id: string; name: string | null }[] }).sessions;
    expect(rows.find((s) => s.session_id === claudeId)?.name).toBe('Sample session');
    const table = await runCli(['scan'], home);
    expect(table.stdout).toContain('1af7fc5e Sample session');
    const show = await runCli(['show', claudeId], home);
    expect(show.stdout.split('\n')[0]).toContain('“Sample session”');

    const text = await runCli(['rename', claudeId, 'Renamed again'], home);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('is now “Renamed again”');
  });

  it('names an Intendant-format session in its own meta', async () => {
    const home = await tempDir();
    const log = await SessionLog.open({
      stateRoot: join(home, '.intendant'),
      projectRoot: '/home/dev/webapp',
      task: 'Fix the login redirect loop',
    });
    log.userMessage({ provenance: 'task', text: 'Fix the login redirect loop' });
    log.turnStart(1);
    log.modelResponseWithMessage({ content: 'Found it.' });
    log.writeSummary({ outcome: 'completed' });
    await log.close();
    const r = await runCli(['rename', log.sessionId.slice(0, 8), 'Login loop', '--agent', 'intendant'], home);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readMetaSync(log.dir)).toMatchObject({ name: 'Login loop', status: 'completed', task: 'Fix the login redirect loop' });
    const scan = await runCli(['scan', '--json', '--agent', 'intendant'], home);
    const rows = (JSON.parse(scan.stdout) as { sessions: { session_id: string; name: string | null }[] }).sessions;
    expect(rows).toEqual([expect.objectContaining({ session_id: log.sessionId, name: 'Login loop' })]);
  });

  it.skipIf(!hasCorpus)('fails with one line and exit 2 for a missing session, a bad name or missing arguments', async () => {
    const home = await claudeHome();
    const missing = await runCli(['rename', 'no-such-id', 'x'], home);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('no session with id or prefix "no-such-id"');
    const json = await runCli(['rename', 'no-such-id', 'x', '--json'], home);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'SessionNotFound' } });
    const blank = await runCli(['rename', '1af7', '   '], home);
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain('cannot be empty');
    const usage = await runCli(['rename', '1af7'], home);
    expect(usage.code).toBe(2);
  });
});
