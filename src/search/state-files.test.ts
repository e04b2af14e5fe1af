// The index's own small state files are checked against their schema when read (issue 9): a corrupt
// one is a clear error naming the file and what to do, or is moved aside and reported, never trusted
// nor dropped silently.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { lastSweepAt } from './coverage.js';
import { encodeSegmentFile, openSegment, parseSegment, segmentName, serialiseSegment, type Segment } from './segment.js';
import { ensureStore, readTombstones, storePaths } from './store.js';
import { sweep } from './sweep.js';
import { claudeAgents, clock, minutes, testStore, writeSession } from './test-support/claude-home.js';

describe('tombstones.jsonl', () => {
  it('names the file and the line of a corrupt tombstone, and ignores only a torn last line', async () => {
    const root = join(await tempDir(), 'index');
    await ensureStore(root);
    const path = storePaths(root).tombstones;
    await writeFile(path, '{"key":"claude_code:a","at_ms":1}\n{"key":"claude_code:b","at_ms":"soon"}\n{"key":"claude_code:c","at_ms":3}\n');
    await expect(readTombstones(root)).rejects.toMatchObject({
      code: 'StateCorrupt',
      message: expect.stringMatching(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} line 2 .*delete`)),
    });
    await writeFile(path, '{"key":"claude_code:a","at_ms":1}\n{"key":"claude_code:b","at_');
    expect(await readTombstones(root)).toEqual(new Map([['claude_code:a', 1]]));
  });
});

describe('last-sweep.json', () => {
  it('is not trusted when its time is not a number, and a sweep moves a corrupt one aside and reports it', async () => {
    const home = await tempDir();
    await writeSession(home, '00000001-2222-4333-8444-555555555555', [{ role: 'user', text: 'alpha', ago: minutes(5) }]);
    const root = testStore(home);
    await ensureStore(root);
    await writeFile(storePaths(root).lastSweep, '{"at_ms":"yesterday"}');
    expect(await lastSweepAt(root)).toBeNull();
    const report = await sweep({ root, agents: claudeAgents(home), now: clock });
    expect(report.problems).toContainEqual({ path: storePaths(root).lastSweep, reason: expect.stringMatching(/quarantine/) });
    const moved = (await readdir(storePaths(root).quarantine)).filter((n) => n.startsWith('last-sweep'));
    expect(moved).toHaveLength(1);
    expect(await readFile(join(storePaths(root).quarantine, moved[0] as string), 'utf8')).toBe('{"at_ms":"yesterday"}');
    expect(await lastSweepAt(root)).toBe(clock());
  });
});

describe('segment headers', () => {
  // Segments built from values of any shape, as a file written by a faulty or foreign writer holds them.
  const file = (over: Record<string, unknown>): { name: string; buf: Buffer } => {
    const s = { agent: 'claude_code', session_id: 's1', marks_mode: 'append', marks: [], records: [], ...over } as unknown as Segment;
    const body = serialiseSegment(s);
    return { name: segmentName(body), buf: encodeSegmentFile(body, new Uint8Array(64)) };
  };
  const header = (marks: unknown[]): Record<string, unknown> => ({ marks_mode: 'replace', marks });

  it('reads a well-formed header, and refuses a mark that breaks its schema (the sweep then re-extracts)', () => {
    const good = file(header([{ kind: 'item_anchor', item_id: 'i1', position: 'after', at_ms: 1 }]));
    expect(parseSegment(good.name, good.buf)?.marks).toEqual([{ kind: 'item_anchor', item_id: 'i1', position: 'after', at_ms: 1 }]);
    for (const bad of [
      header([{ kind: 'item_anchor', item_id: 'i1', position: 'sideways', at_ms: 1 }]),
      header([{ kind: 'record_ids', record_ids: ['a'], at_ms: 1 }]),
      header([{ kind: 'seq_cut', cut_after_seq: '3', at_ms: 1 }]),
      { agent: 'nobody' },
    ]) {
      const f = file(bad);
      expect(parseSegment(f.name, f.buf), JSON.stringify(bad)).toBeNull();
      expect(openSegment(f.buf).state, JSON.stringify(bad)).toBe('corrupt');
    }
  });

  it('reads well-formed records, and refuses a record with any field of the wrong type, optional ones included', () => {
    const record = {
      role: 'user',
      ts_ms: 1,
      text: 'hi',
      locator: { kind: 'external_line', line_offset: 0, content_hash16: 'a'.repeat(16) },
    };
    const good = file({
      records: [record, { ...record, seq: 2, thread: 't', subagent: true, locator: { kind: 'external_record_id', record_id: 'r' } }],
    });
    expect(parseSegment(good.name, good.buf)?.records).toHaveLength(2);
    for (const bad of [
      { ...record, seq: '2' },
      { ...record, item_id: 7 },
      { ...record, generation: null },
      { ...record, locator: { kind: 'external_line', line_offset: 0 } },
      { ...record, locator: { kind: 'external_record_id', record_id: 'r', file: 3 } },
      { ...record, locator: { kind: 'native_sidecar_span', file: 'f', offset: 0, content_hash16: 'x' } },
      { ...record, role: 'tool' },
    ]) {
      const f = file({ records: [record, bad] });
      expect(parseSegment(f.name, f.buf), JSON.stringify(bad)).toBeNull();
      // A query reads a record's fields when it shows the record: the bad one does not read back.
      const opened = openSegment(f.buf);
      expect(opened.state === 'ok' && opened.body.record(0) !== null && opened.body.record(1) === null, JSON.stringify(bad)).toBe(true);
    }
  });

  it('reads record text exactly whether the body is Latin-1 or not', () => {
    const texts = ['plain ascii', 'Café, 日本語, \u{1f600}', 'lone \udc80 surrogate', 'nul \u0000 and \u001b escape', ''];
    for (const text of texts) {
      const f = file({ records: [{ role: 'user', ts_ms: 1, text, locator: { kind: 'external_record_id', record_id: 'r' } }] });
      expect(parseSegment(f.name, f.buf)?.records[0]?.text).toBe(text);
    }
  });
});
