// The terminal view of one record: a header with totals, then turns in order, tool calls as compact
// blocks and subagents nested and indented inside the call that launched them.
import type { TextRestorer } from '../../record/serialise.js';
import type { SessionRecord, Subagent, ToolCall, Turn } from '../../record/types.js';
import { countSubagents, countToolCalls } from '../../record/finalise.js';
import { clockTime, duration, shortTime, thousands, tokensLine, totalTokens, type Style } from './format.js';

/** Where rendered lines go: an array, or a writer that prints each line as it comes. */
export interface Lines {
  push(...lines: string[]): unknown;
}

function indentLines(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? prefix.trimEnd() : prefix + l))
    .join('\n');
}

function callLine(call: ToolCall, style: Style): string {
  const bits = [style.bold(call.name)];
  if (call.path !== undefined) bits.push(call.path);
  const outcome: string[] = [];
  if (call.status !== undefined) outcome.push(call.status);
  if (call.exit_code !== undefined) outcome.push(`exit ${call.exit_code}`);
  if (outcome.length > 0) bits.push(style.dim(`[${outcome.join(', ')}]`));
  return `▸ ${bits.join(' ')}`;
}

function subagentHeader(sub: Subagent, style: Style): string {
  const bits = [`🤖 ${style.bold(sub.name ?? 'subagent')}`];
  if (sub.models.length > 0) bits.push(sub.models.join(', '));
  const d = duration(sub.started_at, sub.ended_at);
  if (d !== null) bits.push(d);
  bits.push(`${thousands(totalTokens(sub.totals))} tokens`);
  bits.push(sub.status ?? 'status unknown');
  return bits.join(' · ');
}

/** Restores a string of the record as it is printed (a spilled tool output); identity by default. */
const asIs: TextRestorer = (t) => t;

function renderCall(call: ToolCall, prefix: string, style: Style, out: Lines, restore: TextRestorer): void {
  out.push(prefix + callLine(call, style));
  const inner = `${prefix}    `;
  if (call.input !== undefined && call.input !== '') {
    const input = restore(call.input);
    out.push(indentLines(call.format === 'shell' ? `$ ${input}` : input, inner));
  }
  if (call.subagent !== undefined) {
    const sub = call.subagent;
    out.push(`${inner}${subagentHeader(sub, style)}`);
    if (sub.description !== null) out.push(`${inner}${style.dim(sub.description)}`);
    renderTurns(sub.turns, `${inner}│ `, style, out, restore);
  }
  if (call.output !== undefined && call.output !== '') {
    out.push(`${inner}${style.dim('→')}`);
    out.push(indentLines(restore(call.output), `${inner}  `));
  }
}

function renderTurns(turns: readonly Turn[], prefix: string, style: Style, out: Lines, restore: TextRestorer): void {
  for (const turn of turns) {
    const label = turn.model !== undefined ? `${turn.role} (${turn.model})` : turn.role;
    out.push(`${prefix}${style.dim(`[${clockTime(turn.at)}]`)} ${style.accent(label)}`);
    if (turn.text !== '') out.push(indentLines(restore(turn.text), `${prefix}  `));
    for (const call of turn.tool_calls ?? []) renderCall(call, `${prefix}  `, style, out, restore);
  }
}

export interface HeaderExtras {
  name?: string | null;
  file?: string;
}

export function renderRecordText(record: SessionRecord, style: Style, extras: HeaderExtras = {}): string {
  const out: string[] = [];
  writeRecordLines(record, style, extras, out, asIs);
  return `${out.join('\n')}\n`;
}

/**
 * Prints the view line by line, so a very large session is never one string in memory; `restore`
 * gives back each text the record holds a token for (see `withTextSink`).
 */
export function writeRecordText(
  record: SessionRecord,
  style: Style,
  extras: HeaderExtras,
  write: (text: string) => void,
  restore: TextRestorer = asIs,
): void {
  const out = {
    push: (...lines: string[]) => {
      for (const l of lines) write(`${l}\n`);
    },
  };
  writeRecordLines(record, style, extras, out, restore);
}

function writeRecordLines(record: SessionRecord, style: Style, extras: HeaderExtras, out: Lines, restore: TextRestorer): void {
  const title = [style.bold(record.agent), record.session_id];
  if (extras.name) title.push(`“${extras.name}”`);
  out.push(title.join('  '));
  const where = record.repo === '' ? '(no working directory)' : record.repo;
  out.push(`${where}${record.branch !== null ? `  (${record.branch})` : ''}`);
  const span = `${shortTime(record.started_at)} → ${shortTime(record.ended_at)}`;
  out.push(
    `${span} · ${record.turns.length} turns · ${countToolCalls(record.turns)} tool calls · ${countSubagents(record.turns)} subagents · detail ${record.detail}`,
  );
  if (record.models.length > 0) out.push(`models: ${record.models.join(', ')}`);
  out.push(`tokens: ${tokensLine(record.totals)}`);
  if (record.truncated || record.omitted_turns > 0) out.push(style.dim(`truncated: ${record.omitted_turns} turns omitted`));
  if (extras.file !== undefined) out.push(style.dim(`file: ${extras.file}`));
  out.push('─'.repeat(60));
  renderTurns(record.turns, '', style, out, restore);
}
