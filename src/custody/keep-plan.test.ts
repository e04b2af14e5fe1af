import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planKeep, type KeptFacts, type SourceFacts } from './keep-plan.js';

const src = (relPath: string, size: number, mtimeMs: number | null = 1000): SourceFacts => ({ relPath, size, mtimeMs });
const kept = (entries: [string, KeptFacts | null][]): Map<string, KeptFacts | null> => new Map(entries);

describe('planKeep', () => {
  it('copies everything into an empty custody, sorted by relPath', () => {
    expect(planKeep([src('b', 1), src('a', 2)], kept([]))).toEqual([
      { kind: 'copy', relPath: 'a' },
      { kind: 'copy', relPath: 'b' },
    ]);
  });

  it('compares the tail on equal size and time, verifies on equal size and another time', () => {
    expect(planKeep([src('a', 5, 1000)], kept([['a', { size: 5, mtimeMs: 1000.4 }]]))).toEqual([{ kind: 'tail', relPath: 'a' }]);
    expect(planKeep([src('a', 5, 2000)], kept([['a', { size: 5, mtimeMs: 1000 }]]))).toEqual([{ kind: 'verify', relPath: 'a' }]);
    expect(planKeep([src('a', 5, null)], kept([['a', { size: 5, mtimeMs: 1000 }]]))).toEqual([{ kind: 'verify', relPath: 'a' }]);
  });

  it('extends a grown file from the kept size and refreshes a shrunk one', () => {
    expect(planKeep([src('a', 9)], kept([['a', { size: 5, mtimeMs: 1 }]]))).toEqual([{ kind: 'extend', relPath: 'a', from: 5 }]);
    expect(planKeep([src('a', 3)], kept([['a', { size: 5, mtimeMs: 1 }]]))).toEqual([{ kind: 'refresh', relPath: 'a' }]);
  });

  it('copies a new sub-agent file beside kept ones, and never plans a file only custody holds', () => {
    const plan = planKeep(
      [src('s.jsonl', 5), src('s/subagents/agent-2.jsonl', 4)],
      kept([
        ['s.jsonl', { size: 5, mtimeMs: 1000 }],
        ['s/subagents/agent-1.jsonl', { size: 9, mtimeMs: 1 }],
      ]),
    );
    expect(plan).toEqual([
      { kind: 'tail', relPath: 's.jsonl' },
      { kind: 'copy', relPath: 's/subagents/agent-2.jsonl' },
    ]);
  });

  it('skips what the manifest vouches for without looking at the kept side', () => {
    const vouched = { ...src('a', 5), vouched: true };
    expect(planKeep([vouched, src('b', 3)], kept([['b', { size: 3, mtimeMs: 1000 }]]))).toEqual([
      { kind: 'skip', relPath: 'a' },
      { kind: 'tail', relPath: 'b' },
    ]);
    expect(planKeep([{ ...src('e', 9, null), vouched: true }], kept([]))).toEqual([{ kind: 'skip', relPath: 'e' }]);
  });

  it('gives exactly one action per source file (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.string({ minLength: 1, maxLength: 4 }), fc.nat(20), fc.option(fc.nat(20))), { selector: (t) => t[0] }),
        (rows) => {
          const sources = rows.map(([r, size]) => src(r, size));
          const k = kept(rows.map(([r, , ks]) => [r, ks === null ? null : { size: ks, mtimeMs: 1000 }]));
          const plan = planKeep(sources, k);
          expect(plan.map((a) => a.relPath).sort()).toEqual(rows.map((r) => r[0]).sort());
          for (const a of plan) if (a.kind === 'extend') expect(a.from).toBe(k.get(a.relPath)?.size);
        },
      ),
    );
  });
});
