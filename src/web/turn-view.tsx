// One turn of a transcript: the person's text as typed, the agent's as Markdown, reasoning folded,
// events as one line (seed 003 "Read the whole transcript").
import type { Turn } from '../record/types.js';
import { localDateTime, localTime } from './format.js';
import { Markdown } from './markdown.js';
import { ToolCallView } from './tool-call.js';
import { visibleText } from './visible-text.js';

function When({ at }: { at: string | null }) {
  if (at === null) return null;
  return (
    <time dateTime={at} title={at}>
      {localTime(at) || localDateTime(at)}
    </time>
  );
}

export interface TurnViewProps {
  turn: Turn;
  depth: number;
  /** Marks the turn a search hit opened (`aria-current="true"`). */
  current?: boolean;
  /** The turn's position in the loaded transcript, for the j/k prompt navigation. */
  index?: number;
  /** Below this turn, the path to the current turn: [call, turn, call, turn, …] (see turn-match). */
  focus?: number[] | null;
}

export function TurnView({ turn, depth, current, index, focus }: TurnViewProps) {
  const common = {
    'aria-current': current === true ? ('true' as const) : undefined,
    'data-turn': index,
    tabIndex: -1,
  };
  switch (turn.role) {
    case 'user':
      return (
        <article
          class={`turn user${current === true ? ' current' : ''}`}
          data-prompt={depth === 0 ? '' : undefined}
          aria-label="You"
          {...common}
        >
          <div class="turn-label">
            You · <When at={turn.at} />
          </div>
          <div class="typed">{visibleText(turn.text)}</div>
        </article>
      );
    case 'assistant':
      return (
        <article class={`turn assistant${current === true ? ' current' : ''}`} aria-label="Assistant" {...common}>
          <div class="turn-label">
            Assistant · <When at={turn.at} />
            {turn.model !== undefined ? <span class="model"> · {visibleText(turn.model)}</span> : null}
          </div>
          {turn.text !== '' ? <Markdown text={turn.text} /> : null}
          {(turn.tool_calls ?? []).map((c, i) => (
            <ToolCallView
              key={i}
              call={c}
              depth={depth}
              focus={focus !== undefined && focus !== null && focus[0] === i ? focus.slice(1) : null}
            />
          ))}
        </article>
      );
    case 'reasoning':
      return (
        <details class="turn reasoning" {...common}>
          <summary class="turn-label">
            Reasoning · <When at={turn.at} />
          </summary>
          <div class="typed">{visibleText(turn.text)}</div>
        </details>
      );
    default:
      return (
        <div class="turn event" role="note" {...common}>
          <span aria-hidden="true">◆ </span>
          {visibleText(turn.text)} <When at={turn.at} />
        </div>
      );
  }
}

/** Turns drawn in order; `focus` is the path to the current turn inside this list ([turn, call, turn, …]). */
export function TurnList({ turns, depth, focus }: { turns: readonly Turn[]; depth: number; focus: number[] | null }) {
  return (
    <>
      {turns.map((t, i) => {
        const mine = focus !== null && focus[0] === i;
        return <TurnView key={i} turn={t} depth={depth} current={mine && focus.length === 1} focus={mine ? focus.slice(1) : null} />;
      })}
    </>
  );
}
