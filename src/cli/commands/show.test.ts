// `agentlog show` in process: Markdown is written block by block as the text view is, and the
// rules shared with the other commands (an empty id, a file with no session, a corrupt names overlay).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { run } from '../run.js';
import { captureContext } from '../test-support/capture.js';

const sessionId = '5a1e0000-0000-4000-8000-000000000001';

/** A Claude Code session of `turns` exchanges, each with a tool call and its output. */
async function claudeSession(home: string, turns: number): Promise<string> {
  const dir = join(home, '.claude', 'projects', '-work-app');
  await mkdir(dir, { recursive: true });
  const base = { isSidechain: false, userType: 'external', cwd: '/work/app', sessionId, version: '2.1.0', gitBranch: 'main' };
  const lines: string[] = [];
  let parent: string | null = null;
  const push = (o: Record<string, unknown>, uuid: string, s: number): void => {
    lines.push(
      JSON.stringify({ ...base, ...o, uuid, parentUuid: parent, timestamp: new Date(Date.UTC(2026, 10, 1, 9, 0, s)).toISOString() }),
    );
    parent = uuid;
  };
  for (let i = 0; i < turns; i++) {
    push({ type: 'user', message: { role: 'user', content: `question ${i} ${'words '.repeat(20)}` } }, `u${i}`, i * 3);
    push(
      {
        type: 'assistant',
        requestId: `r${i}`,
        message: {
          id: `m${i}`,
          role: 'assistant',
          model: 'claude-test',
          content: [
            { type: 'text', text: `answer ${i}` },
            { type: 'tool_use', id: `t${i}`, name: 'Bash', input: { command: `echo ${i}` } },
          ],
          usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
        },
      },
      `a${i}`,
      i * 3 + 1,
    );
    push(
      { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: `output ${i}` }] } },
      `r${i}`,
      i * 3 + 2,
    );
  }
  const file = join(dir, `${sessionId}.jsonl`);
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

describe('agentlog show', () => {
  it('writes Markdown block by block, never the whole document as one string', async () => {
    const home = await tempDir();
    await claudeSession(home, 400);
    const ctx = captureContext(home);
    expect(await run(['show', sessionId, '--markdown'], ctx)).toBe(0);
    const doc = ctx.stdout.text();
    expect(doc).toMatch(/^# claude_code session 5a1e0000/);
    expect(doc).toContain('question 399');
    expect(doc.endsWith('```\n')).toBe(true);
    const largest = Math.max(...ctx.stdout.writes.map((w) => w.length));
    expect(ctx.stdout.writes.length).toBeGreaterThan(1000);
    expect(largest).toBeLessThan(1000);
  });

  it('refuses an empty id with exit 2, as any request that names no one session', async () => {
    const home = await tempDir();
    await claudeSession(home, 1);
    for (const args of [
      ['show', ''],
      ['rename', '', 'x'],
      ['tail', ''],
    ]) {
      const ctx = captureContext(home);
      expect(await run(args, ctx), args.join(' ')).toBe(2);
      expect(ctx.stdout.text()).toBe('');
    }
    const ctx = captureContext(home);
    expect(await run(['show', '', '--json'], ctx)).toBe(2);
    expect(JSON.parse(ctx.stdout.text())).toMatchObject({ error: { code: 'AmbiguousSession' } });
  });

  it('says in one short line what it searched when no session has the id, not every home it knows', async () => {
    const home = await tempDir();
    await claudeSession(home, 1);
    const ctx = captureContext(home);
    expect(await run(['show', 'no-such-id'], ctx)).toBe(2);
    const message = ctx.stderr.text().trim();
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain('no session with id or prefix "no-such-id"');
    expect(message).toContain('1 session (claude_code 1)');
    expect(message).toContain('agentlog scan');
    // Homes that do not exist on this machine are not listed one by one.
    expect(message).not.toContain('globalStorage');
    expect(message.length).toBeLessThan(300);
  });

  it('exits 2 for a file that holds no session, by id as by path', async () => {
    const home = await tempDir();
    const file = await claudeSession(home, 1);
    // Only a title line: discovery lists the id, but there is no conversation to show.
    await writeFile(file, `${JSON.stringify({ type: 'summary', summary: 'empty', leafUuid: 'x', sessionId })}\n`);
    for (const target of [sessionId, file]) {
      const ctx = captureContext(home);
      expect(await run(['show', target], ctx), target).toBe(2);
      expect(ctx.stderr.text()).toMatch(/holds no Claude Code session|not a session log/);
    }
  });

  it('reports a corrupt names overlay, as scan does', async () => {
    const home = await tempDir();
    await claudeSession(home, 1);
    await mkdir(join(home, '.agentlog'), { recursive: true });
    await writeFile(join(home, '.agentlog', 'session_names.json'), '{not json');
    const show = captureContext(home);
    expect(await run(['show', sessionId], show)).toBe(0);
    expect(show.stderr.text()).toMatch(/warning: .*session_names\.json is not valid JSON/);
    const scan = captureContext(home);
    expect(await run(['scan', '--json'], scan)).toBe(0);
    const body = JSON.parse(scan.stdout.text()) as { problems: { path: string; reason: string }[] };
    expect(body.problems).toEqual([
      { path: join(home, '.agentlog', 'session_names.json'), reason: expect.stringMatching(/not valid JSON/) },
    ]);
    expect(scan.stderr.text()).toMatch(/warning: .*not valid JSON/);
  });
});
