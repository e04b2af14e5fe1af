import { describe, expect, it } from 'vitest';
import { capText, contentHash16, deriveActive, type MessageRecord, type SupersessionMark } from './message-index.js';

type R = Partial<MessageRecord>;
const derive = (records: R[], marks: SupersessionMark[]): boolean[] => deriveActive(records, marks);

describe('deriveActive', () => {
  it('everything is active without marks', () => {
    expect(derive([{}, {}], [])).toEqual([true, true]);
  });

  it('seq_cut supersedes later messages only', () => {
    expect(derive([{ seq: 1 }, { seq: 2 }, { seq: 3 }], [{ kind: 'seq_cut', cut_after_seq: 2, at_ms: 0 }])).toEqual([true, true, false]);
  });

  it('seq_cut leaves what was said after the rewind active (upto)', () => {
    const records = [{ seq: 1 }, { seq: 2 }, { seq: 3 }, { seq: 4 }];
    expect(derive(records, [{ kind: 'seq_cut', cut_after_seq: 1, at_ms: 0, upto: 3 }])).toEqual([true, false, false, true]);
  });

  it('turn_count rolls back the last n active turns, bounded by how many exist', () => {
    const records = [{ user_turn: 1 }, { user_turn: 1 }, { user_turn: 2 }, { user_turn: 2 }, {}];
    expect(derive(records, [{ kind: 'turn_count', num_turns: 1, at_ms: 0 }])).toEqual([true, true, false, false, true]);
    expect(derive(records, [{ kind: 'turn_count', num_turns: 0xffffffff, at_ms: 0 }])).toEqual([false, false, false, false, true]);
  });

  it('turn_count stacks: a second rollback skips turns already rolled back', () => {
    const records = [{ user_turn: 1 }, { user_turn: 2 }, { user_turn: 3 }];
    const marks: SupersessionMark[] = [
      { kind: 'turn_count', num_turns: 1, at_ms: 0 },
      { kind: 'turn_count', num_turns: 1, at_ms: 1 },
    ];
    expect(derive(records, marks)).toEqual([true, false, false]);
  });

  it('turn_count acts on turns said before it, never on later ones (upto)', () => {
    const records = [{ user_turn: 1 }, { user_turn: 2 }, { user_turn: 3 }];
    expect(derive(records, [{ kind: 'turn_count', num_turns: 1, at_ms: 0, upto: 2 }])).toEqual([true, false, true]);
  });

  it('item_anchor supersedes the tail: after keeps the anchor, before supersedes it', () => {
    const records = [{ item_id: 'a' }, { item_id: 'b' }, { item_id: 'c' }];
    expect(derive(records, [{ kind: 'item_anchor', item_id: 'b', position: 'after', at_ms: 0 }])).toEqual([true, true, false]);
    expect(derive(records, [{ kind: 'item_anchor', item_id: 'b', position: 'before', at_ms: 0 }])).toEqual([true, false, false]);
    expect(derive(records, [{ kind: 'item_anchor', item_id: 'zz', position: 'before', at_ms: 0 }])).toEqual([true, true, true]);
  });

  it('item_anchor on a non-record item uses its position, and stays inside its thread', () => {
    const records: R[] = [{ item_id: 'a' }, { item_id: 'x', thread: 't' }, { item_id: 'b' }, { item_id: 'c' }];
    const mark: SupersessionMark = { kind: 'item_anchor', item_id: 'call_1', position: 'after', from: 1, upto: 2, at_ms: 0 };
    expect(derive(records, [mark])).toEqual([true, true, false, true]);
  });

  it('generation_restore retires other generations, and marks act only on the live one', () => {
    const records: R[] = [
      { item_id: 'm1', generation: 0 },
      { item_id: 'm1', generation: 1 },
      { item_id: 'm2', generation: 1 },
    ];
    expect(derive(records, [])).toEqual([false, true, true]);
    expect(derive(records, [{ kind: 'generation_restore', active_generation: 0, at_ms: 0 }])).toEqual([true, false, false]);
    // The anchor resolves in generation 1, not on the older copy that comes first.
    expect(derive(records, [{ kind: 'item_anchor', item_id: 'm1', position: 'after', at_ms: 0 }])).toEqual([false, true, false]);
  });

  it('a restore to a generation with no records leaves nothing active', () => {
    expect(derive([{ generation: 0 }], [{ kind: 'generation_restore', active_generation: 1, at_ms: 0 }])).toEqual([false]);
  });

  it('record_ids supersedes exactly those ids', () => {
    const records = [{ item_id: 'main:a' }, { item_id: 'main:b' }, {}];
    expect(derive(records, [{ kind: 'record_ids', record_ids: ['main:b'], at_ms: 0, reason: 'context_undo' }])).toEqual([
      true,
      false,
      true,
    ]);
  });
});

describe('capText', () => {
  it('cuts on a code-point boundary at the cap and flags it', () => {
    const r = capText('é'.repeat(10), 5);
    expect(r).toEqual({ text: 'éé', truncated: true });
    expect(capText('short', 5)).toEqual({ text: 'short', truncated: false });
    const emoji = capText('😀😀', 6);
    expect(emoji).toEqual({ text: '😀', truncated: true });
  });
});

describe('contentHash16', () => {
  it('is the first 8 bytes of SHA-256, in hex', () => {
    expect(contentHash16('hello')).toBe('2cf24dba5fb0a30e');
  });
});
