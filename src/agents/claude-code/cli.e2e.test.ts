// The built CLI over a temporary Claude Code home holding the corpus projects (run `npm run build`
// first): scan lists the sessions, show prints one exactly and deterministically.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../test/support/cli.js';
import { copyCorpus, hasCorpus, tempDir } from '../../../test/support/temp.js';
import { finaliseRecord } from '../../record/finalise.js';
import { makeHomeElider } from '../../record/home-elide.js';
import { serialiseRecord } from '../../record/serialise.js';
import { claudeCodeReader } from './reader.js';
import { jsonl, user, write } from './test-support/fixtures.js';

const MAIN = 'fe5e1c67-53e7-4862-81ae-d0e013e3270b';
const BAD = 'bbbbbbbb-0000-4000-8000-000000000000';

async function claudeHome(): Promise<string> {
  const home = await tempDir();
  const projects = join(home, '.claude', 'projects');
  await copyCorpus('claude/projects', projects);
  await write(join(projects, '-broken', `${BAD}.jsonl`), 'not json\n{"also": broken\n');
  await write(join(projects, '-mixed', 'cccccccc-0000-4000-8000-000000000000.jsonl'), `${jsonl([user('Hello', 1)])}garbage line\n`);
  return home;
}

interface Row {
  agent: string;
  session_id: string;
  repo: string;
  branch: string | null;
  started_at: string | null;
  ended_at: string | null;
  turns: number;
  tool_calls: number;
  totals: Record<string, number | null>;
  subagents: number;
  file: string;
}

describe.skipIf(!hasCorpus)('agentlog scan (Claude Code)', () => {
  it('lists every corpus session with the issue’s fields and reports the unparsed file', async () => {
    const home = await claudeHome();
    const r = await runCli(['scan', '--json', '--agent', 'claude_code'], home);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      roots: { agent: string; path: string }[];
      sessions: Row[];
      unparsed: { path: string }[];
      bad_lines: { path: string; count: number }[];
    };
    expect(out.roots).toContainEqual(expect.objectContaining({ agent: 'claude_code', path: join(home, '.claude') }));
    const ids = out.sessions.map((s) => s.session_id).sort();
    expect(ids).toEqual([
      '0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f',
      '1af7fc5e-8455-4414-9ccd-011d40f70b2a',
      '5c0375b4-57a5-4f26-b12d-d022ee4e51b7',
      'cccccccc-0000-4000-8000-000000000000',
      MAIN,
    ]);
    for (const s of out.sessions) {
      for (const key of [
        'agent',
        'session_id',
        'repo',
        'branch',
        'started_at',
        'ended_at',
        'turns',
        'tool_calls',
        'totals',
        'subagents',
        'file',
      ])
        expect(s).toHaveProperty(key);
      expect(s.agent).toBe('claude_code');
    }
    const main = out.sessions.find((s) => s.session_id === MAIN) as Row;
    expect(main).toMatchObject({
      repo: '/path/to/Demo',
      branch: null,
      started_at: '2025-09-03T00:52:31.217Z',
      ended_at: '2025-09-03T01:02:03.665Z',
      subagents: 5,
      file: join(home, '.claude', 'projects', '-sample-project', `${MAIN}.jsonl`),
    });
    expect(main.totals).toMatchObject({ input_tokens: 373, output_tokens: 2636 });
    expect(main).toHaveProperty(
      'totals_with_subagents',
      expect.objectContaining({ input_tokens: 818, output_tokens: 51_933, cache_creation_tokens: 137_976, cache_read_tokens: 3_647_854 }),
    );
    expect(main.turns).toBeGreaterThan(10);
    expect(main.tool_calls).toBeGreaterThan(5);
    expect(out.sessions.find((s) => s.session_id.startsWith('0a1b'))?.subagents).toBe(1);
    expect(out.unparsed.map((p) => p.path)).toEqual([join(home, '.claude', 'projects', '-broken', `${BAD}.jsonl`)]);
    expect(out.bad_lines).toContainEqual({
      path: join(home, '.claude', 'projects', '-mixed', 'cccccccc-0000-4000-8000-000000000000.jsonl'),
      count: 1,
    });
  });
});

describe('agentlog show (Claude Code)', () => {
  it.skipIf(!hasCorpus)('prints exactly the record with --json, byte-identical on a second run', async () => {
    const home = await claudeHome();
    const first = await runCli(['show', MAIN, '--json'], home);
    const second = await runCli(['show', MAIN, '--json'], home);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(second.stdout);
    const path = join(home, '.claude', 'projects', '-sample-project', `${MAIN}.jsonl`);
    const session = await claudeCodeReader.claim(path);
    const parsed = await claudeCodeReader.parse(session!, { detail: 'full' });
    const expected = serialiseRecord(finaliseRecord(parsed.record!, { detail: 'full', elide: makeHomeElider(home) }));
    expect(first.stdout).toBe(`${expected}\n`);
    expect(JSON.parse(first.stdout)).toMatchObject({ schema_version: 3, agent: 'claude_code', session_id: MAIN, detail: 'full' });
  });

  it.skipIf(!hasCorpus)('takes a unique id prefix and a file path', async () => {
    const home = await claudeHome();
    const byPrefix = await runCli(['show', 'fe5e1c67', '--json', '--detail', 'summary'], home);
    expect(byPrefix.code).toBe(0);
    expect(JSON.parse(byPrefix.stdout)).toMatchObject({ session_id: MAIN, detail: 'summary' });
    const sub = join(
      home,
      '.claude',
      'projects',
      '-subagent-demo',
      '0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f',
      'subagents',
      'agent-a0ad4f44468bdf20d.jsonl',
    );
    const bySubagentFile = await runCli(['show', sub, '--json'], home);
    expect(JSON.parse(bySubagentFile.stdout)).toMatchObject({ session_id: '0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f' });
  });

  it.skipIf(!hasCorpus)('prints turns with subagents nested, as text and as Markdown', async () => {
    const home = await claudeHome();
    const text = await runCli(['show', MAIN], home);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('/orchestrator create TODO app by Next.js');
    expect(text.stdout).toContain('🤖');
    expect(text.stdout).toContain('Setup Next.js project');
    expect(text.stdout).toMatch(/\n\s+│ .*user/);
    const md = await runCli(['show', MAIN, '--markdown'], home);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain('🤖 **general-purpose**');
    expect(md.stdout).toMatch(/\n> .*Create a new Next.js project structure/);
  });

  it('names a missing path in a one-line error with exit code 2', async () => {
    const home = await tempDir();
    const r = await runCli(['show', '/no/such/file.jsonl'], home);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('/no/such/file.jsonl');
  });

  it.skipIf(!hasCorpus)('warns on stderr about unparseable lines', async () => {
    const home = await claudeHome();
    const r = await runCli(['show', 'cccccccc', '--json'], home);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/1 unparseable line skipped/);
  });
});
