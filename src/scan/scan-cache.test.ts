import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { claudeCodeReader } from '../agents/claude-code/reader.js';
import { assistant, usage, user, writeMain, writeSubagent } from '../agents/claude-code/test-support/fixtures.js';
import { sessionIndexPath } from './session-index.js';
import { scanCachePath } from './scan-cache.js';
import { scan } from './scan.js';

async function home(): Promise<{ claude: string; state: string }> {
  const root = await tempDir();
  const claude = join(root, '.claude');
  const path = await writeMain(claude, [user('hello', 0), assistant('m1', [{ type: 'text', text: 'hi' }], 1, {}, { usage: usage(10, 5) })]);
  // Two lines nobody can parse, so the file reports bad lines.
  await writeFile(path, `${await readFile(path, 'utf8')}{not json\n{"half":\n`);
  // And one in a subagent's transcript: a warm run must name that file, not the main one.
  const side = await writeSubagent(claude, 'a1', [user('look', 2, { isSidechain: true, agentId: 'a1' })]);
  await writeFile(side, `${await readFile(side, 'utf8')}{oops\n`);
  return { claude, state: join(root, 'state') };
}

const run = (claude: string, state: string) =>
  scan({ agents: [{ reader: claudeCodeReader, homes: [claude] }], stateRoot: state, userHome: null, readerVersion: 't' });

describe('the scan cache', () => {
  it('reports bad lines on a warm run as on the cold one', async () => {
    const { claude, state } = await home();
    const cold = await run(claude, state);
    expect(cold.bad_lines).toEqual([
      { path: expect.stringMatching(/\d{12}\.jsonl$/), count: 2 },
      { path: expect.stringContaining('agent-a1.jsonl'), count: 1 },
    ]);
    const warm = await run(claude, state);
    expect(warm.bad_lines).toEqual(cold.bad_lines);
    expect(warm.usage.size).toBe(1);
  });

  it('quarantines a corrupt cache file, rebuilds it and says so', async () => {
    const { claude, state } = await home();
    await run(claude, state);
    await writeFile(scanCachePath(state), '{"version": 2, "readerVersion": "t", "entries": {');
    const r = await run(claude, state);
    expect(r.sessions).toHaveLength(1);
    expect(r.state_problems).toEqual([{ path: scanCachePath(state), kind: 'unparsed', reason: expect.stringContaining('moved aside') }]);
    const files = await readdir(join(state, 'cache', 'scan'));
    expect(files.some((f) => f.startsWith('sessions.json.corrupt-'))).toBe(true);
    expect((await run(claude, state)).state_problems).toEqual([]);
  });

  it('never trusts an edited cache whose entries have the wrong shape', async () => {
    const { claude, state } = await home();
    await run(claude, state);
    const cache = JSON.parse(await readFile(scanCachePath(state), 'utf8')) as { entries: Record<string, { row: { totals: unknown } }> };
    for (const e of Object.values(cache.entries)) e.row.totals = 'lots';
    await writeFile(scanCachePath(state), JSON.stringify(cache));
    const r = await run(claude, state);
    expect(r.state_problems[0]?.reason).toMatch(/not a scan cache at entries\..*totals/);
    expect(r.sessions[0]?.totals.input_tokens).toBe(10);
  });

  it('reports a cache it could not save instead of swallowing it', async () => {
    const { claude, state } = await home();
    // A file where the cache's folder belongs: no permission bit stops root, this stops everyone.
    await mkdir(join(state, 'cache'), { recursive: true });
    await writeFile(join(state, 'cache', 'scan'), 'in the way');
    const r = await run(claude, state);
    expect(r.sessions).toHaveLength(1);
    expect(r.state_problems).toEqual([
      { path: scanCachePath(state), kind: 'unreadable', reason: expect.stringContaining('could not save') },
      { path: sessionIndexPath(state), kind: 'unreadable', reason: expect.stringContaining('could not save the session index') },
    ]);
  });
});
