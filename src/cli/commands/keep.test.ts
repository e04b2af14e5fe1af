import { cp, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../test/support/cli.js';
import { claudeHome, demoId, mainRel, sampleId } from '../../custody/test-support/homes.js';
import { hasCorpus } from '../../../test/support/corpus.js';

interface KeepJson {
  installations: { key: string; root: string }[];
  sessions: { session_id: string; root: string; copied: string[]; skipped: string[] }[];
  totals: { sessions: number; copied: number; extended: number; refreshed: number; skipped: number; failed: number };
}

describe.skipIf(!hasCorpus)('agentlog keep', () => {
  it('keeps everything (no id means --all), then copies nothing the second time', async () => {
    const t = await claudeHome();
    const first = await runCli(['keep', '--json'], t.home);
    expect(first.code, first.stderr).toBe(0);
    const a = JSON.parse(first.stdout) as KeepJson;
    expect(a.totals).toMatchObject({ copied: 6, failed: 0 });
    expect(a.installations[0]?.root.startsWith(join(t.state, 'kept'))).toBe(true);
    const second = await runCli(['keep', '--all'], t.home);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/0 copied, 0 extended, 0 refreshed, 6 skipped, 0 failed/);
    // A short table, one row per agent home, saying where the copies are.
    const lines = second.stdout.trimEnd().split('\n');
    expect(lines.every((l) => l.length < 160)).toBe(true);
    expect(lines[1]?.split(/\s+/)).toEqual(['AGENT', 'SESSIONS', 'COPIED', 'EXTENDED', 'REFRESHED', 'SKIPPED', 'FAILED', 'KEPT', 'IN']);
    expect(lines[2]?.split(/\s+/)).toEqual(['claude_code', '4', '0', '0', '0', '6', '0', a.installations[0]?.root]);
  });

  it('keeps sessions by id and refuses bad requests with exit 2', async () => {
    const t = await claudeHome();
    const one = await runCli(['keep', demoId], t.home);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toContain(`claude_code ${demoId}: 3 copied`);
    const unknown = await runCli(['keep', '00000000-0000-4000-8000-000000000000'], t.home);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no session "00000000-0000-4000-8000-000000000000"/);
    const bad = await runCli(['keep', '--json', '../etc'], t.home);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({ error: { code: 'InvalidSessionId' } });
    expect((await runCli(['keep', '--all', demoId], t.home)).code).toBe(2);
  });

  it('names an installation only for one agent home', async () => {
    const t = await claudeHome();
    const many = await runCli(['keep', '--installation', 'laptop'], t.home);
    expect(many.code).toBe(2);
    expect(many.stderr).toMatch(/--installation names one agent home/);
    const one = await runCli(['keep', '--agent', 'claude', '--installation', 'laptop', demoId], t.home);
    expect(one.code, one.stderr).toBe(0);
    expect((await stat(join(t.state, 'kept', 'laptop', mainRel('-subagent-demo', demoId)))).isFile()).toBe(true);
    // Another Claude Code home cannot take the name.
    const other = join(t.home, 'other');
    await cp(join(t.claude, 'projects', '-subagent-demo'), join(other, 'projects', '-subagent-demo'), { recursive: true });
    const taken = await runCli(['keep', '--agent', 'claude', '--installation', 'laptop', '--json'], t.home, { CLAUDE_CONFIG_DIR: other });
    expect(taken.code).toBe(2);
    expect(JSON.parse(taken.stdout)).toMatchObject({ error: { code: 'InstallationKeyTaken' } });
  });

  it('survives a prune: show, scan and tail read the kept copy, and keep again is a no-op', async () => {
    const t = await claudeHome();
    expect((await runCli(['keep'], t.home)).code).toBe(0);
    const live = await runCli(['show', sampleId, '--json'], t.home);
    expect(live.code, live.stderr).toBe(0);
    await rm(join(t.claude, 'projects'), { recursive: true });
    const shown = await runCli(['show', sampleId, '--json'], t.home);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual(JSON.parse(live.stdout));
    const scanned = await runCli(['scan', '--json'], t.home);
    const rows = (JSON.parse(scanned.stdout) as { sessions: { session_id: string; file: string }[] }).sessions;
    expect(rows.map((r) => r.session_id)).toContain(demoId);
    expect(rows.every((r) => r.file.startsWith(join(t.state, 'kept')))).toBe(true);
    const tail = await runCli(['tail', demoId, '-n', '2', '--json'], t.home);
    expect(JSON.parse(tail.stdout)).toMatchObject({
      session: { root: 'kept' },
      entries: [{ object: { uuid: 'pu1' } }, { object: { uuid: 'pa1' } }],
    });
    const again = await runCli(['keep', '--json', demoId], t.home);
    expect(JSON.parse(again.stdout)).toMatchObject({
      sessions: [{ session_id: demoId, root: 'kept', copied: [], skipped: [] }],
      totals: { copied: 0, skipped: 0 },
    });
    const all = await runCli(['keep'], t.home);
    expect(all.stdout).toMatch(/kept 0 sessions/);
  });
});
