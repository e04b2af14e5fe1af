import { describe, expect, it } from 'vitest';
import { newRecord, newSubagent } from './draft.js';
import { finaliseRecord } from './finalise.js';
import { makeHomeElider } from './home-elide.js';
import { serialiseRecord, writeRecord } from './serialise.js';
import type { SessionRecord } from './types.js';

function sample(): SessionRecord {
  const r = newRecord('claude_code', 's1');
  r.repo = '/home/alice/code/demo';
  r.models = ['m1', 'm2'];
  const sub = newSubagent('a1');
  sub.name = 'Explore';
  sub.turns = [{ role: 'assistant', at: null, text: 'found /home/alice/x', model: 'm2', tool_calls: [] }];
  r.turns = [
    { role: 'user', at: '2026-10-01T09:30:00.000Z', text: 'a long ask '.repeat(40) },
    {
      role: 'assistant',
      at: '2026-10-01T09:30:05.000Z',
      text: 'one',
      model: 'm1',
      tool_calls: [{ name: 'Bash', format: 'shell', input: 'ls /home/alice', output: 'x', status: 'ok', exit_code: 0 }],
    },
    {
      role: 'assistant',
      at: '2026-10-01T09:30:06.000Z',
      text: 'two',
      model: 'm1',
      tool_calls: [{ name: 'Task', input: 'go', subagent: sub }],
    },
    { role: 'assistant', at: '2026-10-01T09:30:07.000Z', text: 'three', model: 'm2' },
  ];
  r.totals.cost_usd = 0.1 + 0.2;
  return r;
}

describe('finaliseRecord and serialiseRecord', () => {
  const elide = makeHomeElider('/home/alice');

  it('writes keys in wire order and names a turn model only where it changes', () => {
    const json = serialiseRecord(finaliseRecord(sample(), { detail: 'full', elide }));
    const parsed = JSON.parse(json) as SessionRecord;
    expect(Object.keys(parsed)).toEqual([
      'schema_version',
      'collector_version',
      'agent',
      'detail',
      'session_id',
      'repo',
      'branch',
      'models',
      'started_at',
      'ended_at',
      'turns',
      'totals',
      'truncated',
      'omitted_turns',
      'omitted_subagent_turns',
    ]);
    expect(parsed.repo).toBe('~/code/demo');
    expect(parsed.turns.map((t) => t.model)).toEqual([undefined, 'm1', undefined, 'm2']);
    expect(parsed.turns[1]?.tool_calls?.[0]?.input).toBe('ls ~');
    expect(parsed.totals.cost_usd).toBe(0.3);
    const sub = parsed.turns[2]?.tool_calls?.[0]?.subagent;
    expect(Object.keys(sub ?? {})).toEqual([
      'id',
      'name',
      'description',
      'models',
      'started_at',
      'ended_at',
      'status',
      'totals',
      'turns',
      'truncated',
      'omitted_turns',
    ]);
    expect(sub?.turns[0]?.model).toBe('m2');
  });

  it('gives byte-identical output for the same input', () => {
    const a = serialiseRecord(finaliseRecord(sample(), { detail: 'full', elide }));
    const b = serialiseRecord(finaliseRecord(sample(), { detail: 'full', elide }));
    expect(a).toBe(b);
  });

  it('drops tool input and output under messages', () => {
    const r = finaliseRecord(sample(), { detail: 'messages', elide });
    expect(r.turns[1]?.tool_calls?.[0]).toEqual({ name: 'Bash' });
    expect(r.turns[2]?.tool_calls?.[0]?.input).toBeUndefined();
    expect(r.turns[2]?.tool_calls?.[0]?.subagent?.id).toBe('a1');
  });

  it('keeps only the first ask, cut to 200 characters, under summary', () => {
    const r = finaliseRecord(sample(), { detail: 'summary', elide });
    expect(r.turns[0]?.text.length).toBe(200);
    expect(r.turns.slice(1).every((t) => t.text === '')).toBe(true);
    expect(r.turns[1]?.tool_calls).toEqual([{ name: 'Bash' }]);
  });
});

describe('makeHomeElider', () => {
  it('elides the home only at a path boundary, and its dash-encoded form', () => {
    const elide = makeHomeElider('/home/al');
    expect(elide('/home/al/x and /home/alice/y')).toBe('~/x and /home/alice/y');
    expect(elide('projects/-home-al-code-demo')).toBe('projects/~-code-demo');
    expect(elide('/home/al')).toBe('~');
  });
});

describe('writeRecord', () => {
  it('writes the same bytes as serialiseRecord', () => {
    const r = finaliseRecord(sample(), { detail: 'full', elide: makeHomeElider('/home/alice') });
    const parts: string[] = [];
    writeRecord(r, (c) => parts.push(c));
    expect(parts.join('')).toBe(serialiseRecord(r));
    const empty = finaliseRecord({ ...sample(), turns: [] }, { detail: 'full', elide: (t) => t });
    const p2: string[] = [];
    writeRecord(empty, (c) => p2.push(c));
    expect(p2.join('')).toBe(serialiseRecord(empty));
  });
});
