// End to end: the built CLI lists and shows Gemini CLI chats from a temporary home.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../test/support/cli.js';
import { copyCorpus, hasCorpus, tempDir } from '../../../test/support/temp.js';

interface ScanJson {
  sessions: { agent: string; session_id: string; turns: number; tool_calls: number }[];
  unreadable: unknown[];
}

describe.skipIf(!hasCorpus)('agentlog scan/show over Gemini CLI chats', () => {
  it('lists each chat once and shows one as the record', async () => {
    const home = await tempDir();
    const chats = join(home, '.gemini', 'tmp', '0b7dfb1274ee51b336813b17f2ddab1f56b6591f723e7314126bbd502c69e9c9', 'chats');
    await mkdir(chats, { recursive: true });
    await copyCorpus('gemini/loose/small.json', join(chats, 'session-2026-01-16T18-34-3739ef95.json'));
    await copyCorpus('gemini/loose/jsonl_v040.jsonl', join(chats, 'session-2026-04-29T21-39-gemini_s.jsonl'));
    const env = { XDG_DATA_HOME: join(home, '.local', 'share') };

    const scan = await runCli(['scan', '--agent', 'gemini', '--json'], home, env);
    expect(scan.code).toBe(0);
    const listed = JSON.parse(scan.stdout) as ScanJson;
    expect(listed.sessions.map((s) => [s.agent, s.session_id, s.turns, s.tool_calls])).toEqual([
      ['gemini', 'gemini_stage0_jsonl', 3, 1],
      ['gemini', 'session-2026-01-16T18-34-3739ef95', 3, 0],
    ]);
    expect(listed.unreadable).toEqual([]);

    const show = await runCli(['show', 'gemini_stage0', '--json'], home, env);
    expect(show.code).toBe(0);
    const record = JSON.parse(show.stdout) as Record<string, unknown>;
    expect(record).toMatchObject({
      schema_version: 3,
      agent: 'gemini',
      session_id: 'gemini_stage0_jsonl',
      detail: 'full',
      models: ['gemini-3-flash-preview'],
    });
    expect((record.turns as { role: string }[]).map((t) => t.role)).toEqual(['user', 'assistant', 'assistant']);
  });
});
