// Reading defects found on real Gemini CLI logs: cached input counted twice, and the injected
// "System: Please continue." read as something the person typed.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import type { DiscoveredSession } from '../types.js';
import { geminiReader } from './reader.js';

async function oneChat(lines: unknown[]): Promise<DiscoveredSession> {
  const home = await tempDir();
  const dir = join(home, '.gemini', 'tmp', 'c'.repeat(64), 'chats');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'session-2026-05-01T10-00-defects.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  const found = await geminiReader.discover(join(home, '.gemini'));
  expect(found.problems).toEqual([]);
  return found.sessions[0] as DiscoveredSession;
}

const header = { sessionId: 'defects-1', projectHash: 'c'.repeat(64), startTime: '2026-05-01T10:00:00.000Z', kind: 'main' };

describe('gemini reading defects on real logs', () => {
  it('counts the cached part of the prompt once, as a cache read (total = input + output + thoughts + tool)', async () => {
    const session = await oneChat([
      header,
      { id: 'u1', timestamp: '2026-05-01T10:00:01.000Z', type: 'user', content: [{ text: 'list files' }] },
      {
        id: 'g1',
        timestamp: '2026-05-01T10:00:02.000Z',
        type: 'gemini',
        content: 'Here they are.',
        model: 'gemini-2.5-pro',
        tokens: { input: 12069, output: 147, cached: 11502, thoughts: 40, tool: 7, total: 12263 },
      },
    ]);
    const parsed = await geminiReader.parse(session, { detail: 'full' });
    const totals = parsed.record?.totals;
    expect(totals).toEqual({
      input_tokens: 12069 - 11502 + 7,
      output_tokens: 147,
      cache_read_tokens: 11502,
      cache_creation_tokens: 0,
      reasoning_tokens: 40,
      cost_usd: null,
    });
    // Adding the record's parts back gives Gemini's own total.
    if (totals === undefined) throw new Error('no record');
    expect(totals.input_tokens + totals.cache_read_tokens + totals.output_tokens + totals.reasoning_tokens).toBe(12263);
  });

  it('reads the injected "System: Please continue." as an event, not a user turn, and leaves it out of the index', async () => {
    const session = await oneChat([
      header,
      { id: 'u1', timestamp: '2026-05-01T10:00:01.000Z', type: 'user', content: [{ text: 'fix the build' }] },
      { id: 'g1', timestamp: '2026-05-01T10:00:02.000Z', type: 'gemini', content: 'Running make.' },
      {
        id: 'u2',
        timestamp: '2026-05-01T10:00:03.000Z',
        type: 'user',
        content: [{ text: 'System: Please continue.' }],
        displayContent: [{ functionResponse: { id: 'r1', name: 'run_shell_command', response: { output: 'ok' } } }],
      },
      { id: 'g2', timestamp: '2026-05-01T10:00:04.000Z', type: 'gemini', content: 'The build passes.' },
    ]);
    const parsed = await geminiReader.parse(session, { detail: 'full' });
    expect(parsed.record?.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'fix the build'],
      ['assistant', 'Running make.'],
      ['event', 'System: Please continue.'],
      ['assistant', 'The build passes.'],
    ]);
    const extract = await geminiReader.messages?.extract(session, null);
    expect(extract?.records.filter((r) => r.role === 'user').map((r) => r.text)).toEqual(['fix the build']);
  });

  it('records no repository when no path in the chat hashes to its projectHash: repo "" as every reader writes it', async () => {
    // Shaped as a real chat recording (a JSON document, as corpus gemini/loose/small.json): the hash
    // names a root the log never mentions, so the root is unknown, not guessed.
    const home = await tempDir();
    const dir = join(home, '.gemini', 'tmp', 'd'.repeat(64), 'chats');
    await mkdir(dir, { recursive: true });
    const chat = {
      kind: 'chat',
      startTime: '2026-01-16T18:34:00.000Z',
      lastUpdated: '2026-01-16T18:34:10.000Z',
      projectHash: 'd'.repeat(64),
      sessionId: 'session-2026-01-16T18-34-norepo',
      messages: [
        { id: 'm1', timestamp: '2026-01-16T18:34:01.000Z', type: 'user', content: 'Hello', displayContent: 'Hello' },
        {
          id: 'm2',
          timestamp: '2026-01-16T18:34:02.000Z',
          type: 'gemini',
          model: 'gemini-3-flash-preview',
          tokens: { input: 10, output: 5, total: 15, thoughts: 0, tool: 0, cached: 0 },
          content: 'Hi!',
          toolCalls: [{ id: 't1', name: 'run_shell_command', args: { command: 'ls', dir_path: 'src' }, status: 'success' }],
        },
      ],
    };
    await writeFile(join(dir, 'session-2026-01-16T18-34-norepo.json'), JSON.stringify(chat, null, 2));
    const [session] = (await geminiReader.discover(join(home, '.gemini'))).sessions;
    if (session === undefined) throw new Error('the chat was not discovered');
    const parsed = await geminiReader.parse(session, { detail: 'full' });
    expect(parsed.record?.repo).toBe('');
    expect(parsed.cwds).toEqual([]);
  });
});
