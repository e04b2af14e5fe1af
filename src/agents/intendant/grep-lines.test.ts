import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { linesContaining } from './grep-lines.js';

describe('linesContaining', () => {
  it('finds marked lines across chunk boundaries, skips over-long ones and reads an unterminated tail', async () => {
    const path = join(await tempDir(), 'log.jsonl');
    const lines = ['{"a":1}', '{"event":"mark","n":1}', `{"event":"mark","pad":"${'x'.repeat(80)}"}`, '{"b":2}', '{"event":"mark","n":3}'];
    await writeFile(path, `${lines.join('\n')}\n{"event":"mark","tail":true}`);
    for (const chunkBytes of [5, 16, 64, 4096]) {
      const seen: string[] = [];
      await linesContaining(path, '"mark"', (l) => void seen.push(l), { chunkBytes, maxLineBytes: 60 });
      expect(seen, `chunk ${chunkBytes}`).toEqual(['{"event":"mark","n":1}', '{"event":"mark","n":3}', '{"event":"mark","tail":true}']);
    }
  });

  it('reads each file alone when one buffer serves a larger file, then a smaller one', async () => {
    const dir = await tempDir();
    const big = join(dir, 'big.jsonl');
    const small = join(dir, 'small.jsonl');
    await writeFile(big, `${'{"event":"mark","big":true}\n'.repeat(5000)}`);
    await writeFile(small, '{"event":"other"}\n{"event":"mark","small":true}');
    const seen: string[] = [];
    await linesContaining(big, '"mark"', () => void seen.push('big'));
    await linesContaining(small, '"mark"', (l) => void seen.push(l));
    expect(seen.length).toBe(5001);
    expect(seen.at(-1)).toBe('{"event":"mark","small":true}');
  });
});
