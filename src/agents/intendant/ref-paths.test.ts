import { basename, dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inFolder, RefPaths } from './ref-paths.js';

const segment = fc.constantFrom('turns', 'a.b', '.', '..', '', 'x\\y', '.hidden', 'turn_001_agent_in.json');
const ref = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
const dir = fc.constantFrom('/s/logs/id', '/s/logs/id/', '/s//logs/./id', 'rel/id', '.', '/');

describe('RefPaths.split', () => {
  it('gives dirname and basename of join(dir, ref), whatever the reference and the order of calls', () => {
    fc.assert(
      fc.property(dir, fc.array(ref, { minLength: 1, maxLength: 8 }), (d, refs) => {
        const paths = new RefPaths(d);
        for (const r of refs) {
          const full = join(d, r);
          expect(paths.split(r)).toEqual({ parent: dirname(full), name: basename(full) });
        }
      }),
    );
  });

  it('joins a name onto a real folder as join does', () => {
    for (const f of ['/', '/a', '/a/b']) expect(inFolder(f, 'n.json')).toBe(join(f, 'n.json'));
  });
});
