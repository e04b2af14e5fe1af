// The built CLI over a user home holding every agent's default home, written by the project's own
// fixtures: runs on any clone (the real-log version of this test needs the corpus).
import { describe, expect, it } from 'vitest';
import { readers } from '../../src/agents/all-readers.js';
import { agentIds } from '../../src/record/types.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { homeFixtures, said } from '../conformance/homes.js';

interface Row {
  agent: string;
  session_id: string;
  turns: number;
}

describe('the CLI over every agent at its default home', () => {
  it('scan lists every session once; show prints each record, the same bytes twice', async () => {
    const home = await tempDir('agentlog-e2e-homes-');
    for (const reader of readers) {
      const at = reader.homes({ env: () => undefined, homedir: home })[0];
      if (at === undefined) throw new Error(`${reader.id} names no home`);
      await homeFixtures[reader.id].write(at);
    }
    // runCli points CLAUDE_CONFIG_DIR and CODEX_HOME at their defaults under HOME; every other home is found from HOME.
    const scan = await runCli(['scan', '--json'], home);
    expect(scan.code, scan.stderr).toBe(0);
    const report = JSON.parse(scan.stdout) as { sessions: Row[]; unreadable: unknown[]; unparsed: unknown[] };
    expect(report.unreadable).toEqual([]);
    expect(report.unparsed).toEqual([]);
    const keys = report.sessions.map((s) => `${s.agent}:${s.session_id}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toHaveLength(2 * agentIds.length);
    expect([...new Set(report.sessions.map((s) => s.agent))].sort()).toEqual([...agentIds].sort());

    for (const row of report.sessions) {
      const show = await runCli(['show', row.session_id, '--agent', row.agent, '--json'], home);
      expect(show.code, `${row.agent}: ${show.stderr}`).toBe(0);
      const record = JSON.parse(show.stdout) as { agent: string; session_id: string; turns: { role: string; text: string }[] };
      expect(record).toMatchObject({ agent: row.agent, session_id: row.session_id });
      expect(record.turns).toHaveLength(row.turns);
      const texts = record.turns.filter((t) => t.role === 'user' || t.role === 'assistant').map((t) => t.text);
      expect([said(0), said(1)].map((s) => s.join('|'))).toContain(texts.join('|'));
      expect((await runCli(['show', row.session_id, '--agent', row.agent, '--json'], home)).stdout).toBe(show.stdout);
    }
    // Two CLI runs per session of every agent: 61 s for ten agents on a loaded two-core machine.
  }, 300_000);
});
