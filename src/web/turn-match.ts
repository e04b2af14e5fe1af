// Finds the turn a search hit points at inside a record, subagents included. The index's locator
// addresses a file line; the record's turns carry role, time and text, so the hit is matched on
// those: same role, the snippet's text inside the turn, then the nearest time.
import type { Turn } from '../record/types.js';

/** A turn inside the tree: the top-level index, then (call, turn) pairs down through subagents. */
export interface TurnPath {
  top: number;
  /** Each step opens the subagent of tool call `call` in the current turn and moves to its turn `turn`. */
  steps: { call: number; turn: number }[];
}

export interface HitTarget {
  /** The turn's role; "" matches any (a deep search hit knows only a line of the file). */
  role: string;
  ts_ms: number;
  /** Plain text the message is known to contain (the snippet). */
  text: string;
}

const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** The longest run of the snippet free of ellipses: the part certain to be in the message. */
function probe(text: string): string {
  const pieces = norm(text)
    .split('…')
    .map((p) => p.trim());
  return pieces.reduce((a, b) => (b.length > a.length ? b : a), '').slice(0, 120);
}

interface Candidate {
  path: TurnPath;
  contains: boolean;
  distance: number;
  /** The turn's time (ms), NaN when it has none. */
  at: number;
}

function walk(turns: readonly Turn[], prefix: TurnPath | null, target: HitTarget, needle: string, out: Candidate[]): void {
  turns.forEach((turn, i) => {
    const path: TurnPath = prefix === null ? { top: i, steps: [] } : { top: prefix.top, steps: [...prefix.steps, { call: -1, turn: i }] };
    if (target.role === '' || turn.role === target.role) {
      const at = turn.at === null ? Number.NaN : Date.parse(turn.at);
      out.push({
        path,
        contains: needle !== '' && norm(turn.text).toLowerCase().includes(needle),
        distance: Number.isNaN(at) ? Number.POSITIVE_INFINITY : Math.abs(at - target.ts_ms),
        at,
      });
    }
    (turn.tool_calls ?? []).forEach((call, c) => {
      if (call.subagent === undefined) return;
      const base: TurnPath = { top: path.top, steps: path.steps.map((s) => ({ ...s })) };
      // The call index belongs to the step that enters the subagent: patched in below.
      const inner: Candidate[] = [];
      walk(call.subagent.turns, base, target, needle, inner);
      for (const cand of inner) {
        const step = cand.path.steps[base.steps.length];
        if (step !== undefined) step.call = c;
        out.push(cand);
      }
    });
  });
}

/** The best matching turn, or null when no turn has the hit's role. */
export function findHitTurn(turns: readonly Turn[], target: HitTarget): TurnPath | null {
  const candidates: Candidate[] = [];
  walk(turns, null, target, probe(target.text).toLowerCase(), candidates);
  let best: Candidate | null = null;
  for (const c of candidates) {
    if (best === null || (c.contains && !best.contains) || (c.contains === best.contains && c.distance < best.distance)) best = c;
  }
  // A hit that knows no role or time has only its text to go by: no turn holding it, no match.
  if (best !== null && target.role === '' && !best.contains) return null;
  return best?.path ?? null;
}

/** A line of a transcript file, as a deep search hit names it: its time and the term it holds. */
export interface LineTarget {
  ts_ms: number;
  term: string;
  /** The line is in the session's main file (its turns are top-level), else in a subagent's file. */
  main: boolean;
}

/**
 * The turn holding a file line: among the turns of that file (top-level for the main file, a
 * subagent's otherwise), the last one begun at or before the line's time, the turn holding the term
 * first among turns begun at the same time (an assistant message's lines carry one time each, and a
 * tool result belongs to the turn whose call it answers). Null when no turn began by then.
 */
export function findLineTurn(turns: readonly Turn[], target: LineTarget): TurnPath | null {
  const candidates: Candidate[] = [];
  walk(turns, null, { role: '', ts_ms: target.ts_ms, text: target.term }, probe(target.term).toLowerCase(), candidates);
  let best: Candidate | null = null;
  for (const c of candidates) {
    if ((c.path.steps.length === 0) !== target.main || Number.isNaN(c.at) || c.at > target.ts_ms) continue;
    if (best === null || c.at > best.at || (c.at === best.at && c.contains && !best.contains)) best = c;
  }
  return best?.path ?? null;
}

export function samePath(a: TurnPath | null, b: TurnPath | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.top === b.top &&
    a.steps.length === b.steps.length &&
    a.steps.every((s, i) => s.call === b.steps[i]?.call && s.turn === b.steps[i]?.turn)
  );
}

/** The path as indexes [top, call, turn, call, turn, …], what the turn views pass down. */
export function flatPath(path: TurnPath): number[] {
  return [path.top, ...path.steps.flatMap((s) => [s.call, s.turn])];
}
