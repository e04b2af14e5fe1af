import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import type { DiscoveredSession, SessionFile } from '../agents/types.js';
import { sessionKey } from './session-key.js';

async function sessionOf(files: SessionFile[], main: string, home = '/h'): Promise<DiscoveredSession> {
  return { agent: 'claude_code', sessionId: 's', home, path: main, files };
}

describe('sessionKey', () => {
  it('changes with any file’s path, size, mtime or count, and with the main file’s first bytes', async () => {
    const dir = await tempDir();
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    await writeFile(a, 'one');
    await writeFile(b, 'two');
    const base: SessionFile[] = [
      { path: a, size: 3, mtimeMs: 1000 },
      { path: b, size: 3, mtimeMs: 2000 },
    ];
    const key = await sessionKey(await sessionOf(base, a));
    expect(
      await sessionKey(
        await sessionOf(
          base.map((f) => ({ ...f })),
          a,
        ),
      ),
    ).toBe(key);
    const variants: SessionFile[][] = [
      [base[0] as SessionFile, { path: b, size: 4, mtimeMs: 2000 }],
      [base[0] as SessionFile, { path: b, size: 3, mtimeMs: 2001 }],
      // Size and mtime swapped between the two files: the numbers are keyed by position.
      [
        { path: a, size: 3, mtimeMs: 2000 },
        { path: b, size: 3, mtimeMs: 1000 },
      ],
      [base[0] as SessionFile],
      [...base, { path: join(dir, 'c'), size: 0, mtimeMs: 0 }],
      [
        { path: a, size: 3, mtimeMs: 1000 },
        { path: `${b}x`, size: 3, mtimeMs: 2000 },
      ],
    ];
    const keys = new Set([key]);
    for (const files of variants) keys.add(await sessionKey(await sessionOf(files, a)));
    expect(keys.size).toBe(variants.length + 1);
    // Paths written after the home they lie in tell the files apart as whole paths do.
    const underHome = new Set([await sessionKey(await sessionOf(base, a, dir))]);
    for (const files of variants) underHome.add(await sessionKey(await sessionOf(files, a, dir)));
    expect(underHome.size).toBe(variants.length + 1);
    await writeFile(a, 'ONE');
    expect(await sessionKey(await sessionOf(base, a))).not.toBe(key);
  });
});
