// The note beside each synced session (seed 003 "Find a session again"): a readable page built from
// the same elided, redacted, capped record, held to 48 KiB measured as the JSON-escaped text it
// travels as. A long session is quoted less first; then it keeps its opening and latest turns with
// a line saying how many sit between. Redacted once more here before it is sent.
import { cutChars } from '../record/clip.js';
import { countSubagents, countToolCalls } from '../record/finalise.js';
import type { SessionRecord, ToolCall, Turn } from '../record/types.js';
import { redactText } from './redact/index.js';

export const noteBudgetBytes = 48 * 1024;
export const titleChars = 60;

export interface NoteOptions {
  /** How a person names the agent ("Claude Code"). */
  agentName: string;
  project: string | null;
  /** The ledger id of the session's source, once known. */
  sourceId: string | null;
  /** Where the full transcript is read, once known. */
  transcriptUrl: string | null;
}

export interface Note {
  slug: string;
  title: string;
  body: string;
}

/** How much of each string a rendering quotes (characters): looser first. */
interface Quoting {
  text: number;
  input: number;
  /** 0: results are left out (commands without results). */
  output: number;
}
const quotings: readonly Quoting[] = [
  { text: 6000, input: 1500, output: 1000 },
  { text: 2000, input: 600, output: 300 },
  { text: 600, input: 200, output: 0 },
  { text: 200, input: 80, output: 0 },
];

/** `agent-log-<agent>-<session id>`, lower case letters, digits and dashes. */
export function noteSlug(record: SessionRecord): string {
  const clean = (s: string): string => s.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
  return `agent-log-${clean(record.agent)}-${clean(record.session_id)}`.slice(0, 200);
}

function firstAsk(record: SessionRecord): string | null {
  const ask = record.turns.find((t) => t.role === 'user' && t.text.trim() !== '');
  return ask === undefined ? null : ask.text.replace(/\s+/g, ' ').trim();
}

/** `<project> · <Agent> · <YYYY-MM-DD> · <first ask>`, cut to 60 characters (an ellipsis marks the cut). */
export function noteTitle(record: SessionRecord, opts: Pick<NoteOptions, 'agentName' | 'project'>): string {
  const day = record.started_at === null ? null : dayOf(record.started_at);
  const parts = [opts.project, opts.agentName, day, firstAsk(record)].filter((p): p is string => p !== null && p !== '');
  const whole = parts.join(' · ');
  return [...whole].length <= titleChars ? whole : `${cutChars(whole, titleChars - 1).trimEnd()}…`;
}

function dayOf(at: string): string | null {
  if (/^\d{4}-\d{2}-\d{2}T/.test(at) && at.endsWith('Z')) return at.slice(0, 10);
  const t = Date.parse(at);
  return Number.isNaN(t) ? null : new Date(t).toISOString().slice(0, 10);
}

/** Head and tail of `text` within `max` characters, with the count of what is left out between. */
function quote(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const head = Math.ceil((max * 2) / 3);
  const tail = max - head;
  return `${chars.slice(0, head).join('')}\n… ${chars.length - head - tail} characters not quoted …\n${chars.slice(chars.length - tail).join('')}`;
}

function fence(text: string, lang = ''): string {
  let longest = 2;
  for (const m of text.matchAll(/`{3,}/g)) longest = Math.max(longest, m[0].length);
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text}\n${f}`;
}

function callBlock(call: ToolCall, q: Quoting): string {
  const outcome = [call.status, call.exit_code === undefined ? undefined : `exit ${call.exit_code}`].filter((x) => x !== undefined);
  const lines = [
    `**${call.name}**${call.path === undefined ? '' : ` \`${call.path}\``}${outcome.length > 0 ? ` (${outcome.join(', ')})` : ''}`,
  ];
  const sub = call.subagent;
  if (sub !== undefined) {
    const bits = [
      `🤖 ${sub.name ?? 'subagent'}`,
      ...(sub.models.length > 0 ? [sub.models.join(', ')] : []),
      sub.status ?? 'status unknown',
    ];
    lines.push(`${bits.join(' · ')}${sub.description === null ? '' : ` — ${quote(sub.description, 200)}`} (${sub.turns.length} turns)`);
  }
  const lang = call.format === 'shell' ? 'sh' : call.format === 'diff' ? 'diff' : call.format === 'json' ? 'json' : '';
  if (call.input !== undefined && call.input !== '') lines.push(fence(quote(call.input, q.input), lang));
  if (call.output !== undefined && call.output !== '' && q.output > 0) lines.push(fence(quote(call.output, q.output)));
  return lines.join('\n');
}

function turnBlock(turn: Turn, q: Quoting): string {
  const time = turn.at === null ? '' : ` · ${turn.at}`;
  if (turn.role === 'event') return `_${quote(turn.text, q.text)}_${time}`;
  if (turn.role === 'reasoning') return turn.text === '' ? '' : `> ${quote(turn.text, q.text).replace(/\n/g, '\n> ')}`;
  const who = turn.role === 'user' ? '**User**' : `**Assistant**${turn.model === undefined ? '' : ` (${turn.model})`}`;
  const parts = [`${who}${time}`];
  if (turn.text !== '') parts.push(quote(turn.text, q.text));
  for (const c of turn.tool_calls ?? []) parts.push(callBlock(c, q));
  return parts.join('\n\n');
}

function header(record: SessionRecord, opts: NoteOptions): string {
  const t = record.totals;
  const messages = record.turns.filter((x) => x.role === 'user' || x.role === 'assistant').length;
  const lines = [
    `- Agent: ${opts.agentName} · session \`${record.session_id}\``,
    `- Repository: ${record.repo === '' ? 'none' : record.repo}${record.branch === null ? '' : ` (branch ${record.branch})`}`,
    `- Time: ${record.started_at ?? '?'} → ${record.ended_at ?? '?'}`,
    `- Models: ${record.models.length === 0 ? 'none recorded' : record.models.join(', ')}`,
    `- Messages: ${messages} · tool calls: ${countToolCalls(record.turns)} · subagents: ${countSubagents(record.turns)}`,
    `- Tokens: in ${t.input_tokens}, out ${t.output_tokens}, cache ${t.cache_read_tokens} read / ${t.cache_creation_tokens} write, reasoning ${t.reasoning_tokens}${t.cost_usd === null ? '' : ` · cost $${t.cost_usd.toFixed(4)}`}`,
    `- Detail: ${record.detail}${record.truncated ? ` · ${record.omitted_turns} turns omitted from the source` : ''}`,
  ];
  if (opts.sourceId !== null)
    lines.push(`- Source: ${opts.sourceId}${opts.transcriptUrl === null ? '' : ` · [full transcript](${opts.transcriptUrl})`}`);
  return lines.join('\n');
}

/** The page's size as it travels: its JSON-escaped text, in bytes. */
export function escapedBytes(text: string): number {
  return Buffer.byteLength(JSON.stringify(text), 'utf8') - 2;
}

function assemble(head: string, blocks: readonly string[]): string {
  return [head, '## Conversation', ...blocks.filter((b) => b !== '')].join('\n\n');
}

/** The page's body within the budget, redacted: quoted less, then cut to the opening and latest turns. */
export function noteBody(record: SessionRecord, opts: NoteOptions, budget: number = noteBudgetBytes): string {
  const head = header(record, opts);
  // Measured after the redaction it gets before sending, since a replacement can be longer.
  const fitted = (body: string): string | null => {
    const redacted = redactText(body).text;
    return escapedBytes(redacted) <= budget ? redacted : null;
  };
  for (const q of quotings) {
    const body = fitted(
      assemble(
        head,
        record.turns.map((t) => turnBlock(t, q)),
      ),
    );
    if (body !== null) return body;
  }
  const q = quotings[quotings.length - 1]!;
  const blocks = record.turns.map((t) => turnBlock(t, q));
  const gapLine = (n: number): string =>
    `_… ${n} ${n === 1 ? 'turn sits' : 'turns sit'} between here${opts.transcriptUrl === null ? '' : ` ([full transcript](${opts.transcriptUrl}))`} …_`;
  // The opening turn, then as many of the latest as fit (a binary search over how many).
  const withLatest = (n: number): string =>
    assemble(head, [...blocks.slice(0, 1), gapLine(blocks.length - 1 - n), ...(n === 0 ? [] : blocks.slice(blocks.length - n))]);
  let best: string | null = null;
  let lo = 0;
  let hi = blocks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const body = fitted(withLatest(mid));
    if (body !== null) {
      best = body;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  // The opening turn alone past the budget: the header and the gap line (a header is far smaller).
  return best ?? redactText(assemble(head, [gapLine(blocks.length)])).text;
}

/** The note for a built record: slug, title and body, each redacted again. */
export function buildNote(record: SessionRecord, opts: NoteOptions): Note {
  return { slug: noteSlug(record), title: redactText(noteTitle(record, opts)).text, body: noteBody(record, opts) };
}
