import { describe, expect, it } from 'vitest';
import { newRecord } from '../record/draft.js';
import type { SessionRecord, Turn } from '../record/types.js';
import { buildNote, escapedBytes, noteBudgetBytes, noteSlug, noteTitle } from './note.js';

function record(turns: Turn[]): SessionRecord {
  const r = newRecord('claude_code', '3F2A9C1E-5b7d-4e8a-9c1f-2a4b6d8e0f1a');
  r.repo = '~/code/demo';
  r.started_at = '2026-10-15T04:32:12.801Z';
  r.turns = turns;
  return r;
}
const opts = { agentName: 'Claude Code', project: 'demo', sourceId: '01JA7Q8ZK3T5V9X2B4N6M8P0RC', transcriptUrl: 'http://hub/x' };

describe('the note', () => {
  it('is slugged by agent and session, titled project · Agent · day · first ask within 60 characters', () => {
    const r = record([{ role: 'user', at: null, text: '  Fix the   login redirect loop that breaks every Safari session on iOS' }]);
    expect(noteSlug(r)).toBe('agent-log-claude-code-3f2a9c1e-5b7d-4e8a-9c1f-2a4b6d8e0f1a');
    const title = noteTitle(r, opts);
    expect(title.startsWith('demo · Claude Code · 2026-10-15 · Fix the login redirect')).toBe(true);
    expect([...title]).toHaveLength(60);
    expect(title.endsWith('…')).toBe(true);
    expect(noteTitle(record([{ role: 'user', at: null, text: 'Short ask' }]), opts)).toBe('demo · Claude Code · 2026-10-15 · Short ask');
  });

  it('holds a long session to 48 KiB JSON-escaped: quoted less, then the opening and latest turns with a count between', () => {
    const turns: Turn[] = [{ role: 'user', at: null, text: 'the opening ask' }];
    for (let i = 0; i < 400; i++)
      turns.push({
        role: 'assistant',
        at: null,
        text: `step ${i} "quoted" \\ ${'word '.repeat(200)}`,
        tool_calls: [{ name: 'Bash', format: 'shell', input: `echo ${i}`, output: 'out\n'.repeat(500) }],
      });
    const note = buildNote(record(turns), opts);
    expect(escapedBytes(note.body)).toBeLessThanOrEqual(noteBudgetBytes);
    expect(note.body).toContain('the opening ask');
    expect(note.body).toContain('step 399');
    expect(note.body).toMatch(/_… \d+ turns sit between here \(\[full transcript\]\(http:\/\/hub\/x\)\) …_/);
    expect(note.body).toContain('- Source: 01JA7Q8ZK3T5V9X2B4N6M8P0RC');
    // A session that fits is quoted whole and says nothing is between.
    const small = buildNote(record(turns.slice(0, 3)), opts);
    expect(small.body).not.toContain('sit between');
    expect(small.body).toContain('step 1');
  });

  it('is redacted again before it is sent', () => {
    const note = buildNote(record([{ role: 'user', at: null, text: 'mail bob@example.com the key' }]), opts);
    expect(note.title).toContain('[REDACTED:email]');
    expect(note.body).not.toContain('bob@example.com');
  });
});
