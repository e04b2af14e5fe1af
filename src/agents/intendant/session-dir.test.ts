import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { readableByMode, SessionDir } from './session-dir.js';

describe('SessionDir.checkWhole', () => {
  it('answers what readWhole would, for every kind of file a reference can name', async () => {
    const dir = join(await tempDir(), 'logs', 'sid');
    await mkdir(join(dir, 'turns'), { recursive: true });
    await writeFile(join(dir, 'turns', 'small.json'), '{"commands":[]}');
    await writeFile(join(dir, 'turns', 'big.json'), 'x'.repeat(64));
    await writeFile(join(dir, 'outside.json'), '{}');
    await symlink(join(dir, 'outside.json'), join(dir, 'turns', 'link.json'));
    await mkdir(join(dir, 'turns', 'folder.json'));
    execFileSync('mkfifo', [join(dir, 'turns', 'fifo.json')]);
    const files = new SessionDir(dir);
    const refs = ['small.json', 'big.json', 'link.json', 'folder.json', 'fifo.json', 'missing.json', '../../x.json'].map((r) =>
      r.startsWith('..') ? r : `turns/${r}`,
    );
    const verdict = (r: { ok: true } | { ok: false; failure: string; reason: string }) => (r.ok ? 'ok' : `${r.failure}: ${r.reason}`);
    const checked = refs.map((ref) => verdict(files.checkWhole(ref, 32)));
    const read = refs.map((ref) => {
      const r = files.readWhole(ref, 32);
      return verdict(r.ok ? { ok: true } : r);
    });
    expect(checked).toEqual(read);
    expect(checked[0]).toBe('ok');
    expect(checked[1]).toMatch(/^oversized/);
    expect(checked.slice(2, 5).every((v) => v.startsWith('refused'))).toBe(true);
    expect(checked[5]).toMatch(/^missing/);
  });
});

describe('readableByMode', () => {
  it('grants what the permission classes surely grant, and nothing it cannot know', () => {
    expect(readableByMode({ uid: 5, mode: 0o100000 }, 0)).toBe(true);
    expect(readableByMode({ uid: 5, mode: 0o100400 }, 5)).toBe(true);
    expect(readableByMode({ uid: 5, mode: 0o100044 }, 5)).toBe(false);
    expect(readableByMode({ uid: 5, mode: 0o100644 }, 6)).toBe(true);
    expect(readableByMode({ uid: 5, mode: 0o100604 }, 6)).toBe(false);
    expect(readableByMode({ uid: 5, mode: 0o100640 }, 6)).toBe(false);
    expect(readableByMode({ uid: 5, mode: 0o100644 }, undefined)).toBe(false);
  });
});
