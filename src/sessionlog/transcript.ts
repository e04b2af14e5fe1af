// `transcript.jsonl`: the human-skimmable conversation, `{ts, ts_ms, role, text, tools_called?}`
// per line. Appended live, then rebuilt from `session.jsonl` at close so it is complete even when
// a live append was missed (research/intendant.md §1.6).
import { join } from 'node:path';
import { forEachJsonObjectSync } from '../fs/read-jsonl.js';
import { arr, num, str } from '../json/narrow.js';
import { toLogEvent, type LogEvent } from './log-event.js';
import { files } from './paths.js';
import { writeAllSync as writeAll, writeFileAtomicSync } from '../fs/atomic-write.js';
import { readSpan, readWholeIfSize } from './sidecar.js';

export interface TranscriptEntry {
  ts: string;
  ts_ms?: number;
  role: 'user' | 'model';
  text: string;
  tools_called?: string[];
}

/** Model text in the transcript is kept whole up to this size. */
const maxTranscriptText = 1 << 20;

export function serialiseTranscriptEntry(e: TranscriptEntry): string {
  const out: Record<string, unknown> = { ts: e.ts };
  if (e.ts_ms !== undefined) out.ts_ms = e.ts_ms;
  out.role = e.role;
  out.text = e.text;
  if (e.tools_called !== undefined && e.tools_called.length > 0) out.tools_called = e.tools_called;
  return JSON.stringify(out);
}

/** The model text a `model_response` row points at: its span, else a whole legacy file, else the preview. */
export function modelText(dir: string, e: LogEvent): string {
  const offset = num(e.data, 'model_offset');
  const bytes = num(e.data, 'model_bytes');
  if (e.file !== undefined && offset !== undefined && bytes !== undefined) {
    const span = readSpan(dir, e.file, offset, bytes, maxTranscriptText);
    if (span !== undefined) return span.text;
  } else if (e.file !== undefined) {
    const length = num(e.data, 'content_length');
    const whole = length === undefined ? undefined : readWholeIfSize(dir, e.file, length, maxTranscriptText);
    if (whole !== undefined) return whole.text;
  }
  return e.message ?? '';
}

function base(e: LogEvent): Pick<TranscriptEntry, 'ts' | 'ts_ms'> {
  return e.ts_ms === undefined ? { ts: e.ts } : { ts: e.ts, ts_ms: e.ts_ms };
}

/** The transcript entry a log row contributes, if any. */
export function transcriptEntryFor(dir: string, e: LogEvent): TranscriptEntry | undefined {
  switch (e.event) {
    case 'conversation_message': {
      if (str(e.data, 'role') !== 'user') return undefined;
      const text = str(e.data, 'text');
      return text === undefined ? undefined : { ...base(e), role: 'user', text };
    }
    case 'model_response': {
      const tools = (arr(e.data, 'tool_calls') ?? []).filter((t): t is string => typeof t === 'string');
      const entry: TranscriptEntry = { ...base(e), role: 'model', text: modelText(dir, e) };
      if (tools.length > 0) entry.tools_called = tools;
      return entry;
    }
    case 'user_transcript':
      return e.message === undefined ? undefined : { ...base(e), role: 'user', text: e.message };
    case 'tool_request': {
      const tool = str(e.data, 'tool') ?? 'tool';
      return { ...base(e), role: 'model', text: `[tool:${tool}] ${JSON.stringify(e.data?.args ?? null)}` };
    }
    default:
      return undefined;
  }
}

/** Rewrites `transcript.jsonl` from `session.jsonl` (streamed; replaced atomically). */
export async function rebuildTranscript(dir: string): Promise<number> {
  let count = 0;
  writeFileAtomicSync(join(dir, files.transcript), (fd) => {
    forEachJsonObjectSync(join(dir, files.events), (obj) => {
      const e = toLogEvent(obj);
      const entry = e === undefined ? undefined : transcriptEntryFor(dir, e);
      if (entry === undefined) return;
      writeAll(fd, `${serialiseTranscriptEntry(entry)}\n`);
      count++;
    });
  });
  return count;
}
