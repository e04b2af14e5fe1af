import { appendFile, open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { decodeToken, encodeToken, identityOf, mintToken, tokenHolds } from './page-token.js';

const src = { agent: 'claude_code' as const, sessionId: 's1', root: 'vendor' as const, rootPath: '/h', relPath: 'projects/-x/s1.jsonl' };

describe('page tokens', () => {
  it('round-trip as versioned opaque strings and refuse anything else', async () => {
    const path = join(await tempDir(), 'a.jsonl');
    await writeFile(path, 'a\nb\nc\n');
    const h = await open(path, 'r');
    const token = await mintToken(src, h, await identityOf(h), 4);
    await h.close();
    expect(token.startsWith('al1.')).toBe(true);
    const t = decodeToken(token);
    expect(t).toMatchObject({ v: 1, s: 's1', r: 'vendor', root: '/h', p: 'projects/-x/s1.jsonl', o: 4 });
    expect(decodeToken(encodeToken(t))).toEqual(t);
    for (const bad of ['', 'al1.', 'al1.!!!', `al1.${Buffer.from('{"v":2}').toString('base64url')}`, 'xyz']) {
      expect(() => decodeToken(bad), bad).toThrow(expect.objectContaining({ code: 'InvalidPageToken' }));
    }
  });

  it('refuse a token with any field missing or of the wrong type, with a clear message', () => {
    const good = { v: 1, a: 'claude_code', s: 's1', r: 'vendor', root: '/h', p: 'x.jsonl', dev: '1', ino: '2', h: 'abc', o: 4 };
    const pack = (body: unknown): string => `al1.${Buffer.from(JSON.stringify(body)).toString('base64url')}`;
    expect(decodeToken(pack(good))).toEqual(good);
    // Unknown fields are dropped, as the schema did.
    expect(decodeToken(pack({ ...good, extra: true }))).toEqual(good);
    const bad: unknown[] = [
      null,
      [],
      'al1',
      { ...good, v: 2 },
      { ...good, a: 'not_an_agent' },
      { ...good, r: 'other' },
      { ...good, o: -1 },
      { ...good, o: 1.5 },
      { ...good, o: '4' },
      ...(['s', 'root', 'p', 'dev', 'ino', 'h'] as const).flatMap((k) => [
        { ...good, [k]: 7 },
        { ...good, [k]: undefined },
      ]),
    ];
    for (const body of bad) {
      expect(() => decodeToken(pack(body)), JSON.stringify(body)).toThrow(
        expect.objectContaining({ code: 'InvalidPageToken', message: expect.stringContaining('damaged') }),
      );
    }
  });

  it('hold while the file grows, and not once it is rewritten, replaced or the offset is off a line start', async () => {
    const dir = await tempDir();
    const path = join(dir, 'a.jsonl');
    await writeFile(path, 'first\nsecond\n');
    let h = await open(path, 'r');
    const t = decodeToken(await mintToken(src, h, await identityOf(h), 6));
    await h.close();
    const holds = async (): Promise<boolean> => {
      h = await open(path, 'r');
      try {
        return await tokenHolds(t, h);
      } finally {
        await h.close();
      }
    };
    await appendFile(path, 'third\n');
    expect(await holds()).toBe(true);
    expect(await tokenHoldsAt({ ...t, o: 5 })).toBe(false);
    await writeFile(path, 'FIRST\nsecond\nthird\n');
    expect(await holds()).toBe(false);
    await writeFile(join(dir, 'b.jsonl'), 'first\nsecond\n');
    const other = await open(join(dir, 'b.jsonl'), 'r');
    expect(await tokenHolds(t, other)).toBe(false);
    await other.close();

    async function tokenHoldsAt(x: typeof t): Promise<boolean> {
      const hh = await open(path, 'r');
      try {
        return await tokenHolds(x, hh);
      } finally {
        await hh.close();
      }
    }
  });
});
