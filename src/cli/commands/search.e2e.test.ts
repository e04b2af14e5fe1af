// `agentlog index` and `agentlog search` as a user runs them, over a temporary home holding the
// Claude Code corpus.
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../test/support/cli.js';
import { copyCorpus, hasCorpus, tempDir } from '../../../test/support/temp.js';
import type { SearchBody } from '../../search/response.js';

async function corpusHome(): Promise<string> {
  const home = await tempDir();
  await copyCorpus('claude/projects', join(home, '.claude', 'projects'));
  return home;
}

describe.skipIf(!hasCorpus)('agentlog index / search', () => {
  it('indexes the corpus, then finds prose (never tool input) with exact highlights', async () => {
    const home = await corpusHome();
    const first = await runCli(['index', '--window-days', '0'], home);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^indexed 4 sessions, 4 read, 0 appended, 0 unchanged/);
    const again = await runCli(['index', '--json'], home);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ sessions: 4, unchanged: 4, bytes_read: 0, window_days: 0 });

    const r = await runCli(['search', 'Delegate', 'subagent', '--json'], home);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout) as SearchBody;
    expect(Object.keys(body)).toEqual(['ok', 'state', 'partial_reason', 'window_days', 'sessions', 'cursor', 'searched', 'coverage']);
    expect(body.state).toBe('ready');
    const hit = body.sessions[0]?.hits[0];
    expect(body.sessions[0]?.session_key).toBe('claude_code:0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f');
    expect(hit).toMatchObject({
      role: 'user',
      snippet: 'Delegate a repo search to a subagent',
      ranges: [
        [0, 8],
        [28, 36],
      ],
      superseded: false,
      subagent: false,
    });
    expect(hit?.locator).toEqual({ kind: 'external_record_id', record_id: 'pu1' });
    // The Task tool's description ("search files") is tool input, not something said.
    expect(JSON.parse((await runCli(['search', 'search files', '--json'], home)).stdout).sessions).toEqual([]);
  });

  it('prints sessions with their hits and badges, and pages with a cursor', async () => {
    const home = await corpusHome();
    await runCli(['index', '--window-days', '0'], home);
    const r = await runCli(['search', 'TODO', '--limit', '1'], home);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^claude_code {2}\S+ {2}\d+ hits?\n {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}(user|assistant)/);
    const more = /more: add --cursor (\S+)/.exec(r.stderr);
    expect(more).not.toBeNull();
    const next = await runCli(['search', 'TODO', '--limit', '1', '--cursor', more?.[1] ?? ''], home);
    expect(next.code).toBe(0);
    expect(next.stdout.split('\n')[0]).not.toBe(r.stdout.split('\n')[0]);
    const sub = await runCli(['search', 'TODO', 'comments', '--json'], home);
    const hits = (JSON.parse(sub.stdout) as SearchBody).sessions.flatMap((s) => s.hits);
    expect(hits.some((h) => h.subagent)).toBe(true);
    const none = await runCli(['search', 'TODO', 'comments', '--no-subagents', '--json'], home);
    expect((JSON.parse(none.stdout) as SearchBody).sessions.flatMap((s) => s.hits).some((h) => h.subagent)).toBe(false);
  });

  it('rejects bad queries with exit code 2 and a clear message', async () => {
    const home = await corpusHome();
    await runCli(['index', '--window-days', '0'], home);
    for (const [args, message] of [
      [['search', 'x'.repeat(300)], /longer than 256 bytes/],
      [['search', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'], /at most 8/],
      [['search', ' '], /at least one search term/],
      [['search', 'x', '--cursor', 'garbage'], /cursor is not valid/],
      [['search'], /give the terms/],
      [['search', 'x', '--limit', '99'], /between 1 and 50/],
    ] as const) {
      const r = await runCli(args, home);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    const json = await runCli(['search', ' ', '--json'], home);
    expect(JSON.parse(json.stdout)).toEqual({ error: { code: 'QueryRequired', message: 'give at least one search term' } });
  });

  it('reports an agent home it cannot read, on stderr and in --json', async () => {
    const home = await tempDir();
    await symlink(join(home, '.claude'), join(home, '.claude'));
    const r = await runCli(['index'], home);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/problem .*\.claude: claude_code home unreadable: .*ELOOP/);
    const json = JSON.parse((await runCli(['index', '--json'], home)).stdout) as { problems: { path: string }[] };
    expect(json.problems.map((p) => p.path)).toEqual([join(home, '.claude')]);
  });

  it('says the index is empty before the first index run', async () => {
    const home = await corpusHome();
    const r = await runCli(['search', 'anything'], home);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/run `agentlog index` first/);
  });
});
