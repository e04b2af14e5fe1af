// The title rules and the listing cursor: pure, so checked directly and with fast-check.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './cursor.js';
import { cutTitle, isIdShapedTitle, noteTitle, subjectOf } from './titles.js';

describe('titles', () => {
  it('knows an id-only title', () => {
    for (const t of [
      '',
      'claude_code session a15fba01',
      'colonizer session a15f0000-1111',
      '3f2a9c1e-5b7d-4e8a-9c1f-2a4b6d8e0f1a',
      '01J9Z8K3T5V9X2B4N6M8P0RCAB',
      'slug-x',
    ])
      expect(isIdShapedTitle(t, 'slug-x'), t).toBe(true);
    for (const t of ['Fix the login', 'demo · Codex · 2026-10-01 · Fix it', 'session notes'])
      expect(isIdShapedTitle(t, 'slug-x'), t).toBe(false);
  });

  it('reads the first ask, else the issue or pull request, else the outcome; fenced code is not read', () => {
    expect(subjectOf('## User\n\nFix the **login** loop\n\n## Assistant\nok')).toBe('Fix the login loop');
    expect(subjectOf('- **Ask**: tidy the logs')).toBe('tidy the logs');
    expect(subjectOf('```\nUser: not this\n```\nOutcome: merged')).toBe('merged');
    expect(subjectOf('Outcome: shipped\nIssue: #123 Fix auth redirect')).toBe('#123 Fix auth redirect');
    expect(subjectOf('nothing labelled here')).toBeNull();
    expect(noteTitle('colonizer session a15fba01', 'Issue: #123 Fix auth redirect', 'EarthOS.world', 's')).toBe(
      'EarthOS.world · #123 Fix auth redirect',
    );
    expect(noteTitle('', 'no labels', null, 'the-slug')).toBe('the-slug');
  });

  it('cuts to 60 code points on a word boundary within the last 15, with …', () => {
    const long = 'EarthOS.world · Claude Code · 2026-10-15 · Fix the login redirect loop for good';
    const cut = cutTitle(long);
    expect([...cut].length).toBeLessThanOrEqual(60);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut).toBe('EarthOS.world · Claude Code · 2026-10-15 · Fix the login…');
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        const c = cutTitle(s);
        expect([...c].length).toBeLessThanOrEqual(60);
        expect(cutTitle(c)).toBe(c);
      }),
    );
  });
});

describe('cursor', () => {
  it('round-trips every ULID and refuses anything else', () => {
    const ulidChar = fc.constantFrom(...'0123456789ABCDEFGHJKMNPQRSTVWXYZ');
    fc.assert(
      fc.property(fc.array(ulidChar, { minLength: 26, maxLength: 26 }), (chars) => {
        const id = chars.join('');
        expect(decodeCursor(encodeCursor(id))).toBe(id);
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        const d = decodeCursor(s);
        if (d !== null) expect(encodeCursor(d)).toBe(s);
      }),
    );
    expect(decodeCursor(Buffer.from('{"v":2,"before":"01ZZZZZZZZZZZZZZZZZZZZZZZZ"}').toString('base64url'))).toBeNull();
  });
});
