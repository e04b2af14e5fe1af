import { writeSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { writeFileAtomic, writeFileAtomicSync } from './atomic-write.js';

describe('the atomic write', () => {
  it('replaces a file whole, 0600, leaving no temp file', async () => {
    const dir = await tempDir();
    const path = join(dir, 'state.json');
    await writeFile(path, 'old');
    expect(writeFileAtomicSync(path, 'new')).toBe(true);
    expect(await readFile(path, 'utf8')).toBe('new');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(
      await writeFileAtomic(path, async (fd) => {
        await Promise.resolve();
        writeSync(fd, 'streamed');
      }),
    ).toBe(true);
    expect(await readFile(path, 'utf8')).toBe('streamed');
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it('keeps the old content and removes its temp file when the writer fails', async () => {
    const dir = await tempDir();
    const path = join(dir, 'state.json');
    await writeFile(path, 'old');
    expect(() =>
      writeFileAtomicSync(path, () => {
        throw new Error('disk on fire');
      }),
    ).toThrow(/disk on fire/);
    await expect(
      writeFileAtomic(path, async () => {
        throw new Error('later');
      }),
    ).rejects.toThrow(/later/);
    expect(await readFile(path, 'utf8')).toBe('old');
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it('removes its temp file when the rename fails (the target is a folder)', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'taken'));
    await writeFile(join(dir, 'taken', 'x'), '');
    expect(() => writeFileAtomicSync(join(dir, 'taken'), 'data')).toThrow(/cannot replace/);
    expect(await readdir(dir)).toEqual(['taken']);
  });

  it('creates only if absent, never over what is there', async () => {
    const dir = await tempDir();
    const path = join(dir, 'record.json');
    expect(writeFileAtomicSync(path, 'first', { onlyIfAbsent: true })).toBe(true);
    expect(writeFileAtomicSync(path, 'second', { onlyIfAbsent: true })).toBe(false);
    expect(await readFile(path, 'utf8')).toBe('first');
    expect(await readdir(dir)).toEqual(['record.json']);
  });

  it('replaces a link planted at the target, never writing through it', async () => {
    const dir = await tempDir();
    const elsewhere = join(dir, 'elsewhere');
    await writeFile(elsewhere, 'untouched');
    await symlink(elsewhere, join(dir, 'state.json'));
    writeFileAtomicSync(join(dir, 'state.json'), 'mine');
    expect(await readFile(elsewhere, 'utf8')).toBe('untouched');
    expect(await readFile(join(dir, 'state.json'), 'utf8')).toBe('mine');
  });

  it('says which path is not a folder', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'home'), 'a file where a folder belongs');
    const error = (() => {
      try {
        writeFileAtomicSync(join(dir, 'home', 'state.json'), 'x');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toMatchObject({ code: 'NotAFolder', kind: 'failed' });
    expect(String((error as Error).message)).toContain(join(dir, 'home'));
  });

  it('reports a folder it may not write to as a failure with advice', async () => {
    if (process.getuid?.() === 0) return;
    const dir = await tempDir();
    await chmod(dir, 0o500);
    try {
      expect(() => writeFileAtomicSync(join(dir, 'x'), 'x')).toThrow(/permission denied/);
    } finally {
      await chmod(dir, 0o700);
    }
  });
});
