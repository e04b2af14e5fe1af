// The Intendant reader and the session-log library read a `session.jsonl` row and a
// `session_meta.json` one way: the edge cases where two readings used to part.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { toLogEvent } from '../../sessionlog/log-event.js';
import { intendantEntryView } from './entry-view.js';
import { intendantReader, readIntendantName } from './index.js';
import { toLogRow } from './log-row.js';

describe('one reading of a log row', () => {
  it('is not a row without a non-empty event, for the library as for the reader', () => {
    for (const o of [{}, { event: '' }, { event: 7 }, { ts: '10:00:00.000', message: 'no event' }]) {
      expect(toLogEvent(o), JSON.stringify(o)).toBeUndefined();
      expect(toLogRow(o, 3), JSON.stringify(o)).toBeUndefined();
      expect(intendantEntryView(o)).toEqual({ timestamp: null, role: null, text: '' });
    }
  });

  it('reads a row without ts as ts "", fields of the wrong type as absent, and adds only the line', () => {
    const o = { event: 'agent_output', ts_ms: 'soon', turn: '2', level: 3, message: 'm', data: [1], file: 'turns/a.txt', file2: null };
    expect(toLogEvent(o)).toEqual({ ts: '', event: 'agent_output', message: 'm', file: 'turns/a.txt' });
    expect(toLogRow(o, 9)).toEqual({ line: 9, ...toLogEvent(o) });
    // No time on the row: tail shows none rather than an empty string.
    expect(intendantEntryView(o).timestamp).toBeNull();
    expect(intendantEntryView({ ...o, ts: '10:00:00.000' }).timestamp).toBe('10:00:00.000');
    expect(intendantEntryView({ ...o, ts_ms: Date.UTC(2026, 6, 1) }).timestamp).toBe('2026-07-01T00:00:00.000Z');
  });
});

describe('one reading of a session meta', () => {
  it('gives a drifted meta’s name to scan and to the reader alike (the writer’s strict schema would refuse the file)', async () => {
    const home = join(await tempDir(), '.intendant');
    const dir = join(home, 'logs', 's-1');
    await mkdir(dir, { recursive: true });
    // No session_id, a fractional created_at_ms and a numeric role: parseMeta (the rewrite's guard)
    // rejects all three; a reader reads what the file does say.
    await writeFile(
      join(dir, 'session_meta.json'),
      JSON.stringify({ created_at_ms: 1.5, role: 5, projectRoot: '/w/app', name: '  Fix \n the   thing ' }, null, 2),
    );
    await writeFile(join(dir, 'session.jsonl'), `${JSON.stringify({ ts: '00:00:01.000', ts_ms: 1_000, event: 'session_start' })}\n`);
    expect(await readIntendantName(dir)).toBe('Fix the thing');
    expect(await intendantReader.names?.read(join(dir, 'session.jsonl'))).toBe('Fix the thing');
    expect(await intendantReader.names?.read(dir)).toBe('Fix the thing');
    const [session] = (await intendantReader.discover(home)).sessions;
    if (session === undefined) throw new Error('the session was not discovered');
    expect((await intendantReader.parse(session, { detail: 'full' })).record?.repo).toBe('/w/app');
  });
});
