// Pages of entries read backward from the end of a transcript (tail) or from a token's offset,
// without parsing the file from the start. Within a page entries are oldest first.
import type { FileHandle } from 'node:fs/promises';
import { custodyErrors, maxPageSize } from './errors.js';
import type { Turn } from '../record/types.js';
import { maxLineBytes, oversizedEntry, parseEntry, previewLine, type Entry, type EntryViewer } from './entry.js';
import { backwardLines, type Line } from './lines.js';
import type { Located, RecordRoot } from './locate.js';
import { identityOf, mintToken, type TokenSource } from './page-token.js';

export interface PageSession {
  agent: Located['agent'];
  session_id: string;
  root: RecordRoot;
  path: string;
}

export interface EntryPage {
  session: PageSession;
  /** Oldest first. */
  entries: Entry[];
  /** Pages backward through `entriesBefore`; null when the page reaches the file's first line. */
  older: string | null;
  /** The line start just past this page: where `follow` picks up. */
  newer: string;
}

export interface PageTuning {
  blockBytes: number;
  /** A line whose start is not found within this many bytes makes the transcript CorruptTranscript. */
  scanBudgetBytes: number;
}

export const defaultPageTuning: PageTuning = { blockBytes: 64 * 1024, scanBudgetBytes: 256 * 1024 * 1024 };

/** InvalidPageSize unless 1 ≤ limit ≤ 10,000 (checked before any lookup). */
export function checkPageSize(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > maxPageSize) throw custodyErrors.invalidPageSize(limit);
}

export function pageSession(loc: Located): PageSession {
  return { agent: loc.agent, session_id: loc.sessionId, root: loc.root, path: loc.main };
}

export function tokenSource(loc: Located): TokenSource {
  return { agent: loc.agent, sessionId: loc.sessionId, root: loc.root, rootPath: loc.rootPath, relPath: loc.mainRel };
}

/** The agent's own reading of its lines, when its reader offers one. */
export function viewerOf(loc: Located): EntryViewer | undefined {
  const reader = loc.reader;
  return reader.entryView === undefined ? undefined : (obj) => reader.entryView?.(obj) ?? { timestamp: null, role: null, text: '' };
}

export function lineEntry(line: Line, number: number | null, view?: EntryViewer): Entry | null {
  if (line.text === null) return oversizedEntry(line.offset, line.bytes, number);
  return parseEntry(line.text, line.offset, line.bytes, number, view);
}

const isBlank = (line: Line): boolean => line.text !== null && line.text.trim() === '';

/**
 * The page of up to `limit` entries ending at `end` (a line start, or the file's size: a torn final
 * line is excluded). `limit` counts entries; blank lines are skipped and never count.
 */
export async function readPage(
  loc: Located,
  handle: FileHandle,
  end: number,
  limit: number,
  tuning: PageTuning = defaultPageTuning,
): Promise<EntryPage> {
  const id = await identityOf(handle);
  const { lines, reachedStart, completeEnd } = await backwardLines(handle, Math.min(end, id.size), limit, {
    maxLineBytes,
    blockBytes: tuning.blockBytes,
    scanBudgetBytes: tuning.scanBudgetBytes,
    counts: (l) => !isBlank(l),
    path: loc.main,
  });
  const view = viewerOf(loc);
  const entries = lines.map((l) => lineEntry(l, null, view)).filter((e): e is Entry => e !== null);
  const first = lines[0];
  const src = tokenSource(loc);
  return {
    session: pageSession(loc),
    entries,
    older: reachedStart || first === undefined ? null : await mintToken(src, handle, id, first.offset),
    newer: await mintToken(src, handle, id, completeEnd),
  };
}

/** Whether the main transcript is paged by its lines (JSONL); other sessions are read as their record. */
export function isPageable(loc: Located): boolean {
  return loc.main.toLowerCase().endsWith('.jsonl');
}

function turnText(turn: Turn): string {
  const calls = (turn.tool_calls ?? []).map((c) => `[${c.name}]`);
  return [turn.text, ...calls].filter((t) => t !== '').join(' ');
}

/**
 * The newest `limit` turns of a session kept as a document or a database (not a JSONL transcript),
 * read by its agent's reader as `show` reads it: one entry per turn, newest last. Such a page has no
 * older page, and its `newer` token points past the end of the main file.
 */
export async function readRecordPage(loc: Located, handle: FileHandle, limit: number): Promise<EntryPage> {
  const parsed = await loc.reader.parse(await loc.session(), { detail: 'messages' });
  const turns = parsed.record?.turns ?? [];
  const entries = turns.slice(-limit).map(
    (turn): Entry => ({
      line: null,
      offset: 0,
      bytes: 0,
      kind: 'json',
      type: 'turn',
      subtype: null,
      timestamp: turn.at,
      role: turn.role,
      preview: previewLine(turnText(turn)),
      object: null,
      text: null,
    }),
  );
  const id = await identityOf(handle);
  return { session: pageSession(loc), entries, older: null, newer: await mintToken(tokenSource(loc), handle, id, id.size) };
}
