// Every reader's discovery walk over a home with a FIFO named like a session file, a looping link and
// a looping folder: it returns in bounded time, reports each bad entry, and lists every good session.
import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { Rollout, rolloutName, writeRollout } from './codex/test-support/rollout-fixture.js';
import { codexReader } from './codex/reader.js';
import { geminiReader } from './gemini/index.js';
import { opencodeReader } from './opencode/index.js';
import { assistantMessage, userMessage, writeDatabase, writeJsonTree } from './opencode/test-support/fixtures.js';
import { piReader } from './pi/index.js';
import { header, user as piUser, writePiFile } from './pi/test-support/pi.js';
import type { AgentReader } from './types.js';

const mkfifo = (path: string): void => void execFileSync('mkfifo', [path]);

/** Plants a FIFO and a self-link named `name`-like beside `dir`'s sessions, and a looping folder link. */
async function plant(dir: string, fifoName: string, loopName: string): Promise<void> {
  mkfifo(join(dir, fifoName));
  await symlink(loopName, join(dir, loopName));
  await symlink('loop-dir', join(dir, 'loop-dir'));
}

async function discovered(reader: AgentReader, home: string): Promise<{ ids: string[]; bad: string[] }> {
  const d = await reader.discover(home);
  return { ids: d.sessions.map((s) => s.sessionId).sort(), bad: d.problems.map((p) => p.path.slice(home.length + 1)).sort() };
}

describe('discovery walks over hostile entries', () => {
  it('Codex lists its rollout and reports the FIFO and the loop', { timeout: 10_000 }, async () => {
    const home = join(await tempDir(), '.codex');
    const id = '019a0000-0000-7000-8000-000000000001';
    const path = await writeRollout(home, id, new Rollout(id).meta().user('hello').userEvent('hello').assistant('hi'));
    const dir = join(path, '..');
    await plant(dir, rolloutName('019a0000-0000-7000-8000-00000000fifo'), rolloutName('019a0000-0000-7000-8000-00000000loop'));
    const { ids, bad } = await discovered(codexReader, home);
    expect(ids).toEqual([id]);
    expect(bad).toEqual([
      `sessions/2026/10/01/${rolloutName('019a0000-0000-7000-8000-00000000fifo')}`,
      `sessions/2026/10/01/${rolloutName('019a0000-0000-7000-8000-00000000loop')}`,
    ]);
  });

  it('Pi lists its session and reports the FIFO (links are never followed)', { timeout: 10_000 }, async () => {
    const home = join(await tempDir(), 'pi-agent');
    const id = '0199aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee';
    const path = await writePiFile(home, `2026-04-01T09-00-00-000Z_${id}.jsonl`, [header(id), piUser('u1', null, 'hello', 1)]);
    await plant(join(path, '..'), '2026-04-01T09-00-00-000Z_fifo.jsonl', 'loop.jsonl');
    const { ids, bad } = await discovered(piReader, home);
    expect(ids).toEqual([id]);
    expect(bad).toEqual(['sessions/--work-app--/2026-04-01T09-00-00-000Z_fifo.jsonl']);
  });

  it('Gemini CLI lists its chat and reports the FIFO and the loop', { timeout: 10_000 }, async () => {
    const home = join(await tempDir(), '.gemini');
    const chats = join(home, 'tmp', 'a'.repeat(64), 'chats');
    await mkdir(chats, { recursive: true });
    const first = { sessionId: 'g-1', projectHash: 'a'.repeat(64), startTime: '2026-05-01T10:00:00.000Z' };
    await writeFile(join(chats, 'session-2026-05-01T10-00-good.jsonl'), `${JSON.stringify(first)}\n`);
    await plant(chats, 'session-2026-05-01T10-01-fifo.json', 'session-2026-05-01T10-02-loop.jsonl');
    const { ids, bad } = await discovered(geminiReader, home);
    expect(ids).toEqual(['g-1']);
    expect(bad).toEqual([
      `tmp/${'a'.repeat(64)}/chats/session-2026-05-01T10-01-fifo.json`,
      `tmp/${'a'.repeat(64)}/chats/session-2026-05-01T10-02-loop.jsonl`,
    ]);
  });

  it('OpenCode lists its sessions and reports a FIFO database and storage file', { timeout: 10_000 }, async () => {
    const home = join(await tempDir(), 'opencode');
    await mkdir(home, { recursive: true });
    const session = (id: string) => ({
      id,
      directory: '/work/app',
      title: 'demo',
      created: 1_780_000_000_000,
      updated: 1_780_000_001_000,
      messages: [userMessage(`msg_${id}_u`, 1_780_000_000_000, 'hello'), assistantMessage(`msg_${id}_a`, 1_780_000_000_500, [])],
    });
    writeDatabase(join(home, 'opencode.db'), [session('ses_db')]);
    mkfifo(join(home, 'opencode-beta.db'));
    await writeJsonTree(join(home, 'storage'), [session('ses_tree')]);
    await plant(join(home, 'storage', 'session', 'proj'), 'ses_fifo.json', 'ses_loop.json');
    const { ids, bad } = await discovered(opencodeReader, home);
    expect(ids).toEqual(['ses_db', 'ses_tree']);
    expect(bad).toEqual(['opencode-beta.db', 'storage/session/proj/ses_fifo.json']);
  });
});
