import { describe, expect, it } from 'vitest';
import { agentIds } from '../record/types.js';
import { normaliseNameOrNull, normaliseName } from '../sessionlog/session-name.js';
import { agentOfSource, normaliseSource, sourceOfAgent } from './sources.js';

describe('source names', () => {
  it('collapse every spelling to one canonical source per agent', () => {
    const cases: [string, string][] = [
      ['claude code', 'claude-code'],
      ['Claude_Code', 'claude-code'],
      ['cc', 'claude-code'],
      ['  CLAUDECODE ', 'claude-code'],
      ['kimi code', 'kimi'],
      ['kimi-code', 'kimi'],
      ['KimiCode', 'kimi'],
      ['pi coding agent', 'pi'],
      ['pi_coding_agent', 'pi'],
      ['gemini cli', 'gemini'],
      ['codex', 'codex'],
      ['open code', 'opencode'],
      ['', 'intendant'],
      ['session', 'intendant'],
      ['Something Else', 'something else'],
    ];
    for (const [raw, want] of cases) expect([raw, normaliseSource(raw)]).toEqual([raw, want]);
  });

  it('map all seven agents both ways', () => {
    for (const id of agentIds) {
      expect(normaliseSource(sourceOfAgent[id])).toBe(sourceOfAgent[id]);
      expect(agentOfSource(sourceOfAgent[id])).toBe(id);
      expect(agentOfSource(id)).toBe(id);
    }
    expect(agentOfSource('nobody')).toBeUndefined();
  });
});

describe('session names', () => {
  it('collapse whitespace and cut at 180 characters (177 + "...")', () => {
    expect(normaliseName('  Fix \t the\n\nauth   bug  ')).toBe('Fix the auth bug');
    const long = '😀'.repeat(200);
    const cut = normaliseName(long);
    expect(Array.from(cut)).toHaveLength(180);
    expect(cut.endsWith('...')).toBe(true);
    expect(cut.startsWith('😀'.repeat(177))).toBe(true);
    expect(normaliseName('x'.repeat(180))).toBe('x'.repeat(180));
    expect(normaliseNameOrNull(' \n ')).toBeNull();
    expect(() => normaliseName('   ')).toThrow(expect.objectContaining({ code: 'InvalidArgument' }));
  });
});
