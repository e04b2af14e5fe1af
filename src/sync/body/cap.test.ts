import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newRecord, newSubagent } from '../../record/draft.js';
import { serialiseRecord } from '../../record/serialise.js';
import type { SessionRecord, Subagent, Turn } from '../../record/types.js';
import { capRecord } from './cap.js';

const byteLen = (s: string): number => Buffer.byteLength(s, 'utf8');

function sub(id: string, texts: string[]): Subagent {
  const s = newSubagent(id);
  s.name = 'Explore';
  s.turns = texts.map(
    (t, i): Turn => (i === 0 ? { role: 'user', at: null, text: t } : { role: 'assistant', at: null, text: t, tool_calls: [] }),
  );
  return s;
}

function record(turns: { text: string; subs: string[][] }[]): SessionRecord {
  const r = newRecord('claude_code', 'sess-1');
  r.turns = turns.map((t, i): Turn => {
    if (i === 0) return { role: 'user', at: `2026-10-01T09:00:${String(i % 60).padStart(2, '0')}.000Z`, text: t.text };
    return {
      role: 'assistant',
      at: null,
      text: t.text,
      tool_calls: t.subs.map((s, j) => ({ name: 'Task', output: s[s.length - 1] ?? '', subagent: sub(`a${i}-${j}`, s) })),
    };
  });
  return r;
}

const text = fc.string({ unit: fc.constantFrom('a', 'é', '😀', '"', '\\', '\n', 'x'), maxLength: 300 });
const turnsArb = fc.array(fc.record({ text, subs: fc.array(fc.array(text, { minLength: 1, maxLength: 12 }), { maxLength: 2 }) }), {
  minLength: 1,
  maxLength: 30,
});

describe('capRecord', () => {
  it('leaves a body at the cap alone and cuts one a byte over it', () => {
    const r = record(
      Array.from({ length: 20 }, (_, i) => ({
        text: `turn ${i} `.repeat(50),
        subs: i === 3 ? [['task', 'x'.repeat(900), 'y'.repeat(900), 'done']] : [],
      })),
    );
    const size = byteLen(serialiseRecord(r));
    const at = capRecord(r, size);
    expect(at.body).toBe(serialiseRecord(r));
    const over = capRecord(r, size - 1);
    expect(over.body).not.toBeNull();
    expect(byteLen(over.body!)).toBeLessThanOrEqual(size - 1);
    // The subagent lost its inner turns first; the main turns are all still there.
    expect(over.record.truncated).toBe(false);
    // The fewest inner turns go, oldest first.
    expect(over.record.omitted_subagent_turns).toBe(1);
    const s = over.record.turns[3]!.tool_calls![0]!.subagent!;
    expect(s.turns.map((t) => t.text)).toEqual(['task', '1 turn omitted to fit the body cap', 'y'.repeat(900), 'done']);
    expect(s.truncated).toBe(true);
    expect(s.omitted_turns).toBe(1);
    // Far over: every inner turn goes, never the task or the final answer.
    const far = capRecord(r, size - 1500);
    const fs = far.record.turns[3]!.tool_calls![0]!.subagent!;
    expect(fs.turns.map((t) => t.text)).toEqual(['task', '2 turns omitted to fit the body cap', 'done']);
  });

  it('then keeps the opening turn and the latest ones, saying how many went', () => {
    const r = record(Array.from({ length: 50 }, (_, i) => ({ text: `turn ${i} `.repeat(20), subs: [] })));
    const out = capRecord(r, 4000);
    expect(byteLen(out.body!)).toBeLessThanOrEqual(4000);
    const texts = out.record.turns.map((t) => t.text);
    expect(texts[0]).toBe(r.turns[0]!.text);
    expect(texts[texts.length - 1]).toBe(r.turns[49]!.text);
    expect(out.record.turns[1]).toEqual({ role: 'event', at: null, text: `${out.record.omitted_turns} turns omitted to fit the body cap` });
    expect(out.record.truncated).toBe(true);
    expect(out.record.turns.length).toBe(50 - out.record.omitted_turns + 1);
  });

  it('property: fits, is deterministic, keeps the opening turn, and counts what it removed', () => {
    fc.assert(
      fc.property(turnsArb, fc.integer({ min: 600, max: 20_000 }), (turns, cap) => {
        const r = record(turns);
        const before = serialiseRecord(r);
        const out = capRecord(r, cap);
        expect(serialiseRecord(r)).toBe(before); // the input is not mutated
        const again = capRecord(r, cap);
        expect(again.body).toBe(out.body);
        if (byteLen(before) <= cap) {
          expect(out.body).toBe(before);
          return;
        }
        if (out.body === null) return; // the opening turn alone is past a tiny cap
        expect(byteLen(out.body)).toBeLessThanOrEqual(cap);
        expect(out.record.turns[0]!.text).toBe(r.turns[0]!.text);
        if (out.record.truncated) {
          expect(out.record.turns.length).toBe(r.turns.length - out.record.omitted_turns + 1);
          // Subagents were cut to their first and last turns before any main turn went.
          for (const t of out.record.turns)
            for (const c of t.tool_calls ?? []) if (c.subagent !== undefined) expect(c.subagent.turns.length).toBeLessThanOrEqual(3);
        } else {
          expect(out.record.turns.length).toBe(r.turns.length);
          expect(out.record.omitted_subagent_turns).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300 },
    );
  });
});
