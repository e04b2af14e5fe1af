import { describe, expect, it } from 'vitest';
import { oversizedEntry, parseEntry, rawTextBytes } from './entry.js';

describe('parseEntry', () => {
  it('reads the envelope of a Claude Code line and a preview of its text', () => {
    const line = JSON.stringify({
      type: 'assistant',
      sessionId: 's',
      timestamp: '2026-05-01T10:00:02.000Z',
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Spawning\na helper.' },
          { type: 'tool_use', id: 't1', name: 'Task', input: {} },
        ],
      },
    });
    const e = parseEntry(line, 10, Buffer.byteLength(line), 3);
    expect(e).toMatchObject({
      line: 3,
      offset: 10,
      kind: 'json',
      type: 'assistant',
      role: 'assistant',
      timestamp: '2026-05-01T10:00:02.000Z',
      preview: 'Spawning a helper. [tool_use Task]',
    });
    expect(e?.object?.type).toBe('assistant');
  });

  it('reads wrapped payloads (Codex) and lines without a message', () => {
    const codex = parseEntry(
      JSON.stringify({
        timestamp: 't',
        type: 'response_item',
        payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      }),
      0,
      1,
      null,
    );
    expect(codex).toMatchObject({ type: 'response_item', subtype: 'message', role: 'user', preview: 'hi' });
    const summary = parseEntry('{"type":"summary","summary":"Fixing the build","leafUuid":"x"}', 0, 1, null);
    expect(summary).toMatchObject({ type: 'summary', preview: 'Fixing the build', role: null });
    expect(parseEntry('{"type":"vendor-future-type","surprise":42}', 0, 1, 1)).toMatchObject({ kind: 'json', type: 'vendor-future-type' });
  });

  it('keeps a line that is not a JSON object as a raw entry with its number and text', () => {
    expect(parseEntry('not json at all', 5, 15, 7)).toMatchObject({
      kind: 'raw',
      line: 7,
      offset: 5,
      text: 'not json at all',
      object: null,
    });
    expect(parseEntry('[1,2]', 0, 5, 1)).toMatchObject({ kind: 'raw', text: '[1,2]' });
    const huge = parseEntry('x'.repeat(rawTextBytes + 10), 0, rawTextBytes + 10, 1);
    expect(huge?.text?.length).toBe(rawTextBytes + 1);
  });

  it('skips blank lines and marks over-long ones', () => {
    expect(parseEntry('   ', 0, 3, 1)).toBeNull();
    expect(oversizedEntry(4, 1e9, null)).toMatchObject({ kind: 'oversized', offset: 4, bytes: 1e9, text: null });
  });
});
