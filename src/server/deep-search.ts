// GET /api/sessions/deep-search?q=: the exhaustive path. Every line of every session's files (tool
// output included) is searched, newest sessions first, and each hit is written as an NDJSON line as
// it is found; a summary line ends the stream. Bounded in time and hits; stops when the client goes.
import { relative } from 'node:path';
import { forwardLines } from '../custody/lines.js';
import { openRead } from '../custody/safe-fs.js';
import { discoverAll, type AgentHomes } from '../scan/scan.js';
import type { DeepSearchHit, DeepSearchLine, DeepSearchSummary } from './api-types.js';

export interface DeepSearchRequest {
  terms: string[];
  timeMs: number;
  maxHits: number;
}

const snippetChars = 200;
/** Lines longer than this are searched in their first part only (a single line can be hundreds of MB). */
const lineCap = 4 * 1024 * 1024;

function snippetOf(text: string, lower: string, terms: readonly string[]): { snippet: string; ranges: [number, number][] } {
  const first = Math.min(...terms.map((t) => lower.indexOf(t)));
  const start = Math.max(0, first - 60);
  const snippet = text.slice(start, start + snippetChars);
  const low = snippet.toLowerCase();
  const ranges: [number, number][] = [];
  for (const t of terms) {
    const at = low.indexOf(t);
    if (at !== -1) ranges.push([at, Math.min(at + t.length, snippet.length)]);
  }
  return { snippet, ranges };
}

/** Runs the search, handing each NDJSON line to `emit`; resolves with the summary (also emitted). */
export async function deepSearch(
  agents: readonly AgentHomes[],
  req: DeepSearchRequest,
  emit: (line: DeepSearchLine) => Promise<void>,
  signal: AbortSignal,
  now: () => number,
): Promise<DeepSearchSummary> {
  const started = now();
  const deadline = started + req.timeMs;
  const terms = req.terms.map((t) => t.toLowerCase());
  const summary: DeepSearchSummary = {
    type: 'summary',
    hits: 0,
    sessions_scanned: 0,
    files_scanned: 0,
    bytes_scanned: 0,
    elapsed_ms: 0,
    stopped: null,
  };
  const { sessions } = await discoverAll([...agents]);
  const newest = (s: (typeof sessions)[number]): number => Math.max(0, ...s.session.files.map((f) => f.mtimeMs));
  sessions.sort((a, b) => newest(b) - newest(a));
  outer: for (const { session } of sessions) {
    if (signal.aborted) break;
    summary.sessions_scanned++;
    for (const file of session.files) {
      if (now() > deadline) {
        summary.stopped = 'timeout';
        break outer;
      }
      let opened;
      try {
        opened = await openRead(file.path);
      } catch {
        continue;
      }
      summary.files_scanned++;
      let lineNo = 0;
      try {
        for await (const line of forwardLines(opened.handle, 0, opened.stat.size, { maxLineBytes: lineCap })) {
          lineNo++;
          summary.bytes_scanned += line.bytes + 1;
          if (line.text === null) continue;
          const lower = line.text.toLowerCase();
          if (terms.every((t) => lower.includes(t))) {
            const hit: DeepSearchHit = {
              type: 'hit',
              agent: session.agent,
              session_id: session.sessionId,
              file: relative(session.home, file.path).split('\\').join('/'),
              offset: line.offset,
              line: lineNo,
              ...snippetOf(line.text, lower, terms),
            };
            await emit(hit);
            if (++summary.hits >= req.maxHits) {
              summary.stopped = 'hit_limit';
              break outer;
            }
          }
          if ((lineNo & 255) === 0 && (signal.aborted || now() > deadline)) {
            if (!signal.aborted) summary.stopped = 'timeout';
            break outer;
          }
        }
      } finally {
        await opened.handle.close();
      }
    }
  }
  summary.elapsed_ms = now() - started;
  if (!signal.aborted) await emit(summary);
  return summary;
}
