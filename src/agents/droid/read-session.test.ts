import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { hasTextBlock, readSession } from './read-session.js';

/** A user line that holds only a tool result, written as Droid writes it (type, id, timestamp first). */
function resultLine(id: string, timestamp: string): string {
  const message = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] };
  return JSON.stringify({ type: 'message', id, timestamp, message });
}

describe('readSession below the full detail level', () => {
  it('reads a skimmed tool-result line as parsing it would, non-ASCII ids and timestamps included', async () => {
    const path = join(await tempDir(), 's.jsonl');
    const lines = [
      resultLine('m1', '2026-01-01T00:00:00.000Z'),
      resultLine('ид-✓', '2026-01-01T00:00:01.000Z'),
      resultLine('m3', '2026-01-01T00:00:02.000Z✓'),
      resultLine('m4', '2026-01-01T00:00:03.000Zé'),
    ];
    await writeFile(path, `${lines.join('\n')}\n`);
    const skimmed = await readSession(path, false);
    const parsed = await readSession(path, true);
    const times = (f: typeof parsed) => f.messages.map((m) => [m.line, m.role, m.at]);
    expect(times(skimmed)).toEqual(times(parsed));
    expect(times(skimmed).map((t) => t[2])).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T00:00:01.000Z',
      '2026-01-01T00:00:02.000Z✓',
      '2026-01-01T00:00:03.000Zé',
    ]);
    expect(skimmed.badLines).toBe(0);
  });
});

describe('hasTextBlock', () => {
  const has = (s: string) => {
    const buf = Buffer.from(`xx${s}yy`);
    return hasTextBlock(buf, 2, buf.length - 2);
  };
  it('finds "type":"text" wherever it stands in the line, and nothing else', () => {
    expect(has('{"type":"text","text":"a"}')).toBe(true);
    expect(has('[{"format":"text"},{"type":"text"}]')).toBe(true);
    expect(has(':"text"')).toBe(false);
    expect(has('{"format":"text"}')).toBe(false);
    expect(has('{"type": "text"}')).toBe(false);
    expect(has('{"kind":"type","v":"\\"type\\":\\"text\\""}')).toBe(false);
    // Only the line's bytes count, not what the buffer holds around it.
    const buf = Buffer.from('"type":"text" {}');
    expect(hasTextBlock(buf, 14, buf.length)).toBe(false);
  });
});
