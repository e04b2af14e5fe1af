import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { defaultPiBounds, piMessages, piReader, readPiFile } from './index.js';
import { assistant, header, iso, toolResult, user, writePiFile, type PiLine } from './test-support/pi.js';

async function parse(lines: readonly PiLine[], tail = '') {
  const home = join(await tempDir(), 'agent');
  const path = await writePiFile(home, '2026-04-01T09-00-00-000Z_tree1.jsonl', lines, tail);
  const parsed = await piReader.parse((await piReader.claim(path))!, { detail: 'full' });
  const read = await readPiFile(path, defaultPiBounds);
  if (!read.ok) throw new Error(read.reason);
  return { path, parsed, messages: [...piMessages(read.file.entries)] };
}

/** u1 → a1 → u2 → a2 (+ tool) is the first branch; u3 → a3 hangs off a1 as a second one. */
const tree: PiLine[] = [
  header('tree1'),
  user('u1', null, 'start', 1),
  assistant('a1', 'u1', 2, { text: 'first answer', input: 100 }),
  user('u2', 'a1', 'follow-up', 3),
  assistant('a2', 'u2', 4, { text: 'abandoned answer', input: 200, calls: [{ id: 't1', name: 'bash', arguments: { command: 'ls' } }] }),
  toolResult('r2', 'a2', 't1', 'bash', 'a.txt', 5),
  user('u3', 'a1', 'different follow-up', 6),
  assistant('a3', 'u3', 7, { text: 'active answer', thinking: 'let me think', input: 300, model: 'gpt-5.1-codex' }),
];

describe('Pi session trees', () => {
  it("follows the last entry's ancestor chain; the abandoned branch is no turn but stays a superseded message", async () => {
    const { parsed, messages } = await parse([
      ...tree,
      { type: 'session_info', id: 'i1', parentId: 'a3', timestamp: iso(8), name: 'demo' },
    ]);
    const r = parsed.record!;
    expect(r.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'start'],
      ['assistant', 'first answer'],
      ['user', 'different follow-up'],
      ['reasoning', 'let me think'],
      ['assistant', 'active answer'],
    ]);
    expect(r.turns[4]?.model).toBe('gpt-5.1-codex');
    // Every message was billed, the abandoned one too.
    expect(r.totals).toMatchObject({ input_tokens: 600, output_tokens: 30, cache_read_tokens: 15, cache_creation_tokens: 3 });
    expect(r.totals.cost_usd).toBeCloseTo(0.03, 10);
    expect(r.models).toEqual(['claude-sonnet-4-5', 'gpt-5.1-codex']);
    expect(r.started_at).toBe(iso(0));
    expect(r.ended_at).toBe(iso(8));
    expect(messages.map((m) => [m.recordId, m.role, m.text, m.superseded])).toEqual([
      ['u1', 'user', 'start', false],
      ['a1', 'assistant', 'first answer', false],
      ['u2', 'user', 'follow-up', true],
      ['a2', 'assistant', 'abandoned answer', true],
      ['u3', 'user', 'different follow-up', false],
      ['a3', 'assistant', 'active answer', false],
    ]);
  });

  it('returns to an older branch when the last entry continues it', async () => {
    const { parsed } = await parse([...tree, assistant('a4', 'r2', 9, { text: 'back on the first branch' })]);
    const r = parsed.record!;
    expect(r.turns.map((t) => t.text)).toEqual(['start', 'first answer', 'follow-up', 'abandoned answer', 'back on the first branch']);
    expect(r.turns[3]?.tool_calls).toEqual([{ name: 'bash', format: 'shell', input: 'ls', output: 'a.txt', status: 'ok' }]);
  });

  it('ends the chain at a missing parent instead of activating physical neighbours', async () => {
    const { parsed } = await parse([...tree, user('u9', 'ghost', 'orphaned', 9)]);
    expect(parsed.record!.turns.map((t) => t.text)).toEqual(['orphaned']);
  });

  it('does not take a torn final row as the active leaf, and counts a broken middle row', async () => {
    const lines = [...tree.slice(0, 3), { type: 'message', id: 'bad' }, ...tree.slice(3)];
    const { parsed, path } = await parse(
      lines,
      '{"type":"message","id":"a5","parentId":"a2","message":{"role":"assistant","content":[{"type":"text","text":"half',
    );
    expect(parsed.record!.turns.map((t) => t.text).at(-1)).toBe('active answer');
    expect(parsed.badLines).toEqual([]);
    const withBad = await parse(tree, 'not json\n');
    expect(withBad.parsed.badLines).toEqual([{ path: withBad.path, count: 1 }]);
    expect(path).toMatch(/tree1\.jsonl$/);
  });

  it('reads an old flat file (no ids) as one linear branch, pairing tools and noting interruptions', async () => {
    const { parsed, messages } = await parse([
      header('tree1', '/flat', undefined),
      user(null, null, 'edit it', 1),
      assistant(null, null, 2, {
        calls: [
          { id: 'e1', name: 'edit', arguments: { path: 'a.ts', oldText: 'x', newText: 'y' } },
          { id: 'w1', name: 'write', arguments: { path: 'b.ts', content: 'hello' } },
        ],
      }),
      toolResult(null, null, 'e1', 'edit', 'Successfully replaced text', 3),
      toolResult(null, null, 'w1', 'write', 'denied', 3, true),
      assistant(null, null, 4, {
        text: 'partial',
        calls: [{ id: 'b1', name: 'bash', arguments: { command: 'sleep 100' } }],
        stopReason: 'aborted',
        errorMessage: 'Request was aborted.',
      }),
      assistant(null, null, 5, { stopReason: 'error', errorMessage: 'overloaded', input: 0, output: 0 }),
      { type: 'compaction', timestamp: iso(6), summary: 'earlier work', tokensBefore: 1000 },
      { type: 'thinking_level_change', timestamp: iso(6), thinkingLevel: 'high' },
    ]);
    const r = parsed.record!;
    expect(r.repo).toBe('/flat');
    expect(r.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'edit it'],
      ['assistant', ''],
      ['assistant', 'partial'],
      ['event', 'interrupted'],
      ['event', 'error: overloaded'],
      ['event', 'context compacted'],
    ]);
    expect(r.turns[1]?.tool_calls).toEqual([
      { name: 'edit', format: 'diff', path: 'a.ts', input: '-x\n+y', output: 'Successfully replaced text', status: 'ok' },
      { name: 'write', format: 'text', path: 'b.ts', input: 'hello', output: 'denied', status: 'error' },
    ]);
    expect(r.turns[2]?.tool_calls).toEqual([{ name: 'bash', format: 'shell', input: 'sleep 100', status: 'interrupted' }]);
    expect(messages.every((m) => !m.superseded && m.recordId.startsWith('line-'))).toBe(true);
  });

  it('reports a file over the size bound instead of reading part of it', async () => {
    const home = join(await tempDir(), 'agent');
    const path = await writePiFile(home, 'x_big.jsonl', tree);
    const { makePiReader } = await import('./index.js');
    const small = makePiReader({ ...defaultPiBounds, fileBytes: 100 });
    const parsed = await small.parse((await small.claim(path))!, { detail: 'full' });
    expect(parsed.record).toBeNull();
    expect(parsed.problems).toEqual([{ path, kind: 'oversized', reason: expect.stringMatching(/over the 100-byte bound/) }]);
    const short = makePiReader({ ...defaultPiBounds, fileLines: 3 });
    expect((await short.parse((await short.claim(path))!, { detail: 'full' })).problems[0]?.kind).toBe('oversized');
  });
});
