// A summary's row straight from a reader's draft against the row of the finalised record: the same
// values in the same key order, whatever the first ask, subagents and float costs.
import { describe, expect, it } from 'vitest';
import { newRecord, newSubagent } from '../record/draft.js';
import { finaliseRecord, summaryAskChars } from '../record/finalise.js';
import { makeHomeElider } from '../record/home-elide.js';
import type { SessionRecord, Totals, Turn } from '../record/types.js';
import { rowFromRecord } from './session-row.js';
import { summaryRow } from './summarise.js';

const home = '/home/u';
const cost = (c: number | null): Totals => ({
  input_tokens: 3,
  output_tokens: 5,
  cache_read_tokens: 7,
  cache_creation_tokens: 11,
  reasoning_tokens: 13,
  cost_usd: c,
});

function draft(turns: Turn[]): SessionRecord {
  const r = newRecord('claude_code', 's1');
  r.repo = `${home}/code/app`;
  r.models = ['m1', 'm2'];
  r.started_at = '2026-01-01T00:00:00Z';
  r.totals = cost(0.1 + 0.2 + 1e-9);
  r.turns = turns;
  return r;
}

function withSubagents(): Turn {
  const inner = newSubagent('inner');
  inner.totals = cost(0.7 + 0.1);
  const outer = newSubagent('outer');
  outer.totals = cost(1 / 3);
  outer.turns = [{ role: 'assistant', at: null, text: 'x', tool_calls: [{ name: 'Task', subagent: inner }] }];
  return {
    role: 'assistant',
    at: null,
    text: 'ok',
    model: 'm1',
    tool_calls: [
      { name: 'Task', subagent: outer },
      { name: 'Read', input: `${home}/a` },
    ],
  };
}

const long = `look at ${home}/code/app/${'é'.repeat(summaryAskChars)}`;

const cases: Record<string, Turn[]> = {
  'an ask with the home in it, cut, then subagents': [
    { role: 'user', at: null, text: long },
    withSubagents(),
    { role: 'user', at: null, text: 'again' },
  ],
  'an empty first ask before a typed one': [
    { role: 'user', at: null, text: '' },
    { role: 'user', at: null, text: 'typed' },
    { role: 'assistant', at: null, text: 'a' },
  ],
  'no ask at all': [{ role: 'assistant', at: null, text: 'a', tool_calls: [] }],
  'no turns': [],
};

describe('summaryRow', () => {
  for (const [name, turns] of Object.entries(cases)) {
    it(`gives the finalised record's row: ${name}`, () => {
      const elide = makeHomeElider(home);
      const expected = rowFromRecord(finaliseRecord(draft(turns), { detail: 'summary', elide }), '/f', '/h', 2);
      expect(JSON.stringify(summaryRow(draft(turns), elide, '/f', '/h', 2))).toBe(JSON.stringify(expected));
    });
  }
});
