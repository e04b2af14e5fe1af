import { describe, expect, it } from 'vitest';
import { termPieces } from './notes-search.js';
import { recordOf } from './record-shape.js';

describe('the hub page narrows what a client sent', () => {
  it('keeps a well-formed record and turns wrong types into empty values', () => {
    const r = recordOf(
      JSON.stringify({
        agent: 'codex',
        session_id: 's1',
        models: ['m', 3],
        turns: [
          { role: 'user', at: 5, text: 'hi' },
          { role: 'wizard', text: { no: 1 } },
          'junk',
          {
            role: 'assistant',
            at: null,
            text: 'ok',
            tool_calls: [{ name: 'Task', exit_code: 'x', subagent: { name: 'Explore', turns: [{ role: 'user', text: 'deep' }] } }, null],
          },
        ],
      }),
    );
    expect(r?.agent).toBe('codex');
    expect(r?.models).toEqual(['m']);
    expect(r?.turns.map((t) => [t.role, t.at, t.text])).toEqual([
      ['user', null, 'hi'],
      ['event', null, ''],
      ['assistant', null, 'ok'],
    ]);
    const call = r?.turns[2]?.tool_calls?.[0];
    expect(call?.exit_code).toBeUndefined();
    expect(call?.subagent?.turns[0]?.text).toBe('deep');
    expect(r?.totals.cost_usd).toBeNull();
    expect(recordOf('not json')).toBeNull();
    expect(recordOf('{"turns": 3}')).toBeNull();
    expect(recordOf('{"agent": "someone-else", "turns": []}')).toBeNull();
  });

  it('marks the query words in a note snippet, case-insensitive, regex characters taken literally', () => {
    expect(termPieces('The Lantern route (v2)', 'lantern (v2)')).toEqual([
      ['The ', false],
      ['Lantern', true],
      [' route ', false],
      ['(v2)', true],
    ]);
  });
});
