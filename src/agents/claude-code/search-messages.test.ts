import { appendFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import type { MessageExtract, MessageResume } from '../../record/message-index.js';
import { discoverClaude } from './discover.js';
import { claudeMessages } from './search-messages.js';
import { assistant, jsonl, sessionId, toolResult, toolUse, user, writeMain, writeSubagent } from './test-support/fixtures.js';

async function extractHome(home: string, from: MessageResume | null = null): Promise<MessageExtract> {
  const d = await discoverClaude(home);
  const session = d.sessions.find((s) => s.sessionId === sessionId);
  if (session === undefined) throw new Error('no session');
  return claudeMessages.extract(session, from);
}

const texts = (r: MessageExtract): string[] => r.records.map((x) => `${x.role}: ${x.text}`);

describe('Claude Code messages', () => {
  it('takes string and text-block prose, never tool use, tool results or thinking', async () => {
    const home = await tempDir();
    await writeMain(home, [
      user('find the cursor bug', 1),
      assistant('m1', [{ type: 'thinking', thinking: 'secret plan' }], 2),
      assistant('m1', [{ type: 'text', text: 'Looking at the cursor now.' }, toolUse('t1', 'Read', { file_path: '/x' })], 3),
      user([toolResult('t1', 'file contents with cursor')], 4),
      user(
        [
          { type: 'text', text: 'and the tests' },
          { type: 'image', source: {} },
        ],
        5,
      ),
    ]);
    const r = await extractHome(home);
    expect(texts(r)).toEqual(['user: find the cursor bug', 'assistant: Looking at the cursor now.', 'user: and the tests']);
    expect(r.records[0]?.locator).toMatchObject({ kind: 'external_record_id' });
    expect(r.records[0]?.item_id).toBe((r.records[0]?.locator as { record_id: string } | undefined)?.record_id);
    expect(r.marks).toEqual([]);
  });

  it('skips meta, compaction summaries, injected machinery, interruptions and synthetic messages', async () => {
    const home = await tempDir();
    await writeMain(home, [
      user('<command-message>init is analysing</command-message>\n<command-name>/init</command-name>', 1, { isMeta: true }),
      user('This session is being continued from a previous conversation...', 2, { isCompactSummary: true }),
      user('<system-reminder>be careful</system-reminder>', 3),
      user('[Request interrupted by user]', 4),
      user('<local-command-stdout>output</local-command-stdout>', 5),
      assistant(undefined, 'No response requested.', 6, {}, { model: '<synthetic>' }),
      user('<system-reminder>ctx</system-reminder>what I really typed', 7),
      { type: 'summary', summary: 'a summary line', leafUuid: 'x' },
      { type: 'system', subtype: 'compact_boundary', uuid: 'sys', timestamp: '2026-01-01T00:00:08.000Z' },
    ]);
    expect(texts(await extractHome(home))).toEqual(['user: what I really typed']);
  });

  it('indexes subagent transcripts under the parent session, flagged, with their file in the locator', async () => {
    const home = await tempDir();
    await writeMain(home, [user('delegate the search', 1)]);
    await writeSubagent(
      home,
      'abc',
      [
        user('search the repo for TODO', 2, { isSidechain: true, agentId: 'abc' }),
        assistant('s1', [{ type: 'text', text: 'found 3 TODOs' }], 3, { isSidechain: true, agentId: 'abc' }),
      ],
      { agentType: 'Explore' },
    );
    const r = await extractHome(home);
    expect(texts(r)).toEqual(['user: delegate the search', 'user: search the repo for TODO', 'assistant: found 3 TODOs']);
    expect(r.records[1]).toMatchObject({ subagent: true, thread: 'abc' });
    expect(r.records[1]?.locator).toMatchObject({ file: `projects/-work-demo/${sessionId}/subagents/agent-abc.jsonl` });
    // The meta file is listed by discovery but not read.
    expect(r.files.map((f) => f.path.endsWith('.jsonl'))).toEqual([true, true]);
  });

  it('resumes after appends and leaves a torn last line for later; the result equals a full read', async () => {
    const home = await tempDir();
    const path = await writeMain(home, [user('first', 1)]);
    const first = await extractHome(home);
    await appendFile(path, jsonl([assistant('m2', [{ type: 'text', text: 'second' }], 2)]));
    const torn = JSON.stringify(user('third', 3));
    await appendFile(path, torn.slice(0, 20));
    const second = await extractHome(home, { files: first.files, carry: first.carry });
    expect(texts(second)).toEqual(['assistant: second']);
    expect(second.fresh).toBe(false);
    await appendFile(path, `${torn.slice(20)}\n`);
    const third = await extractHome(home, { files: second.files, carry: second.carry });
    expect(texts(third)).toEqual(['user: third']);
    expect(third.bytesRead).toBe(Buffer.byteLength(torn) + 1);
    const full = await extractHome(home);
    expect(full.records).toEqual([...first.records, ...second.records, ...third.records]);
  });

  it('caps an oversized message at 256 KiB and flags it', async () => {
    const home = await tempDir();
    await writeMain(home, [user(`big ${'é'.repeat(200_000)}`, 1)]);
    const rec = (await extractHome(home)).records[0];
    expect(rec?.truncated).toBe(true);
    expect(Buffer.byteLength(rec?.text ?? '')).toBeLessThanOrEqual(256 * 1024);
  });

  it('indexes a prompt queued while the agent worked', async () => {
    const home = await tempDir();
    await writeMain(home, [
      user('start', 1),
      {
        type: 'attachment',
        uuid: 'q1',
        timestamp: '2026-01-01T00:00:02.000Z',
        sessionId,
        attachment: { type: 'queued_command', prompt: 'also fix the docs' },
      },
    ]);
    expect(texts(await extractHome(home))).toEqual(['user: start', 'user: also fix the docs']);
  });
});
