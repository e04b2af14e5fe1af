// The price table shipped with agentlog: USD per million tokens per model, from the providers'
// published price pages, and the one rule that turns a bucket's tokens into an estimated cost.
/** Which table priced a report (`agentlog usage --json` says so). */
export const pricingTable = { name: 'agentlog-builtin', taken: '2026-12-01' } as const;

export interface Price {
  input: number;
  output: number;
  /** A 5-minute cache write (Anthropic: 1.25 × input); providers that do not charge writes: input. */
  cacheWrite: number;
  /** A 1-hour cache write (Anthropic: 2 × input), where the log says which. */
  cacheWrite1h?: number;
  cacheRead: number;
}

export interface ModelPrice extends Price {
  /** Rates for a request whose prompt passes 200k tokens, where the provider has a tier. */
  long?: Price;
}

const anthropic = (input: number, output: number): Price => ({
  input,
  output,
  cacheWrite: input * 1.25,
  cacheWrite1h: input * 2,
  cacheRead: input / 10,
});
// OpenAI, Moonshot and Google charge nothing extra for writing a cache: written tokens are input.
const plain = (input: number, cacheRead: number, output: number): Price => ({ input, output, cacheWrite: input, cacheRead });

/** Canonical model ids (dots written as dashes), longest first when matched. */
export const prices: Readonly<Record<string, ModelPrice>> = {
  // Anthropic, https://docs.anthropic.com/en/docs/about-claude/pricing
  'claude-opus-4-7': anthropic(5, 25),
  'claude-opus-4-6': anthropic(5, 25),
  'claude-opus-4-5': anthropic(5, 25),
  'claude-opus-4-1': anthropic(15, 75),
  'claude-opus-4': anthropic(15, 75),
  'claude-sonnet-4-6': { ...anthropic(3, 15), long: anthropic(6, 22.5) },
  'claude-sonnet-4-5': { ...anthropic(3, 15), long: anthropic(6, 22.5) },
  'claude-sonnet-4': { ...anthropic(3, 15), long: anthropic(6, 22.5) },
  'claude-haiku-4-5': anthropic(1, 5),
  'claude-3-7-sonnet': anthropic(3, 15),
  'claude-3-5-sonnet': anthropic(3, 15),
  'claude-3-5-haiku': anthropic(0.8, 4),
  'claude-3-opus': anthropic(15, 75),
  'claude-3-haiku': { input: 0.25, output: 1.25, cacheWrite: 0.3, cacheRead: 0.03 },
  // OpenAI, https://platform.openai.com/docs/pricing
  'gpt-5-5': plain(5, 0.5, 30),
  'gpt-5-4-mini': plain(0.75, 0.075, 4.5),
  'gpt-5-4': plain(2.5, 0.25, 15),
  'gpt-5-3-codex': plain(1.75, 0.175, 14),
  'gpt-5-2-codex': plain(1.75, 0.175, 14),
  'gpt-5-2': plain(1.75, 0.175, 14),
  'gpt-5-1-codex-mini': plain(0.25, 0.025, 2),
  'gpt-5-1-codex-max': plain(1.25, 0.125, 10),
  'gpt-5-1-codex': plain(1.25, 0.125, 10),
  'gpt-5-1': plain(1.25, 0.125, 10),
  'gpt-5-codex': plain(1.25, 0.125, 10),
  'gpt-5-mini': plain(0.25, 0.025, 2),
  'gpt-5-nano': plain(0.05, 0.005, 0.4),
  'gpt-5': plain(1.25, 0.125, 10),
  'gpt-4-1-mini': plain(0.4, 0.1, 1.6),
  'gpt-4-1-nano': plain(0.1, 0.025, 0.4),
  'gpt-4-1': plain(2, 0.5, 8),
  'gpt-4o-mini': plain(0.15, 0.075, 0.6),
  'gpt-4o': plain(2.5, 1.25, 10),
  'codex-mini-latest': plain(1.5, 0.375, 6),
  'o4-mini': plain(1.1, 0.275, 4.4),
  'o3-mini': plain(1.1, 0.55, 4.4),
  o3: plain(2, 0.5, 8),
  // Google, https://ai.google.dev/gemini-api/docs/pricing (prompts over 200k tokens at the long rate)
  'gemini-3-flash': plain(0.5, 0.05, 3),
  'gemini-3-pro': { ...plain(2, 0.2, 12), long: plain(4, 0.4, 18) },
  'gemini-2-5-pro': { ...plain(1.25, 0.125, 10), long: plain(2.5, 0.25, 15) },
  'gemini-2-5-flash-lite': plain(0.1, 0.01, 0.4),
  'gemini-2-5-flash': plain(0.3, 0.03, 2.5),
  'gemini-2-0-flash-lite': plain(0.075, 0.075, 0.3),
  'gemini-2-0-flash': plain(0.1, 0.025, 0.4),
  // Moonshot, https://platform.moonshot.ai/docs/pricing/chat
  'kimi-k2-turbo': plain(1.15, 0.15, 8),
  'kimi-k2-thinking-turbo': plain(1.15, 0.15, 8),
  'kimi-k2-thinking': plain(0.6, 0.15, 2.5),
  'kimi-k2': plain(0.6, 0.15, 2.5),
};

/**
 * Models the agents' logs name that the table leaves unpriced on purpose, with why (checked
 * 2026-12-01). Any other model outside the table is unpriced as "not in agentlog's price table".
 */
export const knownUnpriced: Readonly<Record<string, string>> = {
  // The first-party pages (platform.kimi.ai's K2.7 Code quick start, Moonshot's model list) state no
  // price; third-party gateways quote $0.95/$4.00 and $1.00/$3.00 per million with different cache rates.
  'kimi-k2-7-code': 'Moonshot publishes no price for it that agentlog could cite',
  // Alibaba Cloud Model Studio bills each request by its prompt length in tiers (0–32K, 32K–128K,
  // 128K–256K, 256K–1M); the buckets keep only whether a prompt passed 200K tokens.
  'qwen3-coder-plus': 'priced by prompt-length tiers (32K, 128K, 256K) the buckets do not keep',
  '<unknown>': 'the log names no model',
};

/** Why `model` is unpriced (a reason for the ones above, else that the table lacks it). */
export function unpricedReason(model: string): string {
  return knownUnpriced[normaliseModel(model)] ?? knownUnpriced[model] ?? "not in agentlog's price table";
}

const canonicalIds = Object.keys(prices).sort((a, b) => b.length - a.length);
// What may follow a canonical id in a logged name: a date, a snapshot, a release stage.
const suffix = /^(\d{8}|\d{4}-\d{2}-\d{2}|\d{4}|latest|preview(-.*)?|exp(-.*)?|\d{4}-preview|\d{2}-\d{2})$/;

/** Reduces a logged model name to the table's spelling: no provider prefix, dots as dashes. */
export function normaliseModel(name: string): string {
  let n = name.trim().toLowerCase();
  n = n.slice(n.lastIndexOf('/') + 1);
  n = n.replace(/^(anthropic|us|eu|apac)\./, '').replace(/^anthropic\./, '');
  n = n
    .replace(/@.*$/, '')
    .replace(/\[.*\]$/, '')
    .replace(/-v\d+(:\d+)?$/, '');
  return n.replace(/\./g, '-');
}

const matched = new Map<string, string | null>();

/** The canonical id the table prices a logged model name as, or null when it is not in the table. */
export function canonicalModel(name: string): string | null {
  const hit = matched.get(name);
  if (hit !== undefined) return hit;
  const n = normaliseModel(name);
  let found: string | null = null;
  for (const id of canonicalIds) {
    if (n === id || (n.startsWith(`${id}-`) && suffix.test(n.slice(id.length + 1)))) {
      found = id;
      break;
    }
  }
  matched.set(name, found);
  return found;
}

export interface PricedTokens {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
  /** Tokens billed at the output rate but recorded apart from output (thinking, where so recorded). */
  reasoningApart: number;
  /** The request's prompt passed the provider's long-context threshold (200k tokens). */
  long: boolean;
}

/** The table's entry a logged model name is priced by, or null when it is not in the table. */
export function priceOf(model: string): ModelPrice | null {
  const id = canonicalModel(model);
  return id === null ? null : (prices[id] as ModelPrice);
}

/**
 * The estimated cost in USD of tokens at `entry`'s rates. Positional, not a `PricedTokens`: a report
 * prices every bucket row, and an object per row was a share of its folding's garbage (measured).
 */
export function costAt(
  entry: ModelPrice,
  long: boolean,
  input: number,
  output: number,
  cacheWrite: number,
  cacheRead: number,
  reasoningApart: number,
): number {
  const p = long && entry.long !== undefined ? entry.long : entry;
  return (input * p.input + (output + reasoningApart) * p.output + cacheWrite * p.cacheWrite + cacheRead * p.cacheRead) / 1e6;
}

/** The estimated cost in USD, or null when the model is not in the table. */
export function estimateCost(model: string, t: PricedTokens): number | null {
  const entry = priceOf(model);
  return entry === null ? null : costAt(entry, t.long, t.input, t.output, t.cacheWrite, t.cacheRead, t.reasoningApart);
}
