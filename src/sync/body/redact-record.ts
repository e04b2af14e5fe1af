// Redacts a finalised record string by string (every string value: text, tool names, paths, inputs,
// outputs, descriptions, the repo, subagents' too), then clips again, since a replacement token can
// make a string longer than its clip. Texts the readers' clips cut were redacted whole before the cut
// (`pre-clip.ts`); a cut made outside `clip()` (a line read clipped past its bound, a span too large
// to read whole) can still split a secret, so the key-shaped fragment either side of a clip's marker
// is redacted as a fragment too.
import { clipInput, clipMessage, clipOutput } from '../../record/clip.js';
import type { SessionRecord, Subagent, ToolCall, Turn } from '../../record/types.js';
import { redactJson } from '../redact/index.js';

/** The line a clip leaves (`record/clip.ts` omittedLine). */
const clipMarker = /\n… \d{1,12} bytes omitted …\n/g;

function isFragmentChar(c: number): boolean {
  // [A-Za-z0-9+/=_.-]
  return (
    (c >= 48 && c <= 57) ||
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    c === 43 ||
    c === 47 ||
    c === 61 ||
    c === 95 ||
    c === 46 ||
    c === 45
  );
}

function keyShaped(fragment: string): boolean {
  return fragment.length >= 12 && /[A-Za-z]/.test(fragment) && /[0-9]/.test(fragment);
}

/** Replaces a key-shaped fragment either side of a clip marker (11 characters or fewer are kept). */
export function scrubClipEdges(text: string): { text: string; scrubbed: number } {
  if (!text.includes(' bytes omitted …')) return { text, scrubbed: 0 };
  let scrubbed = 0;
  let out = '';
  let at = 0;
  for (const m of text.matchAll(clipMarker)) {
    const start = m.index;
    const end = start + m[0].length;
    let b = start;
    while (b > at && isFragmentChar(text.charCodeAt(b - 1))) b--;
    let a = end;
    while (a < text.length && isFragmentChar(text.charCodeAt(a))) a++;
    const before = text.slice(b, start);
    const after = text.slice(end, a);
    const scrub = (fragment: string): string => {
      if (!keyShaped(fragment)) return fragment;
      scrubbed++;
      return '[REDACTED:high_entropy]';
    };
    out += text.slice(at, b) + scrub(before) + m[0] + scrub(after);
    at = a;
  }
  return { text: out + text.slice(at), scrubbed };
}

function mapStrings(record: SessionRecord, f: (s: string) => string): SessionRecord {
  const call = (c: ToolCall): ToolCall => ({
    ...c,
    ...(c.input === undefined ? {} : { input: f(c.input) }),
    ...(c.output === undefined ? {} : { output: f(c.output) }),
    ...(c.subagent === undefined ? {} : { subagent: sub(c.subagent) }),
  });
  const turn = (t: Turn): Turn => ({
    ...t,
    text: f(t.text),
    ...(t.tool_calls === undefined ? {} : { tool_calls: t.tool_calls.map(call) }),
  });
  const sub = (s: Subagent): Subagent => ({ ...s, turns: s.turns.map(turn) });
  return { ...record, turns: record.turns.map(turn) };
}

function reclip(record: SessionRecord): SessionRecord {
  const call = (c: ToolCall): ToolCall => ({
    ...c,
    ...(c.input === undefined ? {} : { input: clipInput(c.input) }),
    ...(c.output === undefined ? {} : { output: clipOutput(c.output) }),
    ...(c.subagent === undefined ? {} : { subagent: sub(c.subagent) }),
  });
  const turn = (t: Turn): Turn => ({
    ...t,
    text: clipMessage(t.text),
    ...(t.tool_calls === undefined ? {} : { tool_calls: t.tool_calls.map(call) }),
  });
  const sub = (s: Subagent): Subagent => ({ ...s, turns: s.turns.map(turn) });
  return { ...record, turns: record.turns.map(turn) };
}

/** The record with every string redacted and the clips applied again, and how many spans were replaced. */
export function redactRecord(record: SessionRecord): { record: SessionRecord; redactions: number } {
  let scrubbed = 0;
  const edged = mapStrings(record, (s) => {
    const r = scrubClipEdges(s);
    scrubbed += r.scrubbed;
    return r.text;
  });
  // Every string value, keys untouched: the record's shape (and its closed vocabularies, which no
  // detector can match) is unchanged, so the result is still a record.
  const redacted = redactJson(edged);
  return { record: reclip(redacted.value as SessionRecord), redactions: redacted.redactions + scrubbed };
}
