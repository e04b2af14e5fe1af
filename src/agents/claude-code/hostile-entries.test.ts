// A bad entry in a Claude Code home is that entry's problem: a FIFO named like a transcript is never
// opened (it would block the read forever), a looping link is reported, and every other session is kept.
import { execFileSync } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { claudeCodeReader } from './reader.js';
import { assistant, jsonl, projectDir, sessionId, user, write, writeMain } from './test-support/fixtures.js';

const mkfifo = (path: string): void => void execFileSync('mkfifo', [path]);

describe('claude code discovery over hostile entries', () => {
  it('reports a FIFO transcript, a looping link and a looping folder, and keeps every other session', { timeout: 10_000 }, async () => {
    const home = join(await tempDir(), '.claude');
    await writeMain(home, [user('Fix the parser', 1), assistant('m1', [{ type: 'text', text: 'Done.' }], 2)]);
    const project = join(home, 'projects', projectDir);
    mkfifo(join(project, 'agent-x.jsonl'));
    mkfifo(join(project, '22222222-2222-4333-8444-555555555555.jsonl'));
    await symlink('zz.jsonl', join(project, 'zz.jsonl'));
    await mkdir(join(project, sessionId, 'subagents'), { recursive: true });
    mkfifo(join(project, sessionId, 'subagents', 'agent-y.jsonl'));
    await symlink('loop', join(home, 'projects', 'loop'));
    const other = join(home, 'projects', '-work-other', '33333333-2222-4333-8444-555555555555.jsonl');
    await write(other, jsonl([user('Second project', 3)]));

    const found = await claudeCodeReader.discover(home);
    expect(found.sessions.map((s) => s.sessionId).sort()).toEqual([sessionId, '33333333-2222-4333-8444-555555555555']);
    const bad = found.problems.map((p) => [p.path.slice(home.length + 1), p.kind]).sort();
    expect(bad).toEqual([
      ['projects/-work-demo/11111111-2222-4333-8444-555555555555/subagents/agent-y.jsonl', 'unreadable'],
      ['projects/-work-demo/22222222-2222-4333-8444-555555555555.jsonl', 'unreadable'],
      ['projects/-work-demo/agent-x.jsonl', 'unreadable'],
      ['projects/-work-demo/zz.jsonl', 'unreadable'],
      ['projects/loop', 'unreadable'],
    ]);
    expect(found.problems.find((p) => p.path.endsWith('agent-x.jsonl'))?.reason).toMatch(/named pipe/);
    expect(found.problems.find((p) => p.path.endsWith('zz.jsonl'))?.reason).toMatch(/ELOOP/);

    const main = found.sessions.find((s) => s.sessionId === sessionId);
    if (main === undefined) throw new Error('main session lost');
    const parsed = await claudeCodeReader.parse(main, { detail: 'full' });
    expect(parsed.record?.turns.map((t) => t.text)).toEqual(['Fix the parser', 'Done.']);
    // Asked for by path, a FIFO is refused at once rather than read.
    await expect(claudeCodeReader.claim(join(project, 'agent-x.jsonl'))).rejects.toThrow(/named pipe/);
  });
});
