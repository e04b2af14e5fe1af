// The Markdown view of one record: the same content as the terminal view, as a document, written
// block by block so a very large session is never one string in memory.
import type { TextRestorer } from '../../record/serialise.js';
import type { SessionRecord, Subagent, ToolCall, Turn } from '../../record/types.js';
import { countSubagents, countToolCalls } from '../../record/finalise.js';
import { duration, shortTime, thousands, tokensLine, totalTokens } from './format.js';

/** Where rendered blocks go: each is separated from the one before by a blank line. */
interface Blocks {
  push(block: string): void;
}

/** A fence longer than any run of backticks inside, so no content can close it. */
function fence(text: string, lang = ''): string {
  let longest = 2;
  for (const m of text.matchAll(/`{3,}/g)) longest = Math.max(longest, m[0].length);
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text}\n${f}`;
}

function quote(text: string, depth: number): string {
  if (depth === 0) return text;
  const p = '> '.repeat(depth);
  return text
    .split('\n')
    .map((l) => p + l)
    .join('\n');
}

function subagentLine(sub: Subagent): string {
  const bits = [`🤖 **${sub.name ?? 'subagent'}**`];
  if (sub.models.length > 0) bits.push(sub.models.join(', '));
  const d = duration(sub.started_at, sub.ended_at);
  if (d !== null) bits.push(d);
  bits.push(`${thousands(totalTokens(sub.totals))} tokens`);
  bits.push(sub.status ?? 'status unknown');
  return bits.join(' · ');
}

const asIs: TextRestorer = (t) => t;

function renderCall(call: ToolCall, depth: number, out: Blocks, restore: TextRestorer): void {
  const outcome = [call.status, call.exit_code !== undefined ? `exit ${call.exit_code}` : undefined].filter((x) => x !== undefined);
  out.push(
    quote(
      `**${call.name}**${call.path !== undefined ? ` \`${call.path}\`` : ''}${outcome.length > 0 ? ` (${outcome.join(', ')})` : ''}`,
      depth,
    ),
  );
  if (call.input !== undefined && call.input !== '') {
    const lang = call.format === 'shell' ? 'sh' : call.format === 'diff' ? 'diff' : call.format === 'json' ? 'json' : '';
    out.push(quote(fence(restore(call.input), lang), depth));
  }
  if (call.subagent !== undefined) {
    const sub = call.subagent;
    out.push(quote(subagentLine(sub), depth + 1));
    if (sub.description !== null) out.push(quote(`*${sub.description}*`, depth + 1));
    renderTurns(sub.turns, depth + 1, out, restore);
  }
  if (call.output !== undefined && call.output !== '') out.push(quote(fence(restore(call.output)), depth));
}

function renderTurns(turns: readonly Turn[], depth: number, out: Blocks, restore: TextRestorer): void {
  for (const turn of turns) {
    const model = turn.model !== undefined ? ` · ${turn.model}` : '';
    out.push(quote(`### ${turn.role}${model} · ${shortTime(turn.at)}`, depth));
    const text = restore(turn.text);
    if (text !== '')
      out.push(
        quote(
          turn.role === 'reasoning'
            ? text
                .split('\n')
                .map((l) => `_${l}_`)
                .join('\n')
            : text,
          depth,
        ),
      );
    for (const call of turn.tool_calls ?? []) renderCall(call, depth, out, restore);
  }
}

export function renderRecordMarkdown(record: SessionRecord, name?: string | null): string {
  const blocks: string[] = [];
  writeBlocks(record, name, blocks, asIs);
  return `${blocks.join('\n\n')}\n`;
}

/**
 * Prints the Markdown view block by block (the same text `renderRecordMarkdown` returns); `restore`
 * gives back each text the record holds a token for (see `withTextSink`).
 */
export function writeRecordMarkdown(
  record: SessionRecord,
  name: string | null | undefined,
  write: (text: string) => void,
  restore: TextRestorer = asIs,
): void {
  let first = true;
  const out = {
    push: (block: string) => {
      write(first ? block : `\n\n${block}`);
      first = false;
    },
  };
  writeBlocks(record, name, out, restore);
  write('\n');
}

function writeBlocks(record: SessionRecord, name: string | null | undefined, out: Blocks, restore: TextRestorer): void {
  out.push(`# ${name ? `${name} · ` : ''}${record.agent} session ${record.session_id}`);
  out.push(
    [
      `- **repo:** ${record.repo === '' ? '—' : `\`${record.repo}\``}${record.branch !== null ? ` (branch \`${record.branch}\`)` : ''}`,
      `- **time:** ${shortTime(record.started_at)} → ${shortTime(record.ended_at)}`,
      `- **models:** ${record.models.join(', ') || '—'}`,
      `- **turns:** ${record.turns.length} · **tool calls:** ${countToolCalls(record.turns)} · **subagents:** ${countSubagents(record.turns)}`,
      `- **tokens:** ${tokensLine(record.totals)}`,
      `- **detail:** ${record.detail}${record.truncated ? ` · truncated (${record.omitted_turns} turns omitted)` : ''}`,
    ].join('\n'),
  );
  renderTurns(record.turns, 0, out, restore);
}
