import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isManifestEntry, manifestEntrySchema, parseManifest, emptyManifest, serialiseManifest, type ManifestEntry } from './manifest.js';

const entry: ManifestEntry = {
  agent: 'codex',
  session_id: 's1',
  extractor_version: 1,
  segments: [{ file: `${'a'.repeat(64)}.seg`, records: 2, bytes: 100 }],
  records: 2,
  newest_ts_ms: 10,
  oldest_ts_ms: 5,
  source_mtime_ms: 11,
  watermark: 300,
  generation: 0,
  supersession: false,
  marks_digest: '',
  cursors: [
    {
      path: '/h/a.jsonl',
      dev: 1,
      ino: 2,
      len: 300,
      mtime_ns: '123',
      offset: 300,
      mode: 'append',
      prefix_hash: 'x',
      tail_hash: 'y',
      captured_ms: 1,
    },
  ],
  ignored: [],
  carry: { v: 1, threads: { a: [1, 'x', null, true] } },
  home: '/h',
};

/** Field-level mutations: each must be judged the same way by the hand check and the schema. */
const mutations: [string, unknown][] = [
  ['agent', 'nobody'],
  ['session_id', 3],
  ['extractor_version', 1.5],
  ['segments', [{ file: 'x.json', records: 1, bytes: 1 }]],
  ['records', -1],
  ['newest_ts_ms', 'soon'],
  ['watermark', -5],
  ['generation', 0.5],
  ['supersession', 'no'],
  ['cursors', [{ path: '/x' }]],
  ['ignored', [1]],
  ['source_gone', 'yes'],
  ['source_gone', true],
  ['carry', { f: () => 1 }],
  ['home', null],
];

describe('manifest entries', () => {
  it('the hand-written check agrees with the schema', () => {
    expect(isManifestEntry(entry)).toBe(true);
    expect(manifestEntrySchema.safeParse(entry).success).toBe(true);
    for (const [field, value] of mutations) {
      const m = { ...entry, [field]: value };
      expect([field, isManifestEntry(m)]).toEqual([field, manifestEntrySchema.safeParse(m).success]);
    }
  });

  it('writes what JSON.stringify would, with each entry encoded once: a replaced entry is written anew, a kept one frozen', () => {
    const other: ManifestEntry = { ...entry, session_id: 's2', records: 7 };
    const m = { ...emptyManifest(1), sessions: { 'codex:s1': entry, 'codex:s2': other } };
    const first = serialiseManifest(m).toString();
    expect(JSON.parse(first)).toEqual(JSON.parse(JSON.stringify(m)));
    // The writer replaces an entry (`{ ...entry, … }`) and bumps the revision: the new bytes say so.
    const next = { ...m, revision: 5, sessions: { ...m.sessions, 'codex:s2': { ...other, records: 8 } } };
    expect(JSON.parse(serialiseManifest(next).toString())).toEqual(JSON.parse(JSON.stringify(next)));
    // The same entry under another key is written under that key.
    const moved = { ...m, sessions: { 'codex:s3': other } };
    expect(JSON.parse(serialiseManifest(moved).toString()).sessions).toEqual({ 'codex:s3': JSON.parse(JSON.stringify(other)) });
    // A change in place would be written stale: it throws instead.
    expect(() => {
      (other as { records: number }).records = 9;
    }).toThrow(TypeError);
    expect(() => (other.cursors as unknown[]).push({})).toThrow(TypeError);
    // The store's own manifests list `sessions` last: their bytes are JSON.stringify's exactly.
    const empty = emptyManifest(1);
    expect(serialiseManifest(empty).toString()).toBe(JSON.stringify(empty));
    expect(serialiseManifest(next).toString()).toBe(JSON.stringify(next));
  });

  it('property: a manifest round-trips; any truncation reads as corrupt, never throws', () => {
    const body = serialiseManifest({ ...emptyManifest(1), sessions: { 'codex:s1': entry } }).toString();
    expect(parseManifest(body)).toMatchObject({ state: 'ok' });
    fc.assert(
      fc.property(fc.nat({ max: body.length - 1 }), (cut) => {
        const r = parseManifest(body.slice(0, cut));
        expect(r.state).toBe('corrupt');
      }),
    );
  });
});
