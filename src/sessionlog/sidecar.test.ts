import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { appendSpan, isContainedPath, readSpan } from './sidecar.js';

describe('sidecar spans', () => {
  it('skip the separator on the first write and point past it afterwards', async () => {
    const dir = await tempDir();
    const a = appendSpan(dir, 'f.txt', 'first\n');
    const b = appendSpan(dir, 'f.txt', 'second');
    expect(a).toEqual({ file: 'f.txt', offset: 0, bytes: 6 });
    expect(b).toEqual({ file: 'f.txt', offset: 7, bytes: 6 });
    expect(readFileSync(join(dir, 'f.txt'), 'utf8')).toBe('first\n\nsecond');
    expect(readSpan(dir, 'f.txt', b.offset, b.bytes)?.text).toBe('second');
  });

  it('clip a capped read on a character boundary and reject escapes and short files', async () => {
    const dir = await tempDir();
    const s = appendSpan(dir, 'u.txt', 'aé😀b');
    expect(readSpan(dir, 'u.txt', 0, s.bytes, 4)).toEqual({ text: 'aé', clipped: true });
    expect(readSpan(dir, 'u.txt', 0, s.bytes, 6)).toEqual({ text: 'aé', clipped: true });
    expect(readSpan(dir, 'u.txt', 0, s.bytes, 7)).toEqual({ text: 'aé😀', clipped: true });
    expect(readSpan(dir, 'u.txt', 0, s.bytes + 5)).toBeUndefined();
    expect(readSpan(dir, '../u.txt', 0, 1)).toBeUndefined();
    expect(readSpan(dir, '/etc/passwd', 0, 1)).toBeUndefined();
    expect(isContainedPath('turns/a.txt')).toBe(true);
    expect(isContainedPath('turns/../../a')).toBe(false);
  });
});
