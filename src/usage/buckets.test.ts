import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newRecord, newSubagent } from '../record/draft.js';
import { addTotals, emptyTotals, type SessionRecord, type Totals, type Turn } from '../record/types.js';
import { bucketsFromRecord, bucketTotals, slotMs } from './buckets.js';
import { usageBucketsSchema } from './buckets-schema.js';

const tokens = (input: number, output: number, cacheWrite = 0, cacheRead = 0): Totals => ({
  ...emptyTotals(),
  input_tokens: input,
  output_tokens: output,
  cache_creation_tokens: cacheWrite,
  cache_read_tokens: cacheRead,
});
const slot = (iso: string): number => Math.floor(Date.parse(iso) / slotMs);
const say = (at: string, model?: string, usage?: Totals): Turn => ({
  role: 'assistant',
  at,
  text: 'ok',
  tool_calls: [],
  ...(model !== undefined ? { model } : {}),
  ...(usage !== undefined ? { usage } : {}),
});

function overMidnight(withUsage: boolean): SessionRecord {
  const r = newRecord('claude_code', 's1');
  r.models = ['claude-sonnet-4-5'];
  r.totals = tokens(400, 40);
  r.turns = [
    { role: 'user', at: '2026-01-01T23:40:00Z', text: 'go' },
    say('2026-01-01T23:50:00Z', 'claude-sonnet-4-5', withUsage ? tokens(100, 10) : undefined),
    say('2026-01-02T00:10:00Z', 'claude-sonnet-4-5', withUsage ? tokens(300, 30) : undefined),
  ];
  return r;
}

describe('bucketsFromRecord', () => {
  it('puts each turn’s recorded usage in the quarter-hour it happened (a session over midnight splits)', () => {
    const b = bucketsFromRecord(overMidnight(true));
    expect(b.basis).toBe('turns');
    expect(b.rows).toEqual([
      [slot('2026-01-01T23:45:00Z'), 0, 100, 10, 0, 0, 0, -1, 0],
      [slot('2026-01-02T00:00:00Z'), 0, 300, 30, 0, 0, 0, -1, 0],
    ]);
  });

  it('shares totals evenly over the assistant turns when the reader records none per turn, and says so', () => {
    const r = overMidnight(false);
    r.totals = tokens(401, 41);
    const b = bucketsFromRecord(r);
    expect(b.basis).toBe('split');
    expect(b.rows.map((x) => x.slice(2, 4))).toEqual([
      [201, 21],
      [200, 20],
    ]);
  });

  it('counts a subagent once, under its own model, apart from the main agent’s', () => {
    const r = overMidnight(true);
    const sub = newSubagent('a1');
    sub.models = ['claude-haiku-4-5'];
    sub.totals = tokens(50, 5);
    sub.turns = [say('2026-01-02T00:20:00Z', undefined, tokens(50, 5))];
    r.turns.push({ ...say('2026-01-02T00:15:00Z', 'claude-sonnet-4-5'), tool_calls: [{ name: 'Task', subagent: sub }] });
    const b = bucketsFromRecord(r);
    expect(b.models).toEqual(['claude-sonnet-4-5', 'claude-haiku-4-5']);
    expect(bucketTotals(b).slice(0, 2)).toEqual([450, 45]);
    expect(b.rows.filter((x) => x[1] === 1).map((x) => x.slice(2, 4))).toEqual([[50, 5]]);
  });

  it('keeps a logged cost, and marks a prompt past 200k tokens as long', () => {
    const r = newRecord('pi', 'p');
    r.totals = { ...tokens(250_000, 10), cost_usd: 0.5 };
    r.turns = [say('2026-01-01T10:00:00Z', 'gemini-2.5-pro', { ...tokens(250_000, 10), cost_usd: 0.5 })];
    expect(bucketsFromRecord(r).rows).toEqual([[slot('2026-01-01T10:00:00Z'), 0, 250_000, 10, 0, 0, 0, 0.5, 1]]);
  });

  it('counts tokens of a session with no time under the undated slot', () => {
    const r = newRecord('codex', 'c');
    r.totals = tokens(7, 3);
    r.turns = [{ role: 'assistant', at: null, text: '', tool_calls: [] }];
    expect(bucketsFromRecord(r).rows).toEqual([[-1, 0, 7, 3, 0, 0, 0, -1, 0]]);
    expect(bucketsFromRecord(r).models).toEqual(['<unknown>']);
  });

  it('always adds up to the record’s totals, subagents included (property)', () => {
    const count = fc.nat({ max: 1_000_000 });
    const turn = fc.record({
      minute: fc.nat({ max: 60 * 48 }),
      usage: fc.option(fc.tuple(count, count, count, count), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(turn, { maxLength: 12 }), fc.tuple(count, count, count, count), (turns, extra) => {
        const r = newRecord('claude_code', 'p');
        const recorded = turns.reduce((t, x) => (x.usage === undefined ? t : t.map((v, i) => v + (x.usage?.[i] ?? 0))), [0, 0, 0, 0]);
        const total = recorded.map((v, i) => v + (extra[i] as number));
        r.totals = tokens(total[0] ?? 0, total[1] ?? 0, total[2] ?? 0, total[3] ?? 0);
        r.turns = turns.map((x) =>
          say(new Date(Date.UTC(2026, 0, 1) + x.minute * 60_000).toISOString(), 'm', x.usage && tokens(...x.usage)),
        );
        return JSON.stringify(bucketTotals(bucketsFromRecord(r)).slice(0, 4)) === JSON.stringify(total);
      }),
    );
  });
});

describe('usageBucketsSchema (the scan cache’s check of cached buckets)', () => {
  const row = [slot('2026-01-01T10:00:00Z'), 0, 1, 2, 3, 4, 5, -1, 0];
  const good = { models: ['m'], rows: [row], basis: 'turns' };

  it('accepts what bucketsFromRecord builds, round-tripped through JSON', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 5000 })), { maxLength: 6 }), (pairs) => {
        const r: SessionRecord = { ...newRecord('claude_code', 's') };
        r.turns = pairs.map(([i, o], k) => say(`2026-01-01T${String(10 + k).padStart(2, '0')}:00:00Z`, `m${k % 2}`, tokens(i, o)));
        for (const t of r.turns) if (t.usage !== undefined) addTotals(r.totals, t.usage);
        const b = JSON.parse(JSON.stringify(bucketsFromRecord(r)));
        expect(usageBucketsSchema.safeParse(b).success).toBe(true);
      }),
    );
  });

  it.each([
    ['a row of eight', { ...good, rows: [row.slice(0, 8)] }],
    ['a negative count', { ...good, rows: [[row[0], 0, -1, 2, 3, 4, 5, -1, 0]] }],
    ['a fractional count', { ...good, rows: [[row[0], 0, 1.5, 2, 3, 4, 5, -1, 0]] }],
    ['a model index past the models', { ...good, rows: [[row[0], 1, 1, 2, 3, 4, 5, -1, 0]] }],
    ['a long flag of 2', { ...good, rows: [[row[0], 0, 1, 2, 3, 4, 5, -1, 2]] }],
    ['a slot below undated', { ...good, rows: [[-2, 0, 1, 2, 3, 4, 5, -1, 0]] }],
    ['a cost that is not a number', { ...good, rows: [[row[0], 0, 1, 2, 3, 4, 5, null, 0]] }],
    ['an unknown basis', { ...good, basis: 'guess' }],
    ['a model that is not a string', { ...good, models: [1] }],
    ['null', null],
  ])('rejects %s', (_name, value) => {
    expect(usageBucketsSchema.safeParse(value).success).toBe(false);
  });

  it('accepts the good shape', () => {
    expect(usageBucketsSchema.safeParse(good).success).toBe(true);
  });
});
