// Claude Code's messages for the search index (seed 000 "The extractors", research intendant §3.3):
// the prose of user and assistant lines in the main transcript and its subagents' transcripts,
// read incrementally from where the last sweep stopped. Never indexed: tool use and results,
// thinking, `isMeta` and compaction-summary lines, harness machinery, Claude Code's own synthetic
// messages. Claude Code has no rollback, and compaction is not supersession: no marks, ever.
import { relative } from 'node:path';
import { forEachWantedLine } from '../../fs/read-raw-lines.js';
import { isNotFound } from '../../fs/errors.js';
import { asArray, isObject, obj, parseObjectLine, str, text, type JsonObject } from '../../json/narrow.js';
import { capText, type ConsumedFile, type MessageExtract, type MessageRecord, type MessageResume } from '../../record/message-index.js';
import type { DiscoveredSession, MessageExtractor } from '../types.js';
import { agentIdOfTranscript, jsonlExt } from './layout.js';
import { clipLongLines, maxLineBytes } from './parse.js';
import { isTimestamp } from './transcript.js';
import { stripUserText } from './user-text.js';

/** Bump when what this file extracts changes: the index then re-reads every Claude Code session. */
export const claudeMessagesVersion = 2;

/** Claude Code's stand-in model on messages it wrote itself (API errors, "No response requested."). */
const syntheticModel = '<synthetic>';

function hasNonSpace(t: string): boolean {
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return true;
  }
  return false;
}

/** Prose only: string content, or the `text` blocks of an array (never tool_use / tool_result / thinking). */
function prose(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  const blocks = asArray(content);
  if (blocks === undefined) return undefined;
  let out: string | undefined;
  for (const b of blocks) {
    if (isObject(b) && b.type === 'text' && typeof b.text === 'string') out = out === undefined ? b.text : `${out}\n${b.text}`;
  }
  return out;
}

const markers = {
  user: Buffer.from('"type":"user"'),
  assistant: Buffer.from('"type":"assistant"'),
  attachment: Buffer.from('"type":"attachment"'),
  text: Buffer.from('"type":"text"'),
  queued: Buffer.from('"queued_command"'),
  userString: Buffer.from('"role":"user","content":"'),
  toolResult: Buffer.from('"tool_result"'),
  stringContent: Buffer.from('"content":"'),
} as const;

const keys = { type: Buffer.from('"type"'), role: Buffer.from('"role"'), content: Buffer.from('"content"') } as const;
const values = {
  user: Buffer.from('"user"'),
  assistant: Buffer.from('"assistant"'),
  attachment: Buffer.from('"attachment"'),
  text: Buffer.from('"text"'),
  anyString: Buffer.from('"'),
} as const;

const isJsonSpace = (c: number | undefined): boolean => c === 32 || c === 9 || c === 10 || c === 13;

/** Whether `line` holds `key: value` written with any JSON whitespace around the colon. */
function hasPair(line: Buffer, key: Buffer, value: Buffer): boolean {
  let at = line.indexOf(key);
  while (at !== -1) {
    let i = at + key.length;
    while (isJsonSpace(line[i])) i++;
    if (line[i] === 58 /* : */) {
      i++;
      while (isJsonSpace(line[i])) i++;
      if (line.subarray(i, i + value.length).equals(value)) return true;
    }
    at = line.indexOf(key, at + 1);
  }
  return false;
}

/** Markers as Claude Code writes them (compact JSON), else as a hand-formatted line spells them. */
function spacedMayHoldProse(line: Buffer): boolean {
  if (!hasPair(line, keys.type, values.user) && !hasPair(line, keys.type, values.assistant) && !hasPair(line, keys.type, values.attachment))
    return false;
  if (hasPair(line, keys.type, values.text) || line.indexOf(markers.queued) !== -1) return true;
  const stringContent = hasPair(line, keys.content, values.anyString);
  if (stringContent && hasPair(line, keys.role, values.user)) return true;
  return line.indexOf(markers.toolResult) === -1 && stringContent;
}

/**
 * Cheap pre-filter on the raw bytes, before decoding or parsing: only user, assistant and
 * attachment lines can hold prose, and only through a text block, a string content or a queued
 * prompt. Lines that carry tool results or tool calls alone (most of a long session's bytes) are
 * never decoded. Inside a JSON string these markers are escaped (`\"type\":…`), so text that
 * merely quotes them does not match. Claude Code writes compact JSON; a line with whitespace after
 * its colons (rewritten by another tool) is matched field by field instead.
 */
function mayHoldProse(line: Buffer): boolean {
  if (line.indexOf(markers.user) === -1 && line.indexOf(markers.assistant) === -1 && line.indexOf(markers.attachment) === -1)
    return (line.indexOf('": ') !== -1 || line.indexOf('" :') !== -1) && spacedMayHoldProse(line);
  if (line.indexOf(markers.text) !== -1 || line.indexOf(markers.queued) !== -1 || line.indexOf(markers.userString) !== -1) return true;
  if (line.indexOf(markers.toolResult) === -1 && line.indexOf(markers.stringContent) !== -1) return true;
  return (line.indexOf('": ') !== -1 || line.indexOf('" :') !== -1) && spacedMayHoldProse(line);
}

interface Source {
  subagent: boolean;
  thread: string | undefined;
  /** The transcript relative to the agent home, for subagent locators. */
  file: string | undefined;
}

/** The record a line contributes, or undefined. */
export function lineRecord(o: JsonObject, src: Source): MessageRecord | undefined {
  const type = o.type;
  if (type !== 'user' && type !== 'assistant' && type !== 'attachment') return undefined;
  if (o.isMeta === true || o.isCompactSummary === true) return undefined;
  const uuid = text(o, 'uuid');
  const at = str(o, 'timestamp');
  if (uuid === undefined || at === undefined || !isTimestamp(at)) return undefined;
  const ts = Date.parse(at);
  if (!Number.isFinite(ts)) return undefined;
  let role: 'user' | 'assistant';
  let body: string | undefined;
  if (type === 'assistant') {
    const msg = obj(o, 'message');
    if (str(msg, 'model') === syntheticModel) return undefined;
    role = 'assistant';
    body = prose(msg?.content);
  } else {
    role = 'user';
    let raw: string | undefined;
    if (type === 'attachment') {
      // A prompt the person queued while the agent worked.
      const a = obj(o, 'attachment');
      if (a === undefined || a.type !== 'queued_command' || a.isMeta === true || obj(a, 'origin')?.senderTaskId !== undefined)
        return undefined;
      const mode = str(a, 'commandMode');
      if (mode !== undefined && mode !== 'prompt') return undefined;
      raw = prose(a.prompt);
    } else {
      if (str(obj(o, 'origin'), 'kind') === 'task-notification') return undefined;
      raw = prose(obj(o, 'message')?.content);
    }
    if (raw === undefined) return undefined;
    const stripped = stripUserText(raw);
    if (stripped.interrupted) return undefined;
    body = stripped.text;
  }
  if (body === undefined || !hasNonSpace(body)) return undefined;
  const capped = capText(role === 'assistant' ? body.trim() : body);
  const subagent = src.subagent || o.isSidechain === true;
  const rec: MessageRecord = {
    role,
    ts_ms: ts,
    text: capped.text,
    locator:
      src.file === undefined
        ? { kind: 'external_record_id', record_id: uuid }
        : { kind: 'external_record_id', record_id: uuid, file: src.file },
    item_id: uuid,
  };
  if (capped.truncated) rec.truncated = true;
  if (subagent) {
    rec.subagent = true;
    const thread = src.thread ?? text(o, 'agentId');
    if (thread !== undefined) rec.thread = thread;
  }
  return rec;
}

/** The session's transcripts: the main file, then subagent transcripts by path (meta files are not read). */
function transcripts(session: DiscoveredSession): string[] {
  const subs = session.files
    .map((f) => f.path)
    .filter((p) => p !== session.path && p.endsWith(jsonlExt) && agentIdOfTranscript(p.slice(p.lastIndexOf('/') + 1)) !== undefined);
  return [session.path, ...subs.sort()];
}

async function extract(session: DiscoveredSession, from: MessageResume | null): Promise<MessageExtract> {
  const start = new Map((from?.files ?? []).map((f) => [f.path, f.offset]));
  const out: MessageExtract = {
    records: [],
    marks: [],
    marksMode: 'append',
    files: [],
    carry: null,
    fresh: from === null,
    bytesRead: 0,
    badLines: 0,
    problems: [],
  };
  for (const path of transcripts(session)) {
    const isMain = path === session.path;
    const name = path.slice(path.lastIndexOf('/') + 1);
    const src: Source = isMain
      ? { subagent: false, thread: undefined, file: undefined }
      : { subagent: true, thread: agentIdOfTranscript(name), file: relative(session.home, path) };
    const offset = start.get(path) ?? 0;
    try {
      const r = forEachWantedLine(
        path,
        mayHoldProse,
        (line, info) => {
          if (!info.complete || line.length === 0) return;
          const o = parseObjectLine(line);
          if (o === undefined) {
            if (line.trim() !== '') out.badLines++;
            return;
          }
          const rec = lineRecord(o, src);
          if (rec !== undefined) out.records.push(rec);
        },
        { start: offset, maxLineBytes, clipLongLines },
      );
      out.bytesRead += Math.max(0, r.size - offset);
      out.badLines += r.oversizedLines;
      out.files.push({ path, offset: r.completeEnd, mode: 'append', seen: r.size } satisfies ConsumedFile);
    } catch (error) {
      // A transcript deleted since discovery is simply not part of the session any more.
      if (!isNotFound(error)) throw error;
    }
  }
  return out;
}

export const claudeMessages: MessageExtractor = { version: claudeMessagesVersion, extract };
