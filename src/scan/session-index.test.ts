import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import type { DiscoveredSession } from '../agents/types.js';
import { sessionIndexPath, writeSessionIndex } from './session-index.js';

describe('the session index', () => {
  it('is left alone when a scan finds the same sessions in another order', async () => {
    const root = await tempDir();
    const state = join(root, 'state');
    const projects = ['b', 'a'].map((p) => join(root, p));
    const sessions: { session: DiscoveredSession; key: string }[] = [];
    for (const home of projects) {
      await mkdir(join(home, '.aider'), { recursive: true });
      const path = join(home, '.aider', 'chat.md');
      await writeFile(path, '# chat\n');
      const session: DiscoveredSession = { agent: 'aider', sessionId: home, home, path, files: [{ path, size: 7, mtimeMs: 1 }] };
      sessions.push({ session, key: `k-${home}` });
    }
    const roots = projects.map((path) => ({ agent: 'aider', path }));
    // Folders written a moment ago are racy (not trusted): the clock says it is a day later.
    const later = () => Date.now() + 86_400_000;
    expect(await writeSessionIndex(state, 't', roots, sessions, later)).toBeNull();
    const first = await stat(sessionIndexPath(state));
    expect(await writeSessionIndex(state, 't', [...roots].reverse(), [...sessions].reverse(), later)).toBeNull();
    const second = await stat(sessionIndexPath(state));
    expect({ ino: second.ino, mtimeMs: second.mtimeMs }).toEqual({ ino: first.ino, mtimeMs: first.mtimeMs });
  });
});
