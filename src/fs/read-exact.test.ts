import { closeSync, openSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { readBytesSync, readExact, readExactSync } from './read-exact.js';

describe('exact reads', () => {
  it('fill the span, or stop at the end of the file', async () => {
    const path = join(await tempDir(), 'f');
    const data = Buffer.alloc(200_000, 0);
    for (let i = 0; i < data.length; i++) data[i] = i % 251;
    await writeFile(path, data);
    const fd = openSync(path, 'r');
    try {
      const buf = Buffer.alloc(150_000);
      expect(await readExact(fd, buf, 150_000, 10)).toBe(150_000);
      expect(buf.equals(data.subarray(10, 150_010))).toBe(true);
      expect(await readExact(fd, buf, 150_000, 100_000)).toBe(100_000);
      expect(readExactSync(fd, buf, 10, 199_995, 5)).toBe(5);
      expect(buf.subarray(5, 10).equals(data.subarray(199_995))).toBe(true);
      expect(readBytesSync(fd, 7, 3)).toEqual(data.subarray(7, 10));
      expect(readBytesSync(fd, 199_999, 3)).toEqual(data.subarray(199_999));
      expect(readExactSync(fd, buf, 0, 0)).toBe(0);
    } finally {
      closeSync(fd);
    }
  });
});
