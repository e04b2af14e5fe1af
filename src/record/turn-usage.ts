// Where a log's per-request token counts land in the draft record: on the turn the request made
// (`Turn.usage`), or, for a request with no turn of its own, apart with its own time and model
// (`usage_apart`), so a usage report places each request's tokens on the day it was made. Readers
// count tokens by their own rules; these helpers only choose where the counts go.
import { addTotals, emptyTotals, type Totals, type Turn } from './types.js';

/** Adds one request's counts to a turn's usage. */
export function addTurnUsage(turn: Turn, usage: Totals): void {
  addTotals((turn.usage ??= emptyTotals()), usage);
}

/**
 * The turn that carries the usage of a message whose turns start at index `from`: its first
 * assistant turn, else its first turn of any role; undefined when it made none.
 */
export function usageCarrier(turns: readonly Turn[], from: number): Turn | undefined {
  for (let i = from; i < turns.length; i++) if (turns[i]?.role === 'assistant') return turns[i];
  return turns[from];
}
