// A subagent as a card inside the call that launched it (seed 003 "Subagents"): header, task and
// final answer; its own turns are drawn only on "Show steps", recursively.
import { useEffect, useState } from 'preact/hooks';
import type { Subagent, ToolCall } from '../record/types.js';
import { compactCount, duration } from './format.js';
import { Markdown } from './markdown.js';
import { TurnList } from './turn-view.js';
import { visibleText } from './visible-text.js';

export function SubagentCard({
  call,
  subagent,
  depth,
  focus,
}: {
  call: ToolCall;
  subagent: Subagent;
  depth: number;
  focus: number[] | null;
}) {
  // A search hit inside this subagent opens its steps.
  const [open, setOpen] = useState(focus !== null && focus.length > 0);
  useEffect(() => {
    if (focus !== null && focus.length > 0) setOpen(true);
  }, [focus?.join(',')]);
  const t = subagent.totals;
  const tokens = t.input_tokens + t.output_tokens + t.cache_read_tokens + t.cache_creation_tokens;
  const name = subagent.name ?? call.name;
  const facts = [
    subagent.models[0],
    duration(subagent.started_at, subagent.ended_at),
    tokens > 0 ? `${compactCount(tokens)} tok` : '',
    subagent.status ?? '',
  ].filter((x): x is string => x !== undefined && x !== '');
  const task = subagent.description ?? call.input;
  return (
    <section class="subagent" aria-label={`Subagent ${name}`} data-subagent-card="">
      <div class="subagent-head">
        <span aria-hidden="true">🤖</span> <strong>{visibleText(name)}</strong>
        {facts.map((f) => (
          <span key={f}> · {visibleText(f)}</span>
        ))}
      </div>
      {task !== undefined ? (
        <div class="subagent-task">
          <span class="label">task</span> {visibleText(task)}
        </div>
      ) : null}
      {call.output !== undefined ? (
        <div class="subagent-answer">
          <span class="label">answer</span>
          <Markdown text={call.output} />
        </div>
      ) : null}
      <button type="button" class="link-button steps-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide steps' : `Show steps (${subagent.turns.length})`}
      </button>
      {subagent.omitted_turns > 0 ? <span class="muted"> · {subagent.omitted_turns} steps omitted by the size cap</span> : null}
      {open ? (
        <div class="subagent-steps">
          <TurnList turns={subagent.turns} depth={depth + 1} focus={focus !== null && focus.length > 0 ? focus : null} />
        </div>
      ) : null}
    </section>
  );
}
