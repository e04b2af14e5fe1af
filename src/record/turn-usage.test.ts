import { describe, expect, it } from 'vitest';
import { addTurnUsage, usageCarrier } from './turn-usage.js';
import { emptyTotals, type Totals, type Turn } from './types.js';

const used = (input: number): Totals => ({ ...emptyTotals(), input_tokens: input });
const turn = (role: Turn['role']): Turn => ({ role, at: null, text: '' });

describe('usageCarrier', () => {
  it('picks the message’s first assistant turn, else its first turn, else none', () => {
    const turns = [turn('user'), turn('reasoning'), turn('assistant')];
    expect(usageCarrier(turns, 1)).toBe(turns[2]);
    expect(usageCarrier(turns.slice(0, 2), 1)).toBe(turns[1]);
    expect(usageCarrier(turns.slice(0, 1), 1)).toBeUndefined();
  });
});

describe('addTurnUsage', () => {
  it('adds to what a turn already carries', () => {
    const t = turn('assistant');
    addTurnUsage(t, used(5));
    addTurnUsage(t, { ...used(7), cost_usd: 0.5 });
    expect(t.usage).toEqual({ ...used(12), cost_usd: 0.5 });
  });
});
