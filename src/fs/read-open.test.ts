// Whole-file reads of regular files: the bytes as written (multi-byte characters, empty files, sizes
// around a buffer's edge), decoded as UTF-8; and reads trusting a walk's stat, refused when it no longer holds.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { readRegularFileSync, readSeenBytesSync } from './read-open.js';

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

describe('readSeenBytesSync', () => {
  it('reads a file of the size seen, and refuses one that is no longer that size, gone or empty', async () => {
    const dir = await tempDir();
    const path = join(dir, 'f.json');
    await writeFile(path, '{"a":1}');
    expect(readSeenBytesSync(path, 7)?.toString('utf8')).toBe('{"a":1}');
    expect(readSeenBytesSync(path, 6)).toBeUndefined();
    expect(readSeenBytesSync(path, 8)).toBeUndefined();
    expect(readSeenBytesSync(join(dir, 'gone.json'), 7)).toBeUndefined();
    await writeFile(path, '');
    expect(readSeenBytesSync(path, 0)).toBeUndefined();
  });
});
