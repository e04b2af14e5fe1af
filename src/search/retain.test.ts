import { describe, expect, it } from 'vitest';
import { deriveActive, type MessageRecord } from '../record/message-index.js';
import { retainAbandoned } from './retain.js';

const rec = (text: string, ts: number, item_id?: string): MessageRecord => ({
  role: 'assistant',
  ts_ms: ts,
  text,
  locator: { kind: 'external_line', line_offset: ts, content_hash16: 'x' },
  ...(item_id !== undefined ? { item_id } : {}),
});

describe('retainAbandoned', () => {
  it('keeps a restored prefix once and only the abandoned tail as superseded', () => {
    const prior = [rec('a', 1, 'm1'), rec('b', 2, 'm2'), rec('c', 3, 'm3')];
    const fresh = [rec('a', 1, 'm1'), rec('b', 2, 'm2'), rec('d', 4, 'm4')];
    const r = retainAbandoned(prior, [], 0, fresh, 10);
    expect(r.generation).toBe(1);
    expect(r.records.map((x) => [x.text, x.generation])).toEqual([
      ['c', 0],
      ['a', 1],
      ['b', 1],
      ['d', 1],
    ]);
    const active = deriveActive(r.records, r.restores);
    expect(active).toEqual([false, true, true, true]);
  });

  it('keeps the generation when nothing was abandoned (a document that only grew)', () => {
    const prior = [rec('a', 1)];
    const r = retainAbandoned(prior, [], 0, [rec('a', 1), rec('b', 2)], 10);
    expect(r).toMatchObject({ generation: 0, abandoned: 0 });
    expect(r.records.map((x) => x.text)).toEqual(['a', 'b']);
  });

  it('carries older generations and their restore marks through a second rewrite', () => {
    const first = retainAbandoned([rec('a', 1), rec('b', 2)], [], 0, [rec('a', 1)], 10);
    const second = retainAbandoned(first.records, first.restores, first.generation, [rec('z', 9)], 20);
    expect(second.generation).toBe(2);
    expect(second.records.map((x) => [x.text, x.generation])).toEqual([
      ['b', 0],
      ['a', 1],
      ['z', 2],
    ]);
    expect(deriveActive(second.records, second.restores)).toEqual([false, false, true]);
  });
});
