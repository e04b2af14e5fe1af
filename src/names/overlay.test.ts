import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../../test/support/temp.js';
import type { SessionRow } from '../scan/session-row.js';
import { emptyTotals } from '../record/types.js';
import { readMetaSync } from '../sessionlog/meta.js';
import { SessionLog } from '../sessionlog/session-log.js';
import { clearOverlayName, overlayName, overlayPath, readOverlay, setOverlayName } from './overlay.js';
import { applySessionNames, renameSession, sessionName } from './session-names.js';

const lib = join(repoRoot, 'dist', 'names', 'overlay.js');

function row(agent: SessionRow['agent'], id: string, file: string): SessionRow {
  return {
    agent,
    session_id: id,
    name: null,
    repo: '',
    branch: null,
    first_ask: null,
    models: [],
    started_at: null,
    ended_at: null,
    turns: 0,
    tool_calls: 0,
    totals: emptyTotals(),
    totals_with_subagents: emptyTotals(),
    subagents: 0,
    file,
    home: '',
    bad_lines: 0,
  };
}

describe('the names overlay', () => {
  it('stores {source: {session_id: name}} normalised, owner-only, and reads it back', async () => {
    const root = await tempDir();
    const state = join(root, 'state');
    expect(await setOverlayName(state, 'claude code', 'abc', '  Cursor   bug hunt ')).toBe('Cursor bug hunt');
    await setOverlayName(state, 'codex', '019e', 'Auth refactor');
    expect(JSON.parse(readFileSync(overlayPath(state), 'utf8'))).toEqual({
      'claude-code': { abc: 'Cursor bug hunt' },
      codex: { '019e': 'Auth refactor' },
    });
    expect(statSync(overlayPath(state)).mode & 0o777).toBe(0o600);
    expect(statSync(state).mode & 0o777).toBe(0o700);
    const overlay = await readOverlay(state);
    expect(overlayName(overlay, 'cc', 'abc')).toBe('Cursor bug hunt');
    expect(overlayName(overlay, 'codex', 'nope')).toBeNull();
    expect(await clearOverlayName(state, 'claude_code', 'abc')).toBe(true);
    expect(await clearOverlayName(state, 'claude_code', 'abc')).toBe(false);
    expect(await readOverlay(state)).toEqual({ codex: { '019e': 'Auth refactor' } });
    expect(existsSync(`${overlayPath(state)}.lock`)).toBe(false);
  });

  it('normalises names and source aliases written by someone else when reading', async () => {
    const state = await tempDir();
    writeFileSync(
      overlayPath(state),
      JSON.stringify({ 'kimi code': { s1: `  a \n b ${'z'.repeat(300)}` }, 'kimi-code': { s2: 'two' }, codex: { s3: '   ' } }),
    );
    const overlay = await readOverlay(state);
    expect(Object.keys(overlay)).toEqual(['kimi']);
    expect(overlay.kimi?.s2).toBe('two');
    expect(Array.from(overlay.kimi?.s1 ?? '')).toHaveLength(180);
    expect(overlay.kimi?.s1?.startsWith('a b zzz')).toBe(true);
  });

  it('reports a corrupt overlay and never overwrites it', async () => {
    const state = await tempDir();
    writeFileSync(overlayPath(state), '{"codex": {"s": 1}}');
    await expect(readOverlay(state)).rejects.toMatchObject({ code: 'CorruptOverlay', message: expect.stringContaining('codex.s') });
    await expect(setOverlayName(state, 'codex', 's', 'x')).rejects.toMatchObject({ code: 'CorruptOverlay' });
    expect(readFileSync(overlayPath(state), 'utf8')).toBe('{"codex": {"s": 1}}');
    const rows = [row('codex', 's', '/x')];
    expect(await applySessionNames(rows, state)).toHaveLength(1);
    expect(rows[0]?.name).toBeNull();
  });

  it('loses no entry when several processes write at once', async () => {
    expect(existsSync(lib), 'run `npm run build` first: the writers import dist/names').toBe(true);
    const state = await tempDir();
    const script = `
      const { setOverlayName } = await import(process.argv[1]);
      const [state, p] = process.argv.slice(2);
      for (let i = 0; i < 20; i++) await setOverlayName(state, i % 2 ? 'codex' : 'claude code', 'p' + p + '-s' + i, 'name ' + p + ' ' + i);
    `;
    const runs = Array.from(
      { length: 6 },
      (_, p) =>
        new Promise<number | null>((resolve, reject) => {
          const child = spawn(process.execPath, ['--input-type=module', '-e', script, lib, state, String(p)], {
            stdio: ['ignore', 'ignore', 'pipe'],
          });
          let err = '';
          child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
          child.on('error', reject);
          child.on('exit', (code) => (code === 0 ? resolve(code) : reject(new Error(err))));
        }),
    );
    await Promise.all(runs);
    const overlay = await readOverlay(state);
    const all = Object.values(overlay).flatMap((m) => Object.entries(m));
    expect(all).toHaveLength(120);
    for (let p = 0; p < 6; p++)
      for (let i = 0; i < 20; i++) expect(overlayName(overlay, i % 2 ? 'codex' : 'claude-code', `p${p}-s${i}`)).toBe(`name ${p} ${i}`);
  });
});

describe('renaming', () => {
  it('writes an Intendant session name into its own meta, another agent’s into the overlay', async () => {
    const root = await tempDir();
    const state = join(root, 'agentlog');
    const log = await SessionLog.open({ stateRoot: join(root, 'intendant'), projectRoot: '/p', task: 't' });
    await log.close();
    const a = await renameSession(state, 'intendant', log.sessionId, log.dir, ' Login   loop ');
    expect(a).toMatchObject({ where: 'meta', name: 'Login loop', path: join(log.dir, 'session_meta.json') });
    expect(readMetaSync(log.dir)).toMatchObject({ name: 'Login loop', task: 't', session_id: log.sessionId });
    expect(existsSync(overlayPath(state))).toBe(false);
    const b = await renameSession(state, 'claude_code', 'c1', '/home/x/.claude/projects/p/c1.jsonl', 'Claude one');
    expect(b).toMatchObject({ where: 'overlay', source: 'claude-code', path: overlayPath(state) });
    const rows = [row('intendant', log.sessionId, log.dir), row('claude_code', 'c1', '/f'), row('codex', 'c1', '/g')];
    expect(await applySessionNames(rows, state)).toEqual([]);
    expect(rows.map((r) => r.name)).toEqual(['Login loop', 'Claude one', null]);
    expect(await sessionName(state, 'intendant', log.sessionId, join(log.dir, 'session.jsonl'))).toBe('Login loop');
    // A later reopen of the Intendant session keeps the name.
    const again = await SessionLog.open({ dir: log.dir, projectRoot: '/p', task: 'more' });
    await again.close();
    expect(readMetaSync(log.dir)?.name).toBe('Login loop');
  });
});
