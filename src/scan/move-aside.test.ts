import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import type { FileProblem } from '../agents/types.js';
import { readCacheJson } from './move-aside.js';

describe('readCacheJson', () => {
  it('reads an ASCII cache and one holding UTF-8 alike, every character as written', async () => {
    const dir = await tempDir();
    const problems: FileProblem[] = [];
    const ascii = join(dir, 'ascii.json');
    await writeFile(ascii, '{"name":"caf\\u00e9 \\ud83d\\ude00"}');
    const utf8 = join(dir, 'utf8.json');
    // Not as agentlog writes its caches, but a file edited by hand must still read right.
    await writeFile(utf8, '{"name":"café 😀"}');
    expect((await readCacheJson(ascii, 'a cache', Date.now, problems))?.json).toEqual({ name: 'café 😀' });
    expect((await readCacheJson(utf8, 'a cache', Date.now, problems))?.json).toEqual({ name: 'café 😀' });
    expect(problems).toEqual([]);
  });
});
