// One line of a Qwen Code chat file (`ChatRecord`) narrowed to what the record and the index read.
// Fields may be missing or drift; a line that is not a record of a known type is `undefined`.
import { arr, asArray, asObject, bool, num, obj, str, text, type JsonObject } from '../../json/narrow.js';
import { emptyTotals, type Totals } from '../../record/types.js';

export const recordTypes = ['user', 'assistant', 'tool_result', 'system'] as const;
export type RecordType = (typeof recordTypes)[number];

export interface FunctionCall {
  id: string | undefined;
  name: string;
  args: JsonObject;
}

export interface FunctionResponse {
  id: string | undefined;
  name: string | undefined;
  response: JsonObject | undefined;
}

export interface QwenRecord {
  /** 1-based line in the file. */
  line: number;
  uuid: string | undefined;
  parentUuid: string | undefined;
  sessionId: string | undefined;
  type: RecordType;
  subtype: string | undefined;
  at: string | null;
  cwd: string | undefined;
  gitBranch: string | undefined;
  /** Written by a subagent running beside the session (`isSidechain`), grouped by `agentId`. */
  sidechain: boolean;
  agentId: string | undefined;
  agentName: string | undefined;
  model: string | undefined;
  usage: Totals | undefined;
  /** Text parts (not thoughts), in order. */
  texts: string[];
  thoughts: string[];
  calls: FunctionCall[];
  responses: FunctionResponse[];
  /** `toolCallResult` of a tool_result record. */
  toolResult: JsonObject | undefined;
  systemPayload: JsonObject | undefined;
}

export function isRecordType(value: unknown): value is RecordType {
  return typeof value === 'string' && (recordTypes as readonly string[]).includes(value);
}

/**
 * Qwen Code's usage (Gemini's `GenerateContentResponseUsageMetadata`). Its OpenAI-compatible
 * providers write the completion count as `candidatesTokenCount`, reasoning included, with the
 * reasoning part again in `thoughtsTokenCount` (total = prompt + candidates); Gemini itself states
 * them apart (total = prompt + candidates + thoughts + tool-use prompt). The total tells which.
 * Each token is counted once: cache reads come out of input, reasoning out of output when inside it.
 */
export function usageOf(value: unknown): Totals | undefined {
  const u = asObject(value);
  if (u === undefined) return undefined;
  const prompt = num(u, 'promptTokenCount') ?? 0;
  const candidates = num(u, 'candidatesTokenCount') ?? 0;
  const thoughts = num(u, 'thoughtsTokenCount') ?? 0;
  const cached = num(u, 'cachedContentTokenCount') ?? 0;
  const toolUse = num(u, 'toolUsePromptTokenCount') ?? 0;
  const total = num(u, 'totalTokenCount');
  const apart = thoughts > 0 && total !== undefined && total >= prompt + candidates + thoughts;
  const t = emptyTotals();
  t.input_tokens = Math.max(0, prompt - cached) + toolUse;
  t.cache_read_tokens = Math.min(cached, prompt);
  t.reasoning_tokens = thoughts;
  t.output_tokens = apart ? candidates : Math.max(0, candidates - thoughts);
  return t;
}

function partsOf(message: JsonObject | undefined, into: QwenRecord): void {
  const parts = asArray(message?.['parts']) ?? (typeof message?.['parts'] === 'string' ? [message['parts']] : []);
  for (const raw of parts) {
    if (typeof raw === 'string') {
      into.texts.push(raw);
      continue;
    }
    const part = asObject(raw);
    if (part === undefined) continue;
    const t = str(part, 'text');
    if (t !== undefined) {
      if (part['thought'] === true) into.thoughts.push(t);
      else into.texts.push(t);
      continue;
    }
    const call = obj(part, 'functionCall');
    const callName = text(call, 'name');
    if (call !== undefined && callName !== undefined) {
      into.calls.push({ id: text(call, 'id'), name: callName, args: obj(call, 'args') ?? {} });
      continue;
    }
    const response = obj(part, 'functionResponse');
    if (response !== undefined)
      into.responses.push({ id: text(response, 'id'), name: text(response, 'name'), response: obj(response, 'response') });
  }
}

/** Narrows one line; undefined when it is not a chat record. */
export function chatRecordOf(o: JsonObject, line: number): QwenRecord | undefined {
  const type = o['type'];
  if (!isRecordType(type)) return undefined;
  const parent = o['parentUuid'];
  const record: QwenRecord = {
    line,
    uuid: text(o, 'uuid'),
    parentUuid: typeof parent === 'string' && parent !== '' ? parent : undefined,
    sessionId: text(o, 'sessionId'),
    type,
    subtype: text(o, 'subtype'),
    at: text(o, 'timestamp') ?? null,
    cwd: text(o, 'cwd'),
    gitBranch: text(o, 'gitBranch'),
    sidechain: bool(o, 'isSidechain') === true,
    agentId: text(o, 'agentId'),
    agentName: text(o, 'agentName'),
    model: text(o, 'model'),
    usage: type === 'assistant' ? usageOf(o['usageMetadata']) : undefined,
    texts: [],
    thoughts: [],
    calls: [],
    responses: [],
    toolResult: obj(o, 'toolCallResult'),
    systemPayload: obj(o, 'systemPayload'),
  };
  partsOf(obj(o, 'message'), record);
  return record;
}

/** True for a line only Qwen Code writes: a chat record whose message is Gemini `Content` or a Qwen payload. */
export function isQwenLine(o: JsonObject | undefined): boolean {
  if (o === undefined || !isRecordType(o['type'])) return false;
  if (typeof o['uuid'] !== 'string' || typeof o['sessionId'] !== 'string') return false;
  const message = obj(o, 'message');
  return arr(message, 'parts') !== undefined || o['type'] === 'tool_result' || obj(o, 'systemPayload') !== undefined;
}
