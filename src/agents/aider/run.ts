// One aider run's Markdown as turns, by aider's own reading of the file (utils.py
// `split_chat_history_markdown`): `#### ` lines are what the person typed, `> ` lines are aider's
// own output (confirmations, edits applied, the token report), everything else is the reply.
import { clipMessage } from '../../record/clip.js';
import { addTotals, emptyTotals, type Totals, type Turn } from '../../record/types.js';
import { runHeader } from './history-file.js';

export interface AiderRun {
  /** The header's local time as ISO-8601 without a zone (aider writes none). */
  startedAt: string | null;
  turns: Turn[];
  models: string[];
  totals: Totals;
}

type Kind = 'user' | 'tool' | 'assistant';

/** aider's `format_tokens`: `638`, `1.9k`, `12k`. */
function tokens(text: string): number {
  const m = /^([\d.]+)(k?)$/.exec(text);
  if (m === null) return 0;
  return Math.round(Number(m[1]) * (m[2] === 'k' ? 1000 : 1));
}

/**
 * The usage aider reports after each reply (base_coder.py `calculate_and_show_tokens_and_cost`):
 * "Tokens: 12k sent, 2.1k cache write, 8.0k cache hit, 638 received." "sent" is the prompt with
 * its cache reads and writes, so the record takes both out of it.
 */
function usageLine(line: string): Totals | null {
  const m = /^Tokens: ([\d.]+k?) sent(?:, ([\d.]+k?) cache write)?(?:, ([\d.]+k?) cache hit)?, ([\d.]+k?) received\./.exec(line);
  if (m === null) return null;
  const t = emptyTotals();
  const sent = tokens(m[1] ?? '');
  t.cache_creation_tokens = tokens(m[2] ?? '0');
  t.cache_read_tokens = tokens(m[3] ?? '0');
  t.input_tokens = Math.max(0, sent - t.cache_creation_tokens - t.cache_read_tokens);
  t.output_tokens = tokens(m[4] ?? '');
  return t;
}

const costPattern = /Cost: \$([\d.]+) message, \$[\d.]+ session\./;
const modelPattern = /^(?:Main model|Model): (\S+)/;
/** aider's reasoning wrapper (reasoning_tags.py) and the `<think>` some models emit themselves. */
const reasoningPattern = /<(thinking-content-[0-9a-f]+|think)>([\s\S]*?)<\/\1>/g;

function stampIso(stamp: string): string | null {
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(stamp) ? stamp.replace(' ', 'T') : null;
}

function lineKind(text: string, at: number): Kind | 'header' {
  const c = text.charCodeAt(at);
  if (c === 62 /* > */ && (text.charCodeAt(at + 1) === 32 || text.charCodeAt(at + 1) === 10 || at + 1 >= text.length)) return 'tool';
  if (c === 35 /* # */) {
    if (text.startsWith('#### ', at) || text.startsWith('####\n', at)) return 'user';
    if (text.charCodeAt(at + 1) === 32) return 'header';
  }
  return 'assistant';
}

/** A `#### ` or `> ` line without its prefix and the two spaces aider ends it with. */
function lineBody(line: string, prefix: number): string {
  const body = line.endsWith('\r') ? line.slice(prefix, -1) : line.slice(prefix);
  return body.endsWith('  ') ? body.slice(0, -2) : body;
}

/** Reads one run (its text from the header line to the next run). */
export function readAiderRun(text: string): AiderRun {
  const first = text.slice(0, Math.max(0, text.indexOf('\n')));
  const startedAt = first.startsWith(runHeader) ? stampIso(first.slice(runHeader.length).trim()) : null;
  const run: AiderRun = { startedAt, turns: [], models: [], totals: emptyTotals() };
  let model: string | undefined;
  let typed = false;

  const user = (lines: string[]): void => {
    const t = lines.join('\n').trim();
    if (t === '' || t === '<blank>') return;
    run.turns.push({ role: 'user', at: startedAt, text: clipMessage(t) });
    typed = true;
  };
  const tool = (lines: string[]): void => {
    const kept: string[] = [];
    for (const line of lines) {
      const usage = line.startsWith('Tokens: ') ? usageLine(line) : null;
      if (usage !== null) addTotals(run.totals, usage);
      const cost = line.includes('Cost: $') ? costPattern.exec(line) : null;
      if (cost !== null) run.totals.cost_usd = (run.totals.cost_usd ?? 0) + Number(cost[1]);
      const named = line.includes('odel: ') ? modelPattern.exec(line)?.[1] : undefined;
      if (named !== undefined) {
        model = named;
        if (!run.models.includes(named)) run.models.push(named);
      }
      if (usage === null && cost === null) kept.push(line);
    }
    // The banner before the first prompt is aider introducing itself; afterwards its notes are events.
    const t = kept.join('\n').trim();
    if (typed && t !== '') run.turns.push({ role: 'event', at: startedAt, text: clipMessage(t) });
  };
  const assistant = (raw: string): void => {
    let t = raw;
    if (raw.includes('<think')) {
      for (const m of raw.matchAll(reasoningPattern)) {
        const r = (m[2] ?? '').trim();
        if (r !== '') run.turns.push({ role: 'reasoning', at: startedAt, text: clipMessage(r) });
      }
      t = raw.replace(reasoningPattern, '');
    }
    t = t.trim();
    if (t === '') return;
    const turn: Turn = { role: 'assistant', at: startedAt, text: clipMessage(t), tool_calls: [] };
    if (model !== undefined) turn.model = model;
    run.turns.push(turn);
  };

  // Lines are classified where they start; a reply is cut out of the text whole, not line by line.
  let kind: Kind | null = null;
  let lines: string[] = [];
  let replyFrom = 0;
  let replyTo = 0;
  const flush = (): void => {
    if (kind === 'user') user(lines);
    else if (kind === 'tool') tool(lines);
    else if (kind === 'assistant') assistant(text.slice(replyFrom, replyTo));
    lines = [];
  };
  for (let at = 0; at < text.length; ) {
    const nl = text.indexOf('\n', at);
    const end = nl === -1 ? text.length : nl;
    const next = lineKind(text, at);
    if (next !== 'header') {
      if (next !== kind) {
        flush();
        kind = next;
        replyFrom = at;
      }
      if (next === 'assistant') replyTo = end;
      else lines.push(lineBody(text.slice(at, end), next === 'user' ? 5 : 2));
    }
    at = end + 1;
  }
  flush();
  return run;
}
