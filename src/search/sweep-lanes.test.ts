// How a sweep sizes and shares its sessions: a database several sessions read counts for none of
// them (each reads its own rows), a resumed session counts what it has left to read, and a large
// session or a reader the pool's workers do not have stays on the sweep's thread.
import { describe, expect, it } from 'vitest';
import { claudeCodeReader } from '../agents/claude-code/reader.js';
import { gooseReader } from '../agents/goose/index.js';
import type { AgentReader, DiscoveredSession } from '../agents/types.js';
import { offThreadMinBytes } from './extract-off-thread.js';
import type { ManifestEntry } from './manifest.js';
import type { SessionPlan } from './session-plan.js';
import { splitWork, type Work } from './sweep-lanes.js';

const mib = 1 << 20;
const full: SessionPlan = { kind: 'full', retain: false, why: 'new' };

function work(reader: AgentReader, id: string, files: [string, number][], plan: SessionPlan = full): Work {
  const session: DiscoveredSession = {
    agent: reader.id,
    sessionId: id,
    home: '/h',
    path: files[0]?.[0] ?? '/h/x',
    files: files.map(([path, size]) => ({ path, size, mtimeMs: 1 })),
  };
  return { c: { reader, extractor: reader.messages, session, key: `${reader.id}:${id}`, homeIndex: 0, newestMs: 1 }, plan };
}

describe('splitWork', () => {
  it('sizes each session by what it alone reads, keeps the large and the foreign on this thread, and hands out the rest from both ends', () => {
    const db: [string, number][] = [
      ['/h/goose/sessions.db', 40 * mib],
      ['/h/goose/sessions.db-wal', mib],
    ];
    const a = work(gooseReader, 'a', db);
    const b = work(gooseReader, 'b', db);
    const small = work(claudeCodeReader, 's', [['/h/c/s.jsonl', 2 * mib]]);
    const medium = work(claudeCodeReader, 'm', [['/h/c/m.jsonl', 5 * mib]]);
    const large = work(claudeCodeReader, 'l', [['/h/c/l.jsonl', offThreadMinBytes]]);
    // Grown to 30 MiB, 28 of them read already: 2 MiB left.
    const grown = work(claudeCodeReader, 'g', [['/h/c/g.jsonl', 30 * mib]], { kind: 'resume' });
    const foreign = work({ ...claudeCodeReader }, 'f', [['/h/c/f.jsonl', mib]]);
    const entries = { [grown.c.key]: { cursors: [{ path: '/h/c/g.jsonl', offset: 28 * mib }] } as unknown as ManifestEntry };
    const lanes = splitWork([a, b, small, medium, large, grown, foreign], entries);
    expect([a, b, small, medium, large, grown, foreign].map((w) => lanes.bytes.get(w))).toEqual([
      0,
      0,
      2 * mib,
      5 * mib,
      offThreadMinBytes,
      2 * mib,
      mib,
    ]);
    expect(lanes.own).toEqual([large, foreign]);
    expect(lanes.pooledBytes).toBe(9 * mib);
    expect(lanes.largest()).toBe(medium);
    expect([lanes.smallest(), lanes.smallest()]).toEqual([b, a]);
    const rest = [lanes.largest(), lanes.smallest()];
    expect(rest).toContain(small);
    expect(rest).toContain(grown);
    expect([lanes.largest(), lanes.smallest()]).toEqual([undefined, undefined]);
  });
});
