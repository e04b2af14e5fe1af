import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { Conversation, loadConversation, saveConversation } from './conversation.js';

describe('Conversation', () => {
  it('hands out monotonic seqs that a truncation never rewinds', () => {
    const c = new Conversation();
    expect([c.addSystem('sys'), c.addUser('task', 'u1'), c.addAssistant('a1'), c.addToolResult('c', 'exec', 'out')]).toEqual([1, 2, 3, 4]);
    expect(c.truncateAfter(2)).toBe(2);
    expect(c.addUser('follow_up', 'u2')).toBe(5);
    expect(c.reserveSeq()).toBe(6);
    expect(c.ensureSeqsAssigned()).toBeNull();
  });

  it('round-trips through conversation.jsonl, omitting seq 0 and unknown provenance', async () => {
    const dir = await tempDir();
    const path = join(dir, 'conversation.jsonl');
    const c = new Conversation([
      { role: 'user', content: 'legacy', provenance: 'unknown', seq: 0, images: [{ media_type: 'image/png', data: 'AA' }] },
    ]);
    c.addAssistant('x', [{ id: 'i', call_id: 'c', name: 'exec', arguments: '{}' }]);
    saveConversation(path, c);
    const { conversation } = await loadConversation(path);
    expect(conversation.messages[0]).toEqual({ role: 'user', content: 'legacy', images: [{ media_type: 'image/png', data: 'AA' }] });
    expect(conversation.messages[1]).toMatchObject({ role: 'assistant', provenance: 'assistant', seq: 1, tool_calls: [{ name: 'exec' }] });
  });

  it('reports a corrupt line with file and line, or skips it when tolerant', async () => {
    const dir = await tempDir();
    const path = join(dir, 'conversation.jsonl');
    writeFileSync(
      path,
      '{"role":"user","content":"a","seq":1}\n\n{"role":"user","content":\n{"role":7,"content":"x"}\n{"role":"assistant","content":"b","seq":2}\n',
    );
    await expect(loadConversation(path)).rejects.toMatchObject({
      code: 'CorruptConversation',
      message: expect.stringContaining(`${path}:3: not valid JSON at column 26 (and 1 more bad lines)`),
    });
    const { conversation, problems } = await loadConversation(path, { tolerant: true });
    expect(conversation.messages.map((m) => m.content)).toEqual(['a', 'b']);
    expect(problems.map((p) => p.line)).toEqual([3, 4]);
    expect(problems[1]?.reason).toContain('role');
    expect(conversation.nextSeq).toBe(3);
  });
});
