import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { SessionLog } from './session-log.js';

const read = (dir: string): string => readFileSync(join(dir, 'transcript.jsonl'), 'utf8');

describe('transcript.jsonl', () => {
  it('is appended live and rebuilt identically from session.jsonl at close', async () => {
    const root = await tempDir();
    const log = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 't' });
    log.userMessage({ provenance: 'task', text: 'do the thing' });
    log.turnStart(1);
    log.modelResponseWithMessage({ content: 'done\nwith two lines', toolCalls: [{ id: '1', name: 'exec', arguments: '{}' }] });
    log.agentOutput({ stdout: 'not in the transcript' });
    const live = read(log.dir);
    await log.close();
    expect(read(log.dir)).toBe(live);
    const entries = read(log.dir)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.map((e) => [e.role, e.text, e.tools_called])).toEqual([
      ['user', 'do the thing', undefined],
      ['model', 'done\nwith two lines', ['exec']],
    ]);
    expect(Object.keys(entries[0] ?? {})).toEqual(['ts', 'ts_ms', 'role', 'text']);
  });

  it('is complete after close even when a live append was lost', async () => {
    const root = await tempDir();
    const log = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 't' });
    log.userMessage({ provenance: 'task', text: 'one' });
    log.modelResponseWithMessage({ content: 'two' });
    writeFileSync(join(log.dir, 'transcript.jsonl'), '');
    await log.close();
    expect(read(log.dir).trim().split('\n')).toHaveLength(2);
  });
});
