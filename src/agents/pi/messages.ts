// A Pi file's conversation messages for the message index: every branch's user and assistant
// prose, those off the active branch marked superseded (seed 000: "user/assistant prose on
// sibling branches receives one exact RecordIds supersession mark and remains searchable").
import { splitBranches } from './branch.js';
import { bashTurnText, type PiEntry } from './entry.js';

export interface PiMessage {
  /** The entry id (v3), else `line-<N>` for flat files. */
  recordId: string;
  role: 'user' | 'assistant';
  text: string;
  at: string | null;
  /** True for prose on an abandoned branch. */
  superseded: boolean;
}

function prose(e: PiEntry): { role: 'user' | 'assistant'; text: string } | undefined {
  if (e.body.type === 'user') return { role: 'user', text: e.body.text };
  if (e.body.type === 'bash') return { role: 'user', text: bashTurnText(e.body.command) };
  if (e.body.type === 'assistant')
    return {
      role: 'assistant',
      text: e.body.parts
        .filter((p) => p.kind === 'text')
        .map((p) => p.text)
        .join(''),
    };
  return undefined;
}

/** Yields prose in file order; reasoning, tool payloads and summaries are not messages. */
export function* piMessages(entries: readonly PiEntry[]): Generator<PiMessage> {
  const { abandoned } = splitBranches(entries);
  const off = new Set(abandoned);
  for (const e of entries) {
    const p = prose(e);
    if (p === undefined || p.text.trim() === '') continue;
    yield { recordId: e.id ?? `line-${e.line}`, role: p.role, text: p.text, at: e.at, superseded: off.has(e) };
  }
}
