import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SearchError } from './errors.js';
import { decodeCursor, encodeCursor } from './page-cursor.js';

const qh = '0123456789abcdef';
const snap = 'a1b2c3d4e5f6.42';

describe('page cursors', () => {
  it('property: round-trip', () => {
    fc.assert(
      fc.property(
        fc.nat(),
        fc.uniqueArray(fc.record({ at: fc.nat({ max: 100_000 }), best: fc.integer({ min: -1e13, max: 1e13 }) }), {
          maxLength: 50,
          selector: (p) => p.at,
        }),
        fc.option(fc.record({ ts: fc.nat(), key: fc.string({ maxLength: 80 }) }), { nil: null }),
        (next, pending, after) => {
          const c = decodeCursor(encodeCursor({ qh, snap, next, pending, after }), qh, snap);
          expect(c).toEqual({ qh, snap, next, pending: [...pending].sort((a, b) => a.at - b.at), after });
        },
      ),
    );
  });

  it('rejects malformed and foreign cursors (400) and expired ones (410)', () => {
    const good = encodeCursor({ qh, snap, next: 3, pending: [{ at: 1, best: 5 }], after: null });
    const code = (f: () => unknown): [string, number] => {
      try {
        f();
      } catch (e) {
        return [(e as SearchError).code, (e as SearchError).status];
      }
      return ['none', 0];
    };
    expect(code(() => decodeCursor('%%%', qh, snap))).toEqual(['InvalidCursor', 400]);
    expect(code(() => decodeCursor(Buffer.from('[]').toString('base64url'), qh, snap))).toEqual(['InvalidCursor', 400]);
    expect(code(() => decodeCursor('x'.repeat(9000), qh, snap))).toEqual(['InvalidCursor', 400]);
    expect(code(() => decodeCursor(good, 'ffffffffffffffff', snap))).toEqual(['InvalidCursor', 400]);
    expect(code(() => decodeCursor(good, qh, 'a1b2c3d4e5f6.43'))).toEqual(['CursorExpired', 410]);
    // A rebuilt store counting from the same revision is still another snapshot (epoch differs).
    expect(code(() => decodeCursor(good, qh, 'ffffffffffff.42'))).toEqual(['CursorExpired', 410]);
  });
});
