// Whole-file reads of regular files: the bytes as written (multi-byte characters, empty files, sizes
// around a buffer's edge), decoded as UTF-8.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { readRegularFileSync } from './read-open.js';

describe('readRegularFileSync', () => {
  it('reads a file back exactly, whatever its size', async () => {
    const dir = await tempDir();
    for (const text of ['', 'x', 'Straße 日本語 🎉\n', 'a'.repeat(8191), 'é'.repeat(70_000)]) {
      const path = join(dir, 'f.json');
      await writeFile(path, text);
      expect(readRegularFileSync(path)).toBe(text);
    }
  });
});
