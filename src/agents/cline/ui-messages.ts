// What `ui_messages.json` adds to the conversation: each API request's token figures (the agents'
// own usage rule), the model that served it, and the times the conversation itself may lack.
import { asObject, isObject, num, obj, str, type JsonObject } from '../../json/narrow.js';
import { addTotals, emptyTotals, type Totals, type UsageApart } from '../../record/types.js';
import { msIso } from '../../text/epoch-iso.js';
import type { ClineAgentId } from './variant.js';

export interface ApiRequest {
  usage: Totals;
  model?: string;
  ts: number | null;
}

export interface UiFacts {
  /** The session's tokens by the agent's rule (Cline's getApiMetrics, Roo Code's consolidateTokenUsage). */
  totals: Totals;
  /** Requests by the conversation index that was last when each started (`conversationHistoryIndex`). */
  requests: Map<number, ApiRequest[]>;
  /** Counts said apart from any request (Cline's deleted requests and subagent batches, Roo Code's condensing cost). */
  extra: ApiRequest[];
  /** The time of the last UI message said at each conversation index. */
  lastTs: Map<number, number>;
  /** Whether any message carried `conversationHistoryIndex` (older Cline versions did not). */
  indexed: boolean;
  models: string[];
  first: number | null;
  last: number | null;
  badRecords: number;
}

function parseText(m: JsonObject): JsonObject {
  try {
    return asObject(JSON.parse(str(m, 'text') ?? '{}')) ?? {};
  } catch {
    return {};
  }
}

/**
 * One request's figures as the record counts them. Cline states `tokensIn` without the cached part
 * (each provider handler's `inputTokens`). Roo Code states the whole prompt, cache included, since
 * 3.29.5 (commit 416fa57, "Fix cost and token tracking between provider styles"), and for the
 * OpenAI protocol before that; its earlier Anthropic requests stated `tokensIn` without the cache,
 * and only those can be smaller than their cache figures.
 */
function usageOf(agent: ClineAgentId, info: JsonObject): Totals {
  const t = emptyTotals();
  const tokensIn = num(info, 'tokensIn') ?? 0;
  t.output_tokens = num(info, 'tokensOut') ?? 0;
  t.cache_creation_tokens = num(info, 'cacheWrites') ?? 0;
  t.cache_read_tokens = num(info, 'cacheReads') ?? 0;
  const cached = t.cache_creation_tokens + t.cache_read_tokens;
  t.input_tokens = agent === 'roo_code' && tokensIn >= cached ? tokensIn - cached : tokensIn;
  const cost = num(info, 'cost');
  if (cost !== undefined) t.cost_usd = cost;
  return t;
}

/** Token-carrying UI messages besides requests: Cline counts deleted requests and subagent batches. */
const clineExtraUsage = new Set(['deleted_api_reqs', 'subagent_usage']);

export function readUiMessages(agent: ClineAgentId, messages: readonly unknown[]): UiFacts {
  const facts: UiFacts = {
    totals: emptyTotals(),
    requests: new Map(),
    extra: [],
    lastTs: new Map(),
    indexed: false,
    models: [],
    first: null,
    last: null,
    badRecords: 0,
  };
  // A request's figures arrive on `api_req_started`, or (older versions) on the `api_req_finished` after it.
  const started: { info: JsonObject; index: number; ts: number | null; model?: string }[] = [];
  const open: number[] = [];
  for (const value of messages) {
    if (!isObject(value)) {
      facts.badRecords++;
      continue;
    }
    const ts = num(value, 'ts') ?? null;
    if (ts !== null) {
      facts.first = facts.first === null ? ts : Math.min(facts.first, ts);
      facts.last = facts.last === null ? ts : Math.max(facts.last, ts);
    }
    const index = num(value, 'conversationHistoryIndex');
    if (index !== undefined) {
      facts.indexed = true;
      if (ts !== null) facts.lastTs.set(index, ts);
    }
    if (str(value, 'type') !== 'say') continue;
    const say = str(value, 'say') ?? '';
    if (say === 'api_req_started') {
      const model = str(obj(value, 'modelInfo'), 'modelId');
      started.push({ info: parseText(value), index: index ?? -2, ts, ...(model ? { model } : {}) });
      open.push(started.length - 1);
    } else if (say === 'api_req_finished') {
      const at = open.pop();
      const req = at === undefined ? undefined : started[at];
      if (req !== undefined) req.info = { ...req.info, ...parseText(value) };
    } else if (agent === 'cline' && clineExtraUsage.has(say)) {
      const usage = usageOf(agent, parseText(value));
      addTotals(facts.totals, usage);
      facts.extra.push({ usage, ts });
    } else if (agent === 'roo_code' && say === 'condense_context') {
      // Roo Code adds the cost of condensing the context to the task's cost.
      const cost = num(obj(value, 'contextCondense'), 'cost');
      if (cost !== undefined) {
        facts.totals.cost_usd = (facts.totals.cost_usd ?? 0) + cost;
        facts.extra.push({ usage: { ...emptyTotals(), cost_usd: cost }, ts });
      }
    }
  }
  for (const req of started) {
    const usage = usageOf(agent, req.info);
    addTotals(facts.totals, usage);
    if (req.model !== undefined && !facts.models.includes(req.model)) facts.models.push(req.model);
    const list = facts.requests.get(req.index) ?? [];
    list.push({ usage, ts: req.ts, ...(req.model !== undefined ? { model: req.model } : {}) });
    facts.requests.set(req.index, list);
  }
  return facts;
}

/**
 * The counts no turn carries, each at its own time and model: requests whose conversation index
 * made no assistant turn (`placed` lists the indexes that did) and the counts said apart.
 */
export function usageApart(ui: UiFacts | null, placed: ReadonlySet<number>): UsageApart[] {
  if (ui === null) return [];
  const apart: ApiRequest[] = [...ui.extra];
  for (const [index, list] of ui.requests) if (!placed.has(index)) apart.push(...list);
  return apart
    .sort((a, b) => (a.ts ?? 0) - (b.ts ?? 0))
    .map((r) => ({
      at: msIso(r.ts),
      ...(r.model !== undefined ? { model: r.model } : {}),
      usage: r.usage,
    }));
}
