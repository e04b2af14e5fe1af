// `api_conversation_history.json` (Anthropic-style messages the extensions send and receive) as
// turns: typed text without the injected context, reasoning, assistant prose, and tool calls paired
// with their results, whether native (`tool_use` / `tool_result`) or written as text (XML tool uses
// answered by `[tool for 'x'] Result:` blocks, paired in order).
import { arr, asObject, num, obj, str, type JsonObject } from '../../json/narrow.js';
import { clipMessage } from '../../record/clip.js';
import { addTotals, emptyTotals, type ToolCall, type Turn } from '../../record/types.js';
import { msIso } from '../../text/epoch-iso.js';
import { cutMark } from './summary-cut.js';
import { mayBeStatus, setResult, statusFeedback, toolCall } from './tool-call.js';
import type { UiFacts } from './ui-messages.js';
import {
  environmentCwd,
  isEnvironment,
  isInjected,
  quoteInResult,
  resultHeadChars,
  resultHeader,
  resumedCwd,
  typedInResult,
  typedTexts,
} from './user-text.js';
import { parseAssistantText } from './xml-tools.js';

export interface Conversation {
  turns: Turn[];
  models: string[];
  cwds: string[];
  /** `new_task` calls (Roo Code subtasks) with the child task id their result names, if any. */
  launches: { call: ToolCall; childId: string | null }[];
  /** The request indexes (`conversationHistoryIndex`) whose usage an assistant turn carries. */
  placedRequests: Set<number>;
  badRecords: number;
  /** A cut output (`cut`) was read where its head could not stand for it: read the document whole. */
  needWhole: boolean;
}

export interface ConversationInput {
  messages: readonly unknown[];
  ui: UiFacts | null;
  /**
   * The latest model Cline's task_metadata.json names (`model_usage`), for messages that name none:
   * asked only when one does (most messages name theirs, so the file is seldom read), and perhaps for
   * each such message, so it reads the file once (parse.ts memoises it per task, across both reads of
   * a cut conversation).
   */
  fallbackModel?: () => string | undefined;
  full: boolean;
  /**
   * Whether long tool outputs were cut to their heads (summary-cut.ts; never at full detail): a cut
   * one ends in `cutMark`, and is read only where its head decides the same as the whole would.
   */
  cut?: boolean;
}

function blocksOf(content: unknown): readonly unknown[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content : [];
}

function pushOnce(list: string[], value: string | undefined): void {
  if (value !== undefined && value !== '' && !list.includes(value)) list.push(value);
}

const childIdPattern = /(?:Subtask|Delegated to child task) ([A-Za-z0-9-]+)/;

class Builder {
  readonly out: Conversation = {
    turns: [],
    models: [],
    cwds: [],
    launches: [],
    placedRequests: new Set(),
    badRecords: 0,
    needWhole: false,
  };
  /** The last assistant turn's calls still waiting for a result, in order, and by native id. */
  private pending: ToolCall[] = [];
  private readonly byId = new Map<string, ToolCall>();
  private model: string | undefined;

  constructor(private readonly input: ConversationInput) {}

  /** A cut output's head (its mark dropped), or undefined for a string read whole. */
  private headOf(value: string): string | undefined {
    return this.input.cut === true && value.endsWith(cutMark) ? value.slice(0, -1) : undefined;
  }

  /** A string read where only the whole of it will do: a cut one means reading the document whole. */
  private whole(value: string | undefined): string | undefined {
    if (value !== undefined && this.headOf(value) !== undefined) this.out.needWhole = true;
    return value;
  }

  /**
   * Whether an output's head decides all the summary reads of the output: the person quoted near
   * its start (not quoted there), Roo Code's JSON status (not one), the child a `new_task` names.
   */
  private headSuffices(call: ToolCall | undefined, head: string): boolean {
    return call?.name !== 'new_task' && head.length >= resultHeadChars && quoteInResult(head) === -1 && !mayBeStatus(head);
  }

  /** A tool result's text: a string, or its text blocks joined (images leave a marker). */
  private resultText(content: unknown): string {
    if (typeof content === 'string') return content;
    const pieces: string[] = [];
    for (const b of Array.isArray(content) ? content : []) {
      const block = asObject(b);
      const t = this.whole(str(block, 'text'));
      if (t !== undefined) pieces.push(t);
      else if (str(block, 'type') === 'image') pieces.push('[image]');
    }
    return pieces.join('\n');
  }

  /** Reasoning text of a block or top-level item: `thinking`, `reasoning` text, or a summary list. */
  private reasoningText(block: JsonObject): string {
    const direct = this.whole(str(block, 'thinking') ?? str(block, 'text') ?? str(block, 'reasoning'));
    if (direct !== undefined) return direct.trim();
    return (arr(block, 'summary') ?? [])
      .map((s) => this.whole(str(asObject(s), 'text')) ?? '')
      .join('\n')
      .trim();
  }

  private at(i: number, msg: JsonObject, role: 'user' | 'assistant'): string | null {
    const own = num(msg, 'ts');
    if (own !== undefined) return msIso(own);
    const ui = this.input.ui;
    if (ui === null || !ui.indexed) return null;
    // A user message is sent right after its request is announced (said while message i-1 was last);
    // an assistant message is stored after the last UI message of its request.
    if (role === 'user') return msIso(ui.requests.get(i - 1)?.at(-1)?.ts ?? ui.lastTs.get(i - 1));
    return msIso(ui.lastTs.get(i - 1));
  }

  private take(id: string | undefined): ToolCall | undefined {
    const call = (id === undefined ? undefined : this.byId.get(id)) ?? this.pending[0];
    if (call === undefined) return undefined;
    const at = this.pending.indexOf(call);
    if (at >= 0) this.pending.splice(at, 1);
    return call;
  }

  /** Pairs a result with its call; `cut` when `output` is only a cut output's head. */
  private answer(call: ToolCall | undefined, output: string, isError: boolean, typed: string[], cut = false): void {
    if (cut && !this.headSuffices(call, output)) {
      this.out.needWhole = true;
      return;
    }
    if (call !== undefined) {
      setResult(call, output, isError, this.input.full);
      if (call.name === 'new_task') {
        const launch = this.out.launches.find((l) => l.call === call);
        const childId = childIdPattern.exec(output)?.[1] ?? null;
        if (launch !== undefined && childId !== null) launch.childId = childId;
      }
    }
    typed.push(...typedInResult(output));
    const feedback = statusFeedback(output);
    if (feedback !== undefined) typed.push(...(typedTexts(feedback).length > 0 ? typedTexts(feedback) : [feedback]));
  }

  assistant(i: number, msg: JsonObject): void {
    const at = this.at(i, msg, 'assistant');
    const model =
      str(obj(msg, 'modelInfo'), 'modelId') ?? this.input.ui?.requests.get(i - 1)?.at(-1)?.model ?? this.input.fallbackModel?.();
    if (model !== undefined) {
      this.model = model;
      pushOnce(this.out.models, model);
    }
    const texts: string[] = [];
    const calls: ToolCall[] = [];
    const reasoning = str(msg, 'reasoning_content');
    if (reasoning !== undefined && reasoning.trim() !== '')
      this.out.turns.push({ role: 'reasoning', at, text: clipMessage(reasoning.trim()) });
    this.pending = [];
    this.byId.clear();
    for (const b of blocksOf(msg.content)) {
      const block = asObject(b);
      const type = str(block, 'type');
      if (block === undefined) continue;
      if (type === 'text') {
        const parsed = parseAssistantText(this.whole(str(block, 'text')) ?? '');
        for (const t of parsed.thinking) this.out.turns.push({ role: 'reasoning', at, text: clipMessage(t) });
        if (parsed.text !== '') texts.push(parsed.text);
        for (const tool of parsed.tools) calls.push(toolCall(tool.name, tool.params, this.input.full));
      } else if (type === 'thinking' || type === 'reasoning') {
        const t = this.reasoningText(block);
        if (t !== '') this.out.turns.push({ role: 'reasoning', at, text: clipMessage(t) });
      } else if (type === 'tool_use') {
        const call = toolCall(str(block, 'name') ?? 'tool', asObject(block.input) ?? {}, this.input.full);
        calls.push(call);
        const id = str(block, 'id');
        if (id !== undefined) this.byId.set(id, call);
      }
    }
    this.pending = calls.slice();
    for (const call of calls) if (call.name === 'new_task') this.out.launches.push({ call, childId: null });
    if (texts.length === 0 && calls.length === 0) return;
    const turn: Turn = { role: 'assistant', at, text: clipMessage(texts.join('\n\n')), tool_calls: calls };
    if (this.model !== undefined) turn.model = this.model;
    const requests = this.input.ui?.requests.get(i - 1);
    if (requests !== undefined && requests.length > 0) {
      turn.usage = requests.reduce((t, r) => addTotals(t, r.usage), emptyTotals());
      this.out.placedRequests.add(i - 1);
    }
    this.out.turns.push(turn);
  }

  user(i: number, msg: JsonObject): void {
    const at = this.at(i, msg, 'user');
    const blocks = blocksOf(msg.content);
    const typed: string[] = [];
    const notes: string[] = [];
    for (let k = 0; k < blocks.length; k++) {
      const block = asObject(blocks[k]);
      const type = str(block, 'type');
      if (block === undefined) continue;
      if (type === 'tool_result') {
        const call = this.take(str(block, 'tool_use_id'));
        const head = typeof block.content === 'string' ? this.headOf(block.content) : undefined;
        this.answer(call, head ?? this.resultText(block.content), block.is_error === true, typed, head !== undefined);
        continue;
      }
      if (type !== 'text') continue;
      const text = str(block, 'text') ?? '';
      const head = this.headOf(text);
      if (head !== undefined) {
        // Only a text result is cut; its output must not be blank (the output may then be the next block).
        const header = resultHeader(head);
        if (header === null || header.rest.trim() === '') this.out.needWhole = true;
        else this.answer(this.take(undefined), header.rest, false, typed, true);
        continue;
      }
      if (isEnvironment(text)) {
        pushOnce(this.out.cwds, environmentCwd(text));
        continue;
      }
      const header = resultHeader(text);
      if (header !== null) {
        let output = header.rest;
        // Older versions wrote the header and the output as two text blocks.
        const next = output.trim() === '' ? this.whole(str(asObject(blocks[k + 1]), 'text')) : undefined;
        if (next !== undefined && !isEnvironment(next) && resultHeader(next) === null && typedTexts(next).length === 0) {
          output = next;
          k++;
        }
        this.answer(this.take(undefined), output, false, typed);
        continue;
      }
      pushOnce(this.out.cwds, resumedCwd(text));
      const said = typedTexts(text);
      if (said.length > 0) typed.push(...said);
      else if (msg.isSummary === true && !isInjected(text)) notes.push(text.trim());
    }
    if (msg.isSummary === true) {
      // Roo Code's condensed context: a summary that replaces the history before it (kept on disk).
      this.out.turns.push({ role: 'event', at, text: clipMessage(notes.join('\n\n') || 'context condensed') });
    }
    for (const t of typed) this.out.turns.push({ role: 'user', at, text: clipMessage(t) });
  }

  reasoningItem(msg: JsonObject): void {
    const t = this.reasoningText(msg);
    if (t !== '') this.out.turns.push({ role: 'reasoning', at: msIso(num(msg, 'ts')), text: clipMessage(t) });
  }
}

export function readConversation(input: ConversationInput): Conversation {
  const b = new Builder(input);
  const { messages } = input;
  for (let i = 0; i < messages.length; i++) {
    const msg = asObject(messages[i]);
    if (msg === undefined) {
      b.out.badRecords++;
      continue;
    }
    const role = str(msg, 'role');
    // Roo Code marks where its sliding window cut the history it sends (the messages stay on disk).
    if (msg.isTruncationMarker === true) b.out.turns.push({ role: 'event', at: msIso(num(msg, 'ts')), text: 'context truncated' });
    else if (role === 'assistant') b.assistant(i, msg);
    else if (role === 'user') b.user(i, msg);
    else if (str(msg, 'type') === 'reasoning') b.reasoningItem(msg);
  }
  return b.out;
}
