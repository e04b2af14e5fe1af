import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { LineAppender } from './line-appender.js';
import { SessionLog } from './session-log.js';

function snapshotFiles(dir: string): string[] {
  return readFileSync(join(dir, 'session.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.includes('"context_snapshot"'))
    .map((l) => (JSON.parse(l) as { file: string }).file);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('context snapshots', () => {
  it('rotate to the latest per source, keep other sources, and are compact one-line JSON', async () => {
    const root = await tempDir();
    const log = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 't' });
    log.turnStart(1);
    log.contextSnapshot({ source: 'native', label: 'req 1', raw: { messages: ['turn one'] }, format: 'test.v1', itemCount: 1 });
    log.turnStart(2);
    const raw2 = { messages: ['turn one', 'turn two'] };
    log.contextSnapshot({ source: 'native', label: 'req 2', raw: raw2, format: 'test.v1' });
    log.contextSnapshot({ source: 'codex', label: 'external archive', raw: { summary: 'external' }, format: 'codex.v1' });
    log.contextSnapshot({ source: 'native', label: 'other session', raw: 3, format: 'x', sessionId: 'sub-1' });
    await log.close();
    const files = snapshotFiles(log.dir);
    expect(files).toHaveLength(4);
    expect(files[0]).toMatch(/^turns\/turn_001_context_[0-9a-f-]{36}\.json$/);
    expect(existsSync(join(log.dir, files[0] as string))).toBe(false);
    const latest = readFileSync(join(log.dir, files[1] as string), 'utf8');
    expect(JSON.parse(latest)).toEqual(raw2);
    expect(latest.includes('\n')).toBe(false);
    expect(existsSync(join(log.dir, files[2] as string))).toBe(true);
    expect(existsSync(join(log.dir, files[3] as string))).toBe(true);
  });

  it('keep the predecessor when the new row cannot be written (the new file is the accepted orphan)', async () => {
    const root = await tempDir();
    const log = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 't' });
    log.turnStart(1);
    log.contextSnapshot({ source: 'native', label: 'req 1', raw: { m: 'durable' }, format: 'f' });
    const [durable] = snapshotFiles(log.dir);
    vi.spyOn(LineAppender.prototype, 'append').mockImplementation(() => {
      throw Object.assign(new Error('disk full'), { code: 'WriteFailed' });
    });
    expect(() => log.contextSnapshot({ source: 'native', label: 'req 2', raw: { m: 'never lands' }, format: 'f' })).toThrow('disk full');
    vi.restoreAllMocks();
    expect(snapshotFiles(log.dir)).toEqual([durable]);
    expect(existsSync(join(log.dir, durable as string))).toBe(true);
    expect(readdirSync(join(log.dir, 'turns')).filter((f) => f.includes('context'))).toHaveLength(2);
    // The next good snapshot rotates the durable one out.
    log.contextSnapshot({ source: 'native', label: 'req 3', raw: 3, format: 'f' });
    expect(existsSync(join(log.dir, durable as string))).toBe(false);
    await log.close();
  });

  it('continue rotating across a reopen of the session', async () => {
    const root = await tempDir();
    const dir = join(root, 'logs', 's');
    const a = await SessionLog.open({ dir, projectRoot: '/p', task: 't' });
    a.turnStart(1);
    a.contextSnapshot({ source: 'native', label: 'first process', raw: 1, format: 'f' });
    await a.close();
    const b = await SessionLog.open({ dir, projectRoot: '/p', task: 't' });
    expect(b.currentTurn).toBe(1);
    b.turnStart(2);
    b.contextSnapshot({ source: 'native', label: 'second process', raw: 2, format: 'f' });
    await b.close();
    const files = snapshotFiles(dir);
    expect(files).toHaveLength(2);
    expect(existsSync(join(dir, files[0] as string))).toBe(false);
    expect(existsSync(join(dir, files[1] as string))).toBe(true);
  });

  it('keep every sidecar when asked to', async () => {
    const root = await tempDir();
    const log = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 't', keepAllContextSnapshots: true });
    log.contextSnapshot({ source: 'native', label: 'a', raw: 1, format: 'f' });
    log.contextSnapshot({ source: 'native', label: 'b', raw: 2, format: 'f' });
    await log.close();
    for (const f of snapshotFiles(log.dir)) expect(existsSync(join(log.dir, f))).toBe(true);
    expect(snapshotFiles(log.dir)[0]).toMatch(/^turns\/context_/);
  });
});
