// How each reader's totals relate to what a provider bills, where the record's fields do not yet
// mean one thing for every agent. Pricing corrects for it; token columns show the record as is, so
// they equal `scan`'s.
import type { AgentId } from '../record/types.js';

export interface TotalsConvention {
  /** `input_tokens` already includes the cache reads (Gemini CLI's prompt count). */
  inputIncludesCacheRead: boolean;
  /** Thinking tokens are recorded beside `output_tokens`, not inside it, and billed as output. */
  reasoningApart: boolean;
}

export const conventions: Record<AgentId, TotalsConvention> = {
  claude_code: { inputIncludesCacheRead: false, reasoningApart: false },
  // Codex's output_tokens include reasoning_output_tokens; the reader takes cached reads out of input.
  codex: { inputIncludesCacheRead: false, reasoningApart: false },
  kimi: { inputIncludesCacheRead: false, reasoningApart: false },
  pi: { inputIncludesCacheRead: false, reasoningApart: false },
  intendant: { inputIncludesCacheRead: false, reasoningApart: false },
  // Gemini's reader takes the cached part out of the prompt count (the Tokens rule); thoughts stand apart.
  gemini: { inputIncludesCacheRead: false, reasoningApart: true },
  opencode: { inputIncludesCacheRead: false, reasoningApart: true },
};
