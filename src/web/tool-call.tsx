// One tool call as a compact block (seed 003 "Read the whole transcript"): a one-line summary with
// name, target, status and exit code; the command or patch and the folded result on opening.
import { useState } from 'preact/hooks';
import type { ToolCall } from '../record/types.js';
import { CodeBlock } from './markdown.js';
import { SubagentCard } from './subagent-card.js';
import { visibleText } from './visible-text.js';

/** Output longer than this many lines is folded behind "Show all" (design brief). */
export const foldLines = 20;

const statusIcon: Record<string, string> = { ok: '✓', error: '✗', interrupted: '⏸' };

function firstLine(text: string | undefined): string {
  if (text === undefined) return '';
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

function Output({ text }: { text: string }) {
  const [all, setAll] = useState(false);
  const lines = text.split('\n');
  const long = lines.length > foldLines;
  const shown = long && !all ? lines.slice(0, foldLines).join('\n') : text;
  return (
    <div class="tool-output">
      <pre class="code">{visibleText(shown)}</pre>
      {long ? (
        <button type="button" class="link-button" onClick={() => setAll(!all)}>
          {all ? 'Show less' : `Show all ${lines.length} lines`}
        </button>
      ) : null}
    </div>
  );
}

export function ToolCallView({ call, depth, focus }: { call: ToolCall; depth: number; focus: number[] | null }) {
  if (call.subagent !== undefined) return <SubagentCard call={call} subagent={call.subagent} depth={depth} focus={focus} />;
  const status = call.status;
  const target = call.path ?? firstLine(call.input);
  const hasBody = call.input !== undefined || call.output !== undefined;
  const summary = (
    <>
      <span class="tool-name">{visibleText(call.name)}</span>
      {status !== undefined ? (
        <span class={`status status-${status}`}>
          <span aria-hidden="true">{statusIcon[status]}</span> {status}
        </span>
      ) : null}
      {call.exit_code !== undefined ? <span class="exit">exit {call.exit_code}</span> : null}
      <span class="tool-target mono">
        {call.format === 'shell' && call.path === undefined && target !== '' ? '$ ' : ''}
        {visibleText(target)}
      </span>
    </>
  );
  if (!hasBody) return <div class="tool-call tool-line">{summary}</div>;
  return (
    <details class="tool-call">
      <summary class="tool-line">{summary}</summary>
      {call.input !== undefined ? <CodeBlock text={call.input} lang={call.format === 'diff' ? 'diff' : (call.format ?? '')} /> : null}
      {call.output !== undefined ? <Output text={call.output} /> : null}
    </details>
  );
}
