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
  // Cline's and Roo Code's figures carry no reasoning count; the readers take cache out of input.
  cline: { inputIncludesCacheRead: false, reasoningApart: false },
  roo_code: { inputIncludesCacheRead: false, reasoningApart: false },
  // The reader takes cache reads out of the prompt and reasoning out of an OpenAI-style completion count.
  qwen: { inputIncludesCacheRead: false, reasoningApart: true },
  // Crush's prompt_tokens are input plus cache reads (internal/agent/agent.go updateSessionTokenCounters).
  crush: { inputIncludesCacheRead: true, reasoningApart: false },
  // The reader takes cache reads out of the input; reasoning is part of the output count.
  copilot: { inputIncludesCacheRead: false, reasoningApart: false },
  // Droid's settings state thinking tokens beside input, output and cache counts.
  droid: { inputIncludesCacheRead: false, reasoningApart: true },
  // Goose's accumulated_input_tokens is the provider's input figure; its schema states no cache reads.
  goose: { inputIncludesCacheRead: false, reasoningApart: false },
  aider: { inputIncludesCacheRead: false, reasoningApart: false },
  // Cursor's transcripts state no tokens.
  cursor: { inputIncludesCacheRead: false, reasoningApart: false },
};
