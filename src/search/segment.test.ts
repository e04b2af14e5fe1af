// Generation files in format 2 (segment-body.ts): they read back exactly, the hay a query matches on
// is exactly each record's fold (so highlights land on the same bytes), a file of the old format is
// rebuilt and never read as this one, and a truncated or altered file is caught and quarantined.
import fc from 'fast-check';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { sha256Hex } from '../fs/hash.js';
import type { MessageRecord } from '../record/message-index.js';
import { crc32, crc32Portable } from './checksum.js';
import { fold, foldNeedle, viewOf } from './fold.js';
import { highlights } from './highlight.js';
import { entryKey } from './manifest.js';
import { search } from './query.js';
import {
  encodeSegmentFile,
  fileHeaderBytes,
  openSegment,
  parseSegment,
  segmentFile,
  segmentName,
  serialiseSegment,
  type Segment,
} from './segment.js';
import { prepareSegment, recordView, ShardCache } from './shard-cache.js';
import { generationPath, readManifest, storePaths } from './store.js';
import { sweep } from './sweep.js';
import { claudeAgents, clock, minutes, testStore, writeSession } from './test-support/claude-home.js';

const rec = (text: string, extra: Partial<MessageRecord> = {}): MessageRecord => ({
  role: 'user',
  ts_ms: 1_700_000_000_000,
  text,
  locator: { kind: 'external_record_id', record_id: 'r' },
  ...extra,
});

const segmentOf = (records: MessageRecord[]): Segment => ({
  agent: 'claude_code',
  session_id: 's1',
  records,
  marks: [{ kind: 'seq_cut', cut_after_seq: 2, at_ms: 5 }],
  marks_mode: 'replace',
});

function fileOf(s: Segment): { name: string; buf: Buffer } {
  const body = serialiseSegment(s);
  return { name: segmentName(body), buf: encodeSegmentFile(body, new Uint8Array(16)) };
}

/** A file as format 1 wrote it: the same framing, format 1, and one JSON document for a body. */
function formatOneFile(s: Segment): { name: string; buf: Buffer } {
  const body = Buffer.from(JSON.stringify({ format: 1, ...s }), 'utf8');
  const head = Buffer.alloc(fileHeaderBytes);
  head.writeUInt32LE(0x47534741, 0);
  head.writeUInt32LE(1, 4);
  head.writeUInt32LE(0, 8);
  return { name: `${sha256Hex(body)}.seg`, buf: Buffer.concat([head, body]) };
}

/** Fixes the body's CRC after a test changed its bytes (as a writer with a bug, or a tamperer, would). */
function reseal(buf: Buffer): void {
  const body = buf.subarray(fileHeaderBytes + buf.readUInt32LE(8));
  body.writeUInt32LE(crc32(body.subarray(4)), 0);
}

const texts = ['plain ascii', 'Café, 日本語, \u{1f600}', 'lone \udc80 surrogate', 'nul \u0000 inside', '', 'ΣΊΣΥΦΟΣ', 'İstanbul'];

describe('segment format 2', () => {
  it('builds the same file in one buffer as the body and the framing built apart', () => {
    for (const list of [texts, texts.slice(0, 1), ['only latin-1 é'], []]) {
      const s = segmentOf(list.map((t) => rec(t)));
      const filter = Uint8Array.from({ length: 24 }, (_, i) => i + 1);
      const { file, body } = segmentFile(
        s,
        s.records.map((r) => fold(r.text)),
        filter,
      );
      expect(body.equals(serialiseSegment(s))).toBe(true);
      expect(file.equals(encodeSegmentFile(serialiseSegment(s), filter))).toBe(true);
      expect(parseSegment(segmentName(body), file)).toEqual(s);
    }
  });

  it('round-trips every record field and text, in Latin-1 or UTF-16 as the texts need', () => {
    const records = [
      rec('Plain text'),
      rec('more', { role: 'assistant', seq: 3, user_turn: 2, item_id: 'i', thread: 't', subagent: true, truncated: true, generation: 2 }),
      rec('x', { locator: { kind: 'native_sidecar_span', file: 'f', offset: 1, len: 2, content_hash16: 'a'.repeat(16) } }),
    ];
    const ascii = fileOf(segmentOf(records));
    expect(parseSegment(ascii.name, ascii.buf)).toEqual(segmentOf(records));
    const opened = openSegment(ascii.buf);
    expect(opened.state === 'ok' && opened.body.charBytes).toBe(1);
    const wide = segmentOf(texts.map((t, i) => rec(t, { ts_ms: i })));
    const wideFile = fileOf(wide);
    expect(parseSegment(wideFile.name, wideFile.buf)).toEqual(wide);
    const w = openSegment(wideFile.buf);
    expect(w.state === 'ok' && w.body.charBytes).toBe(2);
    expect(w.state === 'ok' && w.body.records()).toEqual(wide.records);
    // Equal content, equal bytes, equal name.
    expect(fileOf(wide).name).toBe(wideFile.name);
    expect(fileOf(segmentOf([])).buf.length).toBeGreaterThan(0);
    expect(parseSegment(fileOf(segmentOf([])).name, fileOf(segmentOf([])).buf)?.records).toEqual([]);
  });

  it('property: each text reads back exactly, and the hay holds exactly its fold, so highlight byte ranges are the same as folding the text alone', () => {
    const tricky = ['a', 'B', 'Z', 'AZ', 'É', 'é', 'e\u0301', 'İ', 'Σ', 'ς', 'ß', 'K', '\u212a', '😀', '中', ' ', '\u0000', 'ǅ', 'x'];
    const trickyText = fc.array(fc.constantFrom(...tricky), { maxLength: 30 }).map((a) => a.join(''));
    const anyText = fc.oneof(trickyText, fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }));
    fc.assert(
      fc.property(fc.array(anyText, { maxLength: 8 }), fc.constantFrom(...tricky), (list, needleChar) => {
        const f = fileOf(segmentOf(list.map((t) => rec(t))));
        const opened = openSegment(f.buf);
        if (opened.state !== 'ok') throw new Error('does not open');
        const loaded = prepareSegment(f.name, opened.body);
        const needle = foldNeedle(`${needleChar}x`.slice(0, 1));
        list.forEach((text, i) => {
          expect(opened.body.original(i)).toBe(text);
          const view = recordView(loaded, i);
          const alone = fold(text);
          expect(loaded.hay.slice(view.base, view.end)).toBe(alone.text);
          expect(view.map === null ? null : [...view.map]).toEqual(alone.map === null ? null : [...alone.map]);
          if (needle.trim() !== '') expect(highlights(view, text, [needle])).toEqual(highlights(viewOf(alone), text, [needle]));
        });
      }),
      { numRuns: 500 },
    );
  });

  it('computes the same CRC-32 natively and by table', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    const data = Buffer.from(texts.join('|'), 'utf8');
    expect(crc32Portable(data)).toBe(crc32(data));
  });

  it('never reads a format-1 file as this format', () => {
    const old = formatOneFile(segmentOf([rec('old words')]));
    expect(openSegment(old.buf).state).toBe('stale');
    expect(parseSegment(old.name, old.buf)).toBeNull();
  });

  it('detects a truncated file, a flipped byte and a bad record line or fold flag under a good CRC', () => {
    const good = fileOf(segmentOf([rec('first'), rec('second message', { seq: 4 })]));
    expect(openSegment(good.buf).state).toBe('ok');
    for (const cut of [1, 9, good.buf.length >> 1, good.buf.length - fileHeaderBytes - 16 - 1]) {
      expect(openSegment(good.buf.subarray(0, good.buf.length - cut)).state, `cut ${cut}`).toBe('corrupt');
    }
    for (let at = fileHeaderBytes + 16; at < good.buf.length; at += 7) {
      const bad = Buffer.from(good.buf);
      bad[at] = (bad[at] as number) ^ 0x20;
      expect(openSegment(bad).state, `byte ${at}`).toBe('corrupt');
    }
    // A record line that is not a record: the body opens, the record does not read back, the SHA-256 refuses it.
    const line = Buffer.from(good.buf);
    line.write('"tool"', line.indexOf('"user"', fileHeaderBytes + 16));
    reseal(line);
    const opened = openSegment(line);
    expect(opened.state === 'ok' && opened.body.record(0)).toBeNull();
    expect(parseSegment(good.name, line)).toBeNull();
    // A case map that marks a char no capital folds to: the record does not read back.
    const marked = fileOf(segmentOf([rec('ab1')]));
    const body = marked.buf.subarray(fileHeaderBytes + 16);
    // After the body's 24 fixed bytes, its head, one time, one flag byte and two pairs of offsets: the case map.
    body[24 + body.readUInt32LE(8) + 8 + 1 + 16] = 0b100;
    reseal(marked.buf);
    const o = openSegment(marked.buf);
    expect(o.state === 'ok' && o.body.original(0)).toBeNull();
    expect(o.state === 'ok' && o.body.record(0)).toBeNull();
  });
});

const sid = '00000001-2222-4333-8444-555555555555';

async function indexedStore(text: string): Promise<{ home: string; root: string; file: string }> {
  const home = await tempDir();
  await writeSession(home, sid, [{ role: 'user', text, ago: minutes(5) }]);
  const root = testStore(home);
  await sweep({ root, agents: claudeAgents(home), now: clock });
  const read = await readManifest(root);
  const file = read.state === 'ok' ? read.manifest.sessions[entryKey('claude_code', sid)]?.segments[0]?.file : undefined;
  if (file === undefined) throw new Error('nothing indexed');
  return { home, root, file };
}

const find = (root: string, q: string) => search({ q }, { root, cache: new ShardCache(root), now: clock, budgets: { timeMs: 10_000 } });

describe('a store of generation files', () => {
  it('answers building for a format-1 store, quarantines nothing, and the next sweep rebuilds it', async () => {
    const { home, root, file } = await indexedStore('an ancient phrase');
    // The store as format 1 left it: the manifest says format 1 and names a file with a JSON body.
    const parsed = parseSegment(file, await readFile(generationPath(root, file)));
    if (parsed === null) throw new Error('unreadable');
    const old = formatOneFile(parsed);
    await writeFile(generationPath(root, old.name), old.buf);
    await rm(generationPath(root, file));
    const body = await readFile(storePaths(root).manifest, 'utf8');
    await writeFile(storePaths(root).manifest, body.replace('"format":2', '"format":1').replace(file, old.name));
    expect((await readManifest(root)).state).toBe('ok');
    expect((await find(root, 'ancient')).state).toBe('building');
    // Even a manifest that points at one never has it misread: the file is skipped, not quarantined.
    expect((await new ShardCache(root).load(old.name)).state).toBe('stale');
    expect(await readdir(storePaths(root).quarantine)).toEqual([]);
    const r = await sweep({ root, agents: claudeAgents(home), now: clock });
    expect(r.extracted).toBe(1);
    const after = await find(root, 'ancient');
    expect(after.state).toBe('ready');
    expect(after.sessions[0]?.hits[0]?.ranges).toEqual([[3, 10]]);
    expect(await readdir(storePaths(root).quarantine)).toEqual([]);
  });

  it('quarantines a truncated file at query time and re-extracts its session on the next sweep', async () => {
    const { home, root, file } = await indexedStore('truncated tale');
    const buf = await readFile(generationPath(root, file));
    await writeFile(generationPath(root, file), buf.subarray(0, buf.length - 3));
    expect((await find(root, 'tale')).sessions).toEqual([]);
    expect((await readdir(storePaths(root).quarantine)).some((n) => n.startsWith(file))).toBe(true);
    expect((await sweep({ root, agents: claudeAgents(home), now: clock })).extracted).toBe(1);
    expect((await find(root, 'tale')).sessions).toHaveLength(1);
  });

  it('quarantines a file whose shown record does not read back, though its CRC is good', async () => {
    const { root, file } = await indexedStore('resealed record');
    const buf = await readFile(generationPath(root, file));
    buf.write('"tool"', buf.indexOf('"user"'));
    reseal(buf);
    await writeFile(generationPath(root, file), buf);
    expect((await find(root, 'resealed')).sessions).toEqual([]);
    expect((await readdir(storePaths(root).quarantine)).some((n) => n.startsWith(file))).toBe(true);
  });

  it('matches a term whose first occurrence in a message is refused (part of an accented letter) at a later one', async () => {
    const { root } = await indexedStore('Café first, then cafe and reply');
    const hit = (await find(root, 'reply cafe')).sessions[0]?.hits[0];
    expect(hit?.ranges).toEqual([
      [18, 22],
      [27, 32],
    ]);
    const { root: other } = await indexedStore('only Café here, reply');
    expect((await find(other, 'reply cafe')).sessions).toEqual([]);
  });
});
