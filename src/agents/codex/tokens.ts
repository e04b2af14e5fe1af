// Codex token usage as record totals. Codex's counters are cumulative per thread: the last
// `token_count` (or newer `token_usage_record`) is the thread's totals, so each one replaces the
// last and none is ever added (seed 003 "Two formats, two rules worth knowing").
import { num, obj, str, type JsonObject } from '../../json/narrow.js';
import type { Totals } from '../../record/types.js';

/**
 * Maps one cumulative usage object. OpenAI's `input_tokens` includes the cached reads, while the
 * record (like Claude Code's usage) counts uncached input and cache reads apart, so the cached part
 * is taken out of `input_tokens` here; adding the two gives Codex's own input figure back. Codex's
 * `output_tokens` already include the reasoning tokens, which `reasoning_tokens` repeats as a
 * breakdown. Codex logs no cache writes and no cost.
 */
export function totalsFromUsage(usage: JsonObject): Totals {
  const input = num(usage, 'input_tokens') ?? 0;
  const cached = num(usage, 'cached_input_tokens') ?? 0;
  return {
    input_tokens: Math.max(0, input - cached),
    output_tokens: num(usage, 'output_tokens') ?? 0,
    cache_read_tokens: cached,
    cache_creation_tokens: 0,
    reasoning_tokens: num(usage, 'reasoning_output_tokens') ?? 0,
    cost_usd: null,
  };
}

/** The cumulative usage an `event_msg` `token_count` carries (`info` is null before the first call). */
export function tokenCountUsage(payload: JsonObject): JsonObject | undefined {
  return obj(obj(payload, 'info'), 'total_token_usage');
}

/** The thread's cumulative usage in a newer `token_usage_record` line, when it is this thread's. */
export function usageRecordUsage(payload: JsonObject, threadId: string | undefined): JsonObject | undefined {
  const owner = str(payload, 'thread_id');
  if (owner !== undefined && threadId !== undefined && owner !== threadId) return undefined;
  return obj(payload, 'thread_token_usage');
}
